//! Almost locked sets: N empty cells of one unit with N + 1 candidates between them. Take any
//! one of those symbols away and the rest are locked in the cells.
//!
//! - ALS-XZ: two sets share a symbol x whose places in one all see its places in the other
//!   (a restricted common): x is in at most one of them, so the other is locked. A second
//!   symbol z of both is then in one of them, and leaves every cell that sees all its places
//!   in both.
//! - ALS-XY-wing: a third set C with restricted commons x with A and y with B: one of A and
//!   B is locked, so a symbol z of both (not x or y) is in one of them and goes as above.

use std::ops::ControlFlow;

use itertools::Itertools;

use super::position::{Mask, Position, bit, list, symbols};
use super::{Step, Technique, Visit};
use crate::sudoku::model::{Cell, symbol_name};

/// The most cells in a set tried: 5 (HoDoKu's library has an ALS-XY-wing of five). Up to
/// seven, rating top1465 on one thread took 163 s instead of 90 s, and 604 puzzles instead
/// of 588 needed nothing beyond chains and sets.
const MAX_CELLS: usize = 5;

/// An almost locked set.
struct Als {
    /// The cells, in order.
    cells: Vec<usize>,
    /// Their candidates together (one more than cells).
    symbols: Mask,
    /// The unit they share, for explanations.
    unit: usize,
    /// For each of its symbols (in the order of `symbols`), its places in the set as bits,
    /// and the cells that see every one of them, as bits.
    bits: Vec<(u8, Bits, Bits)>,
}

/// A set of cells as bits, one word per 64 cells.
type Bits = Vec<u64>;

fn is_subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

impl Als {
    /// The places of `value` and the cells seeing them all, as bits.
    fn bits_of(&self, value: u8) -> Option<(&Bits, &Bits)> {
        self.bits
            .iter()
            .find(|(v, _, _)| *v == value)
            .map(|(_, places, seen)| (places, seen))
    }

    fn overlaps(&self, other: &Als) -> bool {
        self.cells.iter().any(|c| other.cells.contains(c))
    }

    fn text(&self, p: &Position) -> String {
        format!(
            "{{{}}} in {} ({})",
            self.cells.iter().map(|&c| p.cell(c)).join(","),
            p.unit_name(self.unit),
            list(self.symbols)
        )
    }
}

/// Every almost locked set of up to [`MAX_CELLS`] cells, each once (a set of cells that two
/// units share is kept from the first).
fn sets(p: &Position) -> Vec<Als> {
    let mut found: Vec<Als> = Vec::new();
    let mut seen: std::collections::HashSet<Vec<usize>> = Default::default();
    for (u, unit) in p.units().iter().enumerate() {
        if p.stopped() {
            break;
        }
        let empty: Vec<usize> = unit
            .cells
            .iter()
            .copied()
            .filter(|&c| p.values[c] == 0 && p.candidates[c] != 0)
            .collect();
        for size in 1..=MAX_CELLS.min(empty.len()) {
            for cells in empty.iter().copied().combinations(size) {
                let union = cells.iter().fold(0, |m, &c| m | p.candidates[c]);
                if union.count_ones() as usize == size + 1 && seen.insert(cells.clone()) {
                    let bits = symbols(union)
                        .map(|v| {
                            let words = p.candidates.len().div_ceil(64);
                            let mut places = vec![0u64; words];
                            let mut seen = vec![!0u64; words];
                            for &c in cells.iter().filter(|&&c| p.candidates[c] & bit(v) != 0) {
                                places[c / 64] |= 1 << (c % 64);
                                for (word, peers) in seen.iter_mut().zip(p.layout.peer_row(c)) {
                                    *word &= peers;
                                }
                            }
                            (v, places, seen)
                        })
                        .collect();
                    found.push(Als {
                        cells,
                        symbols: union,
                        unit: u,
                        bits,
                    });
                }
            }
        }
    }
    found
}

/// Whether every place of `value` in `a` sees every place of it in `b` (and it has some in
/// each): the two sets do not both hold it.
fn restricted(a: &Als, b: &Als, value: u8) -> bool {
    match (a.bits_of(value), b.bits_of(value)) {
        (Some((_, seen_a)), Some((places_b, _))) => is_subset(places_b, seen_a),
        _ => false,
    }
}

/// The candidates `z` of cells outside `a` and `b` that see every place of z in both.
fn seen_by_both(p: &Position, a: &Als, b: &Als, z: u8) -> Vec<(Cell, u8)> {
    let (Some((_, seen_a)), Some((_, seen_b))) = (a.bits_of(z), b.bits_of(z)) else {
        return Vec::new();
    };
    (0..p.candidates.len())
        .filter(|&c| seen_a[c / 64] & seen_b[c / 64] & 1 << (c % 64) != 0)
        .filter(|&c| p.candidates[c] & bit(z) != 0)
        .filter(|c| !a.cells.contains(c) && !b.cells.contains(c))
        .map(|c| (p.cell(c), z))
        .collect()
}

pub(super) fn als_xz(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let sets = sets(p);
    for [a, b] in sets.iter().array_combinations() {
        if p.stopped() {
            break;
        }
        if a.overlaps(b) {
            continue;
        }
        let common = a.symbols & b.symbols;
        if common.count_ones() < 2 {
            continue;
        }
        for x in symbols(common).filter(|&x| restricted(a, b, x)) {
            let eliminations: Vec<(Cell, u8)> = symbols(common & !bit(x))
                .flat_map(|z| seen_by_both(p, a, b, z))
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            visit(Step::eliminating(
                Technique::AlsXz,
                eliminations,
                a.cells.iter().chain(&b.cells).map(|&c| p.cell(c)).collect(),
                format!(
                    "{} and {} do not both hold {}, so one is locked",
                    a.text(p),
                    b.text(p),
                    symbol_name(x)
                ),
            ))?;
        }
    }
    ControlFlow::Continue(())
}

pub(super) fn als_xy_wing(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let sets = sets(p);
    for c in &sets {
        if p.stopped() {
            break;
        }
        // The sets with a restricted common with C, and that symbol.
        let linked: Vec<(&Als, u8)> = sets
            .iter()
            .filter(|other| !other.overlaps(c))
            .flat_map(|other| {
                symbols(other.symbols & c.symbols)
                    .filter(|&x| restricted(other, c, x))
                    .map(move |x| (other, x))
            })
            .collect();
        for [(a, x), (b, y)] in linked.iter().copied().array_combinations() {
            if x == y || a.overlaps(b) {
                continue;
            }
            let common = a.symbols & b.symbols & !bit(x) & !bit(y);
            let eliminations: Vec<(Cell, u8)> = symbols(common)
                .flat_map(|z| seen_by_both(p, a, b, z))
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            visit(Step::eliminating(
                Technique::AlsXyWing,
                eliminations,
                a.cells
                    .iter()
                    .chain(&b.cells)
                    .chain(&c.cells)
                    .map(|&k| p.cell(k))
                    .collect(),
                format!(
                    "{} lacks one of its symbols at most, so it holds {} or {}, and {} or {} is \
                     locked",
                    c.text(p),
                    symbol_name(x),
                    symbol_name(y),
                    a.text(p),
                    b.text(p)
                ),
            ))?;
        }
    }
    ControlFlow::Continue(())
}
