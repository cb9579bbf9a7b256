//! Uniqueness techniques: deductions that hold only because the puzzle is declared to have one
//! solution, so they are tried only when it is ([`Position::declared_unique`]).
//!
//! A deadly pattern is a set of empty cells whose symbols could be swapped without breaking a
//! rule: four cells of a rectangle, in two rows, two columns and two boxes, holding {a,b}
//! crosswise. If the puzzle let them be only a and b it would have two solutions, so it does
//! not: some cell of the rectangle holds another symbol.
//!
//! - Unique rectangle type 1: three corners are {a,b}; the fourth is not a or b.
//! - Type 2: two corners are {a,b}, the other two {a,b,x}: x is in one of them, so it leaves
//!   every cell that sees both.
//! - Type 3: the two others hold more symbols between them; together they act as one cell of
//!   those symbols, which can make a naked subset with other cells of a unit they share.
//! - Type 4: the two others share a unit where a has no other place: one of them is a, so
//!   neither is b.
//! - Bivalue universal grave + 1: every empty cell has two candidates but one, which has three;
//!   were it either of the two symbols that appear twice in its units, the grid would be a
//!   deadly pattern of many cells, so it holds the one that appears three times.
//!
//! The swap argument needs rules that a swap keeps: units only, each meeting the rectangle in
//! two corners of one side. A rule beyond units (a neighbour rule, a line, a cage) switches
//! these techniques off.

use std::ops::ControlFlow;

use itertools::Itertools;

use super::position::{Mask, Position, bit, list, symbols};
use super::{Step, Technique, Visit};
use crate::sudoku::model::{Cell, symbol_name};

/// The rectangles of empty cells whose symbols a swap could exchange, as corners
/// `[top-left, top-right, bottom-left, bottom-right]`, with the two symbols every corner has.
fn rectangles(p: &Position) -> Vec<([usize; 4], Mask)> {
    let n = p.size();
    let mut found = Vec::new();
    if !p.unique || !p.layout.swappable {
        return found;
    }
    let empty = |c: usize| p.values[c] == 0;
    for [r1, r2] in (0..n).array_combinations() {
        if p.stopped() {
            break;
        }
        for [c1, c2] in (0..n).array_combinations() {
            let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
            if !corners.iter().all(|&c| empty(c)) {
                continue;
            }
            let common = corners.iter().fold(!0, |m, &c| m & p.candidates[c]);
            if common.count_ones() < 2 {
                continue;
            }
            // Every unit meets the rectangle in a side or not at all, and the rectangle
            // spans exactly two areas (boxes): else a swap breaks a unit, or it is no
            // pattern people call a rectangle.
            let sides = [[0, 1], [2, 3], [0, 2], [1, 3]];
            let mut areas = 0;
            let fits = p.units().iter().all(|unit| {
                let inside: Vec<usize> = (0..4)
                    .filter(|&k| unit.cells.contains(&corners[k]))
                    .collect();
                if inside.len() == 2 && unit.kind == super::position::UnitKind::Area {
                    areas += 1;
                }
                inside.is_empty() || sides.iter().any(|side| inside == side)
            });
            if !fits || areas != 2 {
                continue;
            }
            for pair in symbols(common).array_combinations::<2>() {
                found.push((corners, bit(pair[0]) | bit(pair[1])));
            }
        }
    }
    found
}

fn corners_text(p: &Position, corners: &[usize; 4]) -> String {
    corners.iter().map(|&c| p.cell(c)).join(",")
}

