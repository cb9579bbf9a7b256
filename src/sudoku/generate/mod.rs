//! Making new puzzles under any rules: unique, minimal if asked, symmetric, of a chosen
//! difficulty.
//!
//! Making a good puzzle takes exactly the check this project exists for: proving, many times
//! over, that a grid has one solution and no more. A full grid is drawn at random under the
//! rules (`full_grid.rs`); for a killer, cages are drawn over it and their sums read from it,
//! and for a jigsaw the region map is drawn first (`layouts.rs`). Then clues are removed, one
//! symmetry orbit at a time in random order, each removal kept only if the engine still finds
//! exactly one solution (a killer first tries without any). One such pass already leaves a
//! minimal puzzle: removing clues never makes another removal possible again. A difficulty,
//! when asked for, is the logic solver's rating: removals that would pass it are refused, and
//! a puzzle that ends easier gives way to a new full grid.
//!
//! Puzzle `k` of a run with seed `s` comes from its own random stream seeded by `(s, k)`, so
//! the same seed gives the same puzzles however many threads make them.

mod full_grid;
mod layouts;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

pub use layouts::{random_cages, random_regions};

use super::AnyPuzzle;
use super::logic::{self, Level, Rating};
use super::model::{BoxShape, Grid};
use super::rules::{
    AntiKing, AntiKnight, Constraint, Diagonals, Killer, NegativeClues, NonConsecutive, Regions,
    Rules, Windows,
};
use super::variant::{Puzzle, VariantEncoding};
use crate::dlx::{Inference, Solver};

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The rules every puzzle is made under: [`Rules::classic`] for plain grids. Regions
    /// with an empty map stand for a jigsaw: each puzzle draws its own map.
    pub rules: Rules,
    /// The clues each puzzle draws over its solution (killer cages, thermometers...; clues of
    /// those rules that the rules already hold are dropped).
    pub drawn: Vec<Drawn>,
    /// The symmetry of the clue pattern.
    pub symmetry: Symmetry,
    /// Remove clues until none can go (otherwise stop at about 40% of the cells).
    pub minimal: bool,
    /// Only keep puzzles whose logical rating has this level (implies the full removal pass).
    pub difficulty: Option<Level>,
    /// The seed of the run.
    pub seed: u64,
}

impl Request {
    /// Classic puzzles of `shape` from `seed`: no symmetry, not minimal, of any difficulty.
    pub fn classic(shape: BoxShape, seed: u64) -> Request {
        Request::under(Rules::classic(shape), seed)
    }

    /// Whether every clue removal is decided: a minimal puzzle, or one of a difficulty.
    fn full_pass(&self) -> bool {
        self.minimal || self.difficulty.is_some()
    }

    /// Puzzles under `rules` from `seed`: no cages drawn, no symmetry, not minimal, of any
    /// difficulty.
    pub fn under(rules: Rules, seed: u64) -> Request {
        Request {
            rules,
            drawn: Vec::new(),
            symmetry: Symmetry::None,
            minimal: false,
            difficulty: None,
            seed,
        }
    }
}

/// Clues a generator draws over each puzzle's solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawn {
    /// Killer cages covering the grid.
    Cages,
    /// Thermometers along rising symbols.
    Thermometers,
    /// Arrows whose cells add up to their circle.
    Arrows,
    /// Every kropki dot, with the rule that all white dots are given.
    Kropki,
    /// Every X and V, with the rule that all are given.
    Xv,
    /// Little killers along diagonals.
    LittleKillers,
}

