//! The common interface of the Sudoku solvers, so that they can be swapped and compared.
//!
//! Dancing links ([`GridSolver`]) and the two backtracking baselines of
//! [`backtrack`](super::backtrack) all implement [`SudokuSolver`]: one method that streams
//! solutions within an optional deadline, and from it, by default, the first solution, the
//! count up to a limit and the verdict. The comparison harness and the cross-checking tests
//! only ever talk to this trait.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::dlx::Stats;

use super::{Answer, GridSolver, Verdict};
use crate::sudoku::model::Grid;

/// How a search ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Run {
    /// Search nodes (placements tried), link updates where the solver has links, solutions.
    pub stats: Stats,
    /// Whether the deadline or cancellation stopped the search before it finished.
    pub interrupted: bool,
}

/// A Sudoku solver for grids of any box shape.
pub trait SudokuSolver {
    /// A short name for tables: `dlx`, `mrv` or `naive`.
    fn name(&self) -> &'static str;

    /// Calls `visit` with each solution until it breaks, the solutions run out, or `deadline`
    /// passes. A grid whose clues clash has no solution.
    fn search(
        &mut self,
        grid: &Grid,
        deadline: Option<Instant>,
        visit: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Run;

    /// The number of solutions, stopping at `limit`.
    fn count_up_to(&mut self, grid: &Grid, limit: Option<u128>) -> Answer<u128> {
        let limit = limit.unwrap_or(u128::MAX);
        let mut count = 0;
        let run = self.search(grid, None, &mut |_| {
            count += 1;
            if count >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        Answer {
            value: count,
            stats: run.stats,
        }
    }

    /// The first solution found, if any.
    fn first_solution(&mut self, grid: &Grid) -> Answer<Option<Grid>> {
        let mut first = None;
        let run = self.search(grid, None, &mut |solution| {
            first = Some(solution.clone());
            ControlFlow::Break(())
        });
        Answer {
            value: first,
            stats: run.stats,
        }
    }

    /// None, one or several solutions (with two of them).
    fn verdict_of(&mut self, grid: &Grid) -> Answer<Verdict> {
        let mut found = Vec::with_capacity(2);
        let run = self.search(grid, None, &mut |solution| {
            found.push(solution.clone());
            if found.len() == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let mut found = found.into_iter();
        let value = match (found.next(), found.next()) {
            (None, _) => Verdict::None,
            (Some(a), None) => Verdict::Unique(a),
            (Some(a), Some(b)) => Verdict::Multiple(a, b),
        };
        Answer {
            value,
            stats: run.stats,
        }
    }
}

impl SudokuSolver for GridSolver<'_> {
    fn name(&self) -> &'static str {
        "dlx"
    }

    fn search(
        &mut self,
        grid: &Grid,
        deadline: Option<Instant>,
        visit: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Run {
        self.set_deadline(deadline);
        let stats = self.for_each_solution(grid, visit);
        let interrupted = self.interrupted();
        self.set_deadline(None);
        Run { stats, interrupted }
    }
}
