//! Human-style solving: named techniques, one explained step at a time.
//!
//! Search proves what the answer is; this module says why each digit goes where it goes, the
//! way a person reasons (seed post 003). A [`Position`] keeps every empty cell's candidates;
//! [`next_step`] tries the techniques from simplest to hardest and returns the first one that
//! makes progress, as a [`Step`] naming the technique, the placements or eliminations, and the
//! cells that justify it. [`solve`] repeats that until the grid is full or logic stalls, and
//! [`rate`] turns the hardest technique needed into a level and a score.
//!
//! Variants are solved the same way ([`Position::of_variant`], [`solve_from`]): a position
//! sees only units, peers and sums (module `position`), so singles, locked candidates,
//! subsets and wings work on jigsaw regions, diagonals and windows as on boxes, the neighbour
//! rules take candidates away as a placement's peers do, and killer cages add their own
//! arithmetic (module `cages`). The unit techniques are in module `techniques`; colouring,
//! chains (through every rule that relates two cells), almost locked sets, forcing chains and
//! the uniqueness techniques in modules of their own.
//!
//! Every technique here is a sound deduction from the rules alone, so no step can contradict
//! any solution of the puzzle; the tests check that against the engine's solutions, and on
//! random small variants against every solution. The exception is the uniqueness techniques,
//! which also assume what a setter declares, one solution, and run only when told
//! ([`Position::declared_unique`]).

use std::fmt;
use std::ops::ControlFlow;

mod als;
mod cages;
mod chains;
mod clues;
mod colouring;
mod forcing;
mod pairs;
mod position;
mod techniques;
mod uniqueness;

use itertools::Itertools;

use super::model::{Cell, Grid, symbol_name};
use techniques::{
    finned_fish, fish, hidden_single, hidden_subset, locked_candidates, naked_single, naked_subset,
    xy_wing, xyz_wing,
};

pub use position::{Contradiction, Position, Stop};

/// The techniques, simplest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// A cell with one candidate left.
    NakedSingle,
    /// A symbol with one place left in a box, row or column.
    HiddenSingle,
    /// A killer cage whose sum only some combinations of its candidates make.
    CageCombination,
    /// Cells that a unit's cages leave out (or put outside it) add up to a known sum.
    InniesAndOuties,
    /// A clue read along cells (an arrow, a sum, a sandwich, a between line...) that no
    /// filling of the cells' candidates keeps with some candidate.
    ClueReading,
    /// Two cells a rule relates (a thermometer, a dot, a whisper) where a candidate of one
    /// has no partner among the other's.
    RelatedCells,
    /// A symbol confined to one line within a box: removed from the rest of that line.
    Pointing,
    /// A symbol confined to one box within a line: removed from the rest of that box.
    Claiming,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// Two symbols with the same two places in a unit.
    HiddenPair,
    /// Three cells of a unit with three candidates between them.
    NakedTriple,
    /// Three symbols with three places between them in a unit.
    HiddenTriple,
    /// A symbol in two rows confined to the same two columns (or the other way round).
    XWing,
    /// A pivot {a,b} seeing pincers {a,c} and {b,c}: c leaves cells seeing both pincers.
    XyWing,
    /// X-wing with three rows and three columns.
    Swordfish,
    /// A pivot {x,y,z} seeing pincers {x,z} and {y,z}: z leaves cells seeing all three.
    XyzWing,
    /// Four cells of a rectangle that would let two symbols swap (types 1 to 4), in a puzzle
    /// declared unique.
    UniqueRectangle,
    /// Every empty cell bivalue but one: it holds its symbol with three places in its units
    /// (in a puzzle declared unique).
    BugPlusOne,
    /// X-wing with four rows and four columns.
    Jellyfish,
    /// An X-wing but for fins in one place: cells of its columns seeing every fin lose it.
    FinnedXWing,
    /// A symbol with two places in each of two parallel lines, one end of each seeing the
    /// other's: cells seeing both other ends lose it.
    Skyscraper,
    /// The same with a row and a column whose ends meet in a box.
    TwoStringKite,
    /// The same with a box or another area for one of the lines.
    TurbotFish,
    /// The same with a box whose places lie in one row and one column, as a group.
    EmptyRectangle,
    /// One symbol's places linked through units where it has two, in two colours: a colour
    /// that sees itself is false, a place seeing both colours loses the symbol.
    SimpleColouring,
    /// A finned swordfish.
    FinnedSwordfish,
    /// Two cells {x,y} seeing the two ends of a unit link of y: cells seeing both lose x.
    WWing,
    /// An XY-chain whose cells all have the same two candidates.
    RemotePair,
    /// A chain of one symbol through units where it has two places.
    XChain,
    /// A chain of cells with two candidates each.
    XyChain,
    /// Colouring across two clusters of one symbol.
    MultiColouring,
    /// A finned jellyfish.
    FinnedJellyfish,
    /// Two almost locked sets with a restricted common symbol: a second common symbol is in
    /// one of them.
    AlsXz,
    /// Two almost locked sets each with a restricted common symbol with a third.
    AlsXyWing,
    /// An alternating inference chain through any strong and weak links.
    Aic,
    /// A candidate whose consequences run into a contradiction.
    ForcingChain,
    /// Every candidate of a cell, or every place of a symbol in a unit, forcing the same.
    ForcingNet,
    /// A candidate whose consequences, with forcing chains inside, run into a contradiction.
    NestedForcingChain,
}

