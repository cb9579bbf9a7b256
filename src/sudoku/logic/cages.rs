//! Killer cage arithmetic: the symbols that can still make a cage's sum.
//!
//! A cage's open cells must hold different symbols, none already placed in the cage, that add
//! up to what the sum still lacks. The technique lists the sets of symbols that add up to it
//! (a 2-cell 17 is only 8+9), keeps those that the open cells' candidates can hold, one
//! symbol per cell (a matching), and removes from each cell the candidates that no such
//! filling puts there. That is the whole of what the cage says on its own, so the deduction
//! is sound and as strong as a cage alone allows; the work is bounded, and a cage with too
//! many sets to list is skipped rather than searched at length.
//!
//! The same deduction runs on the cell sets that the rule of 45 gives a sum (innies and
//! outies), when their cells hold different symbols.

use std::ops::ControlFlow;

use itertools::Itertools;

use super::position::{Mask, Position, UnitKind, bit, symbols};
use super::{Step, Technique, Visit};
use crate::sudoku::model::{Cell, symbol_name};

/// The most sets of symbols a cage's sum may have for the technique to look at it.
const MAX_SETS: usize = 4096;

/// The most recursion steps spent listing one cage's sets.
const MAX_LISTING_STEPS: usize = 200_000;

pub(super) fn cage_combination(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    for unit in p.units_of_kind(UnitKind::Cage) {
        let cage = &p.units()[unit];
        let Some(sum) = cage.sum else {
            continue;
        };
        let Some(found) = deduce(p, &cage.cells, sum) else {
            continue;
        };
        let detail = format!("{} needs {}: {}", cage.name, found.need(p), found.ways());
        visit(Step::eliminating(
            Technique::CageCombination,
            found.eliminations,
            found.open.iter().map(|&c| p.cell(c)).collect(),
            detail,
        ))?;
    }
    ControlFlow::Continue(())
}

/// Innies and outies, the rule of 45: a unit's symbols add up to 1 + 2 + ... + N, so the
/// cells of a unit that its inner cages leave out, or the cells that the cages covering a
/// unit put outside it, add up to a known sum, and when they hold different symbols they are
/// treated as one more cage. (Which cell sets qualify is worked out once, in the layout.)
pub(super) fn innies_and_outies(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    for region in &p.layout.sum_regions {
        let Some(found) = deduce(p, &region.cells, region.sum) else {
            continue;
        };
        let detail = format!("{} {}: {}", region.why, found.need(p), found.ways());
        visit(Step::eliminating(
            Technique::InniesAndOuties,
            found.eliminations,
            found.open.iter().map(|&c| p.cell(c)).collect(),
            detail,
        ))?;
    }
    ControlFlow::Continue(())
}

/// What a sum over cells that hold different symbols allows.
struct Deduction {
    /// The cells still empty.
    open: Vec<usize>,
    /// What they must add up to.
    missing: u32,
    /// Whether some of the cells are filled already.
    partly_filled: bool,
    /// The sets of symbols that the open cells' candidates can make the sum with.
    making: Vec<Mask>,
    eliminations: Vec<(Cell, u8)>,
}

impl Deduction {
    /// `12 from r1c1,r1c2` or `5 more from r1c2` (when some of the cells are filled).
    fn need(&self, p: &Position) -> String {
        let cells = self.open.iter().map(|&c| p.cell(c)).join(",");
        let more = if self.partly_filled { " more" } else { "" };
        format!("{}{more} from {cells}", self.missing)
    }

    /// The sets that make the sum: `4+9 or 5+8`.
    fn ways(&self) -> String {
        match self.making.len() {
            0 => "no set of their candidates adds up to it".to_string(),
            1..=6 => self
                .making
                .iter()
                .map(|&set| symbols(set).map(symbol_name).join("+"))
                .join(" or "),
            many => format!("{many} sets of their candidates add up to it"),
        }
    }
}

