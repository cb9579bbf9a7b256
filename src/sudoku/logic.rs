//! Human-style solving: named techniques, one explained step at a time.
//!
//! Search proves what the answer is; this module says why each digit goes where it goes, the
//! way a person reasons (seed post 003). A [`Position`] keeps every empty cell's candidates;
//! [`next_step`] tries the techniques from simplest to hardest and returns the first one that
//! makes progress, as a [`Step`] naming the technique, the placements or eliminations, and the
//! cells that justify it. [`solve`] repeats that until the grid is full or logic stalls, and
//! [`rate`] turns the hardest technique needed into a level and a score.
//!
//! Every technique here is a sound deduction from the rules alone, so no step can contradict
//! any solution of the puzzle; the tests check that against the engine's solutions.

use std::fmt;
use std::ops::ControlFlow;

use itertools::Itertools;

use super::model::{Cell, Grid, symbol_name};

/// The techniques, simplest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// A cell with one candidate left.
    NakedSingle,
    /// A symbol with one place left in a box, row or column.
    HiddenSingle,
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
}

impl Technique {
    /// Every technique, in the order they are tried.
    pub const ALL: [Technique; 11] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::XyWing,
        Technique::Swordfish,
    ];

    /// The name used in explanations.
    pub fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::HiddenTriple => "hidden triple",
            Technique::XWing => "X-wing",
            Technique::XyWing => "XY-wing",
            Technique::Swordfish => "swordfish",
        }
    }

    /// The difficulty level a puzzle needing this technique has.
    pub fn level(self) -> Level {
        match self {
            Technique::NakedSingle | Technique::HiddenSingle => Level::Easy,
            Technique::Pointing
            | Technique::Claiming
            | Technique::NakedPair
            | Technique::HiddenPair => Level::Medium,
            Technique::NakedTriple | Technique::HiddenTriple | Technique::XWing => Level::Hard,
            Technique::XyWing | Technique::Swordfish => Level::Expert,
        }
    }

    /// What one use of the technique adds to a puzzle's score.
    pub fn weight(self) -> u32 {
        match self {
            Technique::NakedSingle | Technique::HiddenSingle => 1,
            Technique::Pointing | Technique::Claiming => 3,
            Technique::NakedPair | Technique::HiddenPair => 5,
            Technique::NakedTriple | Technique::HiddenTriple => 8,
            Technique::XWing => 10,
            Technique::XyWing => 12,
            Technique::Swordfish => 15,
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
    /// The techniques here do not finish it: it needs search.
    NeedsSearch,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::NeedsSearch,
    ];

    /// The name printed by `rate`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::NeedsSearch => "needs-search",
        }
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
        }
    }
}

/// A set of symbols as bits: bit `v - 1` for symbol `v`.
type Mask = u64;

fn bit(value: u8) -> Mask {
    1 << (value - 1)
}

fn symbols(mask: Mask) -> impl Iterator<Item = u8> {
    (0..64u8)
        .filter(move |b| mask & (1 << b) != 0)
        .map(|b| b + 1)
}

fn list(mask: Mask) -> String {
    symbols(mask).map(symbol_name).join(" ")
}

/// The kinds of unit, in the order techniques look at them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UnitKind {
    Box,
    Row,
    Column,
}

/// A grid being solved by logic: values, and the candidates of every empty cell.
#[derive(Debug, Clone)]
pub struct Position {
    grid: Grid,
    candidates: Vec<Mask>,
    /// Cells of each unit: rows `0..n`, columns `n..2n`, boxes `2n..3n`.
    units: Vec<Vec<usize>>,
}