impl Technique {
    /// Every technique, in the order they are tried.
    pub const ALL: [Technique; 38] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::RelatedCells,
        Technique::CageCombination,
        Technique::InniesAndOuties,
        Technique::ClueReading,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::XyWing,
        Technique::Swordfish,
        Technique::XyzWing,
        Technique::UniqueRectangle,
        Technique::Jellyfish,
        Technique::FinnedXWing,
        Technique::BugPlusOne,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::SimpleColouring,
        Technique::FinnedSwordfish,
        Technique::WWing,
        Technique::RemotePair,
        Technique::XChain,
        Technique::XyChain,
        Technique::MultiColouring,
        Technique::FinnedJellyfish,
        Technique::AlsXz,
        Technique::AlsXyWing,
        Technique::Aic,
        Technique::ForcingChain,
        Technique::ForcingNet,
        Technique::NestedForcingChain,
    ];

    /// Whether the technique is tried on grids of side `size`. The dearest grow too fast with
    /// the grid: almost locked sets, chains of every link and nested forcing run up to 9x9,
    /// the other chains, colouring and forcing up to 16x16; beyond, logic stops at the
    /// expert techniques (the engine finishes).
    pub fn reaches(self, size: usize) -> bool {
        match self {
            Technique::AlsXz
            | Technique::AlsXyWing
            | Technique::Aic
            | Technique::NestedForcingChain => size <= 9,
            other if other.level() >= Level::Extreme => size <= 16,
            _ => true,
        }
    }

    /// The name used in explanations.
    pub fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::CageCombination => "cage combination",
            Technique::InniesAndOuties => "innies and outies",
            Technique::ClueReading => "clue reading",
            Technique::RelatedCells => "related cells",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::HiddenTriple => "hidden triple",
            Technique::XWing => "X-wing",
            Technique::XyWing => "XY-wing",
            Technique::Swordfish => "swordfish",
            Technique::XyzWing => "XYZ-wing",
            Technique::UniqueRectangle => "unique rectangle",
            Technique::BugPlusOne => "BUG+1",
            Technique::Jellyfish => "jellyfish",
            Technique::FinnedXWing => "finned X-wing",
            Technique::Skyscraper => "skyscraper",
            Technique::TwoStringKite => "two-string kite",
            Technique::TurbotFish => "turbot fish",
            Technique::EmptyRectangle => "empty rectangle",
            Technique::SimpleColouring => "simple colouring",
            Technique::FinnedSwordfish => "finned swordfish",
            Technique::WWing => "W-wing",
            Technique::RemotePair => "remote pair",
            Technique::XChain => "X-chain",
            Technique::XyChain => "XY-chain",
            Technique::MultiColouring => "multi-colouring",
            Technique::FinnedJellyfish => "finned jellyfish",
            Technique::AlsXz => "ALS-XZ",
            Technique::AlsXyWing => "ALS-XY-wing",
            Technique::Aic => "alternating inference chain",
            Technique::ForcingChain => "forcing chain",
            Technique::ForcingNet => "forcing net",
            Technique::NestedForcingChain => "nested forcing chain",
        }
    }

    /// The difficulty level a puzzle needing this technique has.
    pub fn level(self) -> Level {
        match self {
            Technique::NakedSingle | Technique::HiddenSingle | Technique::RelatedCells => {
                Level::Easy
            }
            Technique::CageCombination
            | Technique::InniesAndOuties
            | Technique::ClueReading
            | Technique::Pointing
            | Technique::Claiming
            | Technique::NakedPair
            | Technique::HiddenPair => Level::Medium,
            Technique::NakedTriple | Technique::HiddenTriple | Technique::XWing => Level::Hard,
            Technique::XyWing | Technique::Swordfish => Level::Expert,
            Technique::ForcingChain | Technique::ForcingNet | Technique::NestedForcingChain => {
                Level::Forcing
            }
            _ => Level::Extreme,
        }
    }

    /// How hard one use of the technique is, in tenths, on a scale like Sudoku Explainer's
    /// (1.0 for a single, about 4 for wings and swordfish, 6.5 to 7.5 for chains, 8 and more
    /// for forcing chains and nets). A puzzle scores its hardest step.
    pub fn difficulty(self) -> u32 {
        match self {
            Technique::NakedSingle => 10,
            Technique::HiddenSingle => 15,
            Technique::RelatedCells => 18,
            Technique::Pointing => 26,
            Technique::Claiming => 28,
            Technique::CageCombination | Technique::ClueReading => 28,
            Technique::NakedPair => 30,
            Technique::InniesAndOuties => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple => 40,
            Technique::XyWing => 42,
            Technique::XyzWing => 44,
            Technique::UniqueRectangle => 46,
            Technique::Jellyfish => 52,
            Technique::BugPlusOne => 56,
            Technique::FinnedXWing => 54,
            Technique::Skyscraper => 60,
            Technique::TwoStringKite => 61,
            Technique::TurbotFish => 62,
            Technique::EmptyRectangle => 62,
            Technique::SimpleColouring => 63,
            Technique::FinnedSwordfish => 64,
            Technique::WWing => 65,
            Technique::RemotePair => 66,
            Technique::XChain => 68,
            Technique::XyChain => 70,
            Technique::MultiColouring => 71,
            Technique::FinnedJellyfish => 72,
            Technique::AlsXz => 73,
            Technique::AlsXyWing => 74,
            Technique::Aic => 75,
            Technique::ForcingChain => 85,
            Technique::ForcingNet => 90,
            Technique::NestedForcingChain => 95,
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How hard a puzzle is, from the hardest technique it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Singles only.
    Easy,
    /// Locked candidates and pairs.
    Medium,
    /// Triples and X-wings.
    Hard,
    /// XY-wings and swordfish.
    Expert,
    /// Wings beyond XY, jellyfish and finned fish, skyscrapers and kites, colouring and
    /// chains.
    Extreme,
    /// Forcing chains and nets.
    Forcing,
    /// The techniques here do not finish it: it needs search.
    NeedsSearch,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 7] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
        Level::Forcing,
        Level::NeedsSearch,
    ];

    /// The name printed by `rate`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
            Level::Forcing => "forcing",
            Level::NeedsSearch => "needs-search",
        }
    }

    /// How many of `levels` are at each level, easiest first, the absent left out: "3 easy,
    /// 1 expert" (what a generator made instead of the level it was asked for).
    pub fn tally(levels: &[Level]) -> String {
        let counts: Vec<String> = Level::ALL
            .iter()
            .filter_map(|level| {
                let n = levels.iter().filter(|&l| l == level).count();
                (n > 0).then(|| format!("{n} {level}"))
            })
            .collect();
        counts.join(", ")
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One deduction: a technique, what it places or eliminates, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// Cells filled, with their symbols.
    pub placements: Vec<(Cell, u8)>,
    /// Candidates removed.
    pub eliminations: Vec<(Cell, u8)>,
    /// The cells whose contents or candidates justify the step.
    pub reasons: Vec<Cell>,
    /// The justification in words, after the technique's name.
    pub detail: String,
    /// The links of the chain behind the step, in order, for drawing; empty for a step that
    /// is no chain (singles, subsets, fish, ...).
    pub links: Vec<ChainLink>,
}