/// The candidates of `cells` (which hold different symbols) that no filling adding up to
/// `sum` uses; `None` when there are none (or too many sets to look at).
fn deduce(p: &Position, cells: &[usize], sum: u32) -> Option<Deduction> {
    let Fillings {
        open,
        missing,
        making,
        possible,
    } = fillings(p, cells, sum)?;
    if open.is_empty() {
        return None;
    }
    let eliminations: Vec<_> = open
        .iter()
        .zip(&possible)
        .flat_map(|(&c, &keep)| symbols(p.candidates[c] & !keep).map(move |v| (c, v)))
        .map(|(c, v)| (p.cell(c), v))
        .collect();
    (!eliminations.is_empty()).then_some(Deduction {
        open,
        missing,
        partly_filled: missing < sum,
        making,
        eliminations,
    })
}

/// What a sum over cells that hold different symbols still allows.
struct Fillings {
    /// The cells still empty.
    open: Vec<usize>,
    /// What they must add up to.
    missing: u32,
    /// The sets of symbols that their candidates can make the sum with.
    making: Vec<Mask>,
    /// Each open cell's candidates that some filling puts there.
    possible: Vec<Mask>,
}

/// The fillings of `cells` adding up to `sum`, summed up; `None` when the placed symbols
/// already pass the sum or there are too many sets to look at.
fn fillings(p: &Position, cells: &[usize], sum: u32) -> Option<Fillings> {
    let open: Vec<usize> = cells
        .iter()
        .copied()
        .filter(|&c| p.values[c] == 0)
        .collect();
    let placed_sum: u32 = cells.iter().map(|&c| u32::from(p.values[c])).sum();
    let missing = sum.checked_sub(placed_sum)?;
    let placed = cells.iter().fold(0, |m, &c| match p.values[c] {
        0 => m,
        v => m | bit(v),
    });
    let available = open.iter().fold(0, |m, &c| m | p.candidates[c]) & !placed;
    let sets = sets_adding_up_to(available, open.len(), missing)?;
    let mut possible: Vec<Mask> = vec![0; open.len()];
    let mut making = Vec::new();
    for set in sets {
        let mut candidates: Vec<Mask> = open.iter().map(|&c| p.candidates[c] & set).collect();
        let Some(filling) = matching(&candidates) else {
            continue;
        };
        making.push(set);
        record(&mut possible, &filling);
        for i in 0..open.len() {
            // Each symbol not yet known possible in cell i, tried by fixing it there.
            let own = candidates[i];
            for value in symbols(own & !possible[i]) {
                candidates[i] = bit(value);
                if let Some(filling) = matching(&candidates) {
                    record(&mut possible, &filling);
                }
            }
            candidates[i] = own;
        }
    }
    Some(Fillings {
        open,
        missing,
        making,
        possible,
    })
}

/// What a sum over `cells` (which hold different symbols) leaves each open cell, for the
/// forcing trials: `Err` when no filling adds up to `sum`, and nothing when there are too many
/// sets to look at.
pub(super) fn sum_keeps(p: &Position, cells: &[usize], sum: u32) -> Result<Vec<(usize, Mask)>, ()> {
    let placed_sum: u32 = cells.iter().map(|&c| u32::from(p.values[c])).sum();
    if placed_sum > sum {
        return Err(());
    }
    let Some(found) = fillings(p, cells, sum) else {
        return Ok(Vec::new());
    };
    if found.making.is_empty() {
        return Err(());
    }
    Ok(found.open.into_iter().zip(found.possible).collect())
}

/// Marks each cell's symbol in a filling as possible there.
fn record(possible: &mut [Mask], filling: &[u8]) {
    for (mask, &value) in possible.iter_mut().zip(filling) {
        *mask |= bit(value);
    }
}

/// The sets of `count` different symbols of `available` that add up to `target`, or `None`
/// when there are too many to look at.
fn sets_adding_up_to(available: Mask, count: usize, target: u32) -> Option<Vec<Mask>> {
    let symbols: Vec<u8> = symbols(available).collect();
    let mut sets = Vec::new();
    let mut steps = 0;
    let complete = list_sets(&symbols, count, target, 0, &mut sets, &mut steps);
    complete.then_some(sets)
}

