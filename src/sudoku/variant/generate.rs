//! New variant puzzles with exactly one solution, minimal: jigsaw (with a fresh random region
//! map), X, windoku, anti-knight, anti-king, non-consecutive, killer (with a fresh random cage
//! layout), and their combinations.
//!
//! A full grid comes from the backtracking solver with candidates in random order (when it
//! gives up, rules other than a jigsaw's are the same on every attempt, so one complete search
//! settles whether any grid exists: `any_full_grid`); then givens are removed in random
//! order, each removal kept only if the exact-cover engine still finds one solution. One pass
//! leaves a minimal puzzle (removing givens never makes another removal possible again). Puzzle `k` of a run with seed `s` comes from its own random stream, so the
//! same seed gives the same puzzles whatever the number of threads. A difficulty, when asked
//! for, is the logic solver's rating: removals that would pass it are refused, and a puzzle
//! that ends easier gives way to a new full grid.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::backtrack::{Backtracker, Fill};
use super::{Cage, Puzzle, Rules, VariantEncoding};
use crate::dlx::Inference;
use crate::sudoku::BoxShape;
use crate::sudoku::logic::{self, Level, Position};
use crate::sudoku::rules::{
    AntiKing, AntiKnight, Constraint, Diagonals, Killer, NonConsecutive, Regions, Windows,
    connected, orthogonal_neighbours,
};

/// Placements the backtracking solver may make for one full grid before the generator draws
/// again (new regions for a jigsaw).
const FILL_BUDGET: u64 = 20_000;

/// Full grids tried (each with new random regions for a jigsaw) before giving up: an X-jigsaw
/// of side 6 has no solution for most region maps.
const ATTEMPTS: usize = 2_000;

/// Puzzles made and dropped for not being of the asked difficulty before giving up.
pub const LEVEL_ATTEMPTS: usize = 200;

/// A generated puzzle with its solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedVariant {
    pub puzzle: Puzzle,
    pub solution: Vec<u8>,
}

/// Why no puzzle could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateVariantError(pub String);

impl std::fmt::Display for GenerateVariantError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenerateVariantError {}

/// The rules `names` (as `generate --variant` takes them: rules joined by commas, `x`,
/// `windoku`, `jigsaw` and `killer` among them) name, on a grid of `shape`, and whether they ask for killer cages.
pub fn rules_named(names: &str, shape: BoxShape) -> Result<(Rules, bool), String> {
    let mut rules = Rules::classic(shape);
    let mut killer = false;
    for name in names.split(',').map(str::trim) {
        match name {
            "killer" | "cages" => killer = true,
            "jigsaw" => {
                rules.boxes = None;
                // Replaced by a random map for each puzzle.
                rules.add(Constraint::Regions(Regions { map: Vec::new() }));
            }
            "x" => rules.add(Constraint::Diagonals(Diagonals)),
            "windoku" => rules.add(Constraint::Windows(Windows)),
            "antiknight" => rules.add(Constraint::AntiKnight(AntiKnight)),
            "antiking" => rules.add(Constraint::AntiKing(AntiKing)),
            "nonconsecutive" => rules.add(Constraint::NonConsecutive(NonConsecutive)),
            other if Constraint::named(other).is_some() => {
                rules.add(Constraint::named(other).expect("a rule known by name"));
            }
            other => {
                return Err(format!(
                    "--variant: unknown rule '{other}' (jigsaw, x, windoku, anti-knight, \
                     anti-king, non-consecutive, killer, joined by commas)"
                ));
            }
        }
    }
    if rules.has("windows") && rules.boxes.is_none() {
        return Err("--variant: windows need boxes (not with jigsaw)".into());
    }
    Ok((rules, killer))
}

/// Puzzle `index` of the run with `seed`, under `rules` (when `rules` has regions, their
/// map is replaced by a random one of the same side: a jigsaw). Cages are refused: see
/// [`generate_killer`].
pub fn generate_variant(
    rules: &Rules,
    seed: u64,
    index: u64,
) -> Result<GeneratedVariant, GenerateVariantError> {
    generate_variant_of_level(rules, seed, index, None, &|| false)
}

