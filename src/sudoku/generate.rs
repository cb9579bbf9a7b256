//! Making new puzzles: unique, minimal if asked, symmetric, of a chosen difficulty and shape.
//!
//! Making a good puzzle takes exactly the check this project exists for: proving, many times
//! over, that a grid has one solution and no more. A full grid is drawn at random (a few random
//! clues, the engine's first solution, the symbols relabelled at random); then clues are
//! removed, one symmetry orbit at a time in random order, each removal kept only if the engine
//! still finds exactly one solution. One such pass already leaves a minimal puzzle: removing
//! clues never makes another removal possible again.
//!
//! Puzzle `k` of a run with seed `s` comes from its own random stream seeded by `(s, k)`, so
//! the same seed gives the same puzzles however many threads make them.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::exact_cover::{Encoding, GridSolver};
use super::logic::{self, Level, Rating};
use super::model::{BoxShape, Grid};
use crate::dlx::Inference;

/// Which cells must be clues together, so that the pattern of clues is symmetric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symmetry {
    /// Any pattern.
    #[default]
    None,
    /// Unchanged by a half turn.
    Rot180,
    /// Unchanged by a quarter turn.
    Rot90,
    /// Unchanged by a left-right mirror.
    Mirror,
    /// Unchanged by reflection in the main diagonal.
    Diagonal,
}

impl Symmetry {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The cells tied to (`row`, `col`) in a grid of side `n`, itself included, without
    /// repeats.
    pub fn orbit(self, n: usize, row: usize, col: usize) -> Vec<(usize, usize)> {
        let last = n - 1;
        let mut cells = match self {
            Symmetry::None => vec![(row, col)],
            Symmetry::Rot180 => vec![(row, col), (last - row, last - col)],
            Symmetry::Rot90 => vec![
                (row, col),
                (col, last - row),
                (last - row, last - col),
                (last - col, row),
            ],
            Symmetry::Mirror => vec![(row, col), (row, last - col)],
            Symmetry::Diagonal => vec![(row, col), (col, row)],
        };
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// Whether the clue pattern of `grid` has this symmetry.
    pub fn holds(self, grid: &Grid) -> bool {
        let n = grid.size();
        (0..n * n).all(|i| {
            let (row, col) = (i / n, i % n);
            let filled = grid.get(row, col) != 0;
            self.orbit(n, row, col)
                .iter()
                .all(|&(r, c)| (grid.get(r, c) != 0) == filled)
        })
    }
}

impl FromStr for Symmetry {
    type Err = String;