/// A link between two candidates of a step's chain, as a picture draws it: strong when at
/// least one of the two is true, weak when they are not both true.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainLink {
    /// Where the link starts.
    pub from: ChainNode,
    /// Where it ends.
    pub to: ChainNode,
    /// Whether at least one end is true (otherwise: not both are).
    pub strong: bool,
}

/// One end of a [`ChainLink`]: a symbol in one cell, or in a group of cells (a box's places
/// on a line), true when one of them holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainNode {
    /// The cell, or the group's cells.
    pub cells: Vec<Cell>,
    /// The symbol.
    pub symbol: u8,
}

impl fmt::Display for Step {
    /// `naked single: r6c2=2 (row 6 has 1 5 7 8, ...)` or
    /// `pointing: r3c5<>6, r3c7<>6 (in box 1, 6 lies only in row 3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let changes = self
            .placements
            .iter()
            .map(|(cell, v)| format!("{cell}={}", symbol_name(*v)))
            .chain(
                self.eliminations
                    .iter()
                    .map(|(cell, v)| format!("{cell}<>{}", symbol_name(*v))),
            )
            .join(", ");
        write!(f, "{}: {changes} ({})", self.technique, self.detail)
    }
}

impl Step {
    /// A step that only removes candidates.
    fn eliminating(
        technique: Technique,
        eliminations: Vec<(Cell, u8)>,
        reasons: Vec<Cell>,
        detail: String,
    ) -> Step {
        Step {
            technique,
            placements: vec![],
            eliminations,
            reasons,
            detail,
            links: Vec::new(),
        }
    }