impl Drawn {
    /// The rules' names in files of what it adds.
    fn rule_names(self) -> &'static [&'static str] {
        match self {
            Drawn::Cages => &["cages"],
            Drawn::Thermometers => &["thermometers"],
            Drawn::Arrows => &["arrows"],
            Drawn::Kropki => &["kropki", "negative"],
            Drawn::Xv => &["xv", "negative"],
            Drawn::LittleKillers => &["little-killers"],
        }
    }

    /// Its clues over `solution` on a grid of side `n`, added to `rules`.
    fn add_to(self, rules: &mut Rules, solution: &[u8], rng: &mut ChaCha8Rng) {
        let n = rules.size;
        match self {
            Drawn::Cages => rules.add(Constraint::Killer(Killer {
                cages: random_cages(n, solution, rng),
            })),
            Drawn::Thermometers => rules.add(Constraint::Thermometers(
                layouts::random_thermometers(n, solution, rng),
            )),
            Drawn::Arrows => {
                rules.add(Constraint::Arrows(layouts::random_arrows(n, solution, rng)));
            }
            Drawn::Kropki => {
                let (dots, negative) = layouts::all_kropki_dots(n, solution);
                rules.add(Constraint::Kropki(dots));
                add_negative(rules, negative);
            }
            Drawn::Xv => {
                let (clues, negative) = layouts::all_xv_clues(n, solution);
                rules.add(Constraint::Xv(clues));
                add_negative(rules, negative);
            }
            Drawn::LittleKillers => rules.add(Constraint::LittleKillers(
                layouts::random_little_killers(n, solution, rng),
            )),
        }
    }
}

/// Adds the negative rules of `negative` to those `rules` hold already.
fn add_negative(rules: &mut Rules, negative: NegativeClues) {
    let mut kinds = rules
        .constraints()
        .iter()
        .find_map(|c| match c {
            Constraint::NegativeClues(held) => Some(held.kinds.clone()),
            _ => None,
        })
        .unwrap_or_default();
    for kind in negative.kinds {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    rules.add(Constraint::NegativeClues(NegativeClues { kinds }));
}

/// The rules `names` name (rules joined by commas, as `generate --variant` takes them:
/// `jigsaw` for a random region map instead of boxes, `x`, `windoku`, `killer` for random
/// cages, `thermo`, `arrow`, `kropki`, `xv` and `little-killer` for clues of those kinds
/// drawn over each solution, and any rule of the catalogue that needs no clues) on a grid of
/// `shape`, and the clues they ask to draw.
pub fn rules_named(names: &str, shape: BoxShape) -> Result<(Rules, Vec<Drawn>), String> {
    let mut rules = Rules::classic(shape);
    let mut drawn = Vec::new();
    for name in names.split(',').map(str::trim) {
        let draws = match name {
            "killer" | "cages" => Some(Drawn::Cages),
            "thermo" | "thermometers" => Some(Drawn::Thermometers),
            "arrow" | "arrows" => Some(Drawn::Arrows),
            "kropki" => Some(Drawn::Kropki),
            "xv" => Some(Drawn::Xv),
            "little-killer" | "little-killers" => Some(Drawn::LittleKillers),
            _ => None,
        };
        if let Some(kind) = draws {
            if !drawn.contains(&kind) {
                drawn.push(kind);
            }
            continue;
        }
        match name {
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
                     anti-king, non-consecutive, killer, thermo, arrow, kropki, xv, \
                     little-killer, joined by commas)"
                ));
            }
        }
    }
    if rules.has("windows") && rules.boxes.is_none() {
        return Err("--variant: windows need boxes (not with jigsaw)".into());
    }
    Ok((rules, drawn))
}

/// A puzzle made by [`Generator::generate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: exactly one solution. A classic grid when the rules are classic and no
    /// cages were drawn.
    pub puzzle: AnyPuzzle,
    /// Its solution, row by row.
    pub solution: Vec<u8>,
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

/// The search-node budget of one uniqueness check while removing clues, where the removals
/// must all be decided (`--minimal` or a difficulty). No 9x9 check comes near it; on 25x25
/// grids some would run for minutes.
const CHECK_NODES: u64 = 200_000;

/// The same budget where the puzzle need not be minimal. Near 43% of clues a 25x25 check
/// costs seconds under probing; with this budget a 25x25 puzzle took 8-39 s (seeds 1 and 2),
/// against 16-54 s with 20,000 and, for seed 1, 136 s with [`CHECK_NODES`], with 270-279
/// clues in every case: a check that runs out is mostly a removal that would be refused.
const QUICK_CHECK_NODES: u64 = 5_000;

/// Puzzles of another difficulty made and dropped for one 9x9 puzzle of a given difficulty
/// before giving up; larger grids get fewer in proportion to their cells (each attempt costs
/// about as much more), so that a level a shape rarely reaches fails within about a minute
/// rather than after many.
const MAX_ATTEMPTS: u32 = 2000;

