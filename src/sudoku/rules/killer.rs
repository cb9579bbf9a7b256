//! Killer cages: the cells of a cage hold different symbols that add up to its sum.
//!
//! A cage is not a unit of the exact-cover problem: the encoding makes each cage a sum over
//! its cells' options (see [`crate::sudoku::variant::VariantEncoding`]), with the sums the
//! cages imply in the units ([`Killer::implied_sums`]), and as a group of cells that holds one
//! of the sets of different symbols making its sum ([`Rule::set_groups`]: a cage of two cells
//! summing to 3 holds 1 and 2), so that the search places what every set holds. The
//! backtracking baseline and the logic read [`Rules::cages`] themselves.

use super::Mark;
use super::sequences::Symbols;
use super::{Cell, Rule, Rules, RulesError, SetGroup, Unit, cell_name};

/// The most sets of symbols a cage is seen as (see [`Rule::set_groups`]): each is an option.
/// A 9x9 cage has at most 12 (four cells adding up to 20); large cages of 16x16 grids have
/// hundreds, and are left to their sum.
const MAX_SETS: usize = 64;

/// The most cells of a sum implied by a cage sticking out of a unit, or of one implied by a
/// run of units whose cells all lie in cages already (more say little).
const MAX_OUTIE_CELLS: usize = 6;

/// Cells whose symbols, each with a sign, add up to a total: a sum the cages imply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImpliedSum {
    /// Cells counted with their symbol.
    pub plus: Vec<Cell>,
    /// Cells counted with minus their symbol.
    pub minus: Vec<Cell>,
    pub total: i64,
    /// Whether the cells lie in one unit (their symbols differ).
    pub in_one_unit: bool,
}

impl Killer {
    /// The sums the cages imply in each unit of `n` cells (the rule of 45: a unit's symbols
    /// add up to n(n+1)/2). The cells of a unit outside the cages lying wholly inside it add
    /// up to that total less the cages' sums; and where a cage sticks out of the unit by one
    /// cell, those cells less the cage's cells in the unit, less the cell outside, make the
    /// total less the cage's sum too. The same holds of runs of rows, of columns and of boxes
    /// with the cages lying mostly inside them (the innies and outies of killer solvers).
    pub fn implied_sums(&self, units: &[Unit], n: usize) -> Vec<ImpliedSum> {
        if self.cages.is_empty() {
            return Vec::new();
        }
        let mut sums = self.unit_sums(units, n);
        // Runs of rows and of columns (the units open with n rows, then n columns).
        if units.len() >= 2 * n {
            for family in [&units[..n], &units[n..2 * n]] {
                for first in 0..n {
                    for last in first + 1..n {
                        if last - first + 1 < n {
                            let run: Vec<&Unit> = family[first..=last].iter().collect();
                            sums.extend(self.run_sum(&run, n));
                        }
                    }
                }
            }
        }
        // Runs of boxes: the first and the last few, in reading order and column by column.
        let boxes: Vec<&Unit> = units.iter().filter(|u| u.tag.starts_with('b')).collect();
        if boxes.len() == n {
            for order in box_orders(&boxes, n) {
                for len in 2..n {
                    sums.extend(self.run_sum(&order[..len], n));
                    sums.extend(self.run_sum(&order[n - len..], n));
                }
            }
        }
        sums.sort_by(|a, b| (&a.plus, &a.minus, a.total).cmp(&(&b.plus, &b.minus, b.total)));
        sums.dedup();
        sums
    }

