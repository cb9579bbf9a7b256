//! The board the human-style solver reasons on: values, candidates, and what the rules say
//! about which cells relate.
//!
//! A [`Position`] does not know which kind of puzzle it came from. A classic grid and every
//! variant become the same [`Layout`]: units (sets of cells that hold different symbols; the
//! complete ones, of N cells, hold every symbol once, a killer cage holds fewer), the peers of
//! each cell (cells that may not hold its symbol: those sharing a unit, and the neighbours of
//! the anti-knight and anti-king rules), the orthogonal neighbours that the non-consecutive
//! rule keeps one apart, and the cages' sums. The techniques read only that, so a jigsaw
//! region, a diagonal or a window serves exactly as a box does.
//!
//! The layout is built once and shared by every copy of a position; a step changes only the
//! values and the candidates.

use std::fmt;
use std::sync::Arc;

use itertools::Itertools;

use super::super::model::{Cell, Grid, symbol_name};
use super::super::variant::{self, Neighbour, Rules};

/// The symbols the other cell of a pair may not hold when this one holds `value` (`first`:
/// this cell is the first of the pair), on a grid of side `n`.
pub(super) fn forbidden_beside(relation: Neighbour, first: bool, value: u8, n: usize) -> Mask {
    (1..=n as u8)
        .filter(|&other| {
            if first {
                relation.forbids(value, other)
            } else {
                relation.forbids(other, value)
            }
        })
        .fold(0, |mask, other| mask | bit(other))
}

/// A set of symbols as bits: bit `v - 1` for symbol `v`.
pub(super) type Mask = u64;

pub(super) fn bit(value: u8) -> Mask {
    1 << (value - 1)
}

pub(super) fn symbols(mut mask: Mask) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let low = mask.trailing_zeros();
        (low < 64).then(|| {
            mask &= mask - 1;
            low as u8 + 1
        })
    })
}

pub(super) fn list(mask: Mask) -> String {
    symbols(mask).map(symbol_name).join(" ")
}

/// What a unit is, which decides the techniques that use it and the order they scan it in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum UnitKind {
    Row,
    Column,
    /// A box, a jigsaw region, a diagonal or a window: N cells that are not a line.
    Area,
    /// A killer cage: different symbols, fewer than N of them, adding up to a sum.
    Cage,
}

/// A set of cells that hold different symbols.
#[derive(Debug, Clone)]
pub(super) struct Unit {
    pub(super) kind: UnitKind,
    /// What people call it: `row 1`, `box 4`, `region C`, `the main diagonal`, `cage 3`.
    pub(super) name: String,
    /// Cell indices (row * N + col), in reading order.
    pub(super) cells: Vec<usize>,
    /// For a cage, the sum of its symbols.
    pub(super) sum: Option<u32>,
}

impl Unit {
    /// Whether the unit holds every symbol once (so each symbol has a place in it).
    pub(super) fn is_complete(&self) -> bool {
        self.kind != UnitKind::Cage
    }
}

/// The structure a puzzle's rules give its cells; the same for every position of a puzzle.
#[derive(Debug)]
pub(super) struct Layout {
    /// A number no other layout of this run has, so that a cache can tell puzzles apart.
    pub(super) id: u64,
    pub(super) n: usize,
    /// Rows `0..n`, then columns `n..2n`, then the other units.
    pub(super) units: Vec<Unit>,
    /// The units each cell belongs to, in unit order.
    pub(super) units_of: Vec<Vec<usize>>,
    /// The cells that may not hold a cell's symbol, in reading order.
    pub(super) peers: Vec<Vec<usize>>,
    /// The peers that share no unit with the cell (anti-knight, anti-king).
    pub(super) neighbour_peers: Vec<Vec<usize>>,
    /// How explanations call those neighbours: `anti-knight`, `anti-king`, or both.
    pub(super) neighbour_rules: &'static str,
    /// The orthogonal neighbours whose symbols may not differ by one (non-consecutive).
    pub(super) not_consecutive: Vec<Vec<usize>>,
    /// The cells related to each cell by a line or a dot (thermometers, kropki, XV): the
    /// other cell, the relation, and whether this cell is the first of the pair.
    pub(super) related: Vec<Vec<(usize, Neighbour, bool)>>,
    /// Every pair of cells a rule relates beyond holding different symbols, once, with the
    /// rule's title (`a thermometer`), for the steps that read them.
    pub(super) related_pairs: Vec<RelatedPair>,
    /// The symbols each cell's pencilmarks allow (every symbol without).
    pub(super) marks: Vec<Mask>,
    /// Cell sets that the rule of 45 gives a sum, each inside one unit.
    pub(super) sum_regions: Vec<SumRegion>,
    /// The clues read along cells (arrows, sums, sandwiches...), unrolled.
    pub(super) clues: Vec<Clue>,
    /// Whether some cage has a sum, or the rule of 45 gives one, or a clue is read along
    /// cells: what the forcing trials read beyond singles.
    pub(super) has_sums_or_clues: bool,
    /// Whether the rules are units alone (no neighbour rule, line, dot, cage, clue or
    /// pencilmark), so that swapping symbols between cells that share units keeps them: what
    /// the uniqueness techniques need.
    pub(super) swappable: bool,
    /// `peers` as a bit matrix, one row of `words` words per cell, for `sees`.
    peer_bits: Vec<u64>,
    words: usize,
}

