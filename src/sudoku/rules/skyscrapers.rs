//! Skyscrapers: a number beside a row or column counts the symbols seen from that side,
//! each a building as tall as its symbol that hides the lower ones behind it.
//!
//! Read by a machine (see [`super::sequences`]) whose state is the tallest so far and the
//! number seen. Along a row or column that holds every symbol once, the machine also knows
//! that the tallest after k cells is k at least, and the tallest symbol after the last.

use super::Mark;
use super::outside::{Outside, parse_outside_clues, validate_outside};
use super::sequences::{Sequence, State};
use super::{Rule, Rules, RulesError};

pub(super) const NAME: &str = "skyscrapers";

/// Skyscraper clues: where each stands and how many buildings it sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skyscrapers {
    pub clues: Vec<(Outside, u32)>,
}

impl Skyscrapers {
    /// Reads one clue a line: `left 3 4`, `top 5 2`.
    pub fn parse(lines: &[(usize, String)]) -> Result<Skyscrapers, (usize, String)> {
        Ok(Skyscrapers {
            clues: parse_outside_clues(lines)?,
        })
    }
}

impl Rule for Skyscrapers {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a skyscraper clue"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, &(at, _)) in self.clues.iter().enumerate() {
            validate_outside(rules.size, NAME, k, at)?;
        }
        Ok(())
    }

    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let n = rules.size;
        let units = rules.units();
        self.clues
            .iter()
            .map(|&(at, seen)| {
                let seen = State::from(seen);
                let cells = at.cells(n);
                // A row or column that holds every symbol once: after k cells the tallest
                // is k at least, and after the last it is the tallest symbol. Without this
                // the machine accepts rows no Sudoku has, and its filter keeps what they use.
                let whole = units.iter().any(|unit| {
                    unit.cells.len() == n && cells.iter().all(|cell| unit.cells.contains(cell))
                });
                let least_tallest = move |read: usize| if whole { read as State } else { 0 };
                // The state: the tallest so far (above bit 8) and how many were seen.
                Sequence::new(
                    cells,
                    format!("the skyscraper clue {seen} of {}", at.name()),
                    0,
                    move |at, state, symbol| {
                        let (tallest, count) = (state >> 8, state & 0xff);
                        let symbol = State::from(symbol);
                        if tallest.max(symbol) < least_tallest(at + 1) {
                            None
                        } else if symbol > tallest {
                            (count < seen).then_some(symbol << 8 | (count + 1))
                        } else {
                            Some(state)
                        }
                    },
                    move |state| state & 0xff == seen && state >> 8 >= least_tallest(n),
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
        for &(at, seen) in &self.clues {
            let mut tallest = 0;
            let mut count = 0;
            for (r, c) in at.cells(n) {
                if grid[r * n + c] > tallest {
                    tallest = grid[r * n + c];
                    count += 1;
                }
            }
            if count != seen {
                return Some(format!("{} sees {count} buildings, not {seen}", at.name()));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues
            .iter()
            .map(|&(at, seen)| format!("{} {seen}", at.text()))
            .collect()
    }
}