/// [`generate_variant`], of the difficulty `level` when given, as the logic solver rates it
/// ([`logic::rating_of`]): a removal that would make the puzzle harder than `level` is
/// refused (the puzzle is then minimal among those of at most that level), and a puzzle that
/// ends easier is dropped for a new full grid, up to [`LEVEL_ATTEMPTS`] of them. `stop` is
/// asked every 20 ms while the puzzle is made: when it says so, the generation (its searches
/// included) ends with an error ("interrupted").
pub fn generate_variant_of_level(
    rules: &Rules,
    seed: u64,
    index: u64,
    level: Option<Level>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<GeneratedVariant, GenerateVariantError> {
    if !rules.cages().is_empty() {
        return Err(GenerateVariantError(
            "cages are drawn by generate_killer, not given".into(),
        ));
    }
    generate(rules, seed, index, false, level, stop)
}

/// A killer puzzle under `rules` (plus cages): a full grid, then a random cage layout that
/// covers it (cages of two to four orthogonally connected cells with different symbols, a
/// single cell only where nothing else fits), the sums read from the grid. Givens are then
/// removed as for other variants; most killers keep none.
pub fn generate_killer(
    rules: &Rules,
    seed: u64,
    index: u64,
) -> Result<GeneratedVariant, GenerateVariantError> {
    generate_killer_of_level(rules, seed, index, None, &|| false)
}

/// [`generate_killer`] of a difficulty, as [`generate_variant_of_level`].
pub fn generate_killer_of_level(
    rules: &Rules,
    seed: u64,
    index: u64,
    level: Option<Level>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<GeneratedVariant, GenerateVariantError> {
    let mut rules = rules.clone();
    rules.remove("cages");
    generate(&rules, seed, index, true, level, stop)
}

/// The difficulty of a variant puzzle, as the logic solver rates it.
fn level_of(puzzle: &Puzzle) -> Level {
    logic::rating_of(&logic::solve_from(Position::of_variant(puzzle))).level
}

/// [`generate_watched`], with a thread that asks `stop` while it runs and sets the flag its
/// searches stop on.
fn generate(
    rules: &Rules,
    seed: u64,
    index: u64,
    killer: bool,
    level: Option<Level>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<GeneratedVariant, GenerateVariantError> {
    let cancel = Arc::new(AtomicBool::new(false));
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if stop() {
                    cancel.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::park_timeout(Duration::from_millis(20));
            }
        });
        let made = generate_watched(rules, (seed, index), killer, level, &cancel);
        // Woken, so that a quick puzzle does not wait out the watcher's nap.
        done.store(true, Ordering::Relaxed);
        watcher.thread().unpark();
        made
    })
}

