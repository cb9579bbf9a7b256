//! The rules a Sudoku grid can be played under, one module each.
//!
//! A puzzle's [`Rules`] are its shape (the side, and boxes or none) and a list of
//! [`Constraint`]s. Every grid has rows and columns ([`houses`]); a classic Sudoku adds boxes
//! and nothing else. Each other rule lives in its own module, which holds everything about it
//! that does not depend on a file format or a solver: its name in files, the checks of its
//! structure (errors that name cells), what it adds to the exact-cover problem (units that
//! hold each symbol once, pairs of cells that may not hold certain symbols together) and a
//! judge of finished grids written from the rule's definition, sharing no code with that
//! encoding. The encoding ([`crate::sudoku::variant::VariantEncoding`]), the backtracking
//! baseline and the human-style logic read rules only through [`Rules::units`],
//! [`Rules::neighbour_pairs`], [`Rules::allowed`], [`Rules::cages`] and [`Rules::sequences`]
//! (clues read along cells by a small machine: arrows, sums); the checker asks each rule
//! itself.
//!
//! What a page draws for a rule is the rule's too ([`Rule::marks`], in the shapes of
//! [`Mark`]).
//!
//! Adding a rule: a module with a type implementing [`Rule`] (a rule of clues also reads them
//! from their lines and writes them back, [`Rule::lines`]), a variant of [`Constraint`], and
//! its line in [`Constraint::rule`], [`CATALOGUE`] and [`Constraint::named`] or, for a rule of
//! clues, [`LISTED`] and [`Constraint::listed`].

mod anti_king;
mod anti_knight;
mod anti_taxicab;
mod arrows;
mod between_lines;
mod clones;
mod counting_circles;
mod diagonals;
mod disjoint_groups;
mod doppelganger;
mod double_arrows;
mod drawing;
mod dutch_flatmates;
mod entropic_lines;
mod equal_sums;
mod equality_cages;
mod full_rank;
mod global_groups;
mod greater_than;
pub mod houses;
mod indexing;
mod killer;
mod kropki;
mod little_killers;
mod lockout_lines;
mod lunchboxes;
mod modular_lines;
mod negative_clues;
mod non_consecutive;
mod numbered_rooms;
mod outside;
mod pair_relations;
mod palindromes;
mod pencilmarks;
mod quadruples;
mod region_sum_lines;
mod regions;
mod rellik_cages;
mod renban;
mod sandwiches;
pub mod sequences;
mod skyscrapers;
mod sum_lines;
mod sumless_cages;
mod sums;
mod thermometers;
mod value_indexing;
mod whispers;
mod windows;
mod x_sums;
mod xv;
mod zipper_lines;

use std::fmt;

pub use anti_king::AntiKing;
pub use anti_knight::AntiKnight;
pub use anti_taxicab::AntiTaxicab;
pub use arrows::{Arrow, Arrows, MAX_CIRCLE, pill_number};
pub use between_lines::BetweenLines;
pub use clones::Clones;
pub use counting_circles::CountingCircles;
pub use diagonals::Diagonals;
pub use disjoint_groups::DisjointGroups;
pub use doppelganger::Doppelganger;
pub use double_arrows::DoubleArrows;
pub use drawing::{Mark, outside_start};
pub use dutch_flatmates::DutchFlatmates;
pub use entropic_lines::EntropicLines;
pub use equal_sums::EqualSums;
pub use equality_cages::EqualityCages;
pub use full_rank::FullRank;
pub use global_groups::GlobalGroups;
pub use greater_than::GreaterThan;
pub use indexing::Indexing;
pub use killer::{Cage, Killer};
pub use kropki::{Dot, Kropki};
pub use little_killers::LittleKillers;
pub use lockout_lines::LockoutLines;
pub use lunchboxes::Lunchboxes;
pub use modular_lines::{DEFAULT_MODULUS, ModularLines};
pub use negative_clues::{Negated, NegativeClues};
pub use non_consecutive::NonConsecutive;
pub use numbered_rooms::NumberedRooms;
pub use outside::{Outside, Side};
pub use pair_relations::{PairRelation, PairRelations, table_of_key};
pub use palindromes::Palindromes;
pub use pencilmarks::Pencilmarks;
pub use quadruples::Quadruples;
pub use region_sum_lines::RegionSumLines;
pub use regions::{Regions, region_letter, region_name};
pub use rellik_cages::RellikCages;
pub use renban::Renban;
pub use sandwiches::Sandwiches;
pub use skyscrapers::Skyscrapers;
pub use sum_lines::{SumLine, SumLines};
pub use sumless_cages::SumlessCages;
pub use sums::Sums;
pub use thermometers::Thermometers;
pub use value_indexing::ValueIndexing;
pub use whispers::{Whispers, german_difference};
pub use windows::Windows;
pub use x_sums::XSums;
pub use xv::Xv;
pub use zipper_lines::ZipperLines;

#[cfg(feature = "generate")]
pub(crate) use regions::{connected, orthogonal_neighbours};

use super::BoxShape;
use sequences::Sequence;

/// The largest side of a grid under any rules, as of a plain one.
pub const MAX_RULES_SIZE: usize = crate::sudoku::MAX_SIZE;

/// A cell as row and column, from 0.
pub type Cell = (usize, usize);

/// Writes a cell as people do, `r1c1` for the top-left.
pub fn cell_name((row, col): Cell) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

/// What a rule is and does, whatever reads or solves it.
pub trait Rule {
    /// The rule's name in files: `diagonals`, `anti-knight`.
    fn name(&self) -> &'static str;

    /// What messages call it: `the anti-knight rule`.
    fn title(&self) -> &'static str;

    /// Checks the rule's structure against the rest of `rules` (cells inside the grid, shapes
    /// it needs).
    fn validate(&self, _rules: &Rules) -> Result<(), RulesError> {
        Ok(())
    }

    /// The sets of `size` cells this rule makes hold each symbol once.
    fn units(&self, _rules: &Rules) -> Vec<Unit> {
        Vec::new()
    }

    /// The pairs of cells this rule relates, each once (first cell first in reading order),
    /// with what it forbids them to hold together.
    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        Vec::new()
    }

    /// The (cell, symbol) pairs this rule rules out on its own, whatever the other cells hold
    /// (pencilmarks).
    fn excluded(&self, _rules: &Rules) -> Vec<(Cell, u8)> {
        Vec::new()
    }

    /// The clues of this rule that are read along their cells (arrows, sums), as machines
    /// (see [`sequences`]).
    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        Vec::new()
    }

    /// The first way a filled grid (row by row, symbols from 1 to `rules.size`) breaks the
    /// rule, described; `None` when it keeps it. Written from the rule's definition, not from
    /// [`Rule::units`] or [`Rule::pairs`], so that it can judge them.
    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String>;

    /// The weighted sums of cells this rule implies (see [`CellSum`]), which the exact-cover
    /// search reasons about beside the rule's own encoding: an arrow's cells less its
    /// circle's number make 0. Empty for a rule that is not arithmetic.
    fn sums(&self, _rules: &Rules) -> Vec<CellSum> {
        Vec::new()
    }

    /// How many switches the rule's sums use: choices, on or off, that the grid decides but
    /// that no cell holds (whether a symbol is in a set of counting circles at all). The
    /// search makes each a choice of its own; [`CellSum::switches`] number them from 0.
    fn switches(&self, _rules: &Rules) -> usize {
        0
    }

    /// Whether the search may leave [`Rule::sums`] unweighed where it branches and only
    /// check them in the solutions it finds: for a rule of many sums that seldom prune,
    /// whose weighing at every branch point costs more than the branches it spares.
    fn sums_checked_at_solutions(&self, _rules: &Rules) -> bool {
        false
    }

    /// Whether [`Rule::sums`] say all the rule says: a grid that meets them keeps the rule,
    /// so a search that checks sums needs no other encoding of its clues.
    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        false
    }

    /// The groups of cells this rule makes hold different symbols that together make one of
    /// a few sets (a renban line of three cells holds 1-3, 2-4, ... or 7-9), which the
    /// exact-cover search sees whole: the symbols every set has must be on the group. Empty
    /// for most rules; a rule giving them still states itself by its pairs or units.
    fn set_groups(&self, _rules: &Rules) -> Vec<SetGroup> {
        Vec::new()
    }

    /// For a rule of clues (thermometers, dots), one line per clue as the block format
    /// writes them after its `name: K` key (see [`Constraint::listed`]); empty for others.
    fn lines(&self) -> Vec<String> {
        Vec::new()
    }

    /// What a picture of the puzzle draws for this rule (see [`Mark`]): nothing for a
    /// rule with no clues on the board (anti-knight).
    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        Vec::new()
    }
}