/// A position in which some cell or unit has no possibility left: the clues (or a wrong
/// placement) admit no solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contradiction(pub String);

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Position {
    /// The position of a puzzle: each empty cell's candidates are the symbols its row,
    /// column and box do not hold yet.
    pub fn new(grid: &Grid) -> Position {
        let n = grid.size();
        let shape = grid.shape();
        let mut units = vec![Vec::with_capacity(n); 3 * n];
        for row in 0..n {
            for col in 0..n {
                let cell = row * n + col;
                units[row].push(cell);
                units[n + col].push(cell);
                units[2 * n + shape.box_of(row, col)].push(cell);
            }
        }
        let all: Mask = if n == 64 { !0 } else { (1 << n) - 1 };
        let mut position = Position {
            grid: grid.clone(),
            candidates: vec![all; n * n],
            units,
        };
        for (cell, value) in grid.clues() {
            position.candidates[cell.row * n + cell.col] = 0;
            position.remove_from_peers(cell.row * n + cell.col, value);
        }
        position
    }

    /// The grid as filled so far.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The candidates of a cell (empty for a filled cell).
    pub fn candidates(&self, cell: Cell) -> Vec<u8> {
        symbols(self.candidates[cell.row * self.n() + cell.col]).collect()
    }

    fn n(&self) -> usize {
        self.grid.size()
    }

    fn cell(&self, index: usize) -> Cell {
        Cell {
            row: index / self.n(),
            col: index % self.n(),
        }
    }

    fn units_of(&self, index: usize) -> [usize; 3] {
        let n = self.n();
        let (row, col) = (index / n, index % n);
        [row, n + col, 2 * n + self.grid.shape().box_of(row, col)]
    }

    fn remove_from_peers(&mut self, index: usize, value: u8) {
        for unit in self.units_of(index) {
            for k in 0..self.units[unit].len() {
                let peer = self.units[unit][k];
                self.candidates[peer] &= !bit(value);
            }
        }
    }

    /// Removes a candidate by hand, to set up a position (as a person's pencil marks would).
    pub fn eliminate(&mut self, cell: Cell, value: u8) {
        let n = self.n();
        self.candidates[cell.row * n + cell.col] &= !bit(value);
    }

    /// Applies a step: its placements, then its eliminations.
    pub fn apply(&mut self, step: &Step) {
        for &(cell, value) in &step.placements {
            let index = cell.row * self.n() + cell.col;
            self.grid.set(cell.row, cell.col, value);
            self.candidates[index] = 0;
            self.remove_from_peers(index, value);
        }
        let n = self.n();
        for &(cell, value) in &step.eliminations {
            self.candidates[cell.row * n + cell.col] &= !bit(value);
        }
    }

    fn unit_name(&self, unit: usize) -> String {
        let n = self.n();
        match unit / n {
            0 => format!("row {}", unit + 1),
            1 => format!("column {}", unit - n + 1),
            _ => format!("box {}", unit - 2 * n + 1),
        }
    }

    /// Units of one kind, as indices into `units`.
    fn units_of_kind(&self, kind: UnitKind) -> std::ops::Range<usize> {
        let n = self.n();
        match kind {
            UnitKind::Row => 0..n,
            UnitKind::Column => n..2 * n,
            UnitKind::Box => 2 * n..3 * n,
        }
    }

    /// Every unit, boxes first, then rows, then columns: the order in which people scan.
    fn units_box_row_column(&self) -> impl Iterator<Item = usize> + use<> {
        [UnitKind::Box, UnitKind::Row, UnitKind::Column]
            .map(|kind| self.units_of_kind(kind))
            .into_iter()
            .flatten()
    }

    /// The symbols placed in a unit.
    fn placed(&self, unit: usize) -> Mask {
        self.units[unit]
            .iter()
            .map(|&c| self.grid.cells()[c])
            .filter(|&v| v != 0)
            .fold(0, |m, v| m | bit(v))
    }

    /// The empty cells of a unit where `value` is a candidate.
    fn places(&self, unit: usize, value: u8) -> Vec<usize> {
        self.units[unit]
            .iter()
            .copied()
            .filter(|&c| self.candidates[c] & bit(value) != 0)
            .collect()
    }

    /// Two equal symbols in a unit, a cell with no candidate, or a unit with a symbol that has
    /// no place left.
    pub fn contradiction(&self) -> Option<Contradiction> {
        if let Some(clash) = self.grid.clash() {
            return Some(Contradiction(clash.to_string()));
        }
        for (index, &mask) in self.candidates.iter().enumerate() {
            if mask == 0 && self.grid.cells()[index] == 0 {
                return Some(Contradiction(format!(
                    "{} has no candidate left",
                    self.cell(index)
                )));
            }
        }
        for unit in 0..self.units.len() {
            let placed = self.placed(unit);
            for value in 1..=self.n() as u8 {
                if placed & bit(value) == 0 && self.places(unit, value).is_empty() {
                    return Some(Contradiction(format!(
                        "{} has no place left for {}",
                        self.unit_name(unit),
                        symbol_name(value)
                    )));
                }
            }
        }
        None
    }
}

/// The next step by the simplest technique that makes progress, or `None` when none does.
pub fn next_step(position: &Position) -> Option<Step> {
    Technique::ALL
        .iter()
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
        Technique::Pointing => pointing(position, visit),
        Technique::Claiming => claiming(position, visit),
        Technique::NakedPair => naked_subset(position, 2, visit),
        Technique::NakedTriple => naked_subset(position, 3, visit),
        Technique::HiddenPair => hidden_subset(position, 2, visit),
        Technique::HiddenTriple => hidden_subset(position, 3, visit),
        Technique::XWing => fish(position, 2, visit),
        Technique::Swordfish => fish(position, 3, visit),
        Technique::XyWing => xy_wing(position, visit),
    }
}