/// Full grids not found (a jigsaw's region map without any, or a fill that gave up) before
/// giving up: an X-jigsaw of side 6 has no solution for most region maps.
const MAX_DRAWS: u32 = 2000;

fn max_attempts(n: usize) -> u32 {
    let cells = (n * n).max(1) as u64;
    let scaled = u64::from(MAX_ATTEMPTS) * 81 * 81 * 81 / (cells * cells * cells);
    scaled.clamp(10, u64::from(MAX_ATTEMPTS)) as u32
}

/// A run's request with what all its puzzles share, built once for every thread: the
/// encoding of the rules, unless each puzzle draws its own regions.
pub struct Recipe {
    request: Request,
    jigsaw: bool,
    /// The box shape, when the rules are that shape's classic ones.
    classic: Option<BoxShape>,
    encoding: Option<VariantEncoding>,
}

impl Recipe {
    /// The recipe of `request`, once its rules are valid.
    pub fn new(request: Request) -> Result<Recipe, GenerateError> {
        let mut request = request;
        for kind in &request.drawn {
            for name in kind.rule_names() {
                request.rules.remove(name);
            }
        }
        let jigsaw = request.rules.regions().is_some_and(<[u8]>::is_empty);
        let invalid = |error: super::rules::RulesError| GenerateError(error.to_string());
        let encoding = if jigsaw {
            // Checked with a map of the right size: the rules besides it must be valid.
            let mut rules = request.rules.clone();
            let n = rules.size;
            rules.add(Constraint::Regions(Regions {
                map: (0..n * n).map(|cell| (cell / n) as u8).collect(),
            }));
            rules.validate().map_err(invalid)?;
            None
        } else {
            let n = request.rules.size;
            let empty = Puzzle {
                id: String::new(),
                rules: request.rules.clone(),
                givens: vec![0; n * n],
            };
            Some(VariantEncoding::new(&empty).map_err(invalid)?)
        };
        let classic = request
            .rules
            .boxes
            .filter(|&shape| request.rules == Rules::classic(shape));
        Ok(Recipe {
            request,
            jigsaw,
            classic,
            encoding,
        })
    }

    /// What is made.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// A generator of this recipe's puzzles; keep one per thread.
    pub fn generator(&self) -> Generator<'_> {
        Generator {
            recipe: self,
            progress: None,
            source: full_grid::Source {
                encoding: self.encoding.as_ref(),
                jigsaw: self.jigsaw,
                classic: self.classic,
                cancel: None,
                proved: None,
                solver: None,
            },
        }
    }
}

/// Makes puzzles of one recipe, reusing what they share; keep one per thread.
pub struct Generator<'r> {
    recipe: &'r Recipe,
    progress: Option<Arc<AtomicU64>>,
    /// The full grids, with the solver of the shared encoding (reused from puzzle to puzzle)
    /// and the cancellation flag.
    source: full_grid::Source<'r>,
}

