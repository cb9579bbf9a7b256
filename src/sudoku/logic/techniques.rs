//! The techniques that work on units alone: singles, locked candidates, subsets, fish (finned
//! and sashimi too) and the XY- and XYZ-wings.
//!
//! Each reads a [`Position`]'s units and peers, never the shape of the grid, so the same code
//! finds a hidden single in a jigsaw region, a pointing pair from a diagonal or a naked pair
//! in a killer cage. A technique that needs every symbol to have a place in a unit (hidden
//! singles and subsets, locked candidates from that unit) uses only complete units; one that
//! only needs the symbols to differ (naked subsets, the target of locked candidates) uses
//! cages too.

use std::ops::ControlFlow;

use itertools::Itertools;

use super::position::{Mask, Position, UnitKind, bit, list, symbols};
use super::{Step, Technique, Visit};
use crate::sudoku::model::{Cell, symbol_name};

pub(super) fn naked_single(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    for index in (0..p.candidates.len()).filter(|&i| p.candidates[i].count_ones() == 1) {
        naked_single_at(p, index, visit)?;
    }
    ControlFlow::Continue(())
}

fn naked_single_at(p: &Position, index: usize, visit: Visit<'_>) -> ControlFlow<()> {
    let layout = &*p.layout;
    let value = symbols(p.candidates[index]).next().unwrap_or(0);
    let held = |cells: &[usize]| {
        cells
            .iter()
            .map(|&c| p.values[c])
            .filter(|&v| v != 0)
            .fold(0, |m, v| m | bit(v))
    };
    let units = &layout.units_of[index];
    // A unit with nothing placed says nothing (it read "column 5 has , box 2 has ,").
    let mut parts: Vec<String> = units
        .iter()
        .filter(|&&u| p.placed(u) != 0)
        .map(|&u| format!("{} has {}", p.unit_name(u), list(p.placed(u))))
        .collect();
    let mut seen = units.iter().fold(0, |m, &u| m | p.placed(u));
    let neighbours = held(&layout.neighbour_peers[index]);
    if neighbours != 0 {
        parts.push(format!(
            "its {} neighbours hold {}",
            layout.neighbour_rules,
            list(neighbours)
        ));
        seen |= neighbours;
    }
    let adjacent = held(&layout.not_consecutive[index]);
    if adjacent != 0 {
        parts.push(format!(
            "its orthogonal neighbours hold {}, so not one more or one less",
            list(adjacent)
        ));
        seen |= (adjacent << 1) | (adjacent >> 1);
    }
    let all: Mask = if p.size() >= 64 {
        !0
    } else {
        (1 << p.size()) - 1
    };
    let mut detail = parts.join(", ");
    if all & !seen & !bit(value) != 0 {
        detail.push_str("; the other candidates were eliminated by earlier steps");
    }
    let reasons = layout.peers[index]
        .iter()
        .chain(&layout.not_consecutive[index])
        .copied()
        .filter(|&c| p.values[c] != 0)
        .sorted()
        .dedup()
        .map(|c| p.cell(c))
        .collect();
    visit(Step {
        technique: Technique::NakedSingle,
        placements: vec![(p.cell(index), value)],
        eliminations: vec![],
        reasons,
        detail,
        links: Vec::new(),
    })
}

pub(super) fn hidden_single(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let layout = &*p.layout;
    for unit in p.scan_order().filter(|&u| p.units()[u].is_complete()) {
        let placed = p.placed(unit);
        for value in 1..=p.size() as u8 {
            if placed & bit(value) != 0 {
                continue;
            }
            let places = p.places(unit, value);
            if places.len() != 1 {
                continue;
            }
            // The placed copies of `value` that rule out the unit's other empty cells.
            let reasons = p.units()[unit]
                .cells
                .iter()
                .filter(|&&c| c != places[0] && p.values[c] == 0)
                .flat_map(|&c| &layout.peers[c])
                .copied()
                .filter(|&c| p.values[c] == value)
                .sorted()
                .dedup()
                .map(|c| p.cell(c))
                .collect();
            visit(Step {
                technique: Technique::HiddenSingle,
                placements: vec![(p.cell(places[0]), value)],
                eliminations: vec![],
                reasons,
                detail: format!(
                    "the only place left for {} in {}",
                    symbol_name(value),
                    p.unit_name(unit)
                ),
                links: Vec::new(),
            })?;
        }
    }
    ControlFlow::Continue(())
}

/// Removes `value` from `targets` (those that still have it).
fn eliminate(p: &Position, targets: impl Iterator<Item = usize>, value: u8) -> Vec<(Cell, u8)> {
    targets
        .filter(|&c| p.candidates[c] & bit(value) != 0)
        .map(|c| (p.cell(c), value))
        .collect()
}