pub(super) fn unique_rectangle(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let sees = |a: usize, b: usize| p.layout.sees(a, b);
    for (corners, pair) in rectangles(p) {
        let extra: Vec<usize> = (0..4)
            .filter(|&k| p.candidates[corners[k]] != pair)
            .collect();
        let name = format!(
            "{} would be a deadly pattern of {}",
            corners_text(p, &corners),
            list(pair)
        );
        let reasons: Vec<Cell> = corners.iter().map(|&c| p.cell(c)).collect();
        match extra[..] {
            // Type 1.
            [k] => {
                let target = corners[k];
                let eliminations = symbols(pair).map(|v| (p.cell(target), v)).collect();
                visit(Step::eliminating(
                    Technique::UniqueRectangle,
                    eliminations,
                    reasons,
                    format!("type 1: {name}, so {} is neither", p.cell(target)),
                ))?;
            }
            [i, j] => {
                let (a, b) = (corners[i], corners[j]);
                let (ma, mb) = (p.candidates[a] & !pair, p.candidates[b] & !pair);
                // Type 2: the same one extra symbol.
                if ma == mb && ma.count_ones() == 1 {
                    let x = symbols(ma).next().unwrap_or(0);
                    let eliminations: Vec<(Cell, u8)> = (0..p.candidates.len())
                        .filter(|&c| c != a && c != b && sees(c, a) && sees(c, b))
                        .filter(|&c| p.candidates[c] & ma != 0)
                        .map(|c| (p.cell(c), x))
                        .collect();
                    if !eliminations.is_empty() {
                        visit(Step::eliminating(
                            Technique::UniqueRectangle,
                            eliminations,
                            reasons.clone(),
                            format!(
                                "type 2: {name}, so {} or {} holds {}",
                                p.cell(a),
                                p.cell(b),
                                symbol_name(x)
                            ),
                        ))?;
                    }
                }
                // Types 3 and 4 need the two to share a unit.
                let shared: Vec<usize> = (0..p.units().len())
                    .filter(|&u| p.units()[u].is_complete())
                    .filter(|&u| p.units()[u].cells.contains(&a) && p.units()[u].cells.contains(&b))
                    .collect();
                for &u in &shared {
                    // Type 4: one of the pair has no other place in the unit.
                    for v in symbols(pair) {
                        let places = p.places(u, v);
                        if places.len() == 2 && places.contains(&a) && places.contains(&b) {
                            let other = symbols(pair & !bit(v)).next().unwrap_or(0);
                            visit(Step::eliminating(
                                Technique::UniqueRectangle,
                                vec![(p.cell(a), other), (p.cell(b), other)],
                                reasons.clone(),
                                format!(
                                    "type 4: {name}; in {}, {} can only go in {} or {}, so \
                                     neither is {}",
                                    p.unit_name(u),
                                    symbol_name(v),
                                    p.cell(a),
                                    p.cell(b),
                                    symbol_name(other)
                                ),
                            ))?;
                        }
                    }
                    // Type 3: a naked subset with the two as one cell of their extra symbols.
                    let extras = ma | mb;
                    let others: Vec<usize> = p.units()[u]
                        .cells
                        .iter()
                        .copied()
                        .filter(|&c| c != a && c != b && p.values[c] == 0)
                        .collect();
                    for size in 1..=3usize {
                        for subset in others.iter().copied().combinations(size) {
                            let union = subset.iter().fold(extras, |m, &c| m | p.candidates[c]);
                            if union.count_ones() as usize != size + 1 {
                                continue;
                            }
                            let eliminations: Vec<(Cell, u8)> = others
                                .iter()
                                .filter(|c| !subset.contains(c))
                                .flat_map(|&c| {
                                    symbols(p.candidates[c] & union).map(move |v| (c, v))
                                })
                                .map(|(c, v)| (p.cell(c), v))
                                .collect();
                            if eliminations.is_empty() {
                                continue;
                            }
                            visit(Step::eliminating(
                                Technique::UniqueRectangle,
                                eliminations,
                                reasons.clone(),
                                format!(
                                    "type 3: {name}, so {} and {} hold one of {}; with {} they \
                                     hold only {} in {}",
                                    p.cell(a),
                                    p.cell(b),
                                    list(extras),
                                    subset.iter().map(|&c| p.cell(c)).join(","),
                                    list(union),
                                    p.unit_name(u)
                                ),
                            ))?;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    ControlFlow::Continue(())
}

pub(super) fn bug_plus_one(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    if !p.unique || !p.layout.swappable || p.units().iter().any(|u| !u.is_complete()) {
        return ControlFlow::Continue(());
    }
    let empty: Vec<usize> = (0..p.candidates.len())
        .filter(|&c| p.values[c] == 0)
        .collect();
    let (triples, others): (Vec<usize>, Vec<usize>) = empty
        .iter()
        .partition(|&&c| p.candidates[c].count_ones() == 3);
    let [cell] = triples[..] else {
        return ControlFlow::Continue(());
    };
    if others.iter().any(|&c| p.candidates[c].count_ones() != 2) {
        return ControlFlow::Continue(());
    }
    // The symbol of the cell with three places in each of its units.
    let thrice = symbols(p.candidates[cell]).find(|&v| {
        p.layout.units_of[cell]
            .iter()
            .all(|&u| p.places(u, v).len() == 3)
    });
    if let Some(v) = thrice {
        visit(Step {
            technique: Technique::BugPlusOne,
            placements: vec![(p.cell(cell), v)],
            eliminations: vec![],
            reasons: vec![p.cell(cell)],
            detail: format!(
                "every empty cell but {} has two candidates; {} has three places in each of its \
                 units, the others two",
                p.cell(cell),
                symbol_name(v)
            ),
            links: Vec::new(),
        })?;
    }
    ControlFlow::Continue(())
}
