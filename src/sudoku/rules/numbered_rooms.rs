//! Numbered rooms: a number beside a row or column is the symbol of its X-th cell seen from
//! that side, X being the symbol of its first cell.
//!
//! Read by a machine (see [`super::sequences`]) that counts down from the first symbol to the
//! cell that must hold the clue.

use super::Mark;
use super::outside::{Outside, parse_outside_clues, validate_outside};
use super::sequences::{Sequence, State};
use super::{Rule, Rules, RulesError};

pub(super) const NAME: &str = "numbered-rooms";

/// The state once the room holds its clue.
const DONE: State = 1 << 40;

/// Numbered room clues: where each stands and the symbol its room holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberedRooms {
    pub clues: Vec<(Outside, u32)>,
}

impl NumberedRooms {
    /// Reads one clue a line: `left 3 6`.
    pub fn parse(lines: &[(usize, String)]) -> Result<NumberedRooms, (usize, String)> {
        Ok(NumberedRooms {
            clues: parse_outside_clues(lines)?,
        })
    }
}

impl Rule for NumberedRooms {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a numbered room"
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
            .map(|&(at, room)| {
                let room = State::from(room);
                // The state: how many cells on the room is (1: the next), or DONE.
                let arrive = move |steps: State, symbol: State| {
                    if steps == 1 {
                        (symbol == room).then_some(DONE)
                    } else {
                        Some(steps - 1)
                    }
                };
                Sequence::new(
                    at.cells(n),
                    format!("the numbered room {room} of {}", at.name()),
                    0,
                    move |position, state, symbol| {
                        let symbol = State::from(symbol);
                        match (position, state) {
                            (0, _) => arrive(symbol, symbol),
                            (_, DONE) => Some(DONE),
                            (_, steps) => arrive(steps, symbol),
                        }
                    },
                    |state| state == DONE,
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
        for &(at, room) in &self.clues {
            let cells = at.cells(n);
            let first = cells[0];
            let x = usize::from(grid[first.0 * n + first.1]);
            let (r, c) = cells[x - 1];
            if u32::from(grid[r * n + c]) != room {
                return Some(format!(
                    "cell {x} of {} holds {}, not {room}",
                    at.name(),
                    grid[r * n + c]
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues
            .iter()
            .map(|&(at, room)| format!("{} {room}", at.text()))
            .collect()
    }
}