/// Locked candidates: in a complete unit, a symbol whose places all lie in one other unit
/// leaves that unit's other cells. Pointing starts from a box (or region, diagonal, window),
/// claiming from a row or column.
pub(super) fn locked_candidates(
    p: &Position,
    from_lines: bool,
    visit: Visit<'_>,
) -> ControlFlow<()> {
    let (technique, sources): (Technique, Vec<usize>) = if from_lines {
        let lines = p.units_of_kind(UnitKind::Row);
        (
            Technique::Claiming,
            lines.chain(p.units_of_kind(UnitKind::Column)).collect(),
        )
    } else {
        (
            Technique::Pointing,
            p.units_of_kind(UnitKind::Area).collect(),
        )
    };
    for source in sources {
        for value in 1..=p.size() as u8 {
            let places = p.places(source, value);
            if places.len() < 2 {
                continue;
            }
            for &target in &p.layout.units_of[places[0]] {
                if target == source
                    || !places[1..]
                        .iter()
                        .all(|&c| p.layout.units_of[c].contains(&target))
                {
                    continue;
                }
                let others = p.units()[target]
                    .cells
                    .iter()
                    .copied()
                    .filter(|c| !places.contains(c));
                let eliminations = eliminate(p, others, value);
                if !eliminations.is_empty() {
                    visit(Step::eliminating(
                        technique,
                        eliminations,
                        places.iter().map(|&c| p.cell(c)).collect(),
                        format!(
                            "in {}, {} can only go in {}",
                            p.unit_name(source),
                            symbol_name(value),
                            p.unit_name(target)
                        ),
                    ))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Naked pairs and triples: `size` cells of a unit whose candidates together are `size`
/// symbols; those symbols leave the unit's other cells.
pub(super) fn naked_subset(p: &Position, size: usize, visit: Visit<'_>) -> ControlFlow<()> {
    let technique = if size == 2 {
        Technique::NakedPair
    } else {
        Technique::NakedTriple
    };
    for unit in p.scan_order() {
        let members = &p.units()[unit].cells;
        let cells: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&c| (2..=size as u32).contains(&p.candidates[c].count_ones()))
            .collect();
        for subset in cells.iter().copied().combinations(size) {
            let union = subset.iter().fold(0, |m, &c| m | p.candidates[c]);
            if union.count_ones() as usize != size {
                continue;
            }
            let others: Vec<usize> = members
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
pub(super) fn hidden_subset(p: &Position, size: usize, visit: Visit<'_>) -> ControlFlow<()> {
    let technique = if size == 2 {
        Technique::HiddenPair
    } else {
        Technique::HiddenTriple
    };
    for unit in p.scan_order().filter(|&u| p.units()[u].is_complete()) {
        let placed = p.placed(unit);
        let values: Vec<u8> = (1..=p.size() as u8)
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

/// X-wing (`size` 2), swordfish (3) and jellyfish (4): a symbol whose places in `size` rows lie in `size`
/// columns (or the other way round) leaves those columns' other cells.
pub(super) fn fish(p: &Position, size: usize, visit: Visit<'_>) -> ControlFlow<()> {
    let technique = match size {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    let n = p.size();
    for value in 1..=n as u8 {
        for (base_kind, cover_kind) in [
            (UnitKind::Row, UnitKind::Column),
            (UnitKind::Column, UnitKind::Row),
        ] {
            // Rows are units 0..n and columns n..2n.
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
                    .flat_map(|&u| p.units()[u].cells.iter().copied())
                    .filter(|c| !places.contains(c));
                let eliminations = eliminate(p, targets, value);
                if !eliminations.is_empty() {
                    let names = |kind: &str, units: &[usize]| {
                        let numbers = units.iter().map(|&u| 1 + u % n).join(",");
                        format!("{kind}s {numbers}")
                    };
                    let (base_name, cover_name) = match base_kind {
                        UnitKind::Row => ("row", "column"),
                        _ => ("column", "row"),
                    };
                    visit(Step::eliminating(
                        technique,
                        eliminations,
                        places.iter().map(|&c| p.cell(c)).collect(),
                        format!(
                            "in {}, {} can only go in {}",
                            names(base_name, &subset),
                            symbol_name(value),
                            names(cover_name, &covers)
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
pub(super) fn xy_wing(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let sees = |a: usize, b: usize| p.layout.sees(a, b);
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
            let targets = p.layout.peers[x]
                .iter()
                .copied()
                .filter(|&t| t != pivot && sees(t, y));
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

/// Finned X-wings, swordfish and jellyfish (sashimi ones too): a symbol whose places in
/// `size` rows lie in `size` columns but for a few, the fins. Either the fish holds, and the
/// symbol leaves those columns' other cells, or a fin holds the symbol; so it leaves the cells
/// of those columns that see every fin.
pub(super) fn finned_fish(p: &Position, size: usize, visit: Visit<'_>) -> ControlFlow<()> {
    let technique = match size {
        2 => Technique::FinnedXWing,
        3 => Technique::FinnedSwordfish,
        _ => Technique::FinnedJellyfish,
    };
    let n = p.size();
    let sees = |a: usize, b: usize| p.layout.sees(a, b);
    for value in 1..=n as u8 {
        if p.stopped() {
            break;
        }
        for (base_kind, cover_kind) in [
            (UnitKind::Row, UnitKind::Column),
            (UnitKind::Column, UnitKind::Row),
        ] {
            // Rows are units 0..n and columns n..2n; a line's places as a mask of the lines
            // across it.
            let (cover_of, cover_unit): (fn(usize, usize) -> usize, usize) = match cover_kind {
                UnitKind::Column => (|c, n| c % n, n),
                _ => (|c, n| c / n, 0),
            };
            let bases: Vec<(usize, u64)> = p
                .units_of_kind(base_kind)
                .filter(|&u| p.placed(u) & bit(value) == 0)
                .map(|u| {
                    let mask = p.units()[u]
                        .cells
                        .iter()
                        .filter(|&&c| p.candidates[c] & bit(value) != 0)
                        .fold(0u64, |m, &c| m | 1 << cover_of(c, n));
                    (u, mask)
                })
                .filter(|&(_, mask)| (1..=size as u32 + 2).contains(&mask.count_ones()))
                .collect();
            for subset in bases.iter().copied().combinations(size) {
                let union = subset.iter().fold(0u64, |m, &(_, mask)| m | mask);
                let lines = union.count_ones() as usize;
                if lines <= size || lines > size + 2 {
                    continue;
                }
                let across: Vec<usize> = (0..n).filter(|&i| union & 1 << i != 0).collect();
                let places: Vec<usize> = subset
                    .iter()
                    .flat_map(|&(u, _)| p.places(u, value))
                    .collect();
                for covers in across.iter().copied().combinations(size) {
                    let cover_mask = covers.iter().fold(0u64, |m, &i| m | 1 << i);
                    // A fish whose covers miss a base entirely is no fish.
                    if subset.iter().any(|&(_, mask)| mask & cover_mask == 0) {
                        continue;
                    }
                    let fins: Vec<usize> = places
                        .iter()
                        .copied()
                        .filter(|&c| cover_mask & 1 << cover_of(c, n) == 0)
                        .collect();
                    let targets = covers
                        .iter()
                        .flat_map(|&i| p.units()[cover_unit + i].cells.iter().copied())
                        .filter(|c| !places.contains(c) && fins.iter().all(|&f| sees(*c, f)));
                    let eliminations = eliminate(p, targets, value);
                    if eliminations.is_empty() {
                        continue;
                    }
                    let base_units: Vec<usize> = subset.iter().map(|&(u, _)| u % n + 1).collect();
                    let (base_name, cover_name) = match base_kind {
                        UnitKind::Row => ("rows", "columns"),
                        _ => ("columns", "rows"),
                    };
                    visit(Step::eliminating(
                        technique,
                        eliminations,
                        places.iter().map(|&c| p.cell(c)).collect(),
                        format!(
                            "in {base_name} {}, {} can only go in {cover_name} {} or the fins {}; \
                             the cells removed see every fin",
                            base_units.iter().join(","),
                            symbol_name(value),
                            covers.iter().map(|i| i + 1).join(","),
                            fins.iter().map(|&c| p.cell(c)).join(",")
                        ),
                    ))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// XYZ-wing: a pivot {x,y,z} sees a pincer {x,z} and a pincer {y,z}; one of the three holds
/// z, so z leaves every cell that sees all three.
pub(super) fn xyz_wing(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let sees = |a: usize, b: usize| p.layout.sees(a, b);
    let cells = 0..p.candidates.len();
    let pairs: Vec<usize> = cells
        .clone()
        .filter(|&c| p.candidates[c].count_ones() == 2)
        .collect();
    for pivot in cells.filter(|&c| p.candidates[c].count_ones() == 3) {
        let pm = p.candidates[pivot];
        let wings: Vec<usize> = pairs
            .iter()
            .copied()
            .filter(|&w| sees(pivot, w) && p.candidates[w] & !pm == 0)
            .collect();
        for [x, y] in wings.iter().copied().array_combinations() {
            let (xm, ym) = (p.candidates[x], p.candidates[y]);
            let z = xm & ym;
            if xm == ym || z.count_ones() != 1 {
                continue;
            }
            let value = symbols(z).next().unwrap_or(0);
            let targets = p.layout.peers[pivot]
                .iter()
                .copied()
                .filter(|&t| t != x && t != y && sees(t, x) && sees(t, y));
            let eliminations = eliminate(p, targets, value);
            if !eliminations.is_empty() {
                visit(Step::eliminating(
                    Technique::XyzWing,
                    eliminations,
                    vec![p.cell(pivot), p.cell(x), p.cell(y)],
                    format!(
                        "pivot {} {{{}}} sees {} {{{}}} and {} {{{}}}: one of the three is {}",
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