/// A sum a rule implies: over `terms`, the value each cell's symbol has by its weight adds up
/// to a total from `min` to `max`. It restates part of the rule as arithmetic for a search
/// that can reason about sums ([`crate::dlx::Sum`]); it never allows a grid the rule forbids,
/// and a rule's [`Rule::broken`] is still what judges a grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellSum {
    /// The cells with their weights; a cell may be named more than once (its values add).
    pub terms: Vec<(Cell, Weight)>,
    /// The rule's switches (see [`Rule::switches`]) the sum counts, each with what it adds
    /// when on (off adds 0).
    pub switches: Vec<(usize, i64)>,
    pub min: i64,
    pub max: i64,
}

/// What a cell's symbol adds to a [`CellSum`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Weight {
    /// The symbol times this number.
    Times(i64),
    /// For symbol `v`, entry `v - 1` (past the end, 0): 1 for the symbols of a group and 0
    /// for the others counts the group's cells.
    Values(Vec<i64>),
}

impl Weight {
    /// What symbol `v` adds.
    pub fn of(&self, v: u8) -> i64 {
        match self {
            Weight::Times(k) => k * i64::from(v),
            Weight::Values(values) => values.get(usize::from(v) - 1).copied().unwrap_or(0),
        }
    }
}

impl CellSum {
    /// The cells of `plus` less those of `minus` make `total`.
    pub fn difference(plus: &[Cell], minus: &[Cell], total: i64) -> CellSum {
        let terms = plus
            .iter()
            .map(|&cell| (cell, Weight::Times(1)))
            .chain(minus.iter().map(|&cell| (cell, Weight::Times(-1))))
            .collect();
        CellSum {
            terms,
            switches: Vec::new(),
            min: total,
            max: total,
        }
    }

    /// Each clue's cells add up to its total (little killers, sums).
    pub fn totals(clues: &[(u32, Vec<Cell>)]) -> Vec<CellSum> {
        clues
            .iter()
            .map(|(total, cells)| CellSum::difference(cells, &[], i64::from(*total)))
            .collect()
    }

    /// Every set of `sets` adds up to the same sum: the first less each other makes 0.
    pub fn all_equal(sets: &[Vec<Cell>]) -> Vec<CellSum> {
        sets.iter()
            .skip(1)
            .map(|set| CellSum::difference(&sets[0], set, 0))
            .collect()
    }
}

/// Cells that hold different symbols, which make one of `sets` (bit V for symbol V); see
/// [`Rule::set_groups`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetGroup {
    pub cells: Vec<Cell>,
    pub sets: Vec<sequences::Symbols>,
    /// Whether the search applies the exclusion rule to the group's items wherever its
    /// rules run ([`Problem::add_exclusion_items`](crate::dlx::Problem::add_exclusion_items)):
    /// a cell that sees every cell where a symbol the group must hold can go loses that
    /// symbol, whether it sees them through one unit or several.
    pub exclusions: bool,
}

/// One rule of a puzzle beyond rows, columns and boxes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Constraint {
    Pencilmarks(Pencilmarks),
    Regions(Regions),
    Diagonals(Diagonals),
    Windows(Windows),
    DisjointGroups(DisjointGroups),
    AntiKnight(AntiKnight),
    AntiKing(AntiKing),
    NonConsecutive(NonConsecutive),
    Thermometers(Thermometers),
    Whispers(Whispers),
    Renban(Renban),
    Palindromes(Palindromes),
    ModularLines(ModularLines),
    EntropicLines(EntropicLines),
    GreaterThan(GreaterThan),
    Kropki(Kropki),
    Xv(Xv),
    NegativeClues(NegativeClues),
    Killer(Killer),
    SumlessCages(SumlessCages),
    AntiTaxicab(AntiTaxicab),
    GlobalGroups(GlobalGroups),
    DutchFlatmates(DutchFlatmates),
    Indexing(Indexing),
    PairRelations(PairRelations),
    Clones(Clones),
    Arrows(Arrows),
    DoubleArrows(DoubleArrows),
    BetweenLines(BetweenLines),
    LockoutLines(LockoutLines),
    ZipperLines(ZipperLines),
    RegionSumLines(RegionSumLines),
    SumLines(SumLines),
    Sums(Sums),
    EqualSums(EqualSums),
    EqualityCages(EqualityCages),
    RellikCages(RellikCages),
    Quadruples(Quadruples),
    LittleKillers(LittleKillers),
    Sandwiches(Sandwiches),
    Lunchboxes(Lunchboxes),
    XSums(XSums),
    Skyscrapers(Skyscrapers),
    NumberedRooms(NumberedRooms),
    FullRank(FullRank),
    ValueIndexing(ValueIndexing),
    CountingCircles(CountingCircles),
    Doppelganger(Doppelganger),
}

/// The names of the rules in files, in the order files write them: rows, columns and boxes,
/// then each [`Constraint`].
pub const CATALOGUE: [&str; 52] = [
    "rows",
    "columns",
    "boxes",
    pencilmarks::NAME,
    regions::NAME,
    diagonals::NAME,
    windows::NAME,
    disjoint_groups::NAME,
    anti_knight::NAME,
    anti_king::NAME,
    non_consecutive::NAME,
    thermometers::NAME,
    whispers::NAME,
    renban::NAME,
    palindromes::NAME,
    modular_lines::NAME,
    entropic_lines::NAME,
    greater_than::NAME,
    kropki::NAME,
    xv::NAME,
    negative_clues::NAME,
    killer::NAME,
    sumless_cages::NAME,
    anti_taxicab::NAME,
    global_groups::ENTROPY,
    global_groups::MODULAR,
    dutch_flatmates::NAME,
    indexing::NAME,
    pair_relations::NAME,
    clones::NAME,
    arrows::NAME,
    double_arrows::NAME,
    between_lines::NAME,
    lockout_lines::NAME,
    zipper_lines::NAME,
    region_sum_lines::NAME,
    sum_lines::NAME,
    sums::NAME,
    equal_sums::NAME,
    equality_cages::NAME,
    rellik_cages::NAME,
    quadruples::NAME,
    little_killers::NAME,
    sandwiches::NAME,
    lunchboxes::NAME,
    x_sums::NAME,
    skyscrapers::NAME,
    numbered_rooms::NAME,
    full_rank::NAME,
    value_indexing::NAME,
    counting_circles::NAME,
    doppelganger::NAME,
];