impl Layout {
    fn new(rules: &Rules) -> Layout {
        let n = rules.size;
        let index = |(row, col): variant::Cell| row * n + col;
        let mut units: Vec<Unit> = rules
            .units()
            .into_iter()
            .map(|unit| Unit {
                kind: match unit.tag.as_bytes().first() {
                    Some(b'r') => UnitKind::Row,
                    Some(b'c') => UnitKind::Column,
                    _ => UnitKind::Area,
                },
                name: unit.name,
                cells: unit.cells.into_iter().map(index).sorted().collect(),
                sum: None,
            })
            .collect();
        for (k, cage) in rules.cages().iter().enumerate() {
            units.push(Unit {
                kind: UnitKind::Cage,
                name: format!("cage {} ({})", k + 1, cage.sum),
                cells: cage.cells.iter().copied().map(index).sorted().collect(),
                sum: Some(cage.sum),
            });
        }
        let cells = n * n;
        let mut units_of = vec![Vec::new(); cells];
        for (u, unit) in units.iter().enumerate() {
            for &cell in &unit.cells {
                units_of[cell].push(u);
            }
        }
        let mut peers = vec![Vec::new(); cells];
        for unit in &units {
            for &a in &unit.cells {
                peers[a].extend(unit.cells.iter().copied().filter(|&b| b != a));
            }
        }
        let mut neighbour_peers = vec![Vec::new(); cells];
        let mut not_consecutive = vec![Vec::new(); cells];
        let mut related_cells = vec![Vec::new(); cells];
        let mut related_pairs = Vec::new();
        let titled = rules.constraints().iter().flat_map(|constraint| {
            let rule = constraint.rule();
            let title = rule.title();
            rule.pairs(rules).into_iter().map(move |pair| (pair, title))
        });
        for ((a, b, rule), title) in titled {
            let (a, b) = (index(a), index(b));
            if rule != Neighbour::Different {
                related_pairs.push(RelatedPair {
                    cells: [a, b],
                    relation: rule,
                    rule: title,
                });
            }
            let related = match rule {
                Neighbour::Different => &mut neighbour_peers,
                Neighbour::NotConsecutive => &mut not_consecutive,
                other => {
                    related_cells[a].push((b, other, true));
                    related_cells[b].push((a, other, false));
                    continue;
                }
            };
            related[a].push(b);
            related[b].push(a);
        }
        for cell in 0..cells {
            neighbour_peers[cell].retain(|b| !peers[cell].contains(b));
            let extra = neighbour_peers[cell].clone();
            peers[cell].extend(extra);
            peers[cell].sort_unstable();
            peers[cell].dedup();
            neighbour_peers[cell].sort_unstable();
            neighbour_peers[cell].dedup();
            not_consecutive[cell].sort_unstable();
        }
        let words = cells.div_ceil(64);
        let mut peer_bits = vec![0; cells * words];
        for (a, list) in peers.iter().enumerate() {
            for &b in list {
                peer_bits[a * words + b / 64] |= 1 << (b % 64);
            }
        }
        let neighbour_rules = match (rules.has("anti-knight"), rules.has("anti-king")) {
            (true, true) => "anti-knight and anti-king",
            (true, false) => "anti-knight",
            _ => "anti-king",
        };
        let sum_regions = sum_regions(n, &units, &units_of);
        let allowed = rules.allowed();
        let all: Mask = if n >= 64 { !0 } else { (1 << n) - 1 };
        let marks: Vec<Mask> = (0..cells)
            .map(|cell| {
                (1..=n as u8)
                    .filter(|&v| !allowed[cell * n + usize::from(v) - 1])
                    .fold(all, |mask, v| mask & !bit(v))
            })
            .collect();
        let clues: Vec<Clue> = rules
            .sequences()
            .into_iter()
            .filter_map(|sequence| {
                // A clue too large to unroll is left to the search.
                let layers = sequence
                    .layers(|_| (1u128 << (n + 1)) - 2, &|| false)
                    .ok()?;
                Some(Clue {
                    cells: sequence.cells.iter().copied().map(index).collect(),
                    what: sequence.what,
                    layers,
                })
            })
            .collect();
        let swappable = neighbour_peers.iter().all(Vec::is_empty)
            && not_consecutive.iter().all(Vec::is_empty)
            && related_pairs.is_empty()
            && clues.is_empty()
            && units.iter().all(Unit::is_complete)
            && marks.iter().all(|&m| m == all);
        let has_sums_or_clues = !clues.is_empty()
            || !sum_regions.is_empty()
            || units
                .iter()
                .any(|u| u.kind == UnitKind::Cage && u.sum.is_some());
        static LAYOUTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Layout {
            id: LAYOUTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            n,
            swappable,
            has_sums_or_clues,
            clues,
            sum_regions,
            units,
            units_of,
            peers,
            neighbour_peers,
            neighbour_rules,
            not_consecutive,
            related: related_cells,
            related_pairs,
            marks,
            peer_bits,
            words,
        }
    }

