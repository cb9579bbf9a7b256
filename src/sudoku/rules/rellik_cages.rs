//! Rellik cages: the symbols of a cage differ, and no one or more of them add up to the
//! cage's number.
//!
//! Read by a machine (see [`super::sequences`]) whose state is the set of sums below the
//! number that some of the symbols read so far make.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{
    Cell, Neighbour, Rule, Rules, RulesError, cell_name, clue_error, parse_numbered_paths,
    path_text,
};

pub(super) const NAME: &str = "rellik-cages";

/// The largest number of a rellik cage (the machine keeps a bit per smaller sum).
pub const MAX_RELLIK: u32 = 63;

/// Rellik cages: each a number no part of it adds up to, and its cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RellikCages {
    pub cages: Vec<(u32, Vec<Cell>)>,
}

impl RellikCages {
    /// Reads one cage a line: the number, then the cells (`5 r1c1 r1c2`).
    pub fn parse(lines: &[(usize, String)]) -> Result<RellikCages, (usize, String)> {
        Ok(RellikCages {
            cages: parse_numbered_paths(lines, u32::MAX)?,
        })
    }
}

impl Rule for RellikCages {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a rellik cage"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, (number, cells)) in self.cages.iter().enumerate() {
            let bad = |why: String| clue_error(NAME, k, cells, why);
            if *number == 0 || *number > MAX_RELLIK {
                return Err(bad(format!(
                    "a rellik cage's number is from 1 to {MAX_RELLIK}"
                )));
            }
            super::validate_cage(rules, cells).map_err(bad)?;
        }
        Ok(())
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        let cages: Vec<Vec<Cell>> = self.cages.iter().map(|(_, cells)| cells.clone()).collect();
        super::every_two(&cages, Neighbour::Different)
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.cages
            .iter()
            .map(|(number, cells)| {
                let number = State::from(*number);
                let below = (1 << number) - 1;
                Sequence::new(
                    cells.clone(),
                    format!("the rellik cage {number} at {}", cell_name(cells[0])),
                    0,
                    move |_, sums: State, symbol| {
                        let v = State::from(symbol);
                        if v > number {
                            return Some(sums);
                        }
                        let more = sums | (sums << v) | (1 << v);
                        (more & (1 << number) == 0).then_some(more & below)
                    },
                    |_| true,
                )
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.cages
            .iter()
            .map(|(sum, cells)| Mark::Cage {
                style: NAME,
                cells: cells.clone(),
                text: format!("≠{sum}"),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (number, cells) in &self.cages {
            let values: Vec<u32> = cells
                .iter()
                .map(|&(r, c)| u32::from(grid[r * n + c]))
                .collect();
            if super::repeats(grid, n, cells.iter().copied()).is_some() {
                return Some(format!(
                    "the rellik cage at {} repeats a symbol",
                    cell_name(cells[0])
                ));
            }
            for subset in 1u32..1 << values.len() {
                let sum: u32 = (0..values.len())
                    .filter(|i| subset & (1 << i) != 0)
                    .map(|i| values[i])
                    .sum();
                if sum == *number {
                    return Some(format!(
                        "part of the rellik cage at {} adds up to {number}",
                        cell_name(cells[0])
                    ));
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.cages
            .iter()
            .map(|(number, cells)| format!("{number} {}", path_text(cells)))
            .collect()
    }
}
