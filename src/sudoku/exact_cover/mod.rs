//! Sudoku as exact cover, and back.
//!
//! For a grid of side N there are 4N^2 primary items, one per constraint, and N^3 options, one
//! per (cell, symbol):
//!
//! ```text
//!   items   rIcJ  cell (I, J) is filled        option for symbol V at (I, J):
//!           rIvV  row I has symbol V             rIcJ rIvV cJvV bKvV
//!           cJvV  column J has symbol V          (K is the box of the cell)
//!           bKvV  box K has symbol V           option index: (I * N + J) * N + V - 1
//! ```
//!
//! The matrix is the one [`VariantEncoding`] builds from the rules (rows, columns and boxes of
//! the shape, [`Rules::classic`]): one encoding path for every ruleset, the classic one
//! included. An [`Encoding`] builds the matrix for one box shape once; every puzzle of that shape is then
//! solved by a [`GridSolver`] that applies the clues as options chosen before the search (see
//! [`Solver::choose`]), so a puzzle never rebuilds anything. Chosen options decode back into
//! a grid through the option index. The 9x9 matrix counts the rests of its searches in bit
//! sets (`classic_rest.rs`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Mutex, OnceLock};

use crate::dlx::{Matrix, OptionId, Problem, Solver, Stats};

use super::model::{BoxShape, Grid};
use super::rules::Rules;
use super::variant::Puzzle;

mod bicliques;
mod classic_rest;
mod combined_sums;
mod ruleset;
mod solver;

pub use ruleset::VariantEncoding;
pub use solver::{DancingLinks, Run, SudokuSolver};

/// How many solutions a puzzle has, with the solutions themselves: the engine's generic
/// verdict with grids as witnesses (clashing clues give `None`).
pub type Verdict = crate::dlx::Verdict<Grid>;

/// A result with the statistics of the search that produced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer<T> {
    /// What was asked for.
    pub value: T,
    /// Search nodes, link updates and solutions found.
    pub stats: Stats,
}

/// The exact-cover matrix of one box shape, built once and shared by every solver.
#[derive(Debug, Clone)]
pub struct Encoding {
    shape: BoxShape,
    matrix: Matrix,
}

impl Encoding {
    /// Builds the matrix for grids of this shape.
    pub fn new(shape: BoxShape) -> Encoding {
        let n = shape.size();
        let empty = Puzzle {
            id: String::new(),
            rules: Rules::classic(shape),
            givens: vec![0; n * n],
        };
        let mut matrix = VariantEncoding::new(&empty)
            .expect("the classic rules of a shape are valid")
            .into_matrix();
        if (shape.box_rows(), shape.box_cols()) == (3, 3) {
            // Counts of a classic 9x9 grid finish their last levels in bit sets.
            matrix.set_rest_counter(std::sync::Arc::new(classic_rest::ClassicRest));
        }
        Encoding { shape, matrix }
    }

    /// The box shape this encoding is for.
    pub fn shape(&self) -> BoxShape {
        self.shape
    }

    /// The compiled matrix.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// A solver for puzzles of this shape; keep one per thread and reuse it.
    pub fn solver(&self) -> GridSolver<'_> {
        GridSolver {
            encoding: self,
            solver: self.matrix.solver(),
        }
    }

    /// The option that puts `value` (from 1) at (`row`, `col`).
    pub fn option(&self, row: usize, col: usize, value: u8) -> OptionId {
        let n = self.shape.size();
        OptionId(((row * n + col) * n + value as usize - 1) as u32)
    }

    /// A solver of the engine for `grid`: its clues chosen, ready to search (or to split
    /// into parts, [`Solver::subtrees`]); `None` if two clues clash (no solution). Its
    /// solutions become grids with [`Encoding::grid_of`].
    pub fn puzzle_solver(&self, grid: &Grid) -> Option<Solver<'_>> {
        assert_eq!(
            grid.shape(),
            self.shape,
            "a grid is solved with the encoding of its shape"
        );
        let mut solver = self.matrix.solver();
        for (cell, value) in grid.clues() {
            solver.choose(self.option(cell.row, cell.col, value)).ok()?;
        }
        Some(solver)
    }

    /// The grid a solution's options fill in (every option of a solution of
    /// [`Encoding::puzzle_solver`], clues included).
    pub fn grid_of(&self, options: &[OptionId]) -> Grid {
        let mut grid = Grid::empty(self.shape);
        self.decode(options.iter().copied(), &mut grid);
        grid
    }

    /// Fills `grid` with the cell and symbol of each option.
    fn decode(&self, options: impl Iterator<Item = OptionId>, grid: &mut Grid) {
        let n = self.shape.size();
        for option in options {
            let k = option.0 as usize;
            let cell = k / n;
            grid.set(cell / n, cell % n, (k % n + 1) as u8);
        }
    }

    /// The puzzle as a problem in its own right, for Knuth's format: the full item set, each
    /// clue cell with only its clue's option, and no option that clashes with a clue. Its
    /// solutions are exactly the puzzle's, so any DLX program can cross-check this one.
    pub fn puzzle_problem(&self, grid: &Grid) -> Problem {
        let full = self.matrix.problem();
        let n = self.shape.size();
        let mut problem = Problem::new();
        for item in full.items() {
            problem
                .add_primary(full.name(item))
                .expect("names of a valid problem");
        }
        for row in 0..n {
            for col in 0..n {
                for value in 1..=n as u8 {
                    let clue = grid.get(row, col);
                    let allowed = if clue != 0 {
                        clue == value
                    } else {
                        grid.clues().all(|(cell, v)| {
                            v != value
                                || (cell.row != row
                                    && cell.col != col
                                    && self.shape.box_of(cell.row, cell.col)
                                        != self.shape.box_of(row, col))
                        })
                    };
                    if allowed {
                        let option = full.option(self.option(row, col, value));
                        problem
                            .add_option(option)
                            .expect("options of a valid problem");
                    }
                }
            }
        }
        // Dropping options keeps every block one to one: the matching rule stays available.
        for (left, right) in full.blocks() {
            problem
                .add_block(left, right)
                .expect("blocks of a valid problem");
        }
        problem
    }
}