/// The rules read on a rectangle of fewer rows than symbols (6x9): those of clues on cells
/// named one by one, and the global rules that know the rectangle's rows.
const RECTANGLE_RULES: [&str; 16] = [
    pencilmarks::NAME,
    anti_knight::NAME,
    anti_king::NAME,
    non_consecutive::NAME,
    thermometers::NAME,
    whispers::NAME,
    renban::NAME,
    palindromes::NAME,
    greater_than::NAME,
    kropki::NAME,
    xv::NAME,
    indexing::NAME,
    clones::NAME,
    arrows::NAME,
    between_lines::NAME,
    sums::NAME,
];

/// The rules read on doppelganger's grid of digits from 0: those whose clues say the same
/// whatever the digits are called (orders, differences, sets of consecutive digits), not sums.
const FROM_ZERO_RULES: [&str; 9] = [
    doppelganger::NAME,
    pencilmarks::NAME,
    thermometers::NAME,
    whispers::NAME,
    renban::NAME,
    palindromes::NAME,
    greater_than::NAME,
    clones::NAME,
    between_lines::NAME,
];

/// The rules given as a list of clues, one a line, after a `name: K` key in the block format.
pub const LISTED: [&str; 36] = [
    pencilmarks::NAME,
    thermometers::NAME,
    whispers::NAME,
    renban::NAME,
    palindromes::NAME,
    modular_lines::NAME,
    entropic_lines::NAME,
    greater_than::NAME,
    kropki::NAME,
    xv::NAME,
    negative_clues::NAME,
    sumless_cages::NAME,
    indexing::NAME,
    pair_relations::NAME,
    clones::NAME,
    arrows::NAME,
    double_arrows::NAME,
    between_lines::NAME,
    lockout_lines::NAME,
    zipper_lines::NAME,
    region_sum_lines::NAME,
    sum_lines::NAME,
    sums::NAME,
    equal_sums::NAME,
    equality_cages::NAME,
    rellik_cages::NAME,
    quadruples::NAME,
    little_killers::NAME,
    sandwiches::NAME,
    lunchboxes::NAME,
    x_sums::NAME,
    skyscrapers::NAME,
    numbered_rooms::NAME,
    full_rank::NAME,
    value_indexing::NAME,
    counting_circles::NAME,
];

impl Constraint {
    /// The rule, to ask what it does.
    pub fn rule(&self) -> &dyn Rule {
        match self {
            Constraint::Pencilmarks(rule) => rule,
            Constraint::Regions(rule) => rule,
            Constraint::Diagonals(rule) => rule,
            Constraint::Windows(rule) => rule,
            Constraint::DisjointGroups(rule) => rule,
            Constraint::AntiKnight(rule) => rule,
            Constraint::AntiKing(rule) => rule,
            Constraint::NonConsecutive(rule) => rule,
            Constraint::Thermometers(rule) => rule,
            Constraint::Whispers(rule) => rule,
            Constraint::Renban(rule) => rule,
            Constraint::Palindromes(rule) => rule,
            Constraint::ModularLines(rule) => rule,
            Constraint::EntropicLines(rule) => rule,
            Constraint::GreaterThan(rule) => rule,
            Constraint::Kropki(rule) => rule,
            Constraint::Xv(rule) => rule,
            Constraint::NegativeClues(rule) => rule,
            Constraint::Killer(rule) => rule,
            Constraint::SumlessCages(rule) => rule,
            Constraint::AntiTaxicab(rule) => rule,
            Constraint::GlobalGroups(rule) => rule,
            Constraint::DutchFlatmates(rule) => rule,
            Constraint::Indexing(rule) => rule,
            Constraint::PairRelations(rule) => rule,
            Constraint::Clones(rule) => rule,
            Constraint::Arrows(rule) => rule,
            Constraint::DoubleArrows(rule) => rule,
            Constraint::BetweenLines(rule) => rule,
            Constraint::LockoutLines(rule) => rule,
            Constraint::ZipperLines(rule) => rule,
            Constraint::RegionSumLines(rule) => rule,
            Constraint::SumLines(rule) => rule,
            Constraint::Sums(rule) => rule,
            Constraint::EqualSums(rule) => rule,
            Constraint::EqualityCages(rule) => rule,
            Constraint::RellikCages(rule) => rule,
            Constraint::Quadruples(rule) => rule,
            Constraint::LittleKillers(rule) => rule,
            Constraint::Sandwiches(rule) => rule,
            Constraint::Lunchboxes(rule) => rule,
            Constraint::XSums(rule) => rule,
            Constraint::Skyscrapers(rule) => rule,
            Constraint::NumberedRooms(rule) => rule,
            Constraint::FullRank(rule) => rule,
            Constraint::ValueIndexing(rule) => rule,
            Constraint::CountingCircles(rule) => rule,
            Constraint::Doppelganger(rule) => rule,
        }
    }

    /// The rule named `name` in files when it needs nothing more than its name (`diagonals`,
    /// not `regions` or `cages`, which need a map or a list).
    pub fn named(name: &str) -> Option<Constraint> {
        Some(match name {
            diagonals::NAME => Constraint::Diagonals(Diagonals),
            windows::NAME => Constraint::Windows(Windows),
            disjoint_groups::NAME => Constraint::DisjointGroups(DisjointGroups),
            anti_knight::NAME => Constraint::AntiKnight(AntiKnight),
            anti_king::NAME => Constraint::AntiKing(AntiKing),
            non_consecutive::NAME => Constraint::NonConsecutive(NonConsecutive),
            anti_taxicab::NAME => Constraint::AntiTaxicab(AntiTaxicab),
            global_groups::ENTROPY => Constraint::GlobalGroups(GlobalGroups { modular: false }),
            global_groups::MODULAR => Constraint::GlobalGroups(GlobalGroups { modular: true }),
            dutch_flatmates::NAME => Constraint::DutchFlatmates(DutchFlatmates),
            doppelganger::NAME => Constraint::Doppelganger(Doppelganger),
            _ => return None,
        })
    }