    /// The sum a run of whole units implies: with the cages most of whose cells lie in the
    /// run, the run's cells outside them, less those cages' cells outside the run, add up to
    /// the run's total less the cages' sums. `None` when that names no cell or too many.
    fn run_sum(&self, run: &[&Unit], n: usize) -> Option<ImpliedSum> {
        let mut in_run = vec![false; n * n];
        for unit in run {
            for &(r, c) in &unit.cells {
                in_run[r * n + c] = true;
            }
        }
        let mut total = (run.len() * n * (n + 1) / 2) as i64;
        let mut in_pieces = vec![false; n * n];
        for cage in &self.cages {
            let inside = cage
                .cells
                .iter()
                .filter(|&&(r, c)| in_run[r * n + c])
                .count();
            if 2 * inside > cage.cells.len() {
                total -= i64::from(cage.sum);
                for &(r, c) in &cage.cells {
                    in_pieces[r * n + c] = true;
                }
            }
        }
        let cells = |keep: &dyn Fn(usize) -> bool| -> Vec<Cell> {
            (0..n * n)
                .filter(|&cell| keep(cell))
                .map(|cell| (cell / n, cell % n))
                .collect()
        };
        let plus = cells(&|cell| in_run[cell] && !in_pieces[cell]);
        let minus = cells(&|cell| in_pieces[cell] && !in_run[cell]);
        // At most a unit's worth of cells, and few on one side: a sum with many cells on both
        // sides says little. Where every cell is in a cage already, fewer still.
        let size = plus.len() + minus.len();
        if size == 0 || size > n || (plus.len() > 2 && minus.len() > 2) {
            return None;
        }
        let caged = |cell: &Cell| self.cages.iter().any(|cage| cage.cells.contains(cell));
        if size > MAX_OUTIE_CELLS && plus.iter().chain(&minus).all(caged) {
            return None;
        }
        let in_one_unit = minus.is_empty()
            && run
                .iter()
                .any(|unit| plus.iter().all(|cell| unit.cells.contains(cell)));
        Some(ImpliedSum {
            plus,
            minus,
            total,
            in_one_unit,
        })
    }

    /// [`Killer::implied_sums`] in each unit alone.
    fn unit_sums(&self, units: &[Unit], n: usize) -> Vec<ImpliedSum> {
        let full = (n * (n + 1) / 2) as i64;
        let mut cage_of = vec![usize::MAX; n * n];
        for (k, cage) in self.cages.iter().enumerate() {
            for &(r, c) in &cage.cells {
                cage_of[r * n + c] = k;
            }
        }
        let mut sums = Vec::new();
        for unit in units {
            let mut inside = vec![0usize; self.cages.len()];
            for &(r, c) in &unit.cells {
                if let Some(count) = inside.get_mut(cage_of[r * n + c]) {
                    *count += 1;
                }
            }
            let whole = |k: usize| inside[k] == self.cages[k].cells.len();
            let left: Vec<Cell> = unit
                .cells
                .iter()
                .copied()
                .filter(|&(r, c)| {
                    let k = cage_of[r * n + c];
                    k == usize::MAX || !whole(k)
                })
                .collect();
            let total = full
                - (0..self.cages.len())
                    .filter(|&k| whole(k))
                    .map(|k| i64::from(self.cages[k].sum))
                    .sum::<i64>();
            if !left.is_empty() && left.len() < unit.cells.len() {
                sums.push(ImpliedSum {
                    plus: left.clone(),
                    minus: Vec::new(),
                    total,
                    in_one_unit: true,
                });
            }
            for (k, cage) in self.cages.iter().enumerate() {
                if inside[k] == 0 || inside[k] + 1 != cage.cells.len() {
                    continue;
                }
                let plus: Vec<Cell> = left
                    .iter()
                    .copied()
                    .filter(|&(r, c)| cage_of[r * n + c] != k)
                    .collect();
                let minus: Vec<Cell> = cage
                    .cells
                    .iter()
                    .copied()
                    .filter(|cell| !unit.cells.contains(cell))
                    .collect();
                if plus.len() + minus.len() <= MAX_OUTIE_CELLS && !plus.is_empty() {
                    sums.push(ImpliedSum {
                        plus,
                        minus,
                        total: total - i64::from(cage.sum),
                        in_one_unit: false,
                    });
                }
            }
        }
        sums
    }
}