/// Solves puzzles of one shape, reusing its links from puzzle to puzzle.
#[derive(Debug, Clone)]
pub struct GridSolver<'e> {
    encoding: &'e Encoding,
    solver: Solver<'e>,
}

impl<'e> GridSolver<'e> {
    /// The encoding this solver uses.
    pub fn encoding(&self) -> &'e Encoding {
        self.encoding
    }

    /// Sets how much inference later searches make; see [`Solver::set_inference`].
    pub fn set_inference(&mut self, inference: crate::dlx::Inference) {
        self.solver.set_inference(inference);
    }

    /// Sets how later searches choose their branch item; see [`Solver::set_branching`].
    pub fn set_branching(&mut self, branching: crate::dlx::Branching) {
        self.solver.set_branching(branching);
    }

    /// Makes later searches give up at `deadline`; see [`Solver::set_deadline`].
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.solver.set_deadline(deadline);
    }

    /// Makes later searches give up after `limit` search nodes; see [`Solver::set_node_limit`].
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.solver.set_node_limit(limit);
    }

    /// Makes later searches stop soon after `flag` is set; see [`Solver::set_cancel_flag`].
    pub fn set_cancel_flag(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.solver.set_cancel_flag(flag);
    }

    /// Why the last search stopped before it finished, if it did.
    pub fn stopped(&self) -> Option<crate::dlx::Stop> {
        self.solver.stopped()
    }

    /// Whether the last search stopped at the deadline, node limit or cancellation.
    pub fn interrupted(&self) -> bool {
        self.solver.interrupted()
    }

    /// Applies the clues of `grid`; false if two clues clash (then there is no solution).
    fn apply_clues(&mut self, grid: &Grid) -> bool {
        assert_eq!(
            grid.shape(),
            self.encoding.shape,
            "a grid must be solved with the encoding of its own box shape"
        );
        self.solver.unchoose_all();
        self.solver.reset_stats();
        for (cell, value) in grid.clues() {
            let option = self.encoding.option(cell.row, cell.col, value);
            if self.solver.choose(option).is_err() {
                self.solver.unchoose_all();
                return false;
            }
        }
        true
    }

    fn grid_of(&self, options: impl Iterator<Item = OptionId>) -> Grid {
        let mut grid = Grid::empty(self.encoding.shape);
        self.encoding.decode(options, &mut grid);
        grid
    }

    fn answer<T>(&mut self, value: T) -> Answer<T> {
        let stats = self.solver.stats();
        self.solver.unchoose_all();
        Answer { value, stats }
    }

    /// One solution, if any.
    pub fn first(&mut self, grid: &Grid) -> Answer<Option<Grid>> {
        let solution = if self.apply_clues(grid) {
            self.solver
                .first()
                .map(|options| self.grid_of(options.into_iter()))
        } else {
            None
        };
        self.answer(solution)
    }

    /// The number of solutions, stopping at `limit` if given.
    pub fn count(&mut self, grid: &Grid, limit: Option<u128>) -> Answer<u128> {
        if !self.apply_clues(grid) {
            return self.answer(0);
        }
        let mut search = self.solver.search();
        let count = search.count(limit);
        search.end_unchoosing_all();
        self.answer(count)
    }

    /// None, one, or several solutions; the search stops at the second.
    pub fn verdict(&mut self, grid: &Grid) -> Answer<Verdict> {
        if !self.apply_clues(grid) {
            return self.answer(Verdict::None);
        }
        let mut search = self.solver.search();
        let verdict = search.verdict_shown();
        search.end_unchoosing_all();
        let verdict = verdict.map(|options| self.grid_of(options.into_iter()));
        self.answer(verdict)
    }

    /// [`GridSolver::verdict`] found with randomised restarts (see
    /// [`Solver::verdict_restarting`]): the same answer, but a search lost after an unlucky
    /// early choice starts again in another order. For solving one puzzle, not for proofs
    /// timed against each other: the work depends on `seed`.
    pub fn verdict_restarting(&mut self, grid: &Grid, seed: u64) -> Answer<Verdict> {
        self.verdict_restarting_with_budget(grid, seed, crate::dlx::FIRST_BUDGET)
    }

    /// [`GridSolver::verdict_restarting`] with a first run of `first_budget` branch points.
    pub fn verdict_restarting_with_budget(
        &mut self,
        grid: &Grid,
        seed: u64,
        first_budget: u64,
    ) -> Answer<Verdict> {
        if !self.apply_clues(grid) {
            return self.answer(Verdict::None);
        }
        let verdict = self.solver.verdict_restarting_from(seed, first_budget);
        let verdict = verdict.map(|options| self.grid_of(options.into_iter()));
        self.answer(verdict)
    }

    /// Calls `visit` with each solution, streaming, until it breaks or they run out; returns
    /// the statistics. Nothing is kept, so this enumerates millions in constant memory.
    pub fn for_each_solution<F>(&mut self, grid: &Grid, mut visit: F) -> Stats
    where
        F: FnMut(&Grid) -> ControlFlow<()>,
    {
        if self.apply_clues(grid) {
            let encoding = self.encoding;
            let mut solution = grid.clone();
            self.solver.for_each_solution(|found| {
                encoding.decode(found.options(), &mut solution);
                visit(&solution)
            });
        }
        self.answer(()).stats
    }

    /// Every solution, lazily.
    pub fn solutions<'s>(&'s mut self, grid: &Grid) -> impl Iterator<Item = Grid> + 's {
        let ok = self.apply_clues(grid);
        let encoding = self.encoding;
        let mut solutions = self.solver.solutions();
        let mut solution = grid.clone();
        std::iter::from_fn(move || {
            if !ok {
                return None;
            }
            let options = solutions.next()?;
            encoding.decode(options.into_iter(), &mut solution);
            Some(solution.clone())
        })
    }
}

