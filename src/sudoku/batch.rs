//! Many puzzles on every core, answers in input order: the parallel runner behind the
//! `xcover sudoku` batch commands, for library users who have a batch of their own.
//!
//! A [`Batch`] keeps one [`Encoding`] per box shape for its whole life, and each call of
//! [`Batch::run`] gives every worker thread one [`GridSolver`] per shape, so no matrix is
//! rebuilt per puzzle; results come back in the order of the items, whatever the thread count.
//!
//! ```
//! use xcover::sudoku::batch::Batch;
//! use xcover::sudoku::Grid;
//!
//! let grids: Vec<Grid> = ["1..3........34.1", "................"]
//!     .iter()
//!     .map(|line| line.parse().unwrap())
//!     .collect();
//! let mut batch = Batch::new();
//! let counts = batch.run(&grids, |grid| Some(grid), |solver, _, grid| {
//!     solver.count(grid, Some(1000)).value
//! });
//! assert_eq!(counts, vec![Some(1), Some(288)]);
//! ```

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::{BoxShape, Encoding, Grid, GridSolver};
use crate::dlx::{Branching, Inference};

/// Encodings kept across runs, and the settings of the solvers made from them.
#[derive(Default)]
pub struct Batch {
    encodings: HashMap<BoxShape, Encoding>,
    cancel: Option<Arc<AtomicBool>>,
    inference: Inference,
    branching: Option<Branching>,
}

impl Batch {
    /// A runner with no encoding built yet.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Makes the solvers of later runs stop soon after `flag` is set (see
    /// [`GridSolver::set_cancel_flag`]); their answers then say so through
    /// [`GridSolver::interrupted`], which `work` can read.
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// Sets how much inference the solvers of later runs make (see
    /// [`GridSolver::set_inference`]).
    pub fn set_inference(&mut self, inference: Inference) {
        self.inference = inference;
    }

    /// Sets how the solvers of later runs choose their branch item (see
    /// [`GridSolver::set_branching`]); `None` leaves each solver's own.
    pub fn set_branching(&mut self, branching: Option<Branching>) {
        self.branching = branching;
    }

    /// Calls `work` on every item whose `grid_of` is a grid, in parallel, with a solver for
    /// the grid's shape; the results, `None` for items without a grid, in the items' order.
    pub fn run<T, R>(
        &mut self,
        items: &[T],
        grid_of: impl Fn(&T) -> Option<&Grid> + Sync,
        work: impl Fn(&mut GridSolver<'_>, &T, &Grid) -> R + Sync,
    ) -> Vec<Option<R>>
    where
        T: Sync,
        R: Send,
    {
        for grid in items.iter().filter_map(&grid_of) {
            let shape = grid.shape();
            self.encodings
                .entry(shape)
                .or_insert_with(|| Encoding::new(shape));
        }
        let encodings = &self.encodings;
        let cancel = &self.cancel;
        let inference = self.inference;
        let branching = self.branching;
        items
            .par_iter()
            .map_init(
                HashMap::new,
                |solvers: &mut HashMap<BoxShape, GridSolver<'_>>, item| {
                    let grid = grid_of(item)?;
                    let shape = grid.shape();
                    let solver = solvers.entry(shape).or_insert_with(|| {
                        let mut solver = encodings[&shape].solver();
                        solver.set_cancel_flag(cancel.clone());
                        solver.set_inference(inference);
                        if let Some(branching) = branching {
                            solver.set_branching(branching);
                        }
                        solver
                    });
                    Some(work(solver, item, grid))
                },
            )
            .collect()
    }
}