impl Generator<'_> {
    /// Makes generation stop (with an error) soon after `flag` is set.
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.source.cancel = flag;
    }

    /// Makes the generator keep in `counter` how many cells the clue removal of the puzzle
    /// being made has tried (of the grid's side squared), so that another thread can show
    /// the progress of a large puzzle. It starts again from 0 with each full grid drawn.
    pub fn set_progress_counter(&mut self, counter: Option<Arc<AtomicU64>>) {
        self.progress = counter;
    }

    fn cancelled(&self) -> bool {
        self.source.cancelled()
    }

    /// Puzzle number `index` of the run.
    pub fn generate(&mut self, index: u64) -> Result<Generated, GenerateError> {
        let recipe = self.recipe;
        let request = &recipe.request;
        let n = request.rules.size;
        let mut rng = ChaCha8Rng::seed_from_u64(request.seed);
        rng.set_stream(index);
        // Removals that would make the puzzle harder than asked are refused, so an easy or
        // medium puzzle is found at once even on large grids, where minimal puzzles are hard.
        let ceiling = request
            .difficulty
            .filter(|&level| level != Level::NeedsSearch);
        let full_pass = request.full_pass();
        let attempts = max_attempts(n);
        let interrupted = || GenerateError("interrupted".to_string());
        let mut made: Vec<Level> = Vec::new();
        let mut draws = 0;
        while made.len() < attempts as usize && draws < MAX_DRAWS {
            draws += 1;
            let mut rules = request.rules.clone();
            if recipe.jigsaw {
                rules.add(Constraint::Regions(Regions {
                    map: random_regions(n, &mut rng),
                }));
            }
            let Some(solution) = self.source.draw(&rules, &mut rng)? else {
                continue;
            };
            for kind in &request.drawn {
                kind.add_to(&mut rules, &solution, &mut rng);
            }
            // A classic grid for the classic rules without cages, so that it is written and
            // rated as one; else a puzzle under the rules drawn, named after the run.
            let template = match recipe.classic {
                Some(shape) if request.drawn.is_empty() => AnyPuzzle::Grid(Grid::empty(shape)),
                _ => AnyPuzzle::Variant(Box::new(Puzzle {
                    id: format!("{}-{}", request.seed, index + 1),
                    rules: rules.clone(),
                    givens: vec![0; n * n],
                })),
            };
            let budget = check_budget(recipe.classic.is_some(), full_pass);
            let inference = removal_inference(n, full_pass);
            let cancel = self.source.cancel.clone();
            let progress = self.progress.as_deref();
            // The rules drawn for this puzzle have an encoding of their own; the rules every
            // puzzle shares, one solver reused.
            let (givens, undecided) = match self.source.shared() {
                Some((encoding, solver)) if request.drawn.is_empty() => {
                    let mut removal = Removal::new(encoding, solver, &template, ceiling);
                    removal.arm(cancel, budget, inference);
                    let givens = removal.remove_clues(request, &solution, progress, &mut rng);
                    (givens, removal.undecided)
                }
                _ => {
                    let encoding = VariantEncoding::new(&Puzzle {
                        id: String::new(),
                        rules,
                        givens: vec![0; n * n],
                    })
                    .map_err(|error| GenerateError(error.to_string()))?;
                    let mut solver = encoding.matrix().solver();
                    let mut removal = Removal::new(&encoding, &mut solver, &template, ceiling);
                    removal.arm(cancel, budget, inference);
                    let givens = removal.remove_clues(request, &solution, progress, &mut rng);
                    (givens, removal.undecided)
                }
            };
            // A pass cut short by cancellation leaves a puzzle that is unique but not what
            // was asked for.
            if self.cancelled() {
                return Err(interrupted());
            }
            let puzzle = template
                .with_givens(&givens)
                .expect("givens of the grid's size");
            let rating = request.difficulty.map(|_| rating_of(&puzzle));
            if let (Some(level), Some(rating)) = (request.difficulty, rating)
                && rating.level != level
            {
                made.push(rating.level);
                continue;
            }
            return Ok(Generated {
                puzzle,
                solution,
                rating,
                attempts: made.len() as u32 + 1,
                undecided,
            });
        }
        let rules = request.rules.names().join(", ");
        if let Some(level) = request.difficulty.filter(|_| !made.is_empty()) {
            return Err(GenerateError(format!(
                "no {level} puzzle of side {n} ({rules}; {} symmetry) in {} tries (made \
                 instead: {}); try another level",
                request.symmetry,
                made.len(),
                Level::tally(&made)
            )));
        }
        Err(GenerateError(if recipe.jigsaw {
            format!(
                "no full grid of side {n} under these rules was found on {MAX_DRAWS} random \
                 region maps"
            )
        } else {
            format!(
                "no full grid of side {n} under these rules was found (tried {MAX_DRAWS} times)"
            )
        }))
    }
}

/// The rating of a puzzle by the logic solver.
fn rating_of(puzzle: &AnyPuzzle) -> Rating {
    logic::rating_of(&logic::solve_from(puzzle.position()))
}

