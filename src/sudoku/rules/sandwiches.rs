//! Sandwiches: a number beside a row or column is the sum of the symbols between its 1 and
//! its largest symbol (9 on 9x9), whichever comes first.
//!
//! Read by a machine (see [`super::sequences`]) along the row: before the first of the two,
//! between them adding up, and after the second.

use super::Mark;
use super::outside::{Outside, parse_outside_clues, validate_outside};
use super::sequences::{Sequence, State};
use super::{Rule, Rules, RulesError};

pub(super) const NAME: &str = "sandwiches";

/// The state after the second crust.
const AFTER: State = 1 << 40;

/// Sandwich clues: where each stands (the side does not matter) and its sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandwiches {
    pub clues: Vec<(Outside, u32)>,
}

impl Sandwiches {
    /// Reads one clue a line: `left 3 12` (row 3), `top 5 0` (column 5).
    pub fn parse(lines: &[(usize, String)]) -> Result<Sandwiches, (usize, String)> {
        Ok(Sandwiches {
            clues: parse_outside_clues(lines)?,
        })
    }
}

impl Rule for Sandwiches {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a sandwich"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, &(at, _)) in self.clues.iter().enumerate() {
            validate_outside(rules.size, NAME, k, at)?;
        }
        Ok(())
    }

    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let n = rules.size;
        let high = n as u8;
        self.clues
            .iter()
            .map(|&(at, sum)| {
                let sum = State::from(sum);
                // 0 before the first crust; 1 + the sum so far between them; AFTER.
                Sequence::new(
                    at.cells(n),
                    format!("the sandwich {} of {}", sum, at.name()),
                    0,
                    move |_, state, symbol| {
                        let crust = symbol == 1 || symbol == high;
                        match state {
                            0 => Some(if crust { 1 } else { 0 }),
                            AFTER => (!crust).then_some(AFTER),
                            inside => {
                                let so_far = inside - 1;
                                if crust {
                                    (so_far == sum).then_some(AFTER)
                                } else {
                                    let more = so_far + State::from(symbol);
                                    (more <= sum).then_some(more + 1)
                                }
                            }
                        }
                    },
                    |state| state == AFTER,
                )
            })
            .collect()
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
            let values: Vec<u8> = at.cells(n).iter().map(|&(r, c)| grid[r * n + c]).collect();
            let one = values.iter().position(|&v| v == 1)?;
            let top = values.iter().position(|&v| usize::from(v) == n)?;
            let (from, to) = (one.min(top), one.max(top));
            let between: u32 = values[from + 1..to].iter().map(|&v| u32::from(v)).sum();
            if between != sum {
                return Some(format!(
                    "the sandwich of {} is {between}, not {sum}",
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