    /// The rule named `name` (one of [`LISTED`]) on a grid of side `size`, read from its
    /// clues, one a line with the line's number in the file; `None` for another name, an
    /// error (line, why) for a clue that cannot be read.
    pub fn listed(
        name: &str,
        size: usize,
        lines: &[(usize, String)],
    ) -> Option<Result<Constraint, (usize, String)>> {
        Some(match name {
            pencilmarks::NAME => Pencilmarks::parse(lines).map(Constraint::Pencilmarks),
            thermometers::NAME => Thermometers::parse(lines).map(Constraint::Thermometers),
            whispers::NAME => Whispers::parse(size, lines).map(Constraint::Whispers),
            renban::NAME => Renban::parse(lines).map(Constraint::Renban),
            palindromes::NAME => Palindromes::parse(lines).map(Constraint::Palindromes),
            modular_lines::NAME => ModularLines::parse(lines).map(Constraint::ModularLines),
            entropic_lines::NAME => EntropicLines::parse(lines).map(Constraint::EntropicLines),
            greater_than::NAME => GreaterThan::parse(lines).map(Constraint::GreaterThan),
            kropki::NAME => Kropki::parse(lines).map(Constraint::Kropki),
            xv::NAME => Xv::parse(lines).map(Constraint::Xv),
            negative_clues::NAME => NegativeClues::parse(lines).map(Constraint::NegativeClues),
            sumless_cages::NAME => SumlessCages::parse(lines).map(Constraint::SumlessCages),
            indexing::NAME => Indexing::parse(lines).map(Constraint::Indexing),
            pair_relations::NAME => PairRelations::parse(lines).map(Constraint::PairRelations),
            clones::NAME => Clones::parse(lines).map(Constraint::Clones),
            arrows::NAME => Arrows::parse(lines).map(Constraint::Arrows),
            double_arrows::NAME => DoubleArrows::parse(lines).map(Constraint::DoubleArrows),
            between_lines::NAME => BetweenLines::parse(lines).map(Constraint::BetweenLines),
            lockout_lines::NAME => LockoutLines::parse(size, lines).map(Constraint::LockoutLines),
            zipper_lines::NAME => ZipperLines::parse(lines).map(Constraint::ZipperLines),
            region_sum_lines::NAME => RegionSumLines::parse(lines).map(Constraint::RegionSumLines),
            sum_lines::NAME => SumLines::parse(lines).map(Constraint::SumLines),
            sums::NAME => Sums::parse(lines).map(Constraint::Sums),
            equal_sums::NAME => EqualSums::parse(lines).map(Constraint::EqualSums),
            equality_cages::NAME => EqualityCages::parse(lines).map(Constraint::EqualityCages),
            rellik_cages::NAME => RellikCages::parse(lines).map(Constraint::RellikCages),
            quadruples::NAME => Quadruples::parse(lines).map(Constraint::Quadruples),
            little_killers::NAME => LittleKillers::parse(lines).map(Constraint::LittleKillers),
            sandwiches::NAME => Sandwiches::parse(lines).map(Constraint::Sandwiches),
            lunchboxes::NAME => Lunchboxes::parse(lines).map(Constraint::Lunchboxes),
            x_sums::NAME => XSums::parse(lines).map(Constraint::XSums),
            skyscrapers::NAME => Skyscrapers::parse(lines).map(Constraint::Skyscrapers),
            numbered_rooms::NAME => NumberedRooms::parse(lines).map(Constraint::NumberedRooms),
            full_rank::NAME => FullRank::parse(lines).map(Constraint::FullRank),
            value_indexing::NAME => ValueIndexing::parse(lines).map(Constraint::ValueIndexing),
            counting_circles::NAME => {
                CountingCircles::parse(lines).map(Constraint::CountingCircles)
            }
            _ => return None,
        })
    }

    /// Its place in [`CATALOGUE`], which orders a puzzle's constraints.
    fn order(&self) -> usize {
        let name = self.rule().name();
        CATALOGUE
            .iter()
            .position(|&known| known == name)
            .expect("every constraint is in the catalogue")
    }
}

/// The rules of a grid: every cell holds one symbol from 1 to `size`, every row and column
/// holds each once, boxes (when given) too; then each constraint adds its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// The number of symbols, which is also the number of cells in a row.
    pub size: usize,
    /// Boxes of this shape hold each symbol once.
    pub boxes: Option<BoxShape>,
    /// The rows of cells, `size` on a square grid (see [`Rules::rows`]).
    rows: usize,
    /// Whether symbols are shown from 0 (see [`Rules::digits_from_zero`]).
    from_zero: bool,
    /// The other rules, in the order of [`CATALOGUE`] (see [`Rules::add`]).
    constraints: Vec<Constraint>,
}

/// Why a puzzle's rules are not valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// A side outside 1..=[`MAX_RULES_SIZE`], or boxes that do not tile it.
    BadSize(String),
    /// Windows need square boxes.
    WindowsNeedSquareBoxes,
    /// A region with the wrong number of cells (region name, cells it has).
    RegionSize(String, usize),
    /// A region whose cells are not connected (region name).
    RegionNotConnected(String),
    /// A cage cell outside the grid (cage number from 1, cell).
    CageCellOutside(usize, Cell),
    /// A cell in two cages (cage number from 1, cell).
    CageOverlap(usize, Cell),
    /// A cage whose sum no distinct symbols can make (cage number from 1, why).
    CageSum(usize, String),
    /// A clue of a rule of clues that cannot be (rule name, clue number from 1, its cells,
    /// why).
    Clue {
        rule: &'static str,
        index: usize,
        cells: Vec<Cell>,
        why: String,
    },
    /// The encoding was stopped before it was built (a deadline or a cancellation).
    Stopped,
}