    fn from_str(text: &str) -> Result<Symmetry, String> {
        [
            Symmetry::None,
            Symmetry::Rot180,
            Symmetry::Rot90,
            Symmetry::Mirror,
            Symmetry::Diagonal,
        ]
        .into_iter()
        .find(|s| s.name() == text)
        .ok_or_else(|| {
            format!("unknown symmetry '{text}': expected none, rot180, rot90, mirror or diagonal")
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    /// The box shape (and so the size).
    pub shape: BoxShape,
    /// The symmetry of the clue pattern.
    pub symmetry: Symmetry,
    /// Remove clues until none can go (otherwise stop at about 40% of the cells).
    pub minimal: bool,
    /// Only keep puzzles whose logical rating has this level (implies the full removal pass).
    pub difficulty: Option<Level>,
    /// The seed of the run.
    pub seed: u64,
}

/// A puzzle made by [`Generator::generate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: exactly one solution.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Its rating, when a difficulty was asked for.
    pub rating: Option<Rating>,
    /// Full grids drawn before one gave a puzzle of the asked difficulty.
    pub attempts: u32,
    /// Clue removals whose uniqueness check ran out of its node budget; those clues were
    /// kept, so the puzzle is still unique but, if this is not 0, maybe not minimal.
    pub undecided: u32,
}

/// Why no puzzle could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateError(pub String);

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenerateError {}

/// The search-node budget for completing random seeds into a full grid.
const FULL_GRID_NODES: u64 = 20_000;

/// Random seeds tried before a full grid is made from the pattern grid instead. With seed 1,
/// the first draw completed within the budget on sides 25, 36 and 49; on 64x64 grids the
/// engine completed none of the draws tried, even with a budget of a million nodes, and the
/// generator kept drawing new ones for ever.
const FULL_GRID_SEEDS: u32 = 8;

/// The search-node budget of one uniqueness check while removing clues, where the removals
/// must all be decided (`--minimal` or a difficulty). No 9x9 check comes near it; on 25x25
/// grids some would run for minutes.
const CHECK_NODES: u64 = 200_000;

/// The same budget where the puzzle need not be minimal. Near 43% of clues a 25x25 check
/// costs seconds under probing; with this budget a 25x25 puzzle took 8-39 s (seeds 1 and 2),
/// against 16-54 s with 20,000 and, for seed 1, 136 s with [`CHECK_NODES`], with 270-279
/// clues in every case: a check that runs out is mostly a removal that would be refused.
const QUICK_CHECK_NODES: u64 = 5_000;

/// Full grids tried for one 9x9 puzzle of a given difficulty before giving up; larger grids
/// get fewer in proportion to their cells (each attempt costs about as much more), so that a
/// level a shape rarely reaches fails within about a minute rather than after many.
const MAX_ATTEMPTS: u32 = 2000;

fn max_attempts(shape: BoxShape) -> u32 {
    let cells = shape.cells().max(1) as u64;
    let scaled = u64::from(MAX_ATTEMPTS) * 81 * 81 * 81 / (cells * cells * cells);
    scaled.clamp(10, u64::from(MAX_ATTEMPTS)) as u32
}

/// Makes puzzles of one shape, reusing the shape's matrix; keep one per thread.
pub struct Generator<'e> {
    solver: GridSolver<'e>,
    cancel: Option<Arc<AtomicBool>>,
    progress: Option<Arc<AtomicU64>>,
}

impl<'e> Generator<'e> {
    /// A generator for the encoding's shape.
    pub fn new(encoding: &'e Encoding) -> Generator<'e> {
        Generator {
            solver: encoding.solver(),
            cancel: None,
            progress: None,
        }
    }

    /// Puzzle number `index` of the run described by `request`.
    pub fn generate(&mut self, request: &Request, index: u64) -> Result<Generated, GenerateError> {
        assert_eq!(
            request.shape,
            self.solver.encoding().shape(),
            "one generator per shape"
        );
        let mut rng = ChaCha8Rng::seed_from_u64(request.seed);
        rng.set_stream(index);
        // Removals that would make the puzzle harder than asked are refused, so an easy or
        // medium puzzle is found at once even on large grids, where minimal puzzles are hard.
        let ceiling = request
            .difficulty
            .filter(|&level| level != Level::NeedsSearch);
        let attempts = max_attempts(request.shape);
        let mut seen: Vec<Level> = Vec::new();
        let interrupted = || GenerateError("interrupted".to_string());
        for attempt in 1..=attempts {
            let solution = self
                .full_grid(request.shape, &mut rng)
                .ok_or_else(interrupted)?;
            let full_pass = request.minimal || request.difficulty.is_some();
            let (puzzle, undecided) =
                self.remove_clues(&solution, request.symmetry, full_pass, ceiling, &mut rng);
            // A pass cut short by cancellation leaves a puzzle that is unique but not what
            // was asked for.
            if self.cancelled() {
                return Err(interrupted());
            }
            let Some(level) = request.difficulty else {
                return Ok(Generated {
                    puzzle,
                    solution,
                    rating: None,
                    attempts: attempt,
                    undecided,
                });
            };
            let rating = logic::rate(&puzzle);
            if rating.level == level {
                return Ok(Generated {
                    puzzle,
                    solution,
                    rating: Some(rating),
                    attempts: attempt,
                    undecided,
                });
            }
            seen.push(rating.level);
        }
        Err(GenerateError(format!(
            "no {} puzzle with boxes {} and {} symmetry in {attempts} attempts (made instead: \
             {}); try another level",
            request.difficulty.map_or("", |l| l.name()),
            request.shape,
            request.symmetry,
            Level::tally(&seen)
        )))
    }

    /// Makes generation stop (with an error) soon after `flag` is set.
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.solver.set_cancel_flag(flag.clone());
        self.cancel = flag;
    }