    /// This step, with the links of the chain behind it.
    fn with_links(mut self, links: Vec<ChainLink>) -> Step {
        self.links = links;
        self
    }
}

/// The next step by the simplest technique that makes progress, or `None` when none does.
pub fn next_step(position: &Position) -> Option<Step> {
    Technique::ALL
        .iter()
        .filter(|technique| technique.reaches(position.size()))
        .find_map(|&technique| find(position, technique))
}

/// The first step a given technique finds in a position, if any.
pub fn find(position: &Position, technique: Technique) -> Option<Step> {
    let mut found = None;
    let _ = visit_steps(position, technique, &mut |step| {
        found = Some(step);
        ControlFlow::Break(())
    });
    found
}

/// Every step a given technique finds in a position, each on its own (applying one may
/// change or cancel the others).
pub fn find_all(position: &Position, technique: Technique) -> Vec<Step> {
    let mut found = Vec::new();
    let _ = visit_steps(position, technique, &mut |step| {
        found.push(step);
        ControlFlow::Continue(())
    });
    found
}

/// Receives the steps a technique finds, and says whether to look for more.
type Visit<'a> = &'a mut dyn FnMut(Step) -> ControlFlow<()>;

fn visit_steps(position: &Position, technique: Technique, visit: Visit<'_>) -> ControlFlow<()> {
    match technique {
        Technique::NakedSingle => naked_single(position, visit),
        Technique::HiddenSingle => hidden_single(position, visit),
        Technique::CageCombination => cages::cage_combination(position, visit),
        Technique::InniesAndOuties => cages::innies_and_outies(position, visit),
        Technique::ClueReading => clues::clue_reading(position, visit),
        Technique::RelatedCells => pairs::related_cells(position, visit),
        Technique::Pointing => locked_candidates(position, false, visit),
        Technique::Claiming => locked_candidates(position, true, visit),
        Technique::NakedPair => naked_subset(position, 2, visit),
        Technique::NakedTriple => naked_subset(position, 3, visit),
        Technique::HiddenPair => hidden_subset(position, 2, visit),
        Technique::HiddenTriple => hidden_subset(position, 3, visit),
        Technique::XWing => fish(position, 2, visit),
        Technique::Swordfish => fish(position, 3, visit),
        Technique::XyWing => xy_wing(position, visit),
        Technique::XyzWing => xyz_wing(position, visit),
        Technique::Jellyfish => fish(position, 4, visit),
        Technique::UniqueRectangle => uniqueness::unique_rectangle(position, visit),
        Technique::BugPlusOne => uniqueness::bug_plus_one(position, visit),
        Technique::FinnedXWing => finned_fish(position, 2, visit),
        Technique::FinnedSwordfish => finned_fish(position, 3, visit),
        Technique::FinnedJellyfish => finned_fish(position, 4, visit),
        Technique::Skyscraper
        | Technique::TwoStringKite
        | Technique::TurbotFish
        | Technique::EmptyRectangle => chains::turbot(position, technique, visit),
        Technique::SimpleColouring => colouring::simple_colouring(position, visit),
        Technique::MultiColouring => colouring::multi_colouring(position, visit),
        Technique::WWing => chains::w_wing(position, visit),
        Technique::XChain => chains::x_chain(position, visit),
        Technique::RemotePair | Technique::XyChain => chains::xy_chain(position, technique, visit),
        Technique::AlsXz => als::als_xz(position, visit),
        Technique::AlsXyWing => als::als_xy_wing(position, visit),
        Technique::Aic => chains::aic(position, visit),
        Technique::ForcingChain => forcing::forcing_chain(position, visit),
        Technique::ForcingNet => forcing::forcing_net(position, visit),
        Technique::NestedForcingChain => forcing::nested_forcing_chain(position, visit),
    }
}