/// Makes the puzzle; it ends with "interrupted" soon after `cancel` is set, each search
/// included (a uniqueness check of a 16x16 windoku can take seconds: Ctrl-C waited five
/// minutes when the generator asked only between full grids).
fn generate_watched(
    rules: &Rules,
    (seed, index): (u64, u64),
    killer: bool,
    level: Option<Level>,
    cancel: &Arc<AtomicBool>,
) -> Result<GeneratedVariant, GenerateVariantError> {
    let interrupted = || GenerateVariantError("interrupted".into());
    let cancelled = || cancel.load(Ordering::Relaxed);
    // Up to two solutions, or none once cancelled.
    let solutions = |encoding: &VariantEncoding, puzzle: &Puzzle| -> Option<u128> {
        let Some(mut solver) = encoding.solver(puzzle) else {
            return Some(0);
        };
        solver.set_cancel_flag(Some(Arc::clone(cancel)));
        let count = solver.count(Some(2));
        (!cancelled()).then_some(count)
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let n = rules.size;
    // Removals that would make the puzzle harder than asked are refused; "needs search" is
    // the top, which every removal stays within.
    let ceiling = level.filter(|&level| level != Level::NeedsSearch);
    let within = |puzzle: &Puzzle| ceiling.is_none_or(|ceiling| level_of(puzzle) <= ceiling);
    let jigsaw = rules.regions().is_some();
    let mut made: Vec<Level> = Vec::new();
    // A grid the complete search found, once the backtracker has given up.
    let mut proved: Option<Vec<u8>> = None;
    for _attempt in 0..ATTEMPTS {
        if made.len() >= LEVEL_ATTEMPTS {
            break;
        }
        if cancelled() {
            return Err(interrupted());
        }
        let mut rules = rules.clone();
        if jigsaw {
            rules.add(Constraint::Regions(Regions {
                map: random_regions(n, &mut rng),
            }));
        }
        rules
            .validate()
            .map_err(|error| GenerateVariantError(error.to_string()))?;
        let backtracker = Backtracker::new(&rules);
        let empty = vec![0; n * n];
        let solution =
            match backtracker.random_solution(&empty, &mut |k| rng.random_range(0..k), FILL_BUDGET)
            {
                Fill::Found(solution) => solution,
                // Another region map may have grids; other rules are the same every time.
                Fill::NoSolution if !jigsaw => {
                    return Err(GenerateVariantError(format!(
                        "no grid of side {n} satisfies these rules (every filling was tried)"
                    )));
                }
                // The same rules every time: a complete search says once whether any grid
                // exists, and its grid, with symbols renamed at random, stands in.
                Fill::GaveUp if !jigsaw => {
                    if proved.is_none() {
                        proved = any_full_grid(&rules, cancel)?;
                    }
                    let Some(grid) = &proved else {
                        return Err(GenerateVariantError(format!(
                            "no grid of side {n} satisfies these rules (a complete search found \
                             none)"
                        )));
                    };
                    renamed_at_random(grid, &rules, &mut rng)
                }
                Fill::NoSolution | Fill::GaveUp => continue,
            };
        if killer {
            rules.add(Constraint::Killer(Killer {
                cages: random_cages(n, &solution, &mut rng),
            }));
        }
        let mut puzzle = Puzzle {
            id: format!("{seed}-{}", index + 1),
            rules,
            givens: solution.clone(),
        };
        // The encoding of a killer depends on the givens inside cages (they filter the
        // cages' fillings), so it is built anew for each set of givens; other variants share
        // one.
        let shared = VariantEncoding::new(&puzzle)
            .map_err(|error| GenerateVariantError(error.to_string()))?;
        let unique = |puzzle: &Puzzle| -> Result<bool, GenerateVariantError> {
            let count = match killer {
                false => solutions(&shared, puzzle),
                true => match VariantEncoding::new(puzzle) {
                    Ok(encoding) => solutions(&encoding, puzzle),
                    Err(_) => Some(0),
                },
            };
            count.map(|count| count == 1).ok_or_else(interrupted)
        };
        // A killer whose cages alone fix the grid needs no given at all: try that first.
        let bare = Puzzle {
            givens: vec![0; n * n],
            ..puzzle.clone()
        };
        if killer && unique(&bare)? && within(&bare) {
            puzzle = bare;
        } else {
            let mut cells: Vec<usize> = (0..n * n).collect();
            cells.shuffle(&mut rng);
            for cell in cells {
                let given = std::mem::take(&mut puzzle.givens[cell]);
                if !unique(&puzzle)? || !within(&puzzle) {
                    puzzle.givens[cell] = given;
                }
            }
        }
        if let Some(level) = level {
            let reached = level_of(&puzzle);
            if reached != level {
                made.push(reached);
                continue;
            }
        }
        return Ok(GeneratedVariant { puzzle, solution });
    }
    if let Some(level) = level.filter(|_| !made.is_empty()) {
        return Err(GenerateVariantError(format!(
            "no {level} puzzle of side {n} under these rules in {} tries (made instead: {}); \
             try another level",
            made.len(),
            Level::tally(&made)
        )));
    }
    Err(GenerateVariantError(if jigsaw {
        format!(
            "no full grid of side {n} under these rules was found on {ATTEMPTS} random region maps"
        )
    } else {
        format!("no full grid of side {n} under these rules was found (tried {ATTEMPTS} times)")
    }))
}

/// A full grid under `rules` (no cages, no jigsaw's random regions), or `None` when a
/// complete search proves there is none; stopped with "interrupted" soon after `cancel` is
/// set.
///
/// The empty grid's symmetries make the search smaller. Renaming the symbols keeps every rule
/// but non-consecutive, so without it a grid exists if and only if one whose first row reads
/// 1, 2, ..., n does. Reversing them (s to n + 1 - s) keeps non-consecutive too, so with it a
/// grid exists if and only if one with at most (n + 1) / 2 in its first cell does: one search
/// for each of those. (Windoku with non-consecutive on 9x9 has no grid: the five searches
/// prove it in about 15 s, the search from the empty grid in 27 s.)
fn any_full_grid(
    rules: &Rules,
    cancel: &Arc<AtomicBool>,
) -> Result<Option<Vec<u8>>, GenerateVariantError> {
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
    let empty = Puzzle {
        id: String::new(),
        rules: rules.clone(),
        givens: vec![0; n * n],
    };
    let encoding =
        VariantEncoding::new(&empty).map_err(|error| GenerateVariantError(error.to_string()))?;
    for givens in starts {
        let puzzle = Puzzle {
            givens,
            ..empty.clone()
        };
        let Some(mut solver) = encoding.solver(&puzzle) else {
            continue;
        };
        // Plain dancing links proves these fastest (windoku with non-consecutive: 27 s,
        // against 44 s with the default inference).
        solver.set_inference(Inference::None);
        solver.set_cancel_flag(Some(Arc::clone(cancel)));
        let first = solver.first();
        if solver.stopped().is_some() {
            return Err(GenerateVariantError("interrupted".into()));
        }
        if let Some(options) = first {
            return Ok(Some(encoding.grid_of(options)));
        }
    }
    Ok(None)
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

/// Cages covering the grid: from each cell not yet caged, in random order, a cage grows by
/// random orthogonal neighbours not yet caged whose symbols it does not hold, to a random size
/// of two to four cells (or less where it cannot grow); its sum is its symbols' in `solution`.
pub fn random_cages(n: usize, solution: &[u8], rng: &mut ChaCha8Rng) -> Vec<Cage> {
    let mut caged = vec![false; n * n];
    let mut starts: Vec<usize> = (0..n * n).collect();
    starts.shuffle(rng);
    let mut cages = Vec::new();
    for start in starts {
        if caged[start] {
            continue;
        }
        let size = rng.random_range(2..=4);
        let mut cells = vec![start];
        caged[start] = true;
        while cells.len() < size {
            let grow: Vec<usize> = cells
                .iter()
                .flat_map(|&c| orthogonal_neighbours(n, c))
                .filter(|&x| !caged[x] && cells.iter().all(|&c| solution[c] != solution[x]))
                .collect();
            let Some(&next) = grow.get(rng.random_range(0..grow.len().max(1))) else {
                break;
            };
            caged[next] = true;
            cells.push(next);
        }
        cells.sort_unstable();
        cages.push(Cage {
            sum: cells.iter().map(|&c| u32::from(solution[c])).sum(),
            cells: cells.iter().map(|&c| (c / n, c % n)).collect(),
        });
    }
    // In reading order of their first cells, as people list them.
    cages.sort_by_key(|cage| cage.cells[0]);
    cages
}

/// A random map of `n` connected regions of `n` cells: the boxes of the most square shape
/// (rows when `n` has none), then many random swaps of two cells on the border between two
/// regions, each kept only if both regions stay connected.
pub fn random_regions(n: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut map: Vec<u8> = match BoxShape::for_size(n) {
        Some(shape) => (0..n * n)
            .map(|i| shape.box_of(i / n, i % n) as u8)
            .collect(),
        None => (0..n * n).map(|i| (i / n) as u8).collect(),
    };
    let neighbours = |cell: usize| orthogonal_neighbours(n, cell);
    for _ in 0..40 * n * n {
        // A cell a of region A that touches region B, and a cell b of B that touches A.
        let a = rng.random_range(0..n * n);
        let others: Vec<usize> = neighbours(a)
            .into_iter()
            .filter(|&x| map[x] != map[a])
            .collect();
        let Some(&toward) = others.get(rng.random_range(0..others.len().max(1))) else {
            continue;
        };
        let (region_a, region_b) = (map[a], map[toward]);
        let candidates: Vec<usize> = (0..n * n)
            .filter(|&b| map[b] == region_b && b != toward)
            .filter(|&b| neighbours(b).iter().any(|&x| map[x] == region_a && x != a))
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let b = candidates[rng.random_range(0..candidates.len())];
        map[a] = region_b;
        map[b] = region_a;
        let cells_of =
            |region: u8| -> Vec<usize> { (0..n * n).filter(|&i| map[i] == region).collect() };
        if !(connected(n, &cells_of(region_a)) && connected(n, &cells_of(region_b))) {
            map[a] = region_a;
            map[b] = region_b;
        }
    }
    // Letters in the order regions first appear, A for r1c1's.
    let mut order = Vec::new();
    for &region in &map {
        if !order.contains(&region) {
            order.push(region);
        }
    }
    map.iter()
        .map(|region| order.iter().position(|r| r == region).unwrap() as u8)
        .collect()
}