fn naked_single(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    for index in (0..p.candidates.len()).filter(|&i| p.candidates[i].count_ones() == 1) {
        naked_single_at(p, index, visit)?;
    }
    ControlFlow::Continue(())
}

fn naked_single_at(p: &Position, index: usize, visit: Visit<'_>) -> ControlFlow<()> {
    let value = symbols(p.candidates[index]).next().unwrap_or(0);
    let cell = p.cell(index);
    let [row, col, bx] = p.units_of(index);
    let mut detail = [row, col, bx]
        .iter()
        .map(|&u| format!("{} has {}", p.unit_name(u), list(p.placed(u))))
        .join(", ");
    let seen = p.placed(row) | p.placed(col) | p.placed(bx);
    let others = (!seen & !bit(value)).count_ones() as usize - (64 - p.n());
    if others > 0 {
        detail.push_str("; the other candidates were eliminated by earlier steps");
    }
    let reasons = [row, col, bx]
        .iter()
        .flat_map(|&u| p.units[u].iter().copied())
        .filter(|&c| p.grid.cells()[c] != 0)
        .unique()
        .map(|c| p.cell(c))
        .collect();
    visit(Step {
        technique: Technique::NakedSingle,
        placements: vec![(cell, value)],
        eliminations: vec![],
        reasons,
        detail,
    })
}

fn hidden_single(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    for unit in p.units_box_row_column() {
        let placed = p.placed(unit);
        for value in 1..=p.n() as u8 {
            if placed & bit(value) != 0 {
                continue;
            }
            let places = p.places(unit, value);
            if places.len() != 1 {
                continue;
            }
            let cell = p.cell(places[0]);
            // The placed copies of `value` that rule out the unit's other empty cells.
            let reasons = p.units[unit]
                .iter()
                .filter(|&&c| c != places[0] && p.grid.cells()[c] == 0)
                .flat_map(|&c| p.units_of(c))
                .flat_map(|u| p.units[u].iter().copied())
                .filter(|&c| p.grid.cells()[c] == value)
                .unique()
                .map(|c| p.cell(c))
                .collect();
            visit(Step {
                technique: Technique::HiddenSingle,
                placements: vec![(cell, value)],
                eliminations: vec![],
                reasons,
                detail: format!(
                    "the only place left for {} in {}",
                    symbol_name(value),
                    p.unit_name(unit)
                ),
            })?;
        }
    }
    ControlFlow::Continue(())
}

/// Removes `value` from `targets` (those that still have it); `None` if nothing changes.
fn eliminate(p: &Position, targets: impl Iterator<Item = usize>, value: u8) -> Vec<(Cell, u8)> {
    targets
        .filter(|&c| p.candidates[c] & bit(value) != 0)
        .map(|c| (p.cell(c), value))
        .collect()
}