/// Extends `chosen` with `count` more of `symbols` (in increasing order) adding up to
/// `target`; false when a bound was reached.
fn list_sets(
    symbols: &[u8],
    count: usize,
    target: u32,
    chosen: Mask,
    sets: &mut Vec<Mask>,
    steps: &mut usize,
) -> bool {
    *steps += 1;
    if *steps > MAX_LISTING_STEPS {
        return false;
    }
    if count == 0 {
        if target == 0 {
            if sets.len() == MAX_SETS {
                return false;
            }
            sets.push(chosen);
        }
        return true;
    }
    if symbols.len() < count {
        return true;
    }
    // The smallest and largest sums `count` of the remaining symbols can make.
    let low: u32 = symbols[..count].iter().map(|&v| u32::from(v)).sum();
    let high: u32 = symbols[symbols.len() - count..]
        .iter()
        .map(|&v| u32::from(v))
        .sum();
    if target < low || target > high {
        return true;
    }
    let (first, rest) = (symbols[0], &symbols[1..]);
    if u32::from(first) <= target
        && !list_sets(
            rest,
            count - 1,
            target - u32::from(first),
            chosen | bit(first),
            sets,
            steps,
        )
    {
        return false;
    }
    list_sets(rest, count, target, chosen, sets, steps)
}

/// A filling of the cells with different symbols, each from the cell's candidates, using
/// every symbol of their union when there are as many as cells (Kuhn's augmenting paths), or
/// `None` if there is none.
fn matching(candidates: &[Mask]) -> Option<Vec<u8>> {
    let mut owner = [usize::MAX; 64];
    for cell in 0..candidates.len() {
        let mut tried: Mask = 0;
        if !augment(cell, candidates, &mut owner, &mut tried) {
            return None;
        }
    }
    let mut filling = vec![0; candidates.len()];
    for (b, &cell) in owner.iter().enumerate() {
        if cell != usize::MAX {
            filling[cell] = b as u8 + 1;
        }
    }
    Some(filling)
}

/// Finds a symbol for `cell`, moving other cells to other symbols where needed.
fn augment(cell: usize, candidates: &[Mask], owner: &mut [usize; 64], tried: &mut Mask) -> bool {
    for value in symbols(candidates[cell] & !*tried) {
        *tried |= bit(value);
        let slot = usize::from(value - 1);
        if owner[slot] == usize::MAX || augment(owner[slot], candidates, owner, tried) {
            owner[slot] = cell;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(values: &[u8]) -> Mask {
        values.iter().fold(0, |m, &v| m | bit(v))
    }

    #[test]
    fn the_sets_of_a_sum_are_listed_once_each() {
        let all = mask(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(sets_adding_up_to(all, 2, 17), Some(vec![mask(&[8, 9])]));
        assert_eq!(
            sets_adding_up_to(all, 2, 10),
            Some(vec![
                mask(&[1, 9]),
                mask(&[2, 8]),
                mask(&[3, 7]),
                mask(&[4, 6])
            ])
        );
        assert_eq!(sets_adding_up_to(all, 9, 45), Some(vec![all]));
        assert_eq!(sets_adding_up_to(all, 3, 5), Some(vec![]));
        // Every symbol of 1 to 60: far too many ways to make 900 from 30 of them.
        assert_eq!(sets_adding_up_to(!0 >> 4, 30, 900), None);
    }

    #[test]
    fn a_matching_gives_each_cell_its_own_candidate() {
        assert_eq!(
            matching(&[mask(&[1, 2]), mask(&[1])]),
            Some(vec![2, 1]),
            "the first cell moves over"
        );
        assert_eq!(
            matching(&[mask(&[1, 2]), mask(&[1, 2]), mask(&[1, 2])]),
            None
        );
        assert_eq!(matching(&[]), Some(vec![]));
    }
}
