//! A puzzle as the logic commands and the web page take it: a classic grid or a variant with
//! its rules, with what both need whichever it is: its logical position, the same puzzle with
//! other givens, a solver with its givens chosen, and its grid written as its files write it.

use xcover::dlx::{OptionId, Solver};
use xcover::sudoku::logic::Position;
use xcover::sudoku::text::{self, Layout};
use xcover::sudoku::variant::{self, VariantEncoding, text as variant_text};
use xcover::sudoku::{Encoding, Grid};

pub enum Subject {
    Grid(Grid),
    Variant(Box<variant::Puzzle>),
}

impl Subject {
    /// The side of the grid.
    pub fn size(&self) -> usize {
        match self {
            Subject::Grid(grid) => grid.size(),
            Subject::Variant(puzzle) => puzzle.rules.size,
        }
    }

    /// The position logic starts from.
    pub fn position(&self) -> Position {
        match self {
            Subject::Grid(grid) => Position::new(grid),
            Subject::Variant(puzzle) => Position::of_variant(puzzle),
        }
    }

    /// The same puzzle with `values` (row by row, 0 for empty) as its givens; `None` if they
    /// do not fit its grid.
    pub fn with_givens(&self, values: &[u8]) -> Option<Subject> {
        match self {
            Subject::Grid(grid) => {
                Grid::from_cells(grid.shape(), values.to_vec()).map(Subject::Grid)
            }
            Subject::Variant(puzzle) => (values.len() == puzzle.givens.len()).then(|| {
                Subject::Variant(Box::new(variant::Puzzle {
                    givens: values.to_vec(),
                    ..(**puzzle).clone()
                }))
            }),
        }
    }

    /// `values` written as the files write this kind of grid.
    pub fn write(&self, values: &[u8]) -> String {
        match self.with_givens(values) {
            Some(Subject::Grid(grid)) => text::write(&grid, Layout::Grid),
            _ => variant_text::grid_lines(self.size(), values),
        }
    }

    /// Runs `work` with a solver whose givens are chosen (`None` when they leave no solution
    /// at once), after `arm` has set its limits, and a function that turns a solution's
    /// options into its grid. Fails only when a variant's rules cannot be encoded.
    pub fn with_solver<T>(
        &self,
        arm: impl FnOnce(&mut Solver<'_>),
        work: impl FnOnce(Option<&mut Solver<'_>>, &dyn Fn(&[OptionId]) -> Vec<u8>) -> T,
    ) -> Result<T, String> {
        self.with_solver_until(&|| false, arm, work)
    }

    /// [`Subject::with_solver`], whose building of a variant's encoding (large cages take
    /// seconds) stops as soon as `stop` says so, with an error.
    pub fn with_solver_until<T>(
        &self,
        stop: &dyn Fn() -> bool,
        arm: impl FnOnce(&mut Solver<'_>),
        work: impl FnOnce(Option<&mut Solver<'_>>, &dyn Fn(&[OptionId]) -> Vec<u8>) -> T,
    ) -> Result<T, String> {
        match self {
            Subject::Grid(grid) => {
                let encoding = Encoding::new(grid.shape());
                let mut solver = encoding.puzzle_solver(grid);
                if let Some(solver) = solver.as_mut() {
                    arm(solver);
                }
                let decode = |options: &[OptionId]| encoding.grid_of(options).cells().to_vec();
                Ok(work(solver.as_mut(), &decode))
            }
            Subject::Variant(puzzle) => {
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
