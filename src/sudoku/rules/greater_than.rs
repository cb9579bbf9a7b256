//! Greater-than signs: of two cells that touch along an edge, the sign points to the smaller.
//! A clue lists cells, each greater than every later cell of the clue it touches along an
//! edge (`r1c1 r1c2` says r1c1 > r1c2; `r2c2 r1c2 r2c1` puts r2c2 above both), as ISS writes
//! fortress cells.

use super::Mark;
use super::{Cell, Neighbour, Rule, Rules, RulesError, cell_name, parse_paths, path_text};

pub(super) const NAME: &str = "greater-than";

/// Greater-than clues, each a list of cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GreaterThan {
    pub clues: Vec<Vec<Cell>>,
}

impl GreaterThan {
    /// Reads one clue a line: its cells, the greater first.
    pub fn parse(lines: &[(usize, String)]) -> Result<GreaterThan, (usize, String)> {
        Ok(GreaterThan {
            clues: parse_paths(lines)?,
        })
    }

    /// Each clue's pairs (greater, smaller): an earlier cell and a later one it touches.
    fn ordered_pairs(&self) -> impl Iterator<Item = (Cell, Cell)> + '_ {
        self.clues.iter().flat_map(|clue| {
            clue.iter().enumerate().flat_map(move |(i, &a)| {
                clue[i + 1..]
                    .iter()
                    .filter(move |&&b| a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1)
                    .map(move |&b| (a, b))
            })
        })
    }
}

impl Rule for GreaterThan {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a greater-than sign"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, clue) in self.clues.iter().enumerate() {
            let bad = |why: String| RulesError::Clue {
                rule: NAME,
                index: k + 1,
                cells: clue.clone(),
                why,
            };
            if let Some(&cell) = clue.iter().find(|&&(r, c)| r >= n || c >= n) {
                return Err(bad(format!("{} is outside the grid", cell_name(cell))));
            }
            if clue.len() < 2 {
                return Err(bad("a sign is between two cells at least".into()));
            }
        }
        Ok(())
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        // The smaller first: the greater exceeds it by at least one.
        self.ordered_pairs()
            .map(|(greater, smaller)| (smaller, greater, Neighbour::Increasing(1)))
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.ordered_pairs()
            .map(|(greater, smaller)| Mark::Edge {
                style: NAME,
                cells: [greater, smaller],
                text: String::new(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for clue in &self.clues {
            for (i, &a) in clue.iter().enumerate() {
                for &b in &clue[i + 1..] {
                    let touching = a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1;
                    if touching && grid[a.0 * n + a.1] <= grid[b.0 * n + b.1] {
                        return Some(format!(
                            "{} is not greater than {}",
                            cell_name(a),
                            cell_name(b)
                        ));
                    }
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues.iter().map(|clue| path_text(clue)).collect()
    }
}
