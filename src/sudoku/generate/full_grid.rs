//! The full grids puzzles are made from, random under any rules.
//!
//! Classic rules are filled by the engine from a few random clues, with the pattern grid to
//! fall back on where the engine does not complete them in time (64x64). Other rules are
//! filled by the backtracking solver with its candidates in random order; when it gives up,
//! the rules (other than a jigsaw's, whose regions are drawn afresh) are the same on every
//! attempt, so one complete search settles whether any grid exists, and its grid, with its
//! symbols renamed at random, stands in.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::GenerateError;
use crate::dlx::{Inference, Solver};
use crate::sudoku::backtrack::{Backtracker, Fill};
use crate::sudoku::rules::Rules;
use crate::sudoku::variant::VariantEncoding;
use crate::sudoku::{BoxShape, Grid};

/// The search-node budget for completing random seeds into a full grid.
const FULL_GRID_NODES: u64 = 20_000;

/// Random seeds tried before a full grid is made from the pattern grid instead. With seed 1,
/// the first draw completed within the budget on sides 25, 36 and 49; on 64x64 grids the
/// engine completed none of the draws tried, even with a budget of a million nodes, and the
/// generator kept drawing new ones for ever.
const FULL_GRID_SEEDS: u32 = 8;

/// Placements the backtracking solver may make for one full grid before the generator draws
/// again (new regions for a jigsaw) or searches completely.
const FILL_BUDGET: u64 = 20_000;

/// Where full grids come from for one run's rules.
pub(super) struct Source<'e> {
    /// The encoding of the rules, when they are the same for every grid (not a jigsaw).
    pub encoding: Option<&'e VariantEncoding>,
    /// Whether the rules draw a new region map for each grid.
    pub jigsaw: bool,
    /// The box shape, when the rules are that shape's classic ones.
    pub classic: Option<BoxShape>,
    pub cancel: Option<Arc<AtomicBool>>,
    /// The grid a complete search found (or that none exists), once the backtracker has
    /// given up: the same rules every time, so it is searched for once.
    pub proved: Option<Option<Vec<u8>>>,
    /// A solver of `encoding`, made on first use and reused from puzzle to puzzle.
    pub solver: Option<Solver<'e>>,
}

