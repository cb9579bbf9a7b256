//! Global entropy and global modular rules: every 2x2 square of the grid holds a symbol of
//! each of three groups. Entropy's groups are the low, middle and high thirds of the symbols
//! (1-3, 4-6, 7-9 on 9x9); the modular rule's are the remainders modulo 3 (1 4 7, 2 5 8,
//! 3 6 9).
//!
//! Each square is read by a machine (see [`super::sequences`]) whose state is the set of
//! groups seen; the search sees the rule as sums: each square holds one or two symbols of
//! each group.

use super::sequences::{Sequence, State};
use super::{CellSum, Rule, Rules, RulesError, Weight, cell_name};

pub(super) const ENTROPY: &str = "global-entropy";
pub(super) const MODULAR: &str = "global-modular";

/// The rule: entropy or modular.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GlobalGroups {
    /// Groups by remainder modulo 3 (the modular rule), else by thirds (entropy).
    pub modular: bool,
}

impl GlobalGroups {
    /// The group (0, 1 or 2) of symbol `v` on a grid of side `n`.
    fn group(self, v: u8, n: usize) -> u8 {
        if self.modular {
            v % 3
        } else {
            ((usize::from(v) - 1) / (n / 3)) as u8
        }
    }
}

impl Rule for GlobalGroups {
    fn name(&self) -> &'static str {
        if self.modular { MODULAR } else { ENTROPY }
    }

    fn title(&self) -> &'static str {
        if self.modular {
            "the global modular rule"
        } else {
            "the global entropy rule"
        }
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        if rules.size < 3 || (!self.modular && !rules.size.is_multiple_of(3)) {
            return Err(RulesError::BadSize(format!(
                "{} needs a side that three groups divide, not {}",
                self.title(),
                rules.size
            )));
        }
        Ok(())
    }

    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let n = rules.size;
        let rule = *self;
        let mut sequences = Vec::new();
        for r in 0..n - 1 {
            for c in 0..n - 1 {
                sequences.push(Sequence::new(
                    vec![(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)],
                    format!("the square at {}", cell_name((r, c))),
                    0,
                    move |_, seen: State, symbol| Some(seen | 1 << rule.group(symbol, n)),
                    |seen| seen == 0b111,
                ));
            }
        }
        sequences
    }

    /// Of the four symbols of a square, each group has one or two.
    fn sums(&self, rules: &Rules) -> Vec<CellSum> {
        let n = rules.size;
        let mut sums = Vec::new();
        for r in 0..n - 1 {
            for c in 0..n - 1 {
                let square = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
                for group in 0..3 {
                    let values: Vec<i64> = (1..=n as u8)
                        .map(|v| i64::from(self.group(v, n) == group))
                        .collect();
                    sums.push(CellSum {
                        switches: Vec::new(),
                        terms: square
                            .iter()
                            .map(|&cell| (cell, Weight::Values(values.clone())))
                            .collect(),
                        min: 1,
                        max: 2,
                    });
                }
            }
        }
        sums
    }

    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        true
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for r in 0..n - 1 {
            for c in 0..n - 1 {
                let values = [
                    grid[r * n + c],
                    grid[r * n + c + 1],
                    grid[(r + 1) * n + c],
                    grid[(r + 1) * n + c + 1],
                ];
                for group in 0..3 {
                    let found = values.iter().any(|&v| {
                        if self.modular {
                            v % 3 == group
                        } else {
                            (usize::from(v) - 1) * 3 / n == usize::from(group)
                        }
                    });
                    if !found {
                        return Some(format!(
                            "the square at {} lacks a group of {}",
                            cell_name((r, c)),
                            self.title()
                        ));
                    }
                }
            }
        }
        None
    }
}
