//! Little killers: a sum outside the grid, at the end of a diagonal; the symbols along the
//! diagonal add up to it (they may repeat where no unit forbids it).

use super::sequences::{Sequence, sum_machine};
use super::{
    Cell, CellSum, Rule, Rules, RulesError, cell_name, clue_error, parse_numbered_paths, path_text,
};
use super::{Mark, outside_start};

pub(super) const NAME: &str = "little-killers";

/// Little killer clues: each a sum and the cells of its diagonal, from the clue inward.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LittleKillers {
    pub clues: Vec<(u32, Vec<Cell>)>,
}

impl LittleKillers {
    /// Reads one clue a line: its sum, then the diagonal's cells from the clue inward
    /// (`12 r1c2 r2c3 r3c4`).
    pub fn parse(lines: &[(usize, String)]) -> Result<LittleKillers, (usize, String)> {
        Ok(LittleKillers {
            clues: parse_numbered_paths(lines, u32::MAX)?,
        })
    }

    /// The diagonal that starts at `start` going `(dr, dc)` (each ±1), to the edge of a grid
    /// of side `n`.
    pub fn diagonal(n: usize, start: Cell, (dr, dc): (isize, isize)) -> Vec<Cell> {
        let mut cells = Vec::new();
        let (mut r, mut c) = (start.0 as isize, start.1 as isize);
        while (0..n as isize).contains(&r) && (0..n as isize).contains(&c) {
            cells.push((r as usize, c as usize));
            r += dr;
            c += dc;
        }
        cells
    }
}

impl Rule for LittleKillers {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a little killer"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, (sum, cells)) in self.clues.iter().enumerate() {
            let bad = |why: String| clue_error(NAME, k, cells, why);
            if *sum == u32::MAX {
                return Err(bad("a little killer is its sum, then its cells".into()));
            }
            if cells.is_empty() {
                return Err(bad("a little killer has at least one cell".into()));
            }
            super::validate_cells(rules, cells).map_err(bad)?;
            let step = cells.windows(2).next().map(|pair| {
                (
                    pair[1].0 as isize - pair[0].0 as isize,
                    pair[1].1 as isize - pair[0].1 as isize,
                )
            });
            if let Some(step) = step {
                if step.0.abs() != 1 || step.1.abs() != 1 {
                    return Err(bad("the cells are not on a diagonal".into()));
                }
                let before = LittleKillers::diagonal(n, cells[0], (-step.0, -step.1));
                if LittleKillers::diagonal(n, cells[0], step) != *cells || before.len() != 1 {
                    return Err(bad(
                        "the cells are not one diagonal, from an edge of the grid to another"
                            .into(),
                    ));
                }
            }
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.clues
            .iter()
            .map(|(sum, cells)| {
                let what = format!("the little killer {sum} from {}", cell_name(cells[0]));
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

    fn marks(&self, rules: &Rules) -> Vec<Mark> {
        self.clues
            .iter()
            .filter_map(|(sum, cells)| {
                let (at, toward) = outside_start(rules.size, cells)?;
                Some(Mark::Outside {
                    style: NAME,
                    at,
                    toward,
                    text: sum.to_string(),
                })
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (sum, cells) in &self.clues {
            let total: u32 = cells.iter().map(|&(r, c)| u32::from(grid[r * n + c])).sum();
            if total != *sum {
                return Some(format!(
                    "the little killer from {} adds up to {total}, not {sum}",
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