impl RulesError {
    /// The cells of the grid the error is about (row, column from 0): a cell in two cages;
    /// none for the others, which are about a whole region, cage or grid, or a cell outside
    /// it.
    pub fn cells(&self) -> Vec<Cell> {
        match self {
            RulesError::CageOverlap(_, cell) => vec![*cell],
            RulesError::Clue { cells, .. } => cells.clone(),
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::BadSize(why) => write!(f, "{why}"),
            RulesError::WindowsNeedSquareBoxes => {
                write!(
                    f,
                    "windows need square boxes (a side that is a square: 4, 9, 16, 25)"
                )
            }
            RulesError::RegionSize(region, cells) => {
                write!(f, "region {region} has {cells} cells")
            }
            RulesError::RegionNotConnected(region) => {
                write!(f, "region {region} is not connected")
            }
            RulesError::CageCellOutside(cage, cell) => {
                write!(f, "cage {cage}: {} is outside the grid", cell_name(*cell))
            }
            RulesError::CageOverlap(cage, cell) => {
                write!(
                    f,
                    "cage {cage}: {} is already in another cage",
                    cell_name(*cell)
                )
            }
            RulesError::CageSum(cage, why) => write!(f, "cage {cage}: {why}"),
            RulesError::Clue {
                rule, index, why, ..
            } => write!(f, "{rule} {index}: {why}"),
            RulesError::Stopped => write!(f, "stopped while the cages' options were built"),
        }
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// Plain Sudoku rules with boxes of `shape`.
    pub fn classic(shape: BoxShape) -> Rules {
        Rules {
            boxes: Some(shape),
            ..Rules::latin(shape.size())
        }
    }

    /// Rows and columns only (a Latin square of side `size`).
    pub fn latin(size: usize) -> Rules {
        Rules {
            size,
            boxes: None,
            rows: size,
            from_zero: false,
            constraints: Vec::new(),
        }
    }

    /// These rules on a board of `rows` rows of `size` cells. Fewer rows than symbols make a
    /// rectangle whose columns hold each symbol at most once (6x9: six rows of 1 to 9, boxes
    /// of 3x3); one more is the row of cells beyond the grid that [`Doppelganger`] needs.
    pub fn with_rows(self, rows: usize) -> Rules {
        Rules { rows, ..self }
    }

    /// These rules with symbols shown from 0 (symbol 1 is the digit 0): a grid of 0 to 9
    /// ([`Doppelganger`]).
    pub fn with_symbols_from_zero(self) -> Rules {
        Rules {
            from_zero: true,
            ..self
        }
    }

    /// The rows of cells: `size` on a square grid, fewer on a rectangle (6x9), `size + 1`
    /// with doppelganger's cells beyond the grid. Cells are numbered row by row,
    /// `row * size + column`, `rows * size` of them.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Whether symbol 1 is shown as the digit 0 (and so on up): the rules and the engine
    /// count symbols from 1 whatever they are called.
    pub fn digits_from_zero(&self) -> bool {
        self.from_zero
    }

    /// Whether the board is the plain square grid of side `size` with symbols from 1, which
    /// every command reads; a rectangle or a board of symbols from 0 is solved, counted and
    /// checked, but not yet explained, rated, generated or drawn.
    pub fn is_square(&self) -> bool {
        self.rows == self.size && !self.from_zero
    }

    /// How symbol `v` (from 1) is written: as a digit from 0 on doppelganger's grid, else
    /// as [`crate::sudoku::symbol_name`] writes it (1-9, then letters).
    pub fn symbol_text(&self, v: u8) -> String {
        match (self.from_zero, v) {
            (true, 1) => "0".into(),
            (true, 2..) => crate::sudoku::symbol_name(v - 1),
            _ => crate::sudoku::symbol_name(v),
        }
    }

    /// The number of cells on the board.
    pub fn cell_count(&self) -> usize {
        self.rows * self.size
    }

    /// Whether `cell` is on the board.
    pub fn on_board(&self, (row, col): Cell) -> bool {
        row < self.rows && col < self.size
    }

    /// Whether `cell` is a cell of the grid proper, not one beyond it that a rule adds
    /// (doppelganger's): lines join grid cells that touch.
    pub fn in_grid(&self, (row, col): Cell) -> bool {
        if self.has(doppelganger::NAME) {
            row < self.size - 1 && col < self.size - 1
        } else {
            self.on_board((row, col))
        }
    }

    /// The rows and columns of rows, columns and boxes: all the rows of a square grid or a
    /// rectangle, the first `size` with doppelganger's cells beyond the grid.
    pub fn house_rows(&self) -> usize {
        self.rows.min(self.size)
    }

    /// These rules with boxes of `shape` (or none).
    pub fn with_boxes(self, shape: Option<BoxShape>) -> Rules {
        Rules {
            boxes: shape,
            ..self
        }
    }

    /// These rules and `constraint` (which replaces one of the same rule).
    pub fn with(mut self, constraint: Constraint) -> Rules {
        self.add(constraint);
        self
    }

    /// Adds `constraint` in its place in [`CATALOGUE`], replacing one of the same rule.
    pub fn add(&mut self, constraint: Constraint) {
        let order = constraint.order();
        match self.constraints.iter().position(|c| c.order() >= order) {
            Some(at) if self.constraints[at].order() == order => self.constraints[at] = constraint,
            Some(at) => self.constraints.insert(at, constraint),
            None => self.constraints.push(constraint),
        }
    }

    /// Takes away the rule named `name`, if present.
    pub fn remove(&mut self, name: &str) {
        self.constraints.retain(|c| c.rule().name() != name);
    }

    /// The constraints beyond rows, columns and boxes, in [`CATALOGUE`] order.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Whether the rule named `name` in files is present.
    pub fn has(&self, name: &str) -> bool {
        match name {
            "rows" | "columns" => true,
            "boxes" => self.boxes.is_some(),
            _ => self.constraints.iter().any(|c| c.rule().name() == name),
        }
    }

    /// The jigsaw's region map (the region of each cell, row by row, from 0), if any.
    pub fn regions(&self) -> Option<&[u8]> {
        self.constraints.iter().find_map(|c| match c {
            Constraint::Regions(regions) => Some(&regions.map[..]),
            _ => None,
        })
    }

    /// The killer cages, if any.
    pub fn cages(&self) -> &[Cage] {
        self.constraints
            .iter()
            .find_map(|c| match c {
                Constraint::Killer(killer) => Some(&killer.cages[..]),
                _ => None,
            })
            .unwrap_or(&[])
    }

    /// The names of the rules present, as files write them.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names = vec!["rows", "columns"];
        if self.boxes.is_some() {
            names.push("boxes");
        }
        names.extend(self.constraints.iter().map(|c| c.rule().name()));
        names
    }

    /// Checks the structure: the side and boxes, then each rule's own (regions of `size`
    /// connected cells, windows on square boxes, cages inside the grid, disjoint, with sums
    /// their cells can make).
    pub fn validate(&self) -> Result<(), RulesError> {
        let n = self.size;
        if n == 0 || n > MAX_RULES_SIZE {
            return Err(RulesError::BadSize(format!(
                "the side must be from 1 to {MAX_RULES_SIZE}, found {n}"
            )));
        }
        if let Some(shape) = self.boxes
            && (shape.size() != n || !self.house_rows().is_multiple_of(shape.box_rows()))
        {
            return Err(RulesError::BadSize(format!(
                "boxes of {shape} do not tile a grid of {} rows of {n}",
                self.house_rows()
            )));
        }
        self.validate_board()?;
        for constraint in &self.constraints {
            constraint.rule().validate(self)?;
        }
        self.validate_cells_on_board()
    }

    /// Checks the board beyond a square grid: a rectangle or doppelganger's grid of symbols
    /// from 0, each under the rules known to read it right.
    fn validate_board(&self) -> Result<(), RulesError> {
        let n = self.size;
        let doppelganger = self.has(doppelganger::NAME);
        let (board, allowed): (String, &[&str]) = if doppelganger {
            // Symbols up to 16: the pair tables of clues read along cells hold no more.
            if self.rows != n + 1 || !self.from_zero || n > 16 {
                return Err(RulesError::BadSize(format!(
                    "doppelganger needs a grid of side 1 to 15 of digits from 0 to its side, \
                     with a row of cells beyond it (symbols {n}, rows {})",
                    self.rows
                )));
            }
            ("doppelganger's grid".to_string(), &FROM_ZERO_RULES)
        } else if self.from_zero {
            return Err(RulesError::BadSize(
                "symbols from 0 are read only with doppelganger".into(),
            ));
        } else if self.rows == n {
            return Ok(());
        } else if self.rows == 0 || self.rows > n {
            return Err(RulesError::BadSize(format!(
                "a grid of rows of {n} has 1 to {n} rows, not {}",
                self.rows
            )));
        } else {
            (format!("a {}x{n} grid", self.rows), &RECTANGLE_RULES)
        };
        match self
            .constraints
            .iter()
            .map(|c| c.rule().name())
            .find(|name| !allowed.contains(name))
        {
            Some(name) => Err(RulesError::BadSize(format!(
                "the rule '{name}' is not read on {board} yet (it is with: {})",
                allowed.join(", ")
            ))),
            None => Ok(()),
        }
    }

    /// Checks that every cell each rule relates is on the board: a rule that checks its
    /// cells against a square grid's side still cannot reach past a rectangle's rows.
    fn validate_cells_on_board(&self) -> Result<(), RulesError> {
        if self.is_square() {
            return Ok(());
        }
        for constraint in &self.constraints {
            let rule = constraint.rule();
            let mut cells: Vec<Cell> = Vec::new();
            cells.extend(rule.units(self).into_iter().flat_map(|unit| unit.cells));
            cells.extend(rule.pairs(self).into_iter().flat_map(|(a, b, _)| [a, b]));
            cells.extend(rule.excluded(self).into_iter().map(|(cell, _)| cell));
            cells.extend(rule.sequences(self).into_iter().flat_map(|s| s.cells));
            cells.extend(
                rule.sums(self)
                    .into_iter()
                    .flat_map(|sum| sum.terms.into_iter().map(|(cell, _)| cell)),
            );
            cells.extend(rule.set_groups(self).into_iter().flat_map(|g| g.cells));
            if let Some(&cell) = cells.iter().find(|&&cell| !self.on_board(cell)) {
                return Err(RulesError::BadSize(format!(
                    "{}: {} is outside the grid",
                    rule.title(),
                    cell_name(cell)
                )));
            }
        }
        if let Some(cell) = self
            .cages()
            .iter()
            .flat_map(|cage| cage.cells.iter().copied())
            .find(|&cell| !self.on_board(cell))
        {
            return Err(RulesError::BadSize(format!(
                "a cage: {} is outside the grid",
                cell_name(cell)
            )));
        }
        Ok(())
    }