    /// What `value` in `cell` takes from other cells: each cell it relates to, with the
    /// symbols that cell loses (its peers lose `value`, its non-consecutive neighbours the
    /// symbols one apart, the cells a line or dot relates to it what the relation forbids). A
    /// cell may come more than once. What a placement does, and the weak links of chains.
    pub(super) fn removals(
        &self,
        cell: usize,
        value: u8,
    ) -> impl Iterator<Item = (usize, Mask)> + '_ {
        let n = self.n;
        let consecutive = (if usize::from(value) < n {
            bit(value + 1)
        } else {
            0
        }) | (if value > 1 { bit(value - 1) } else { 0 });
        self.peers[cell]
            .iter()
            .map(move |&other| (other, bit(value)))
            .chain(
                self.not_consecutive[cell]
                    .iter()
                    .map(move |&other| (other, consecutive)),
            )
            .chain(
                self.related[cell]
                    .iter()
                    .map(move |&(other, relation, first)| {
                        (other, forbidden_beside(relation, first, value, n))
                    }),
            )
    }

    /// The cells that may not hold the same symbol as `cell`, as a row of bits (bit `b % 64`
    /// of word `b / 64` for cell `b`).
    pub(super) fn peer_row(&self, cell: usize) -> &[u64] {
        &self.peer_bits[cell * self.words..(cell + 1) * self.words]
    }

    /// Whether two cells may not hold the same symbol.
    pub(super) fn sees(&self, a: usize, b: usize) -> bool {
        self.peer_bits[a * self.words + b / 64] & (1 << (b % 64)) != 0
    }
}

/// Two cells a rule relates (see [`Layout::related_pairs`]).
#[derive(Debug)]
pub(super) struct RelatedPair {
    pub(super) cells: [usize; 2],
    pub(super) relation: Neighbour,
    /// The rule's title, for explanations: `a thermometer`.
    pub(super) rule: &'static str,
}

/// A clue read along cells, unrolled into the states its machine can be in at each cell
/// (see [`crate::sudoku::rules::sequences`]).
#[derive(Debug)]
pub(super) struct Clue {
    /// Cell indices (row * N + col), in the order the clue reads them.
    pub(super) cells: Vec<usize>,
    /// The clue, for explanations: `the arrow from r1c1`.
    pub(super) what: String,
    pub(super) layers: crate::sudoku::rules::sequences::Layers,
}

/// Cells that hold different symbols and add up to `sum`, for a reason the rule of 45 gives.
#[derive(Debug)]
pub(super) struct SumRegion {
    pub(super) cells: Vec<usize>,
    pub(super) sum: u32,
    /// Why, ending where the sum is named: `row 1 adds up to 45 and holds cage 4 (31), so it
    /// needs`.
    pub(super) why: String,
}

