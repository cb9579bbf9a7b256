//! The common interface of the Sudoku solvers, so that they can be swapped and compared.
//!
//! Dancing links ([`DancingLinks`]) and the backtracking baseline of
//! [`backtrack`](crate::sudoku::backtrack) in its two orders both implement [`SudokuSolver`]
//! for any puzzle, classic or under other rules: one method that streams solutions within an
//! optional deadline, and from it, by default, the first solution, the count up to a limit
//! and the verdict. The comparison harness and the cross-checking tests only ever talk to
//! this trait.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::dlx::{self, Stats};

use super::{Answer, GridSolver, VariantEncoding, shared_encoding};
use crate::sudoku::AnyPuzzle;
use crate::sudoku::model::BoxShape;

/// How a search ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Run {
    /// Search nodes (cells filled for the baseline), link updates where the solver has
    /// links, solutions.
    pub stats: Stats,
    /// Whether the deadline or cancellation stopped the search before it finished.
    pub interrupted: bool,
}

/// A Sudoku solver for puzzles of any shape and rules.
pub trait SudokuSolver {
    /// A short name for tables: `dlx`, `mrv` or `naive`.
    fn name(&self) -> &'static str;

    /// Calls `visit` with each solution (row by row, symbols from 1) until it breaks, the
    /// solutions run out, or `deadline` passes. A puzzle whose givens break a rule has no
    /// solution.
    fn search(
        &mut self,
        puzzle: &AnyPuzzle,
        deadline: Option<Instant>,
        visit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> Run;

    /// The number of solutions, stopping at `limit`.
    fn count_up_to(&mut self, puzzle: &AnyPuzzle, limit: Option<u128>) -> Answer<u128> {
        let limit = limit.unwrap_or(u128::MAX);
        let mut count = 0;
        let run = self.search(puzzle, None, &mut |_| {
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
    fn first_solution(&mut self, puzzle: &AnyPuzzle) -> Answer<Option<Vec<u8>>> {
        let mut first = None;
        let run = self.search(puzzle, None, &mut |solution| {
            first = Some(solution.to_vec());
            ControlFlow::Break(())
        });
        Answer {
            value: first,
            stats: run.stats,
        }
    }

    /// None, one or several solutions (with two of them).
    fn verdict_of(&mut self, puzzle: &AnyPuzzle) -> Answer<dlx::Verdict<Vec<u8>>> {
        let mut found = Vec::with_capacity(2);
        let run = self.search(puzzle, None, &mut |solution| {
            found.push(solution.to_vec());
            if found.len() == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let mut found = found.into_iter();
        let value = match (found.next(), found.next()) {
            (None, _) => dlx::Verdict::None,
            (Some(a), None) => dlx::Verdict::Unique(a),
            (Some(a), Some(b)) => dlx::Verdict::Multiple(a, b),
        };
        Answer {
            value,
            stats: run.stats,
        }
    }
}

/// Dancing links behind [`SudokuSolver`]: a classic grid on the encoding of its shape, built
/// once per process and reused with one solver per shape; a puzzle under other rules on an
/// encoding of its own, built for it (as `check` builds it).
#[derive(Debug, Default)]
pub struct DancingLinks {
    solvers: HashMap<BoxShape, GridSolver<'static>>,
    cancel: Option<Arc<AtomicBool>>,
}

impl DancingLinks {
    /// Makes later searches stop soon after `flag` is set; see
    /// [`crate::dlx::Solver::set_cancel_flag`].
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        for solver in self.solvers.values_mut() {
            solver.set_cancel_flag(flag.clone());
        }
        self.cancel = flag;
    }

    /// Builds the encoding of `shape` now, so that the first classic grid of that shape
    /// searched is not charged with it.
    pub fn prepare(&mut self, shape: BoxShape) -> &mut GridSolver<'static> {
        self.solvers.entry(shape).or_insert_with(|| {
            let mut solver = shared_encoding(shape).solver();
            solver.set_cancel_flag(self.cancel.clone());
            solver
        })
    }
}

impl SudokuSolver for DancingLinks {
    fn name(&self) -> &'static str {
        "dlx"
    }

    fn search(
        &mut self,
        puzzle: &AnyPuzzle,
        deadline: Option<Instant>,
        visit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> Run {
        match puzzle {
            AnyPuzzle::Grid(grid) => {
                let solver = self.prepare(grid.shape());
                solver.set_deadline(deadline);
                let stats = solver.for_each_solution(grid, |solution| visit(solution.cells()));
                let interrupted = solver.interrupted();
                solver.set_deadline(None);
                Run { stats, interrupted }
            }
            AnyPuzzle::Variant(puzzle) => {
                // Rules that cannot be encoded, or givens that exclude each other at once:
                // no solution, nothing searched.
                let Ok(encoding) = VariantEncoding::new(puzzle) else {
                    return Run::default();
                };
                let Some(mut solver) = encoding.solver(puzzle) else {
                    return Run::default();
                };
                solver.set_deadline(deadline);
                solver.set_cancel_flag(self.cancel.clone());
                solver.for_each_solution(|found| visit(&encoding.grid_of(found.options())));
                Run {
                    stats: solver.stats(),
                    interrupted: solver.interrupted(),
                }
            }
        }
    }
}
