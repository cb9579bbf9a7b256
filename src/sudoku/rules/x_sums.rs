//! X-sums: a number beside a row or column is the sum of its first X symbols seen from that
//! side, X being the first of them.
//!
//! Read by a machine (see [`super::sequences`]): the first symbol says how many to add, then
//! the count and the sum left go down together, and once both reach 0 the rest is free. The
//! search sees each clue as sums instead: for each X, two sums that hold the first X cells to
//! the clue when the first symbol is X and let them be when it is not.

use super::Mark;
use super::outside::{Outside, parse_outside_clues, validate_outside};
use super::sequences::{Sequence, State};
use super::{CellSum, Rule, Rules, RulesError, Weight};

pub(super) const NAME: &str = "x-sums";

/// The state once the first X cells add up.
const DONE: State = 1 << 40;

/// X-sum clues: where each stands and its sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XSums {
    pub clues: Vec<(Outside, u32)>,
}

impl XSums {
    /// Reads one clue a line: `left 3 25`, `bottom 5 7`.
    pub fn parse(lines: &[(usize, String)]) -> Result<XSums, (usize, String)> {
        Ok(XSums {
            clues: parse_outside_clues(lines)?,
        })
    }
}

impl Rule for XSums {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "an X-sum"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, &(at, _)) in self.clues.iter().enumerate() {
            validate_outside(rules.size, NAME, k, at)?;
        }
        Ok(())
    }

    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let n = rules.size;
        self.clues
            .iter()
            .map(|&(at, sum)| {
                let sum = State::from(sum);
                // The state: the cells still to add (above bit 20) and the sum left.
                let pack = |count: State, left: State| {
                    if count == 0 {
                        (left == 0).then_some(DONE)
                    } else {
                        Some(count << 20 | left)
                    }
                };
                Sequence::new(
                    at.cells(n),
                    format!("the X-sum {sum} of {}", at.name()),
                    0,
                    move |position, state, symbol| {
                        let symbol = State::from(symbol);
                        if position == 0 {
                            return pack(symbol - 1, sum.checked_sub(symbol)?);
                        }
                        if state == DONE {
                            return Some(DONE);
                        }
                        let (count, left) = (state >> 20, state & ((1 << 20) - 1));
                        pack(count - 1, left.checked_sub(symbol)?)
                    },
                    |state| state == DONE,
                )
            })
            .collect()
    }

    /// For each X, the first X symbols add up to at most the clue, and to at least it, where
    /// the first is X; where it is not, the first cell adds so little to the first sum (so
    /// much to the second) that the others cannot break it.
    fn sums(&self, rules: &Rules) -> Vec<CellSum> {
        let n = rules.size;
        let mut sums = Vec::new();
        for &(at, clue) in &self.clues {
            let cells = at.cells(n);
            let clue = i64::from(clue);
            let most = (n * n) as i64;
            let far = most + clue.abs() + 1;
            for x in 1..=n {
                for sign in [-1, 1] {
                    let first: Vec<i64> = (1..=n)
                        .map(|v| if v == x { x as i64 } else { sign * far })
                        .collect();
                    let mut terms = vec![(cells[0], Weight::Values(first))];
                    terms.extend(cells[1..x].iter().map(|&cell| (cell, Weight::Times(1))));
                    let (min, max) = if sign < 0 {
                        (-far, clue)
                    } else {
                        (clue, far + most)
                    };
                    sums.push(CellSum {
                        terms,
                        switches: Vec::new(),
                        min,
                        max,
                    });
                }
            }
        }
        sums
    }

    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        true
    }

    fn marks(&self, rules: &Rules) -> Vec<Mark> {
        self.clues
            .iter()
            .map(|&(place, number)| place.mark(rules.size, NAME, number.to_string()))
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for &(at, sum) in &self.clues {
            let values: Vec<u32> = at
                .cells(n)
                .iter()
                .map(|&(r, c)| u32::from(grid[r * n + c]))
                .collect();
            let first = values[0] as usize;
            let total: u32 = values.iter().take(first).sum();
            if total != sum {
                return Some(format!(
                    "the first {first} of {} add up to {total}, not {sum}",
                    at.name()
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues
            .iter()
            .map(|&(at, sum)| format!("{} {sum}", at.text()))
            .collect()
    }
}