/// The innies and outies of every complete unit: the cells its inner cages leave out, and
/// the cells outside it of the cages that cover it, when they lie in one unit (so they
/// differ) and are fewer than a unit.
fn sum_regions(n: usize, units: &[Unit], units_of: &[Vec<usize>]) -> Vec<SumRegion> {
    let total = (n * (n + 1) / 2) as u32;
    let cages: Vec<usize> = (0..units.len())
        .filter(|&u| units[u].kind == UnitKind::Cage)
        .collect();
    let in_one_unit = |cells: &[usize]| {
        cells.first().is_some_and(|&first| {
            units_of[first]
                .iter()
                .any(|&u| cells.iter().all(|c| units_of[*c].contains(&u)))
        })
    };
    let is_a_cage = |cells: &[usize]| cages.iter().any(|&c| units[c].cells == cells);
    let names = |list: &[usize]| {
        let names: Vec<&str> = list.iter().map(|&c| units[c].name.as_str()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
        }
    };
    let mut regions = Vec::new();
    for unit in units.iter().filter(|unit| unit.is_complete()) {
        let meeting: Vec<usize> = cages
            .iter()
            .copied()
            .filter(|&c| units[c].cells.iter().any(|x| unit.cells.contains(x)))
            .collect();
        let (inner, crossing): (Vec<usize>, Vec<usize>) = meeting
            .iter()
            .partition(|&&c| units[c].cells.iter().all(|x| unit.cells.contains(x)));
        let inner_sum: u32 = inner.iter().map(|&c| units[c].sum.unwrap_or(0)).sum();
        let innies: Vec<usize> = unit
            .cells
            .iter()
            .copied()
            .filter(|&x| !inner.iter().any(|&c| units[c].cells.contains(&x)))
            .collect();
        if !inner.is_empty()
            && !innies.is_empty()
            && !is_a_cage(&innies)
            && let Some(sum) = total.checked_sub(inner_sum)
        {
            regions.push(SumRegion {
                why: format!(
                    "{} adds up to {total} and holds {}, so it needs",
                    unit.name,
                    names(&inner)
                ),
                cells: innies,
                sum,
            });
        }
        let covered = unit
            .cells
            .iter()
            .all(|x| meeting.iter().any(|&c| units[c].cells.contains(x)));
        if !covered || crossing.is_empty() {
            continue;
        }
        let outies: Vec<usize> = crossing
            .iter()
            .flat_map(|&c| units[c].cells.iter().copied())
            .filter(|x| !unit.cells.contains(x))
            .sorted()
            .collect();
        let meeting_sum: u32 = meeting.iter().map(|&c| units[c].sum.unwrap_or(0)).sum();
        if outies.len() < n
            && in_one_unit(&outies)
            && !is_a_cage(&outies)
            && let Some(sum) = meeting_sum.checked_sub(total)
        {
            regions.push(SumRegion {
                why: format!(
                    "{} adds up to {total} and {} cover it, so they need",
                    unit.name,
                    names(&meeting)
                ),
                cells: outies,
                sum,
            });
        }
    }
    regions
}

/// A puzzle being solved by logic: the symbols placed, and the candidates of every empty
/// cell.
#[derive(Debug, Clone)]
pub struct Position {
    pub(super) layout: Arc<Layout>,
    pub(super) values: Vec<u8>,
    pub(super) candidates: Vec<Mask>,
    /// Whether the puzzle is declared to have one solution, which the uniqueness techniques
    /// assume.
    pub(super) unique: bool,
    /// What stops the search for steps (a deadline, a cancellation), if anything.
    stop: Option<Stop>,
}

/// A predicate that the long techniques poll, and that ends [`super::solve_from`]: a deadline
/// passed, a cancellation asked for.
#[derive(Clone)]
pub struct Stop(Arc<dyn Fn() -> bool + Send + Sync>);

impl fmt::Debug for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Stop")
    }
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

/// What a technique worked out on the last position it saw (of one puzzle: its layout's
/// number, with the values and candidates), for the next technique that asks on the same
/// position: the chain techniques share one graph, the three-link patterns one search.
pub(super) struct LastPosition<T> {
    last: Option<(u64, Vec<u8>, Vec<Mask>, T)>,
}