/// How far logic got on a puzzle.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The symbols after the last step, row by row, 0 for a cell still empty.
    pub values: Vec<u8>,
    /// Why logic could not go on, if the position became contradictory.
    pub contradiction: Option<Contradiction>,
    /// The position after the last step, candidates and all.
    pub position: Position,
    /// Whether the position's stop predicate ended the search for steps.
    pub stopped: bool,
}

impl Solution {
    /// Whether logic filled every cell.
    pub fn is_complete(&self) -> bool {
        self.values.iter().all(|&v| v != 0) && self.contradiction.is_none()
    }

    /// The hardest technique used, if any step was taken.
    pub fn hardest(&self) -> Option<Technique> {
        self.steps.iter().map(|s| s.technique).max()
    }
}

/// Applies steps to a classic puzzle until the grid is full, logic stalls, or a
/// contradiction shows.
pub fn solve(grid: &Grid) -> Solution {
    solve_from(Position::new(grid))
}

/// Applies steps from a position (of a classic or a variant puzzle) until the grid is full,
/// logic stalls, or a contradiction shows.
pub fn solve_from(mut position: Position) -> Solution {
    let mut steps = Vec::new();
    let mut contradiction = position.contradiction();
    let mut stopped = false;
    while contradiction.is_none() && !position.is_full() {
        let step = next_step(&position);
        if position.stopped() {
            stopped = true;
            break;
        }
        let Some(step) = step else {
            break;
        };
        position.apply(&step);
        steps.push(step);
        contradiction = position.contradiction();
    }
    Solution {
        steps,
        values: position.values.clone(),
        contradiction,
        position,
        stopped,
    }
}

/// A puzzle's difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rating {
    /// The level of the hardest technique needed, or [`Level::NeedsSearch`].
    pub level: Level,
    /// The difficulty of the hardest step, in tenths (see [`Technique::difficulty`]); of the
    /// hardest step taken when logic does not finish.
    pub score: u32,
    /// The hardest technique used, if any.
    pub hardest: Option<Technique>,
}

impl Rating {
    /// The score as people write it: `4.2`.
    pub fn score_text(&self) -> String {
        format!("{}.{}", self.score / 10, self.score % 10)
    }

    /// The score as a number: 4.2.
    pub fn score_value(&self) -> f64 {
        f64::from(self.score) / 10.0
    }
}

/// Rates a puzzle by solving it with logic.
pub fn rate(grid: &Grid) -> Rating {
    rating_of(&solve(grid))
}

/// The rating of a logical solution already computed.
pub fn rating_of(solution: &Solution) -> Rating {
    let hardest = solution.hardest();
    let score = solution
        .steps
        .iter()
        .map(|s| s.technique.difficulty())
        .max()
        .unwrap_or(0);
    let level = if solution.is_complete() {
        solution
            .steps
            .iter()
            .map(|s| s.technique.level())
            .max()
            .unwrap_or(Level::Easy)
    } else {
        Level::NeedsSearch
    };
    Rating {
        level,
        score,
        hardest,
    }
}
