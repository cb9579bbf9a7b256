//! Equality cages: the symbols of a cage differ, and it holds as many odd symbols as even
//! ones and as many low symbols (the lower half) as high ones (the upper half); on an odd
//! side the middle symbol, neither low nor high, is never in one.
//!
//! Read by a machine (see [`super::sequences`]) whose state is the two balances.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{Cell, Neighbour, Rule, Rules, RulesError, cell_name, parse_paths, path_text};

pub(super) const NAME: &str = "equality-cages";

/// Equality cages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EqualityCages {
    pub cages: Vec<Vec<Cell>>,
}

impl EqualityCages {
    /// Reads one cage a line: its cells.
    pub fn parse(lines: &[(usize, String)]) -> Result<EqualityCages, (usize, String)> {
        Ok(EqualityCages {
            cages: parse_paths(lines)?,
        })
    }
}

impl Rule for EqualityCages {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "an equality cage"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        super::validate_cages(NAME, rules, &self.cages)
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        super::every_two(&self.cages, Neighbour::Different)
    }

    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let n = rules.size as State;
        let half = n / 2;
        self.cages
            .iter()
            .map(|cells| {
                // The state: odd less even (above bit 8), low less high, each plus 64.
                Sequence::new(
                    cells.clone(),
                    format!("the equality cage at {}", cell_name(cells[0])),
                    64 << 8 | 64,
                    move |_, state: State, symbol| {
                        let v = State::from(symbol);
                        let (parity, height) = (state >> 8, state & 0xff);
                        let parity = if v % 2 == 1 { parity + 1 } else { parity - 1 };
                        let height = if v <= half {
                            height + 1
                        } else if v > n - half {
                            height - 1
                        } else {
                            return None;
                        };
                        Some(parity << 8 | height)
                    },
                    |state| state == 64 << 8 | 64,
                )
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.cages
            .iter()
            .map(|cells| Mark::Cage {
                style: NAME,
                cells: cells.clone(),
                text: "=".to_string(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let half = n / 2;
        for cells in &self.cages {
            let values: Vec<usize> = cells
                .iter()
                .map(|&(r, c)| usize::from(grid[r * n + c]))
                .collect();
            let odd = values.iter().filter(|&&v| v % 2 == 1).count();
            let low = values.iter().filter(|&&v| v <= half).count();
            let high = values.iter().filter(|&&v| v > n - half).count();
            let fair = 2 * odd == values.len() && low == high && low + high == values.len();
            let distinct = super::repeats(grid, n, cells.iter().copied()).is_none();
            if !fair || !distinct {
                return Some(format!(
                    "the equality cage at {} holds {values:?}",
                    cell_name(cells[0])
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.cages.iter().map(|cells| path_text(cells)).collect()
    }
}