/// The boxes (`n` of them, in reading order) in reading order and column by column, the
/// width of a box read from the first one's cells.
fn box_orders<'u>(boxes: &[&'u Unit], n: usize) -> Vec<Vec<&'u Unit>> {
    let columns = |unit: &Unit| {
        let (low, high) = (unit.cells.iter().map(|&(_, c)| c))
            .fold((n, 0), |(low, high), c| (low.min(c), high.max(c)));
        high + 1 - low
    };
    let width = columns(boxes[0]);
    let across = n / width.max(1);
    let down = n / across.max(1);
    let mut orders = vec![boxes.to_vec()];
    if across * down == n && across > 1 && down > 1 {
        orders.push(
            (0..n)
                .map(|i| boxes[(i % down) * across + i / down])
                .collect(),
        );
    }
    orders
}

pub(super) const NAME: &str = "cages";

/// A killer cage: its cells hold different symbols that add up to `sum`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cage {
    pub sum: u32,
    pub cells: Vec<Cell>,
}

/// The killer rule: disjoint cages, numbered from 1 in this order in messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Killer {
    pub cages: Vec<Cage>,
}

impl Rule for Killer {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the cages"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        let mut caged = vec![false; n * n];
        for (k, cage) in self.cages.iter().enumerate() {
            for &(row, col) in &cage.cells {
                if row >= n || col >= n {
                    return Err(RulesError::CageCellOutside(k + 1, (row, col)));
                }
                if std::mem::replace(&mut caged[row * n + col], true) {
                    return Err(RulesError::CageOverlap(k + 1, (row, col)));
                }
            }
            let cells = cage.cells.len();
            if cells == 0 || cells > n {
                return Err(RulesError::CageSum(
                    k + 1,
                    format!("a cage holds 1 to {n} cells, this one {cells}"),
                ));
            }
            // The smallest and largest sums of `cells` distinct symbols; every sum between
            // them can be made.
            let least = (cells * (cells + 1) / 2) as u32;
            let most = (cells * (2 * n + 1 - cells) / 2) as u32;
            if !(least..=most).contains(&cage.sum) {
                return Err(RulesError::CageSum(
                    k + 1,
                    format!(
                        "{cells} different symbols add up to {least} to {most}, not {}",
                        cage.sum
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Each cage holds one set of different symbols adding up to its sum.
    fn set_groups(&self, rules: &Rules) -> Vec<SetGroup> {
        let n = rules.size;
        if n > 16 {
            return Vec::new();
        }
        self.cages
            .iter()
            .filter_map(|cage| {
                let k = cage.cells.len();
                let sets: Vec<Symbols> = (0u32..1 << n)
                    .filter(|set| set.count_ones() as usize == k)
                    .filter(|set| {
                        (1..=n as u32)
                            .filter(|v| set & 1 << (v - 1) != 0)
                            .sum::<u32>()
                            == cage.sum
                    })
                    .map(|set| Symbols::from(set) << 1)
                    .collect();
                (sets.len() <= MAX_SETS).then(|| SetGroup {
                    cells: cage.cells.clone(),
                    sets,
                    // With the rule on cages, tarek's even-numbered killers and ISS's extreme
                    // ones took 8.4 to 8.9 s instead of 5.1 to 5.3 s (docs/sums.md).
                    exclusions: false,
                })
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.cages
            .iter()
            .map(|cage| Mark::Cage {
                style: NAME,
                cells: cage.cells.clone(),
                text: cage.sum.to_string(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (k, cage) in self.cages.iter().enumerate() {
            let values: Vec<u8> = cage.cells.iter().map(|&(r, c)| grid[r * n + c]).collect();
            let sum: u32 = values.iter().map(|&v| u32::from(v)).sum();
            if sum != cage.sum {
                return Some(format!("cage {} adds up to {sum}, not {}", k + 1, cage.sum));
            }
            for (i, v) in values.iter().enumerate() {
                if values[i + 1..].contains(v) {
                    return Some(format!(
                        "cage {} holds {v} twice ({})",
                        k + 1,
                        cell_name(cage.cells[i])
                    ));
                }
            }
        }
        None
    }
}