    /// Makes the generator keep in `counter` how many cells the clue removal of the puzzle
    /// being made has tried (of the grid's side squared), so that another thread can show
    /// the progress of a large puzzle. It starts again from 0 with each full grid drawn.
    pub fn set_progress_counter(&mut self, counter: Option<Arc<AtomicU64>>) {
        self.progress = counter;
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// A random full grid: a random first row and a few random clues that do not clash,
    /// completed by the engine, then every symbol relabelled by a random permutation. Seeds
    /// that admit no grid can take the engine long to refute on large sides, so a search that
    /// passes a node budget is abandoned for fresh seeds (a budget, not a clock, so that the
    /// result depends on the seed alone); after [`FULL_GRID_SEEDS`] of them, the grid is the
    /// pattern grid shuffled instead ([`shuffled_pattern`]). `None` once cancelled.
    fn full_grid(&mut self, shape: BoxShape, rng: &mut ChaCha8Rng) -> Option<Grid> {
        let n = shape.size();
        for _ in 0..FULL_GRID_SEEDS {
            if self.cancelled() {
                return None;
            }
            let mut seeds = Grid::empty(shape);
            let mut first_row: Vec<u8> = (1..=n as u8).collect();
            first_row.shuffle(rng);
            for (col, &value) in first_row.iter().enumerate() {
                seeds.set(0, col, value);
            }
            for _ in 0..n / 2 {
                let (row, col) = (rng.random_range(0..n), rng.random_range(0..n));
                let value = rng.random_range(1..=n as u8);
                let previous = seeds.get(row, col);
                seeds.set(row, col, value);
                if seeds.clash().is_some() {
                    seeds.set(row, col, previous);
                }
            }
            self.solver.set_node_limit(Some(FULL_GRID_NODES));
            let full = self.solver.first(&seeds).value;
            self.solver.set_node_limit(None);
            if let Some(full) = full {
                let mut relabel: Vec<u8> = (1..=n as u8).collect();
                relabel.shuffle(rng);
                let cells = full
                    .cells()
                    .iter()
                    .map(|&v| relabel[v as usize - 1])
                    .collect();
                return Some(Grid::from_cells(shape, cells).expect("a relabelled full grid"));
            }
        }
        (!self.cancelled()).then(|| shuffled_pattern(shape, rng))
    }

    /// Removes clues orbit by orbit in random order while the puzzle stays unique. Without a
    /// full pass, stops once 40% of the cells or fewer are clues. Returns the puzzle and the
    /// number of removals left undecided by the node budget.
    fn remove_clues(
        &mut self,
        solution: &Grid,
        symmetry: Symmetry,
        full_pass: bool,
        ceiling: Option<Level>,
        rng: &mut ChaCha8Rng,
    ) -> (Grid, u32) {
        let n = solution.size();
        // Every cell of an orbit has the same (sorted) orbit, so sorting and deduplicating
        // leaves each orbit once.
        let mut orbits: Vec<Vec<(usize, usize)>> = (0..n * n)
            .map(|i| symmetry.orbit(n, i / n, i % n))
            .collect();
        orbits.sort();
        orbits.dedup();
        orbits.shuffle(rng);
        let floor = n * n * 2 / 5;
        let mut puzzle = solution.clone();
        let mut clues = n * n;
        let mut undecided = 0;
        let budget = if full_pass {
            CHECK_NODES
        } else {
            QUICK_CHECK_NODES
        };
        self.solver.set_node_limit(Some(budget));
        self.solver.set_inference(removal_inference(n, full_pass));
        let mut tried = 0;
        for orbit in orbits {
            if let Some(counter) = &self.progress {
                counter.store(tried, Ordering::Relaxed);
            }
            tried += orbit.len() as u64;
            if (!full_pass && clues <= floor) || self.cancelled() {
                break;
            }
            for &(r, c) in &orbit {
                puzzle.set(r, c, 0);
            }
            let count = self.solver.count(&puzzle, Some(2)).value;
            if self.solver.interrupted() {
                undecided += 1;
            }
            let easy_enough = || ceiling.is_none_or(|level| logic::rate(&puzzle).level <= level);
            if count == 1 && !self.solver.interrupted() && easy_enough() {
                clues -= orbit.len();
            } else {
                for &(r, c) in &orbit {
                    puzzle.set(r, c, solution.get(r, c));
                }
            }
        }
        self.solver.set_node_limit(None);
        self.solver.set_inference(Inference::Auto);
        (puzzle, undecided)
    }
}

/// The inference of the uniqueness checks while clues are removed from a grid of side `n`.
/// The checks run under a node budget, so what matters is how often a check reaches its
/// verdict within it, and at what cost. Measured one thread, seeds 1-7 (`xcover sudoku
/// generate -j1`): up to 12x12 the default (shallow there) is as quick as any; from 16x16 on
/// the rules at every node beat it and probing, both in time and in verdicts reached: a 25x25
/// that need not be minimal took 0.6-1.0 s against 9-34 s by default (probing), a minimal
/// 16x16 0.1 s against 0.4-0.7 s with some removals left undecided. A minimal 25x25 keeps
/// probing: with the rules alone, 233 of its removals ran out of budget.
fn removal_inference(n: usize, full_pass: bool) -> Inference {
    let items = 4 * n * n;
    match items {
        ..600 => Inference::Auto,
        _ if full_pass && items >= Inference::AUTO_MIN_ITEMS as usize => Inference::Auto,
        _ => Inference::EveryNode,
    }
}

/// A full grid from the pattern grid (for boxes of `R` rows and `C` columns, cell `(r, c)`
/// holds `(C * (r mod R) + r / R + c) mod RC`, counting from 0) by moves that keep every grid
/// valid: rows moved within their band and bands moved, columns within their stack and stacks
/// moved, the grid transposed when its boxes are square, the symbols relabelled. It is how
/// the large grids of `../shared/data/large-hard` were made; the grids it gives are all
/// alike up to these moves, so it serves only where the engine does not complete random
/// seeds in time.
fn shuffled_pattern(shape: BoxShape, rng: &mut ChaCha8Rng) -> Grid {
    let (box_rows, box_cols, n) = (shape.box_rows(), shape.box_cols(), shape.size());
    // Lines grouped in blocks of `inner` (a band's rows or a stack's columns), the blocks and
    // the lines within each block in random order.
    let mut shuffled_lines = |inner: usize| {
        let mut blocks: Vec<usize> = (0..n / inner).collect();
        blocks.shuffle(rng);
        let mut lines = Vec::with_capacity(n);
        for block in blocks {
            let mut within: Vec<usize> = (0..inner).collect();
            within.shuffle(rng);
            lines.extend(within.into_iter().map(|i| block * inner + i));
        }
        lines
    };
    let rows = shuffled_lines(box_rows);
    let cols = shuffled_lines(box_cols);
    let transpose = box_rows == box_cols && rng.random_bool(0.5);
    let mut relabel: Vec<u8> = (1..=n as u8).collect();
    relabel.shuffle(rng);
    let pattern = |r: usize, c: usize| (box_cols * (r % box_rows) + r / box_rows + c) % n;
    let cells = (0..n * n)
        .map(|i| {
            let (row, col) = if transpose {
                (i % n, i / n)
            } else {
                (i / n, i % n)
            };
            relabel[pattern(rows[row], cols[col])]
        })
        .collect();
    Grid::from_cells(shape, cells).expect("a shuffled pattern grid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::check::check_solution;

    #[test]
    fn shuffled_pattern_grids_are_full_valid_and_vary_with_the_stream() {
        for shape in [
            "2x2", "2x3", "3x2", "3x3", "2x5", "5x2", "4x4", "3x5", "5x5", "8x8",
        ] {
            let shape: BoxShape = shape.parse().unwrap();
            let mut grids = Vec::new();
            for stream in 0..4 {
                let mut rng = ChaCha8Rng::seed_from_u64(3);
                rng.set_stream(stream);
                let grid = shuffled_pattern(shape, &mut rng);
                assert!(grid.is_full(), "{shape}");
                check_solution(&Grid::empty(shape), &grid).unwrap();
                grids.push(grid);
            }
            grids.dedup();
            assert_eq!(grids.len(), 4, "{shape}: streams gave equal grids");
        }
    }

    /// The engine completes none of the random seeds of a 64x64 grid within its budget:
    /// without the pattern grid to fall back on, the generator drew seeds for ever.
    #[test]
    fn a_64x64_full_grid_is_made() {
        let shape = BoxShape::for_size(64).unwrap();
        let encoding = Encoding::new(shape);
        let mut generator = Generator::new(&encoding);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let grid = generator.full_grid(shape, &mut rng).unwrap();
        check_solution(&Grid::empty(shape), &grid).unwrap();
    }
}
