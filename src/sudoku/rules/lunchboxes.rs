//! Lunchboxes: the symbols of a lunchbox differ, and those lying between its smallest and its
//! largest symbol, along its cells, add up to its number. (A sandwich is the lunchbox of a
//! whole row, whose smallest and largest symbols are 1 and the side.)
//!
//! Read by a machine (see [`super::sequences`]) that keeps the smallest and the largest symbol
//! so far, which of the two came later, the sum between them and the sum after the later one:
//! a new smallest or largest symbol makes a new pair with the other end, and the sum between
//! them follows from those two sums. Sums past the number are kept as one state, since none of
//! them can fall back to it.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{
    Cell, Neighbour, Rule, Rules, RulesError, cell_name, clue_error, parse_numbered_paths,
    path_text,
};

pub(super) const NAME: &str = "lunchboxes";

/// Lunchboxes: each its number and its cells, in the order they are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lunchboxes {
    pub boxes: Vec<(u32, Vec<Cell>)>,
}

impl Lunchboxes {
    /// Reads one lunchbox a line: the number, then the cells in order (`11 r1c2 r1c1 r2c1`).
    pub fn parse(lines: &[(usize, String)]) -> Result<Lunchboxes, (usize, String)> {
        Ok(Lunchboxes {
            boxes: parse_numbered_paths(lines, u32::MAX)?,
        })
    }
}

/// The machine's state, packed: the smallest and largest symbols so far, whether the smallest
/// came later, whether two symbols were read, the sum strictly between the two and the sum
/// after the later one (both capped one past the number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reading {
    low: u8,
    high: u8,
    low_later: bool,
    paired: bool,
    between: u32,
    after: u32,
}

impl Reading {
    fn pack(self) -> State {
        State::from(self.low)
            | State::from(self.high) << 8
            | State::from(self.low_later) << 16
            | State::from(self.paired) << 17
            | State::from(self.between) << 20
            | State::from(self.after) << 40
    }

    fn unpack(state: State) -> Reading {
        Reading {
            low: (state & 0xFF) as u8,
            high: (state >> 8 & 0xFF) as u8,
            low_later: state >> 16 & 1 == 1,
            paired: state >> 17 & 1 == 1,
            between: (state >> 20 & 0xF_FFFF) as u32,
            after: (state >> 40 & 0xF_FFFF) as u32,
        }
    }

    /// The state after `symbol`, sums capped at `cap`; `None` when it repeats an end.
    fn read(self, symbol: u8, cap: u32) -> Option<Reading> {
        let v = u32::from(symbol);
        if self.low == 0 {
            let first = Reading {
                low: symbol,
                high: symbol,
                ..self
            };
            return Some(first);
        }
        if symbol == self.low || symbol == self.high {
            return None;
        }
        if !self.paired {
            // Two symbols: neighbours, nothing between them yet.
            let (low, high) = (self.low.min(symbol), self.low.max(symbol));
            return Some(Reading {
                low,
                high,
                low_later: symbol < self.low,
                paired: true,
                between: 0,
                after: 0,
            });
        }
        let mut next = self;
        if symbol < self.low {
            // The new smallest pairs with the largest: between them, what follows the largest.
            next.between = if self.low_later {
                self.between + u32::from(self.low) + self.after
            } else {
                self.after
            };
            next.low = symbol;
            next.low_later = true;
            next.after = 0;
        } else if symbol > self.high {
            next.between = if self.low_later {
                self.after
            } else {
                self.between + u32::from(self.high) + self.after
            };
            next.high = symbol;
            next.low_later = false;
            next.after = 0;
        } else {
            next.after = self.after + v;
        }
        next.between = next.between.min(cap);
        next.after = next.after.min(cap);
        Some(next)
    }
}

/// The largest number a lunchbox of side `n` can have: every symbol but 1 and `n`.
fn max_number(n: usize) -> u32 {
    let n = n as u32;
    n * (n + 1) / 2 - 1 - n
}

impl Rule for Lunchboxes {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a lunchbox"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, (number, cells)) in self.boxes.iter().enumerate() {
            let bad = |why: String| clue_error(NAME, k, cells, why);
            if *number > max_number(n) {
                return Err(bad(format!(
                    "a lunchbox's number is from 0 to {} on a grid of side {n}",
                    max_number(n)
                )));
            }
            if cells.len() < 2 || cells.len() > n {
                return Err(bad(format!("a lunchbox holds 2 to {n} cells")));
            }
            super::validate_cells(rules, cells).map_err(bad)?;
        }
        Ok(())
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        let boxes: Vec<Vec<Cell>> = self.boxes.iter().map(|(_, cells)| cells.clone()).collect();
        super::every_two(&boxes, Neighbour::Different)
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.boxes
            .iter()
            .map(|&(number, ref cells)| {
                let cap = number + 1;
                let start = Reading {
                    low: 0,
                    high: 0,
                    low_later: false,
                    paired: false,
                    between: 0,
                    after: 0,
                };
                Sequence::new(
                    cells.clone(),
                    format!("the lunchbox {number} at {}", cell_name(cells[0])),
                    start.pack(),
                    move |_, state, symbol| {
                        Reading::unpack(state).read(symbol, cap).map(Reading::pack)
                    },
                    move |state| {
                        let reading = Reading::unpack(state);
                        reading.paired && reading.between == number
                    },
                )
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.boxes
            .iter()
            .map(|(number, cells)| Mark::Cage {
                style: NAME,
                cells: cells.clone(),
                text: number.to_string(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (number, cells) in &self.boxes {
            let values: Vec<u8> = cells.iter().map(|&(r, c)| grid[r * n + c]).collect();
            let at = cell_name(cells[0]);
            if super::repeats(grid, n, cells.iter().copied()).is_some() {
                return Some(format!("the lunchbox at {at} repeats a symbol"));
            }
            let low = (0..values.len()).min_by_key(|&i| values[i])?;
            let high = (0..values.len()).max_by_key(|&i| values[i])?;
            let (from, to) = (low.min(high), low.max(high));
            let between: u32 = values[from + 1..to].iter().map(|&v| u32::from(v)).sum();
            if between != *number {
                return Some(format!(
                    "the lunchbox at {at} holds {between} between its smallest and largest symbols, not {number}"
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.boxes
            .iter()
            .map(|(number, cells)| format!("{number} {}", path_text(cells)))
            .collect()
    }
}
