//! Entropic lines: the symbols fall into three equal groups of consecutive symbols (on 9x9:
//! 1-3, 4-6 and 7-9), and every run of three consecutive cells on the line holds one symbol of
//! each group. Two cells of a line one or two apart are in different groups, and that is the
//! whole rule. Grids whose side is not a multiple of three have no such groups.

use super::Mark;
use super::{
    Cell, Neighbour, Rule, Rules, RulesError, cell_name, parse_paths, path_text, validate_path,
};

pub(super) const NAME: &str = "entropic";

/// Entropic lines, each a path of cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntropicLines {
    pub lines: Vec<Vec<Cell>>,
}

impl EntropicLines {
    /// Reads one line a clue: its cells.
    pub fn parse(lines: &[(usize, String)]) -> Result<EntropicLines, (usize, String)> {
        Ok(EntropicLines {
            lines: parse_paths(lines)?,
        })
    }
}

/// The group of symbol `v` (from 1) on a grid of side `n`: 0, 1 or 2.
fn group(v: u8, n: usize) -> usize {
    (usize::from(v) - 1) / (n / 3)
}

impl Rule for EntropicLines {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "an entropic line"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, line) in self.lines.iter().enumerate() {
            validate_path(rules, NAME, k, line, (2, n * n))?;
            if !n.is_multiple_of(3) {
                return Err(RulesError::Clue {
                    rule: NAME,
                    index: k + 1,
                    cells: line.clone(),
                    why: format!("entropic lines need a side divisible by 3, not {n}"),
                });
            }
        }
        Ok(())
    }

    fn pairs(&self, rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        let per_group = (rules.size / 3).max(1) as u8;
        let mut pairs = Vec::new();
        for line in &self.lines {
            for (i, &a) in line.iter().enumerate() {
                for &b in line.iter().skip(i + 1).take(2) {
                    pairs.push((a, b, Neighbour::DifferentGroup(per_group)));
                }
            }
        }
        pairs
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::lines(NAME, &self.lines)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for line in &self.lines {
            for run in line.windows(3.min(line.len())) {
                let mut groups: Vec<usize> = run
                    .iter()
                    .map(|&(r, c)| group(grid[r * n + c], n))
                    .collect();
                groups.sort_unstable();
                groups.dedup();
                if groups.len() != run.len() {
                    return Some(format!(
                        "the entropic line from {} has two symbols of one group within three \
                         cells",
                        cell_name(line[0])
                    ));
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.lines.iter().map(|line| path_text(line)).collect()
    }
}