impl<T: Clone> LastPosition<T> {
    pub(super) const fn new() -> LastPosition<T> {
        LastPosition { last: None }
    }

    /// What was kept for `p`, or what `make` gives, kept unless `p` was stopped meanwhile
    /// (then it may be cut short).
    pub(super) fn get_or(&mut self, p: &Position, make: impl FnOnce() -> T) -> T {
        if let Some((layout, values, candidates, kept)) = &self.last
            && *layout == p.layout.id
            && *values == p.values
            && *candidates == p.candidates
        {
            return kept.clone();
        }
        let made = make();
        if !p.stopped() {
            self.last = Some((
                p.layout.id,
                p.values.clone(),
                p.candidates.clone(),
                made.clone(),
            ));
        }
        made
    }
}

impl Position {
    /// The position of a classic puzzle: each empty cell's candidates are the symbols its
    /// row, column and box do not hold yet.
    pub fn new(grid: &Grid) -> Position {
        Position::with_rules(&Rules::classic(grid.shape()), grid.cells())
    }

    /// The position of a variant puzzle: each empty cell's candidates are the symbols that
    /// no given rules out through a unit, a cage or a neighbour rule. (Cage sums are left to
    /// the cage technique, so that explanations show them.) The rules are taken as they are:
    /// check them with [`Rules::validate`] first, and that the board is square
    /// ([`Rules::is_square`]: logic does not read a 6x9 grid or doppelganger's yet).
    pub fn of_variant(puzzle: &variant::Puzzle) -> Position {
        Position::with_rules(&puzzle.rules, &puzzle.givens)
    }

    fn with_rules(rules: &Rules, givens: &[u8]) -> Position {
        let n = rules.size;
        // Pencilmarks rule out symbols from the start.
        let layout = Layout::new(rules);
        let candidates = layout.marks.clone();
        let mut position = Position {
            layout: Arc::new(layout),
            values: vec![0; n * n],
            candidates,
            unique: false,
            stop: None,
        };
        for (cell, &value) in givens.iter().enumerate() {
            if value != 0 {
                position.place(cell, value);
            }
        }
        position
    }

    /// This position of a puzzle declared to have one solution: the uniqueness techniques
    /// (unique rectangles, BUG+1) may assume it.
    pub fn declared_unique(mut self) -> Position {
        self.unique = true;
        self
    }

    /// This position, whose techniques give up (finding no step) once `stop` says so: a
    /// long step on a large grid stays under a deadline and Ctrl-C.
    pub fn with_stop(mut self, stop: impl Fn() -> bool + Send + Sync + 'static) -> Position {
        self.stop = Some(Stop(Arc::new(stop)));
        self
    }