    /// The units (sets of `size` cells that hold each symbol once): rows, columns, boxes,
    /// then each constraint's (regions, diagonals, windows).
    pub fn units(&self) -> Vec<Unit> {
        let mut units = houses::units(self);
        for constraint in &self.constraints {
            units.extend(constraint.rule().units(self));
        }
        units
    }

    /// What a picture of the puzzle draws for its constraints, rule by rule in
    /// [`CATALOGUE`] order (boxes and jigsaw regions are the areas of the grid, not marks).
    pub fn marks(&self) -> Vec<Mark> {
        self.constraints
            .iter()
            .flat_map(|c| c.rule().marks(self))
            .collect()
    }

    /// The pairs of cells that the neighbour rules relate, each once per rule (first cell
    /// first in reading order), with what the rule forbids.
    pub fn neighbour_pairs(&self) -> Vec<(Cell, Cell, Neighbour)> {
        self.constraints
            .iter()
            .flat_map(|c| c.rule().pairs(self))
            .collect()
    }

    /// The sums of cells every rule implies (see [`Rule::sums`]), their switches numbered
    /// across all rules, from 0 to [`Rules::switches`]; each with whether the search weighs
    /// it where it branches (see [`Rule::sums_checked_at_solutions`]).
    pub fn sums(&self) -> Vec<(CellSum, bool)> {
        let mut base = 0;
        let mut sums = Vec::new();
        for constraint in &self.constraints {
            let weighed = !constraint.rule().sums_checked_at_solutions(self);
            for mut sum in constraint.rule().sums(self) {
                for (switch, _) in &mut sum.switches {
                    *switch += base;
                }
                sums.push((sum, weighed));
            }
            base += constraint.rule().switches(self);
        }
        sums
    }

    /// How many switches the sums of all rules use (see [`Rule::switches`]).
    pub fn switches(&self) -> usize {
        self.constraints
            .iter()
            .map(|c| c.rule().switches(self))
            .sum()
    }

    /// The groups of cells of every rule that hold one of a few sets of symbols (see
    /// [`Rule::set_groups`]).
    pub fn set_groups(&self) -> Vec<SetGroup> {
        self.constraints
            .iter()
            .flat_map(|c| c.rule().set_groups(self))
            .collect()
    }

    /// The clues read along cells, of every rule (see [`sequences`]).
    pub fn sequences(&self) -> Vec<Sequence> {
        self.constraints
            .iter()
            .flat_map(|c| c.rule().sequences(self))
            .collect()
    }

    /// The clues read along cells, of every rule, each with whether its rule's sums state it
    /// whole (see [`Rule::stated_by_sums`]).
    pub fn sequences_and_sums(&self) -> Vec<(Sequence, bool)> {
        self.constraints
            .iter()
            .flat_map(|c| {
                let whole = c.rule().stated_by_sums(self);
                c.rule()
                    .sequences(self)
                    .into_iter()
                    .map(move |sequence| (sequence, whole))
            })
            .collect()
    }

    /// Whether each cell may hold each symbol as far as the rules of single cells go
    /// (pencilmarks): `allowed[cell * size + v - 1]`.
    pub fn allowed(&self) -> Vec<bool> {
        let n = self.size;
        let mut allowed = vec![true; self.cell_count() * n];
        for constraint in &self.constraints {
            for ((r, c), v) in constraint.rule().excluded(self) {
                if self.on_board((r, c)) && (1..=n).contains(&usize::from(v)) {
                    allowed[(r * n + c) * n + usize::from(v) - 1] = false;
                }
            }
        }
        allowed
    }

    /// The first rule a filled grid (row by row, symbols from 1) breaks, described; `None`
    /// when it keeps every rule. Givens that the grid overwrote are a broken rule too. Each
    /// rule judges by its definition, sharing no code with the encoding.
    pub fn broken_rule(&self, givens: &[u8], grid: &[u8]) -> Option<String> {
        let n = self.size;
        if grid.len() != self.cell_count() {
            return Some(format!(
                "the grid has {} cells, not {}",
                grid.len(),
                self.cell_count()
            ));
        }
        for (i, &value) in grid.iter().enumerate() {
            let cell = cell_name((i / n, i % n));
            if value == 0 || usize::from(value) > n {
                return Some(format!("{cell} holds no symbol from 1 to {n}"));
            }
            if givens.get(i).is_some_and(|&g| g != 0 && g != value) {
                return Some(format!("{cell} does not hold its given"));
            }
        }
        houses::broken(self, grid).or_else(|| {
            self.constraints
                .iter()
                .find_map(|c| c.rule().broken(self, grid))
        })
    }
}

/// A set of cells that holds each symbol once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// A short tag for item names: `r1`, `c1`, `b1`, `gA`, `d1`, `d2`, `w1`.
    pub tag: String,
    /// What people call it, for messages: `row 1`, `region A`, `the main diagonal`.
    pub name: String,
    pub cells: Vec<Cell>,
}

/// What a neighbour rule asks of two cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Neighbour {
    /// They hold different symbols.
    Different,
    /// Their symbols do not differ by one.
    NotConsecutive,
    /// The second symbol exceeds the first by at least this much.
    Increasing(u8),
    /// Their symbols differ by one.
    Consecutive,
    /// One symbol is twice the other.
    Double,
    /// Their symbols add up to this.
    Sum(u8),
    /// Their symbols differ by at least this much.
    ApartBy(u8),
    /// Their symbols differ, by at most this much.
    DifferentWithin(u8),
    /// They hold the same symbol.
    Equal,
    /// Their symbols differ modulo this.
    DifferentModulo(u8),
    /// Their symbols fall in different groups of this many consecutive symbols (1 to k, k + 1
    /// to 2k, ...).
    DifferentGroup(u8),
    /// Neither symbol is twice the other.
    NotDouble,
    /// Their symbols do not add up to this.
    NotSum(u8),
    /// They do not both hold this symbol (anti-taxicab).
    NotBoth(u8),
    /// When the first holds the first symbol, the second holds the second (indexing).
    Implies(u8, u8),
    /// When the second holds the second symbol, the first holds the first (indexing).
    ImpliedBy(u8, u8),
    /// Only the pairs of the table are allowed (pair relations).
    Allowed(PairTable),
}

/// A table of allowed symbol pairs on a grid of side up to 16: bit `(a - 1) * 16 + (b - 1)`
/// allows the first cell to hold `a` beside the second holding `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PairTable([u64; 4]);

impl PairTable {
    /// Allows `a` beside `b` (symbols from 1 to 16).
    pub fn allow(&mut self, a: u8, b: u8) {
        let bit = (usize::from(a) - 1) * 16 + usize::from(b) - 1;
        self.0[bit / 64] |= 1 << (bit % 64);
    }

    /// Whether `a` beside `b` is allowed (never for symbols past 16).
    pub fn allows(self, a: u8, b: u8) -> bool {
        if a == 0 || b == 0 || a > 16 || b > 16 {
            return false;
        }
        let bit = (usize::from(a) - 1) * 16 + usize::from(b) - 1;
        self.0[bit / 64] >> (bit % 64) & 1 == 1
    }
}