/// The encoding of a shape, built on first use and kept for the rest of the process (one per
/// shape ever used), so that the convenience methods below never rebuild a matrix.
fn shared_encoding(shape: BoxShape) -> &'static Encoding {
    static ENCODINGS: OnceLock<Mutex<HashMap<BoxShape, &'static Encoding>>> = OnceLock::new();
    let mut encodings = ENCODINGS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    encodings
        .entry(shape)
        .or_insert_with(|| Box::leak(Box::new(Encoding::new(shape))))
}

thread_local! {
    /// One solver per shape and thread for the convenience methods.
    static SOLVERS: RefCell<HashMap<BoxShape, GridSolver<'static>>> = RefCell::new(HashMap::new());
}

/// Runs `f` with this thread's solver for the grid's shape.
fn with_solver<T>(shape: BoxShape, f: impl FnOnce(&mut GridSolver<'static>) -> T) -> T {
    SOLVERS.with(|solvers| {
        let mut solvers = solvers.borrow_mut();
        let solver = solvers
            .entry(shape)
            .or_insert_with(|| shared_encoding(shape).solver());
        f(solver)
    })
}

/// The convenience methods of a casual user. The matrix of each shape is built once per
/// process and a solver kept per thread, so calling these in a loop costs no rebuilding; a
/// program that wants statistics, budgets or cancellation uses an [`Encoding`] and its
/// [`GridSolver`] directly.
impl Grid {
    /// One solution, if there is any.
    pub fn solution(&self) -> Option<Grid> {
        with_solver(self.shape(), |solver| solver.first(self).value)
    }

    /// The number of solutions, stopping at `limit` if given.
    pub fn count_solutions(&self, limit: Option<u128>) -> u128 {
        with_solver(self.shape(), |solver| solver.count(self, limit).value)
    }

    /// No solution, exactly one, or several (with two of them).
    pub fn verdict(&self) -> Verdict {
        with_solver(self.shape(), |solver| solver.verdict(self).value)
    }
}
