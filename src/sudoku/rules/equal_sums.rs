//! Equal sums: groups of cell sets whose sets all add up to the same sum (the rows, columns
//! and diagonals of a magic square).
//!
//! Read by a machine (see [`super::sequences`]) over the sets one after the other, whose
//! state is the common sum (once the first set is read) and the current set's sum so far.

use super::Mark;
use super::sequences::{Sequence, equal_sums_machine};
use super::{
    Cell, CellSum, Rule, Rules, RulesError, cell_name, clue_error, parse_cells, path_text,
};

pub(super) const NAME: &str = "equal-sums";

/// Equal sums: each clue a list of cell sets with equal sums.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EqualSums {
    pub clues: Vec<Vec<Vec<Cell>>>,
}

impl EqualSums {
    /// Reads one clue a line: its sets separated by `|` (`r1c1 r1c2 | r2c1 r2c2`).
    pub fn parse(lines: &[(usize, String)]) -> Result<EqualSums, (usize, String)> {
        let clues = lines
            .iter()
            .map(|(line, text)| {
                text.split('|')
                    .map(|set| parse_cells(set).map_err(|why| (*line, why)))
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<_, _>>()?;
        Ok(EqualSums { clues })
    }
}

impl Rule for EqualSums {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "an equal sum"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, sets) in self.clues.iter().enumerate() {
            let all: Vec<Cell> = sets.iter().flatten().copied().collect();
            let bad = |why: String| clue_error(NAME, k, &all, why);
            if sets.len() < 2 || sets.iter().any(Vec::is_empty) {
                return Err(bad("equal sums need two sets of cells or more".into()));
            }
            for set in sets {
                super::validate_cells(rules, set).map_err(bad)?;
            }
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.clues
            .iter()
            .map(|sets| {
                let cells: Vec<Cell> = sets.iter().flatten().copied().collect();
                let mut ends = Vec::with_capacity(cells.len());
                for set in sets {
                    ends.extend((0..set.len()).map(|i| i + 1 == set.len()));
                }
                equal_sums_machine(
                    cells,
                    ends,
                    format!("the equal sums at {}", cell_name(sets[0][0])),
                )
            })
            .collect()
    }

    fn sums(&self, _rules: &Rules) -> Vec<CellSum> {
        self.clues
            .iter()
            .flat_map(|sets| CellSum::all_equal(sets))
            .collect()
    }

    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        true
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        // The sets of one clue share a letter: every set marked `A` has the same sum.
        let mut marks = Vec::new();
        for (k, clue) in self.clues.iter().enumerate() {
            for set in clue {
                marks.push(Mark::Cage {
                    style: NAME,
                    cells: set.clone(),
                    text: format!("={}", super::region_name(k)),
                });
            }
        }
        marks
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for sets in &self.clues {
            let sums: Vec<u32> = sets
                .iter()
                .map(|set| set.iter().map(|&(r, c)| u32::from(grid[r * n + c])).sum())
                .collect();
            if sums.iter().any(|&s| s != sums[0]) {
                return Some(format!(
                    "the equal sums at {} are {sums:?}",
                    cell_name(sets[0][0])
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues
            .iter()
            .map(|sets| {
                let sets: Vec<String> = sets.iter().map(|set| path_text(set)).collect();
                sets.join(" | ")
            })
            .collect()
    }
}