impl Neighbour {
    /// What the rule asks of cells `a` and `b` (the first and second of the pair), in words:
    /// `r1c2 is at least 1 more than r1c1`.
    pub fn describe(self, a: &str, b: &str) -> String {
        match self {
            Neighbour::Different => format!("{a} and {b} differ"),
            Neighbour::NotConsecutive => format!("{a} and {b} are not consecutive"),
            Neighbour::Increasing(by) => format!("{b} is at least {by} more than {a}"),
            Neighbour::Consecutive => format!("{a} and {b} are consecutive"),
            Neighbour::Double => format!("one of {a} and {b} is double the other"),
            Neighbour::Sum(sum) => format!("{a} and {b} add up to {sum}"),
            Neighbour::ApartBy(by) => format!("{a} and {b} differ by at least {by}"),
            Neighbour::DifferentWithin(most) => {
                format!("{a} and {b} differ, by at most {most}")
            }
            Neighbour::Equal => format!("{a} and {b} are equal"),
            Neighbour::DifferentModulo(m) => format!("{a} and {b} differ modulo {m}"),
            Neighbour::DifferentGroup(k) => {
                format!("{a} and {b} lie in different runs of {k} consecutive symbols")
            }
            Neighbour::NotDouble => format!("neither of {a} and {b} is double the other"),
            Neighbour::NotSum(sum) => format!("{a} and {b} do not add up to {sum}"),
            Neighbour::NotBoth(v) => format!("{a} and {b} are not both {v}"),
            Neighbour::Implies(x, y) => format!("{a} holding {x} puts {y} in {b}"),
            Neighbour::ImpliedBy(x, y) => format!("{b} holding {y} puts {x} in {a}"),
            Neighbour::Allowed(_) => format!("{a} and {b} hold a pair the relation allows"),
        }
    }

    /// Whether symbols `a` and `b` in the two cells break the rule.
    pub fn forbids(self, a: u8, b: u8) -> bool {
        match self {
            Neighbour::Different => a == b,
            Neighbour::NotConsecutive => a.abs_diff(b) == 1,
            Neighbour::Increasing(by) => u16::from(b) < u16::from(a) + u16::from(by),
            Neighbour::Consecutive => a.abs_diff(b) != 1,
            Neighbour::Double => {
                u16::from(a) * 2 != u16::from(b) && u16::from(b) * 2 != u16::from(a)
            }
            Neighbour::Sum(sum) => u16::from(a) + u16::from(b) != u16::from(sum),
            Neighbour::ApartBy(difference) => a.abs_diff(b) < difference,
            Neighbour::DifferentWithin(most) => a == b || a.abs_diff(b) > most,
            Neighbour::Equal => a != b,
            Neighbour::DifferentModulo(m) => a % m == b % m,
            Neighbour::DifferentGroup(k) => (a.max(1) - 1) / k == (b.max(1) - 1) / k,
            Neighbour::NotDouble => {
                u16::from(a) == 2 * u16::from(b) || u16::from(b) == 2 * u16::from(a)
            }
            Neighbour::NotSum(sum) => u16::from(a) + u16::from(b) == u16::from(sum),
            Neighbour::NotBoth(v) => a == v && b == v,
            Neighbour::Implies(x, y) => a == x && b != y,
            Neighbour::ImpliedBy(x, y) => b == y && a != x,
            Neighbour::Allowed(table) => !table.allows(a, b),
        }
    }
}

/// Reads one line of cells a clue after an optional number (`5 r1c1 r1c2`: a whisper's
/// difference, a modular line's modulus), `default` where it has none.
fn parse_numbered_paths<T: std::str::FromStr + Copy>(
    lines: &[(usize, String)],
    default: T,
) -> Result<Vec<(T, Vec<Cell>)>, LineFault> {
    lines
        .iter()
        .map(|(line, text)| {
            let (number, cells) = match text.split_once(' ') {
                Some((first, rest)) => match first.parse::<T>() {
                    Ok(number) => (number, rest),
                    Err(_) => (default, text.as_str()),
                },
                None => (default, text.as_str()),
            };
            let cells = parse_cells(cells).map_err(|why| (*line, why))?;
            Ok((number, cells))
        })
        .collect()
}

/// Reads one line of cells a clue (`r1c1 r1c2 r2c3`), each with its line in the file.
fn parse_paths(lines: &[(usize, String)]) -> Result<Vec<Vec<Cell>>, (usize, String)> {
    lines
        .iter()
        .map(|(line, text)| parse_cells(text).map_err(|why| (*line, why)))
        .collect()
}

/// Checks clue `k` (from 0) of the rule `name`, a line of cells: from `least` to `most`
/// cells, on the board of `rules`, none twice, each touching the next (at an edge or a
/// corner) where both are cells of the grid (a line through cells beyond it, such as
/// doppelganger's, joins them in any order).
fn validate_path(
    rules: &Rules,
    name: &'static str,
    k: usize,
    line: &[Cell],
    bounds: (usize, usize),
) -> Result<(), RulesError> {
    check_path(rules, name, k, line, bounds, false)
}

/// [`validate_path`] for a line whose rule only relates each cell to the next (whispers),
/// which may pass a cell twice (a loop, a line that crosses itself).
fn validate_walk(
    rules: &Rules,
    name: &'static str,
    k: usize,
    line: &[Cell],
    bounds: (usize, usize),
) -> Result<(), RulesError> {
    check_path(rules, name, k, line, bounds, true)
}

fn check_path(
    rules: &Rules,
    name: &'static str,
    k: usize,
    line: &[Cell],
    (least, most): (usize, usize),
    may_revisit: bool,
) -> Result<(), RulesError> {
    let bad = |why: String| RulesError::Clue {
        rule: name,
        index: k + 1,
        cells: line.to_vec(),
        why,
    };
    if line.len() < least || line.len() > most {
        return Err(bad(format!(
            "a line of {name} has {least} to {most} cells, this one {}",
            line.len()
        )));
    }
    if let Some(&cell) = line.iter().find(|&&cell| !rules.on_board(cell)) {
        return Err(bad(format!("{} is outside the grid", cell_name(cell))));
    }
    for (i, pair) in line.windows(2).enumerate() {
        let ((r1, c1), (r2, c2)) = (pair[0], pair[1]);
        let in_grid = rules.in_grid(pair[0]) && rules.in_grid(pair[1]);
        if (in_grid && (r1.abs_diff(r2) > 1 || c1.abs_diff(c2) > 1)) || pair[0] == pair[1] {
            return Err(bad(format!(
                "{} does not touch {}",
                cell_name(pair[1]),
                cell_name(pair[0])
            )));
        }
        if !may_revisit && line[..i + 1].contains(&pair[1]) {
            return Err(bad(format!("{} comes twice", cell_name(pair[1]))));
        }
    }
    Ok(())
}

/// The error of clue `k` (from 0) of the rule `name`, about `cells`.
fn clue_error(name: &'static str, k: usize, cells: &[Cell], why: String) -> RulesError {
    RulesError::Clue {
        rule: name,
        index: k + 1,
        cells: cells.to_vec(),
        why,
    }
}

/// Checks that `cells` lie on the board of `rules`, none twice; says why not.
fn validate_cells(rules: &Rules, cells: &[Cell]) -> Result<(), String> {
    if let Some(&cell) = cells.iter().find(|&&cell| !rules.on_board(cell)) {
        return Err(format!("{} is outside the grid", cell_name(cell)));
    }
    for (i, cell) in cells.iter().enumerate() {
        if cells[..i].contains(cell) {
            return Err(format!("{} comes twice", cell_name(*cell)));
        }
    }
    Ok(())
}

/// Checks that a cage of `rules` has 1 to as many cells as symbols, on the board, none
/// twice; says why not.
fn validate_cage(rules: &Rules, cells: &[Cell]) -> Result<(), String> {
    let n = rules.size;
    if cells.is_empty() || cells.len() > n {
        return Err(format!("a cage holds 1 to {n} cells"));
    }
    validate_cells(rules, cells)
}

