//! Cages without sums: the symbols of a cage differ, and nothing else is said of them (killer
//! puzzles draw some cages without their totals; ISS writes such a cage with the sum 0,
//! f-puzzles without a value).
//!
//! The search sees every two cells of a cage as a pair that may not hold the same symbol.

use super::Mark;
use super::{Cell, Neighbour, Rule, Rules, RulesError, parse_paths, path_text};

pub(super) const NAME: &str = "sumless-cages";

/// Cages without sums, each its cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumlessCages {
    pub cages: Vec<Vec<Cell>>,
}

impl SumlessCages {
    /// Reads one cage a line: its cells.
    pub fn parse(lines: &[(usize, String)]) -> Result<SumlessCages, (usize, String)> {
        Ok(SumlessCages {
            cages: parse_paths(lines)?,
        })
    }
}

impl Rule for SumlessCages {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a cage without a sum"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        super::validate_cages(NAME, rules, &self.cages)
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        super::every_two(&self.cages, Neighbour::Different)
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.cages
            .iter()
            .map(|cells| Mark::Cage {
                style: NAME,
                cells: cells.clone(),
                text: String::new(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        self.cages.iter().enumerate().find_map(|(k, cells)| {
            let v = super::repeats(grid, n, cells.iter().copied())?;
            Some(format!("cage without a sum {} holds {v} twice", k + 1))
        })
    }

    fn lines(&self) -> Vec<String> {
        self.cages.iter().map(|cells| path_text(cells)).collect()
    }
}
