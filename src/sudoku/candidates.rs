//! True candidates of a puzzle: the symbols some solution puts in each cell, and how many
//! solutions do (up to a cap). What a setter whose puzzle is not unique yet asks next: where
//! is it still open? A cell with one true candidate is forced; the others are where a clue
//! is missing.
//!
//! The engine decides each cell option ([`Solver::candidates_among`]), under any rules: one
//! short search per option not yet seen in a solution, never an enumeration of every
//! solution.

use crate::dlx::{OptionId, Presence, Solver, Stop};
use crate::sudoku::variant::VariantEncoding;
use crate::sudoku::{AnyPuzzle, Encoding};

/// The true candidates of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrueCandidates {
    /// The side of the grid.
    pub size: usize,
    /// Per cell, row by row: the symbols some solution puts there, each with the number of
    /// solutions that do when counted (up to the cap). Empty everywhere when the puzzle has
    /// no solution.
    pub cells: Vec<Vec<(u8, Option<u128>)>>,
    /// Per cell: the symbols not decided, because the work stopped first.
    pub undecided: Vec<Vec<u8>>,
    /// When counted: the number of solutions, up to the cap.
    pub solutions: Option<u128>,
    /// Why the work stopped before deciding every symbol of every cell.
    pub stopped: Option<Stop>,
    /// The searches the engine ran.
    pub searches: u64,
}

impl TrueCandidates {
    /// Whether some solution exists (as far as the work went).
    pub fn solvable(&self) -> bool {
        self.cells.iter().any(|c| !c.is_empty())
    }

    /// The cells (indices row * N + column) with more than one true candidate, or with
    /// symbols not decided: where the puzzle is still open.
    pub fn open_cells(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i].len() > 1 || !self.undecided[i].is_empty())
            .collect()
    }
}

impl AnyPuzzle {
    /// The true candidates of every cell, counted up to `cap` when given, on `threads`
    /// threads; `arm` sets the solver's limits (deadline, cancellation). Fails only when a
    /// variant's rules cannot be encoded.
    pub fn true_candidates(
        &self,
        cap: Option<u128>,
        threads: usize,
        arm: impl FnOnce(&mut Solver<'_>),
    ) -> Result<TrueCandidates, String> {
        self.true_candidates_until(&|| false, cap, threads, arm)
    }

    /// [`AnyPuzzle::true_candidates`], whose building of a variant's encoding (large cages
    /// take seconds) stops as soon as `stop` says so, with an error.
    pub fn true_candidates_until(
        &self,
        stop: &dyn Fn() -> bool,
        cap: Option<u128>,
        threads: usize,
        arm: impl FnOnce(&mut Solver<'_>),
    ) -> Result<TrueCandidates, String> {
        let n = self.size();
        // The cells of the board: n * n but for a rectangle (6x9) or doppelganger's board.
        let count = match self {
            AnyPuzzle::Grid(_) => n * n,
            AnyPuzzle::Variant(puzzle) => puzzle.rules.cell_count(),
        };
        let empty = || TrueCandidates {
            size: n,
            cells: vec![Vec::new(); count],
            undecided: vec![Vec::new(); count],
            solutions: cap.map(|_| 0),
            stopped: None,
            searches: 0,
        };
        // The option of each (cell, symbol), `None` where the rules allow no such option.
        let (cell_options, found) = match self {
            AnyPuzzle::Grid(grid) => {
                let encoding = Encoding::new(grid.shape());
                let options: Vec<Option<OptionId>> = (0..n * n * n)
                    .map(|k| Some(encoding.option(k / n / n, k / n % n, (k % n + 1) as u8)))
                    .collect();
                let found = encoding.puzzle_solver(grid).map(|mut solver| {
                    arm(&mut solver);
                    decide(&mut solver, &options, cap, threads)
                });
                (options, found)
            }
            AnyPuzzle::Variant(puzzle) => {
                let encoding =
                    VariantEncoding::new_until(puzzle, stop).map_err(|e| e.to_string())?;
                let options: Vec<Option<OptionId>> = (0..count * n)
                    .map(|k| encoding.cell_option(k / n, (k % n + 1) as u8))
                    .collect();
                let found = encoding.solver(puzzle).map(|mut solver| {
                    arm(&mut solver);
                    decide(&mut solver, &options, cap, threads)
                });
                (options, found)
            }
        };
        let Some((presence, counts, solutions, stopped, searches)) = found else {
            return Ok(empty());
        };
        let mut answer = TrueCandidates {
            solutions,
            stopped,
            searches,
            ..empty()
        };
        for (k, option) in cell_options.iter().enumerate() {
            let Some(option) = option else {
                continue;
            };
            let (cell, symbol) = (k / n, (k % n + 1) as u8);
            let at = option.0 as usize;
            match presence[at] {
                Presence::Occurs => {
                    answer.cells[cell].push((symbol, counts.as_ref().map(|c| c[at])))
                }
                Presence::Unknown => answer.undecided[cell].push(symbol),
                Presence::Never => {}
            }
        }
        Ok(answer)
    }
}

/// What the engine decides of the cell options: presence and counts by option, the number
/// of solutions (up to the cap), why it stopped, the searches run.
type Decided = (
    Vec<Presence>,
    Option<Vec<u128>>,
    Option<u128>,
    Option<Stop>,
    u64,
);

fn decide(
    solver: &mut Solver<'_>,
    cell_options: &[Option<OptionId>],
    cap: Option<u128>,
    threads: usize,
) -> Decided {
    let mut asked = vec![false; solver.matrix().problem().option_count()];
    for option in cell_options.iter().flatten() {
        asked[option.0 as usize] = true;
    }
    let found = solver.candidates_among(Some(&asked), cap, threads);
    (
        found.presence,
        found.counts,
        found.solutions,
        found.stopped,
        found.searches,
    )
}