/// Locked candidates, pointing: in a box, a symbol confined to one line.
fn pointing(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let n = p.n();
    for bx in p.units_of_kind(UnitKind::Box) {
        for value in 1..=n as u8 {
            let places = p.places(bx, value);
            if places.len() < 2 {
                continue;
            }
            for line in [places[0] / n, n + places[0] % n] {
                if !places.iter().all(|&c| p.units_of(c).contains(&line)) {
                    continue;
                }
                let targets = p.units[line]
                    .iter()
                    .copied()
                    .filter(|c| !places.contains(c));
                let eliminations = eliminate(p, targets, value);
                if !eliminations.is_empty() {
                    visit(Step::eliminating(
                        Technique::Pointing,
                        eliminations,
                        places.iter().map(|&c| p.cell(c)).collect(),
                        format!(
                            "in {}, {} can only go in {}",
                            p.unit_name(bx),
                            symbol_name(value),
                            p.unit_name(line)
                        ),
                    ))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Locked candidates, claiming: in a line, a symbol confined to one box.
fn claiming(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let n = p.n();
    for line in 0..2 * n {
        for value in 1..=n as u8 {
            let places = p.places(line, value);
            if places.len() < 2 {
                continue;
            }
            let bx = p.units_of(places[0])[2];
            if !places.iter().all(|&c| p.units_of(c)[2] == bx) {
                continue;
            }
            let targets = p.units[bx].iter().copied().filter(|c| !places.contains(c));
            let eliminations = eliminate(p, targets, value);
            if !eliminations.is_empty() {
                visit(Step::eliminating(
                    Technique::Claiming,
                    eliminations,
                    places.iter().map(|&c| p.cell(c)).collect(),
                    format!(
                        "in {}, {} can only go in {}",
                        p.unit_name(line),
                        symbol_name(value),
                        p.unit_name(bx)
                    ),
                ))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Naked pairs and triples: `size` cells of a unit whose candidates together are `size`
/// symbols; those symbols leave the unit's other cells.
fn naked_subset(p: &Position, size: usize, visit: Visit<'_>) -> ControlFlow<()> {
    let technique = if size == 2 {
        Technique::NakedPair
    } else {
        Technique::NakedTriple
    };
    for unit in p.units_box_row_column() {
        let cells: Vec<usize> = p.units[unit]
            .iter()
            .copied()
            .filter(|&c| (2..=size as u32).contains(&p.candidates[c].count_ones()))
            .collect();
        for subset in cells.iter().copied().combinations(size) {
            let union = subset.iter().fold(0, |m, &c| m | p.candidates[c]);
            if union.count_ones() as usize != size {
                continue;
            }
            let others: Vec<usize> = p.units[unit]
                .iter()
                .copied()
                .filter(|c| !subset.contains(c))
                .collect();
            let eliminations: Vec<(Cell, u8)> = symbols(union)
                .flat_map(|v| eliminate(p, others.iter().copied(), v))
                .collect();
            if !eliminations.is_empty() {
                visit(Step::eliminating(
                    technique,
                    eliminations,
                    subset.iter().map(|&c| p.cell(c)).collect(),
                    format!(
                        "{} hold only {} between them in {}",
                        subset.iter().map(|&c| p.cell(c)).join(","),
                        list(union),
                        p.unit_name(unit)
                    ),
                ))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Hidden pairs and triples: `size` symbols whose places in a unit are the same `size` cells;
/// those cells lose every other candidate.
fn hidden_subset(p: &Position, size: usize, visit: Visit<'_>) -> ControlFlow<()> {
    let technique = if size == 2 {
        Technique::HiddenPair
    } else {
        Technique::HiddenTriple
    };
    for unit in p.units_box_row_column() {
        let placed = p.placed(unit);
        let values: Vec<u8> = (1..=p.n() as u8)
            .filter(|&v| placed & bit(v) == 0)
            .filter(|&v| (2..=size).contains(&p.places(unit, v).len()))
            .collect();
        for subset in values.iter().copied().combinations(size) {
            let cells: Vec<usize> = subset
                .iter()
                .flat_map(|&v| p.places(unit, v))
                .sorted()
                .dedup()
                .collect();
            if cells.len() != size {
                continue;
            }
            let keep = subset.iter().fold(0, |m, &v| m | bit(v));
            let eliminations: Vec<(Cell, u8)> = cells
                .iter()
                .flat_map(|&c| symbols(p.candidates[c] & !keep).map(move |v| (c, v)))
                .map(|(c, v)| (p.cell(c), v))
                .collect();
            if !eliminations.is_empty() {
                visit(Step::eliminating(
                    technique,
                    eliminations,
                    cells.iter().map(|&c| p.cell(c)).collect(),
                    format!(
                        "in {}, {} can only go in {}",
                        p.unit_name(unit),
                        list(keep),
                        cells.iter().map(|&c| p.cell(c)).join(",")
                    ),
                ))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// X-wing (`size` 2) and swordfish (3): a symbol whose places in `size` rows lie in `size`
/// columns (or the other way round) leaves those columns' other cells.
fn fish(p: &Position, size: usize, visit: Visit<'_>) -> ControlFlow<()> {
    let technique = if size == 2 {
        Technique::XWing
    } else {
        Technique::Swordfish
    };
    let n = p.n();
    for value in 1..=n as u8 {
        for (base_kind, cover_kind) in [
            (UnitKind::Row, UnitKind::Column),
            (UnitKind::Column, UnitKind::Row),
        ] {
            let cover_of = |c: usize| match cover_kind {
                UnitKind::Column => n + c % n,
                _ => c / n,
            };
            let bases: Vec<usize> = p
                .units_of_kind(base_kind)
                .filter(|&u| (2..=size).contains(&p.places(u, value).len()))
                .collect();
            for subset in bases.iter().copied().combinations(size) {
                let places: Vec<usize> = subset.iter().flat_map(|&u| p.places(u, value)).collect();
                let covers: Vec<usize> = places
                    .iter()
                    .map(|&c| cover_of(c))
                    .sorted()
                    .dedup()
                    .collect();
                if covers.len() != size {
                    continue;
                }
                let targets = covers
                    .iter()
                    .flat_map(|&u| p.units[u].iter().copied())
                    .filter(|c| !places.contains(c));
                let eliminations = eliminate(p, targets, value);
                if !eliminations.is_empty() {
                    let names = |units: &[usize]| {
                        let kind = p
                            .unit_name(units[0])
                            .split(' ')
                            .next()
                            .unwrap_or("")
                            .to_string();
                        let numbers = units
                            .iter()
                            .map(|&u| p.unit_name(u).split(' ').nth(1).unwrap_or("").to_string())
                            .join(",");
                        format!("{kind}s {numbers}")
                    };
                    visit(Step::eliminating(
                        technique,
                        eliminations,
                        places.iter().map(|&c| p.cell(c)).collect(),
                        format!(
                            "in {}, {} can only go in {}",
                            names(&subset),
                            symbol_name(value),
                            names(&covers)
                        ),
                    ))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// XY-wing: a pivot with candidates {a,b} sees a pincer {a,c} and a pincer {b,c}; whichever
/// the pivot holds, one pincer is c, so c leaves every cell that sees both pincers.
fn xy_wing(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let sees =
        |a: usize, b: usize| a != b && p.units_of(a).iter().any(|u| p.units_of(b).contains(u));
    let pairs: Vec<usize> = (0..p.candidates.len())
        .filter(|&c| p.candidates[c].count_ones() == 2)
        .collect();
    for &pivot in &pairs {
        let pm = p.candidates[pivot];
        let wings: Vec<usize> = pairs
            .iter()
            .copied()
            .filter(|&w| sees(pivot, w) && (p.candidates[w] & pm).count_ones() == 1)
            .collect();
        for [x, y] in wings.iter().copied().array_combinations() {
            let (xm, ym) = (p.candidates[x], p.candidates[y]);
            let c = xm & ym & !pm;
            if c.count_ones() != 1 || (xm & pm) == (ym & pm) {
                continue;
            }
            let value = symbols(c).next().unwrap_or(0);
            let targets =
                (0..p.candidates.len()).filter(|&t| t != pivot && sees(t, x) && sees(t, y));
            let eliminations = eliminate(p, targets, value);
            if !eliminations.is_empty() {
                visit(Step::eliminating(
                    Technique::XyWing,
                    eliminations,
                    vec![p.cell(pivot), p.cell(x), p.cell(y)],
                    format!(
                        "pivot {} {{{}}} sees {} {{{}}} and {} {{{}}}: one of them is {}",
                        p.cell(pivot),
                        list(pm),
                        p.cell(x),
                        list(xm),
                        p.cell(y),
                        list(ym),
                        symbol_name(value)
                    ),
                ))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// How far logic got on a puzzle.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The grid after the last step.
    pub grid: Grid,
    /// Why logic could not go on, if the position became contradictory.
    pub contradiction: Option<Contradiction>,
}

impl Solution {
    /// Whether logic filled every cell.
    pub fn is_complete(&self) -> bool {
        self.grid.is_full() && self.contradiction.is_none()
    }

    /// The hardest technique used, if any step was taken.
    pub fn hardest(&self) -> Option<Technique> {
        self.steps.iter().map(|s| s.technique).max()
    }
}

/// Applies steps until the grid is full, logic stalls, or a contradiction shows.
pub fn solve(grid: &Grid) -> Solution {
    let mut position = Position::new(grid);
    let mut steps = Vec::new();
    let mut contradiction = position.contradiction();
    while contradiction.is_none() && !position.grid().is_full() {
        let Some(step) = next_step(&position) else {
            break;
        };
        position.apply(&step);
        steps.push(step);
        contradiction = position.contradiction();
    }
    Solution {
        steps,
        grid: position.grid,
        contradiction,
    }
}

/// A puzzle's difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rating {
    /// The level of the hardest technique needed, or [`Level::NeedsSearch`].
    pub level: Level,
    /// The sum of the weights of every step; 1000 more when logic does not finish.
    pub score: u32,
    /// The hardest technique used, if any.
    pub hardest: Option<Technique>,
}

/// Rates a puzzle by solving it with logic.
pub fn rate(grid: &Grid) -> Rating {
    rating_of(&solve(grid))
}

/// The rating of a logical solution already computed.
pub fn rating_of(solution: &Solution) -> Rating {
    let hardest = solution.hardest();
    let mut score: u32 = solution.steps.iter().map(|s| s.technique.weight()).sum();
    let level = if solution.is_complete() {
        hardest.map_or(Level::Easy, Technique::level)
    } else {
        score += 1000;
        Level::NeedsSearch
    };
    Rating {
        level,
        score,
        hardest,
    }
}