impl<'e> Source<'e> {
    /// The shared encoding with its solver, when the rules are the same for every grid.
    pub fn shared(&mut self) -> Option<(&'e VariantEncoding, &mut Solver<'e>)> {
        let encoding = self.encoding?;
        let solver = self
            .solver
            .get_or_insert_with(|| encoding.matrix().solver());
        Some((encoding, solver))
    }

    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// A random full grid under `rules` (without cages). `Ok(None)` when this draw found
    /// none but another may (a jigsaw whose regions have no grid, or on which the
    /// backtracker gave up); an error when no grid exists or the run was cancelled.
    pub fn draw(
        &mut self,
        rules: &Rules,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<Vec<u8>>, GenerateError> {
        let interrupted = || GenerateError("interrupted".into());
        if self.cancelled() {
            return Err(interrupted());
        }
        if let Some(shape) = self.classic
            && self.encoding.is_some()
        {
            return self
                .classic(shape, rng)
                .map(|grid| Some(grid.cells().to_vec()))
                .ok_or_else(interrupted);
        }
        let n = rules.size;
        let backtracker = Backtracker::new(rules);
        let empty = vec![0; n * n];
        let fill =
            backtracker.random_solution(&empty, &mut |k| rng.random_range(0..k), FILL_BUDGET);
        let no_grid =
            |how: &str| GenerateError(format!("no grid of side {n} satisfies these rules ({how})"));
        match (fill, self.encoding) {
            (Fill::Found(grid), _) => Ok(Some(grid)),
            // Another region map may have grids.
            (Fill::NoSolution | Fill::GaveUp, _) if self.jigsaw => Ok(None),
            (Fill::NoSolution, _) => Err(no_grid("every filling was tried")),
            (Fill::GaveUp, None) => Ok(None),
            (Fill::GaveUp, Some(encoding)) => {
                if self.proved.is_none() {
                    self.proved = Some(self.any_full_grid(rules, encoding)?);
                }
                match self.proved.as_ref().expect("searched above") {
                    Some(grid) => Ok(Some(renamed_at_random(grid, rules, rng))),
                    None => Err(no_grid("a complete search found none")),
                }
            }
        }
    }

    /// A random full grid of the classic rules: a random first row and a few random clues
    /// that do not clash, completed by the engine, then every symbol relabelled by a random
    /// permutation. Seeds that admit no grid can take the engine long to refute on large
    /// sides, so a search that passes a node budget is abandoned for fresh seeds (a budget,
    /// not a clock, so that the result depends on the seed alone); after
    /// [`FULL_GRID_SEEDS`] of them, the grid is the pattern grid shuffled instead
    /// ([`shuffled_pattern`]). `None` once cancelled.
    fn classic(&mut self, shape: BoxShape, rng: &mut ChaCha8Rng) -> Option<Grid> {
        let n = shape.size();
        let cancel = self.cancel.clone();
        let cancelled = || {
            cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
        };
        let (encoding, solver) = self.shared().expect("an encoding of the classic rules");
        solver.set_cancel_flag(cancel.clone());
        solver.set_node_limit(Some(FULL_GRID_NODES));
        solver.set_inference(Inference::Auto);
        for _ in 0..FULL_GRID_SEEDS {
            if cancelled() {
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
            let full = first_solution(solver, encoding, seeds.cells());
            if let Some(full) = full {
                let mut relabel: Vec<u8> = (1..=n as u8).collect();
                relabel.shuffle(rng);
                let cells = full.iter().map(|&v| relabel[v as usize - 1]).collect();
                return Some(Grid::from_cells(shape, cells).expect("a relabelled full grid"));
            }
        }
        (!cancelled()).then(|| shuffled_pattern(shape, rng))
    }

    /// A full grid under `rules` (no cages, no jigsaw's random regions), or `None` when a
    /// complete search proves there is none; stopped with "interrupted" soon after the run
    /// is cancelled.
    ///
    /// The empty grid's symmetries make the search smaller. Renaming the symbols keeps every
    /// rule but non-consecutive, so without it a grid exists if and only if one whose first
    /// row reads 1, 2, ..., n does. Reversing them (s to n + 1 - s) keeps non-consecutive
    /// too, so with it a grid exists if and only if one with at most (n + 1) / 2 in its first
    /// cell does: one search for each of those. (Windoku with non-consecutive on 9x9 has no
    /// grid: the five searches prove it in about 15 s, the search from the empty grid in
    /// 27 s.)
    fn any_full_grid(
        &self,
        rules: &Rules,
        encoding: &VariantEncoding,
    ) -> Result<Option<Vec<u8>>, GenerateError> {
        let n = rules.size;
        let starts: Vec<Vec<u8>> = if rules.has("non-consecutive") {
            (1..=n.div_ceil(2))
                .map(|first| {
                    let mut givens = vec![0; n * n];
                    givens[0] = first as u8;
                    givens
                })
                .collect()
        } else {
            let mut givens = vec![0; n * n];
            for (cell, given) in givens.iter_mut().take(n).enumerate() {
                *given = cell as u8 + 1;
            }
            vec![givens]
        };
        let mut solver = encoding.matrix().solver();
        // Plain dancing links proves these fastest (windoku with non-consecutive: 27 s,
        // against 44 s with the default inference).
        solver.set_inference(Inference::None);
        solver.set_cancel_flag(self.cancel.clone());
        for givens in starts {
            let first = first_solution(&mut solver, encoding, &givens);
            if solver.stopped().is_some() {
                return Err(GenerateError("interrupted".into()));
            }
            if first.is_some() {
                return Ok(first);
            }
        }
        Ok(None)
    }
}

/// The first solution of `encoding`'s puzzle with `givens`, found by `solver`.
fn first_solution(
    solver: &mut Solver<'_>,
    encoding: &VariantEncoding,
    givens: &[u8],
) -> Option<Vec<u8>> {
    if !encoding.choose_givens(solver, givens) {
        return None;
    }
    let first = solver.first().map(|options| encoding.grid_of(options));
    solver.unchoose_all();
    first
}

/// `grid` with its symbols renamed at random in a way that keeps `rules` (no cages): any
/// renaming, or, under non-consecutive, the reversal or not.
fn renamed_at_random(grid: &[u8], rules: &Rules, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let n = rules.size as u8;
    let mut names: Vec<u8> = (1..=n).collect();
    if rules.has("non-consecutive") {
        if rng.random_range(0..2) == 1 {
            names.reverse();
        }
    } else {
        names.shuffle(rng);
    }
    grid.iter()
        .map(|&symbol| names[usize::from(symbol) - 1])
        .collect()
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
    use crate::sudoku::variant::Puzzle;
    use rand::SeedableRng;

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
        let rules = Rules::classic(shape);
        let empty = Puzzle {
            id: String::new(),
            rules: rules.clone(),
            givens: vec![0; 64 * 64],
        };
        let encoding = VariantEncoding::new(&empty).unwrap();
        let mut source = Source {
            encoding: Some(&encoding),
            jigsaw: false,
            classic: Some(shape),
            cancel: None,
            proved: None,
            solver: None,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let cells = source.draw(&rules, &mut rng).unwrap().unwrap();
        let grid = Grid::from_cells(shape, cells).unwrap();
        check_solution(&Grid::empty(shape), &grid).unwrap();
    }
}
