//! Sums: the symbols of a set of cells add up to a number; unlike a killer cage, they may
//! repeat where no unit forbids it, and sets may overlap each other and cages.

use super::Mark;
use super::sequences::{Sequence, sum_machine};
use super::{
    Cell, CellSum, Rule, Rules, RulesError, cell_name, clue_error, parse_numbered_paths, path_text,
};

pub(super) const NAME: &str = "sums";

/// Sum clues: each a total and its cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sums {
    pub clues: Vec<(u32, Vec<Cell>)>,
}

impl Sums {
    /// Reads one clue a line: the total, then the cells (`7 r1c1 r1c2`).
    pub fn parse(lines: &[(usize, String)]) -> Result<Sums, (usize, String)> {
        Ok(Sums {
            clues: parse_numbered_paths(lines, u32::MAX)?,
        })
    }
}

impl Rule for Sums {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a sum"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, (sum, cells)) in self.clues.iter().enumerate() {
            let bad = |why: String| clue_error(NAME, k, cells, why);
            if *sum == u32::MAX {
                return Err(bad("a sum is its total, then its cells".into()));
            }
            if cells.is_empty() {
                return Err(bad("a sum has at least one cell".into()));
            }
            super::validate_cells(rules, cells).map_err(bad)?;
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.clues
            .iter()
            .map(|(sum, cells)| {
                let what = format!("the sum {sum} at {}", cell_name(cells[0]));
                sum_machine(cells.clone(), what, *sum)
            })
            .collect()
    }

    fn sums(&self, _rules: &Rules) -> Vec<CellSum> {
        CellSum::totals(&self.clues)
    }

    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        true
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.clues
            .iter()
            .map(|(sum, cells)| Mark::Cage {
                style: NAME,
                cells: cells.clone(),
                text: sum.to_string(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (sum, cells) in &self.clues {
            let total: u32 = cells.iter().map(|&(r, c)| u32::from(grid[r * n + c])).sum();
            if total != *sum {
                return Some(format!(
                    "the sum at {} is {total}, not {sum}",
                    cell_name(cells[0])
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues
            .iter()
            .map(|(sum, cells)| format!("{sum} {}", path_text(cells)))
            .collect()
    }
}
