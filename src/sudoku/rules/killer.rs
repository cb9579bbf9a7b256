//! Killer cages: the cells of a cage hold different symbols that add up to its sum.
//!
//! A cage is not a unit of the exact-cover problem: the encoding turns each way of filling a
//! cage into one option (see [`crate::sudoku::variant::VariantEncoding`]), and the
//! backtracking baseline and the logic read [`Rules::cages`] themselves.

use super::{Cell, Rule, Rules, RulesError, cell_name};

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
