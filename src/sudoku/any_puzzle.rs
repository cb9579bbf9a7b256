//! Any puzzle a user brings, a classic grid or a puzzle under other rules, with what every
//! command needs whichever it is: its rules and givens, its logical position, the same puzzle
//! with other givens, a solver with its givens chosen, and its grid written as its files write
//! it. A classic grid is the ruleset of its shape ([`Rules::classic`]); it keeps its own kind
//! only for the shared encoding of its shape, built once and reused from puzzle to puzzle.

use crate::dlx::{OptionId, Solver};
use crate::sudoku::logic::Position;
use crate::sudoku::rules::Rules;
use crate::sudoku::text::{self, Layout};
use crate::sudoku::variant::{self, VariantEncoding, text as variant_text};
use crate::sudoku::{Encoding, Grid};

/// A classic grid or a puzzle under other rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyPuzzle {
    Grid(Grid),
    Variant(Box<variant::Puzzle>),
}

impl AnyPuzzle {
    /// The side of the grid.
    pub fn size(&self) -> usize {
        match self {
            AnyPuzzle::Grid(grid) => grid.size(),
            AnyPuzzle::Variant(puzzle) => puzzle.rules.size,
        }
    }

    /// The rules it is played under.
    pub fn rules(&self) -> Rules {
        match self {
            AnyPuzzle::Grid(grid) => Rules::classic(grid.shape()),
            AnyPuzzle::Variant(puzzle) => puzzle.rules.clone(),
        }
    }

    /// Its givens, row by row, 0 for an empty cell.
    pub fn givens(&self) -> &[u8] {
        match self {
            AnyPuzzle::Grid(grid) => grid.cells(),
            AnyPuzzle::Variant(puzzle) => &puzzle.givens,
        }
    }

    /// The first rule a filled grid breaks (givens overwritten included), `None` when it
    /// keeps them all: [`Rules::broken_rule`].
    pub fn broken_rule(&self, grid: &[u8]) -> Option<String> {
        self.rules().broken_rule(self.givens(), grid)
    }

    /// The position logic starts from.
    pub fn position(&self) -> Position {
        match self {
            AnyPuzzle::Grid(grid) => Position::new(grid),
            AnyPuzzle::Variant(puzzle) => Position::of_variant(puzzle),
        }
    }

    /// The same puzzle with `values` (row by row, 0 for empty) as its givens; `None` if they
    /// do not fit its grid.
    pub fn with_givens(&self, values: &[u8]) -> Option<AnyPuzzle> {
        match self {
            AnyPuzzle::Grid(grid) => {
                Grid::from_cells(grid.shape(), values.to_vec()).map(AnyPuzzle::Grid)
            }
            AnyPuzzle::Variant(puzzle) => (values.len() == puzzle.givens.len()).then(|| {
                AnyPuzzle::Variant(Box::new(variant::Puzzle {
                    givens: values.to_vec(),
                    ..(**puzzle).clone()
                }))
            }),
        }
    }

    /// `values` written as the files write this kind of grid.
    pub fn write(&self, values: &[u8]) -> String {
        match self.with_givens(values) {
            Some(AnyPuzzle::Grid(grid)) => text::write(&grid, Layout::Grid),
            Some(AnyPuzzle::Variant(puzzle)) => variant_text::board_lines(&puzzle.rules, values),
            None => variant_text::grid_lines(self.size(), values),
        }
    }

    /// Runs `work` with a solver whose givens are chosen (`None` when they leave no solution
    /// at once), after `arm` has set its limits, and a function that turns a solution's
    /// options into its grid. Fails only when a variant's rules cannot be encoded.
    pub fn with_solver<T>(
        &self,
        arm: impl FnOnce(&mut Solver<'_>),
        work: impl FnOnce(Option<&mut Solver<'_>>, &(dyn Fn(&[OptionId]) -> Vec<u8> + Sync)) -> T,
    ) -> Result<T, String> {
        self.with_solver_until(&|| false, arm, work)
    }

    /// [`AnyPuzzle::with_solver`], whose building of a variant's encoding (large cages take
    /// seconds) stops as soon as `stop` says so, with an error.
    pub fn with_solver_until<T>(
        &self,
        stop: &dyn Fn() -> bool,
        arm: impl FnOnce(&mut Solver<'_>),
        work: impl FnOnce(Option<&mut Solver<'_>>, &(dyn Fn(&[OptionId]) -> Vec<u8> + Sync)) -> T,
    ) -> Result<T, String> {
        match self {
            AnyPuzzle::Grid(grid) => {
                let encoding = Encoding::new(grid.shape());
                let mut solver = encoding.puzzle_solver(grid);
                if let Some(solver) = solver.as_mut() {
                    arm(solver);
                }
                let decode = |options: &[OptionId]| encoding.grid_of(options).cells().to_vec();
                Ok(work(solver.as_mut(), &decode))
            }
            AnyPuzzle::Variant(puzzle) => {
                let encoding =
                    VariantEncoding::new_until(puzzle, stop).map_err(|e| e.to_string())?;
                let mut solver = encoding.solver(puzzle);
                if let Some(solver) = solver.as_mut() {
                    arm(solver);
                }
                let decode = |options: &[OptionId]| encoding.grid_of(options.iter().copied());
                Ok(work(solver.as_mut(), &decode))
            }
        }
    }
}