    /// Whether the stop predicate says to give up.
    pub fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|stop| (stop.0)())
    }

    /// The side of the grid.
    pub fn size(&self) -> usize {
        self.layout.n
    }

    /// The symbols placed so far, row by row, 0 for an empty cell.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Whether every cell holds a symbol.
    pub fn is_full(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The candidates of a cell (empty for a filled cell).
    pub fn candidates(&self, cell: Cell) -> Vec<u8> {
        symbols(self.candidates[cell.row * self.size() + cell.col]).collect()
    }

    /// The grid as a player pencils it: each filled cell's symbol, each empty cell's
    /// candidates run together (`125`; `1,12,16` on grids with symbols past 9), one row a
    /// line, the columns aligned.
    pub fn candidate_grid(&self) -> String {
        let n = self.size();
        let wide = n > 9;
        let texts: Vec<String> = (0..n * n)
            .map(|i| match self.values[i] {
                0 if self.candidates[i] == 0 => "-".to_string(),
                0 => symbols(self.candidates[i])
                    .map(symbol_name)
                    .join(if wide { "," } else { "" }),
                v => symbol_name(v).to_string(),
            })
            .collect();
        let widths: Vec<usize> = (0..n)
            .map(|c| (0..n).map(|r| texts[r * n + c].len()).max().unwrap_or(1))
            .collect();
        let mut out = String::new();
        for r in 0..n {
            let line = (0..n)
                .map(|c| format!("{:<w$}", texts[r * n + c], w = widths[c]))
                .join(" ");
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    pub(super) fn cell(&self, index: usize) -> Cell {
        Cell {
            row: index / self.size(),
            col: index % self.size(),
        }
    }

    pub(super) fn units(&self) -> &[Unit] {
        &self.layout.units
    }

    pub(super) fn unit_name(&self, unit: usize) -> &str {
        &self.layout.units[unit].name
    }

    /// Puts `value` in a cell and removes it from the cell's peers (and its neighbours'
    /// consecutive symbols under the non-consecutive rule).
    fn place(&mut self, index: usize, value: u8) {
        self.values[index] = value;
        self.candidates[index] = 0;
        let layout = Arc::clone(&self.layout);
        for (other, gone) in layout.removals(index, value) {
            self.candidates[other] &= !gone;
        }
    }

    /// Removes a candidate by hand, to set up a position (as a person's pencil marks would).
    pub fn eliminate(&mut self, cell: Cell, value: u8) {
        let n = self.size();
        self.candidates[cell.row * n + cell.col] &= !bit(value);
    }

    /// Applies a step: its placements, then its eliminations.
    pub fn apply(&mut self, step: &super::Step) {
        let n = self.size();
        for &(cell, value) in &step.placements {
            self.place(cell.row * n + cell.col, value);
        }
        for &(cell, value) in &step.eliminations {
            self.candidates[cell.row * n + cell.col] &= !bit(value);
        }
    }

    /// Units in the order people scan them: boxes (and other areas) first, then rows, then
    /// columns, then cages.
    pub(super) fn scan_order(&self) -> impl Iterator<Item = usize> + '_ {
        [
            UnitKind::Area,
            UnitKind::Row,
            UnitKind::Column,
            UnitKind::Cage,
        ]
        .into_iter()
        .flat_map(move |kind| self.units_of_kind(kind))
    }

    /// The units of one kind, in order.
    /// This puzzle with other values and candidates (a trial's), for the techniques that
    /// read a position.
    pub(super) fn with_state(&self, values: &[u8], candidates: &[Mask]) -> Position {
        Position {
            layout: Arc::clone(&self.layout),
            values: values.to_vec(),
            candidates: candidates.to_vec(),
            unique: self.unique,
            stop: None,
        }
    }

    pub(super) fn units_of_kind(&self, kind: UnitKind) -> impl Iterator<Item = usize> + '_ {
        (0..self.units().len()).filter(move |&u| self.units()[u].kind == kind)
    }

    /// Whether `x` in cell `a` and `y` in cell `b` cannot both be true, by the rules alone:
    /// two symbols of one cell, one symbol in two peers, consecutive symbols in cells the
    /// non-consecutive rule keeps apart, or symbols a line or a dot between the cells forbids
    /// together. The weak link of a chain.
    pub(super) fn excludes(&self, a: usize, x: u8, b: usize, y: u8) -> bool {
        let layout = &*self.layout;
        if a == b {
            return x != y;
        }
        (x == y && layout.sees(a, b))
            || (x.abs_diff(y) == 1 && layout.not_consecutive[a].contains(&b))
            || layout.related[a].iter().any(|&(other, relation, first)| {
                other == b && forbidden_beside(relation, first, x, layout.n) & bit(y) != 0
            })
    }

    /// The complete units where `value` has exactly two places, with those places: one of
    /// the two holds it (the strong link of a chain, or of colouring).
    pub(super) fn bilocal_units(&self, value: u8) -> Vec<(usize, [usize; 2])> {
        (0..self.units().len())
            .filter(|&u| self.units()[u].is_complete() && self.placed(u) & bit(value) == 0)
            .filter_map(|u| match self.places(u, value)[..] {
                [a, b] => Some((u, [a, b])),
                _ => None,
            })
            .collect()
    }

    /// The symbols placed in a unit.
    pub(super) fn placed(&self, unit: usize) -> Mask {
        self.units()[unit]
            .cells
            .iter()
            .map(|&c| self.values[c])
            .filter(|&v| v != 0)
            .fold(0, |m, v| m | bit(v))
    }

    /// The empty cells of a unit where `value` is a candidate.
    pub(super) fn places(&self, unit: usize, value: u8) -> Vec<usize> {
        self.units()[unit]
            .cells
            .iter()
            .copied()
            .filter(|&c| self.candidates[c] & bit(value) != 0)
            .collect()
    }

    /// What each cell of `clue` may still hold (a mask per position read, as [`bit`] has
    /// them) for some filling of the cells' symbols and candidates to keep it; `None` when
    /// none does.
    pub(super) fn clue_allows(&self, clue: &Clue) -> Option<Vec<Mask>> {
        let held = |at: usize| -> u128 {
            let cell = clue.cells[at];
            match self.values[cell] {
                0 => u128::from(self.candidates[cell]) << 1,
                v => 1 << v,
            }
        };
        let narrowed = clue.layers.narrowed(held);
        if narrowed.contains(&0) {
            return None;
        }
        Some(
            narrowed
                .into_iter()
                .map(|bits| (bits >> 1) as Mask)
                .collect(),
        )
    }

    /// A rule broken by the symbols placed (two equal symbols in a unit, neighbours the
    /// neighbour rules forbid, a cage over its sum), a cell with no candidate, or a complete
    /// unit with a symbol that has no place left.
    pub fn contradiction(&self) -> Option<Contradiction> {
        let layout = &*self.layout;
        let found = |text: String| Some(Contradiction(text));
        for unit in self.units() {
            let mut seen: Mask = 0;
            for (k, &cell) in unit.cells.iter().enumerate() {
                let value = self.values[cell];
                if value == 0 {
                    continue;
                }
                if seen & bit(value) != 0 {
                    let first = unit.cells[..k]
                        .iter()
                        .find(|&&c| self.values[c] == value)
                        .map_or(cell, |&c| c);
                    return found(format!(
                        "{} and {} both hold {} (same {})",
                        self.cell(first),
                        self.cell(cell),
                        symbol_name(value),
                        unit.name
                    ));
                }
                seen |= bit(value);
            }
            if let Some(sum) = unit.sum {
                let placed: u32 = unit.cells.iter().map(|&c| u32::from(self.values[c])).sum();
                let full = unit.cells.iter().all(|&c| self.values[c] != 0);
                if placed > sum || (full && placed != sum) {
                    return found(format!("{} adds up to {placed}, not {sum}", unit.name));
                }
            }
        }
        for clue in &layout.clues {
            if self.clue_allows(clue).is_none() {
                return found(format!("{} cannot be kept", clue.what));
            }
        }
        for cell in 0..self.values.len() {
            let (a, x) = (cell, self.values[cell]);
            if x == 0 {
                continue;
            }
            if layout.marks[a] & bit(x) == 0 {
                return found(format!(
                    "{} holds {}, which its pencilmarks rule out",
                    self.cell(a),
                    symbol_name(x)
                ));
            }
            for &(b, relation, first) in layout.related[a].iter().filter(|r| r.0 > a) {
                let y = self.values[b];
                if y != 0 && forbidden_beside(relation, first, x, layout.n) & bit(y) != 0 {
                    return found(format!(
                        "{} and {} hold {} and {}, which a line or dot between them forbids",
                        self.cell(a),
                        self.cell(b),
                        symbol_name(x),
                        symbol_name(y)
                    ));
                }
            }
            for &b in layout.neighbour_peers[a].iter().filter(|&&b| b > a) {
                if self.values[b] == x {
                    return found(format!(
                        "{} and {} both hold {} (the {} rule)",
                        self.cell(a),
                        self.cell(b),
                        symbol_name(x),
                        layout.neighbour_rules
                    ));
                }
            }
            for &b in layout.not_consecutive[a].iter().filter(|&&b| b > a) {
                if self.values[b] != 0 && self.values[b].abs_diff(x) == 1 {
                    return found(format!(
                        "{} and {} hold {} and {} (the non-consecutive rule)",
                        self.cell(a),
                        self.cell(b),
                        symbol_name(x),
                        symbol_name(self.values[b])
                    ));
                }
            }
        }
        for (index, &mask) in self.candidates.iter().enumerate() {
            if mask == 0 && self.values[index] == 0 {
                return found(format!("{} has no candidate left", self.cell(index)));
            }
        }
        let all: Mask = if self.size() >= 64 {
            !0
        } else {
            (1 << self.size()) - 1
        };
        for (u, unit) in self.units().iter().enumerate() {
            if !unit.is_complete() {
                continue;
            }
            let possible = unit
                .cells
                .iter()
                .fold(self.placed(u), |m, &c| m | self.candidates[c]);
            if let Some(value) = symbols(all & !possible).next() {
                return found(format!(
                    "{} has no place left for {}",
                    unit.name,
                    symbol_name(value)
                ));
            }
        }
        None
    }
}