/// Checks every cage of a rule of plain cages (`name`, for errors) with [`validate_cage`].
fn validate_cages(
    name: &'static str,
    rules: &Rules,
    cages: &[Vec<Cell>],
) -> Result<(), RulesError> {
    for (k, cells) in cages.iter().enumerate() {
        validate_cage(rules, cells).map_err(|why| clue_error(name, k, cells, why))?;
    }
    Ok(())
}

/// Every two cells of each group, related by `relation`.
fn every_two(groups: &[Vec<Cell>], relation: Neighbour) -> Vec<(Cell, Cell, Neighbour)> {
    let mut pairs = Vec::new();
    for group in groups {
        for (i, &a) in group.iter().enumerate() {
            pairs.extend(group[i + 1..].iter().map(|&b| (a, b, relation)));
        }
    }
    pairs
}

/// Why a line of a clue list cannot be read: its number in the file, and what is wrong.
type LineFault = (usize, String);

/// Reads one clue between two cells a line: a mark, then the cells (`white r1c1 r1c2`);
/// `mark` reads the mark or says why it cannot, `what` names a clue in errors (`a dot`).
fn parse_marked_pairs<T>(
    lines: &[(usize, String)],
    what: &str,
    mark: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<(T, Cell, Cell)>, LineFault> {
    lines
        .iter()
        .map(|(line, text)| {
            let (word, cells) = text.trim().split_once(' ').unwrap_or((text, ""));
            let marked = mark(word).map_err(|why| (*line, why))?;
            match parse_cells(cells).map_err(|why| (*line, why))?[..] {
                [a, b] => Ok((marked, a, b)),
                _ => Err((*line, format!("'{text}': {what} is between two cells"))),
            }
        })
        .collect()
}

/// A line of cells as the block format writes it: `r1c1 r1c2 r2c3`.
fn path_text(line: &[Cell]) -> String {
    line.iter()
        .map(|&c| cell_name(c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads cells written as `r1c1` (or `R1C1`), separated by spaces, from 1.
fn parse_cells(text: &str) -> Result<Vec<Cell>, String> {
    text.split_whitespace()
        .map(|word| {
            let lower = word.to_ascii_lowercase();
            lower
                .strip_prefix('r')
                .and_then(|rest| rest.split_once('c'))
                .and_then(|(row, col)| {
                    Some((row.parse::<usize>().ok()?, col.parse::<usize>().ok()?))
                })
                .filter(|&(row, col)| row >= 1 && col >= 1)
                .map(|(row, col)| (row - 1, col - 1))
                .ok_or_else(|| format!("'{word}' is not a cell (r1c1 is the top-left)"))
        })
        .collect()
}

/// Every cell of a grid of side `n`, in reading order.
fn all_cells(n: usize) -> impl Iterator<Item = Cell> {
    (0..n).flat_map(move |r| (0..n).map(move |c| (r, c)))
}

/// The pairs of cells `steps` apart (steps that go forward in reading order, so that each
/// pair comes once) on the board of `rules`, related by `relation`.
fn pairs_by_steps(
    rules: &Rules,
    steps: &[(isize, isize)],
    relation: Neighbour,
) -> Vec<(Cell, Cell, Neighbour)> {
    let mut pairs = Vec::new();
    let (rows, n) = (rules.rows(), rules.size);
    for (r, c) in (0..rows).flat_map(|r| (0..n).map(move |c| (r, c))) {
        for &(dr, dc) in steps {
            if let (Some(r2), Some(c2)) = (r.checked_add_signed(dr), c.checked_add_signed(dc))
                && r2 < rows
                && c2 < n
            {
                pairs.push(((r, c), (r2, c2), relation));
            }
        }
    }
    pairs
}

/// Whether the cells of a grid of side `n` hold each symbol at most once (a judge's helper:
/// `cells` are read from the grid as the rule defines them).
fn repeats(grid: &[u8], n: usize, cells: impl IntoIterator<Item = Cell>) -> Option<u8> {
    let mut seen = vec![false; n + 1];
    for (r, c) in cells {
        let v = grid[r * n + c];
        if std::mem::replace(&mut seen[usize::from(v)], true) {
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule of the catalogue but rows, columns, boxes, regions and cages (which need a
    /// shape, a map or a list of cages) is known by its name, or read from a list of clues,
    /// and knows its name back.
    #[test]
    fn the_catalogue_names_every_rule() {
        for &name in &CATALOGUE[3..] {
            let constraint = Constraint::named(name)
                .or_else(|| Constraint::listed(name, 9, &[]).map(Result::unwrap));
            match constraint {
                Some(constraint) => assert_eq!(constraint.rule().name(), name),
                None => assert!(["regions", "cages"].contains(&name), "{name}"),
            }
        }
        assert!(Constraint::named("sandwich").is_none());
        assert!(Constraint::listed("sandwich", 9, &[]).is_none());
    }

    /// Constraints keep the catalogue's order whatever order they are added in, and a rule
    /// added twice is kept once.
    #[test]
    fn constraints_keep_the_catalogue_order() {
        let shape = BoxShape::new(3, 3).unwrap();
        let mut rules = Rules::classic(shape);
        for name in [
            "non-consecutive",
            "windows",
            "diagonals",
            "anti-king",
            "windows",
        ] {
            rules.add(Constraint::named(name).unwrap());
        }
        assert_eq!(
            rules.names(),
            [
                "rows",
                "columns",
                "boxes",
                "diagonals",
                "windows",
                "anti-king",
                "non-consecutive"
            ]
        );
        rules.remove("windows");
        assert!(!rules.has("windows") && rules.has("diagonals"));
        assert_eq!(rules.constraints().len(), 3);
    }

    /// Each rule's judge finds what breaks it: the 4x4 below keeps rows, columns and boxes
    /// and breaks each other rule, and each judge names the first place it does.
    #[test]
    fn each_judge_finds_its_own_rule_broken() {
        let shape = BoxShape::new(2, 2).unwrap();
        #[rustfmt::skip]
        let grid = [
            1, 2, 3, 4,
            3, 4, 1, 2,
            2, 1, 4, 3,
            4, 3, 2, 1,
        ];
        let classic = Rules::classic(shape);
        assert_eq!(classic.broken_rule(&[], &grid), None);
        // Its main diagonal holds 1 4 4 1; r2c2 and r3c3 both hold 4; r1c1 and r1c2 hold 1
        // and 2; r1c1 and r2c3, a knight's move apart, both hold 1.
        for (constraint, said) in [
            (
                Constraint::Diagonals(Diagonals),
                "the main diagonal holds 4 twice",
            ),
            (Constraint::AntiKing(AntiKing), "the square at r2c2"),
            (
                Constraint::NonConsecutive(NonConsecutive),
                "r1c1 and its right neighbour",
            ),
            (
                Constraint::AntiKnight(AntiKnight),
                "r1c1 sees its symbol a knight's move",
            ),
        ] {
            let rules = classic.clone().with(constraint);
            let broken = rules.broken_rule(&[], &grid).unwrap_or_default();
            assert!(broken.starts_with(said), "{broken}");
        }
        let killer = Killer {
            cages: vec![Cage {
                sum: 4,
                cells: vec![(0, 0), (0, 1)],
            }],
        };
        let broken = classic
            .with(Constraint::Killer(killer))
            .broken_rule(&[], &grid);
        assert_eq!(broken.as_deref(), Some("cage 1 adds up to 3, not 4"));
    }
}