/// The search-node budget of each uniqueness check while removing clues under the classic
/// rules or others. A full pass under rules beyond the classic ones has none: their checks
/// decide every removal, however long they take (anti-knight with non-consecutive on 9x9
/// passes [`CHECK_NODES`] on some), so a minimal puzzle is minimal.
fn check_budget(classic: bool, full_pass: bool) -> Option<u64> {
    match (full_pass, classic) {
        (false, _) => Some(QUICK_CHECK_NODES),
        (true, true) => Some(CHECK_NODES),
        (true, false) => None,
    }
}

/// The uniqueness checks of one full grid's clue removal, with one solver reused.
struct Removal<'a, 'e> {
    encoding: &'a VariantEncoding,
    solver: &'a mut Solver<'e>,
    template: &'a AnyPuzzle,
    /// The hardest level a removal may leave.
    ceiling: Option<Level>,
    /// Checks that ran out of their node budget.
    undecided: u32,
    cancel: Option<Arc<AtomicBool>>,
}

impl<'a, 'e> Removal<'a, 'e> {
    fn new(
        encoding: &'a VariantEncoding,
        solver: &'a mut Solver<'e>,
        template: &'a AnyPuzzle,
        ceiling: Option<Level>,
    ) -> Removal<'a, 'e> {
        Removal {
            encoding,
            solver,
            template,
            ceiling,
            undecided: 0,
            cancel: None,
        }
    }

    /// Sets the solver's cancellation flag, node budget and inference for the checks.
    fn arm(&mut self, cancel: Option<Arc<AtomicBool>>, budget: Option<u64>, inference: Inference) {
        self.solver.set_cancel_flag(cancel.clone());
        self.cancel = cancel;
        self.solver.set_node_limit(budget);
        self.solver.set_inference(inference);
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Removes clues from `solution` orbit by orbit of the request's symmetry, in random
    /// order, while the puzzle stays unique (a killer first tries without any). Without a
    /// full pass, stops once 40% of the cells or fewer are clues. Keeps in `progress` how
    /// many cells were tried. Returns the givens left.
    fn remove_clues(
        &mut self,
        request: &Request,
        solution: &[u8],
        progress: Option<&AtomicU64>,
        rng: &mut ChaCha8Rng,
    ) -> Vec<u8> {
        let n = request.rules.size;
        let full_pass = request.full_pass();
        // A puzzle whose drawn clues alone fix the grid (a killer's cages) needs no given at
        // all: try that first.
        let bare = vec![0; n * n];
        if !request.drawn.is_empty() && self.keeps(&bare) {
            return bare;
        }
        // Every cell of an orbit has the same (sorted) orbit, so sorting and deduplicating
        // leaves each orbit once.
        let symmetry = request.symmetry;
        let mut orbits: Vec<Vec<(usize, usize)>> = (0..n * n)
            .map(|i| symmetry.orbit(n, i / n, i % n))
            .collect();
        orbits.sort();
        orbits.dedup();
        orbits.shuffle(rng);
        let floor = n * n * 2 / 5;
        let mut givens = solution.to_vec();
        let mut clues = n * n;
        let mut tried = 0;
        for orbit in orbits {
            if let Some(counter) = progress {
                counter.store(tried, Ordering::Relaxed);
            }
            tried += orbit.len() as u64;
            if (!full_pass && clues <= floor) || self.cancelled() {
                break;
            }
            for &(r, c) in &orbit {
                givens[r * n + c] = 0;
            }
            if self.keeps(&givens) {
                clues -= orbit.len();
            } else {
                for &(r, c) in &orbit {
                    givens[r * n + c] = solution[r * n + c];
                }
            }
        }
        givens
    }

    /// Whether the puzzle with `givens` still has exactly one solution, found within the
    /// budget, and is no harder than the ceiling.
    fn keeps(&mut self, givens: &[u8]) -> bool {
        let count = if self.encoding.choose_givens(self.solver, givens) {
            let mut search = self.solver.search();
            let count = search.count(Some(2));
            search.end_unchoosing_all();
            count
        } else {
            0
        };
        if self.solver.interrupted() {
            self.undecided += 1;
            return false;
        }
        count == 1
            && self.ceiling.is_none_or(|level| {
                let puzzle = self
                    .template
                    .with_givens(givens)
                    .expect("givens of the size");
                rating_of(&puzzle).level <= level
            })
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
