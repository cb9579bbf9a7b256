//! German whispers and their kin: along a whisper line, cells that touch on the line hold
//! symbols at least some difference apart (5 on 9x9, in general half the side rounded up).

use super::Mark;
use super::{
    Cell, Neighbour, Rule, Rules, RulesError, cell_name, parse_numbered_paths, path_text,
    validate_walk,
};

pub(super) const NAME: &str = "whispers";

/// Whisper lines, each a path of cells, with the least difference between neighbours on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Whispers {
    pub lines: Vec<(u8, Vec<Cell>)>,
}

/// The difference of German whispers on a grid of side `n`: half of it, rounded up (5 on 9x9).
pub fn german_difference(n: usize) -> u8 {
    n.div_ceil(2) as u8
}

impl Whispers {
    /// Reads one line a clue: its cells, after an optional difference (`5 r1c1 r1c2`);
    /// without one, that of German whispers on a grid of side `n`.
    pub fn parse(n: usize, lines: &[(usize, String)]) -> Result<Whispers, (usize, String)> {
        Ok(Whispers {
            lines: parse_numbered_paths(lines, german_difference(n))?,
        })
    }
}

impl Rule for Whispers {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a whisper line"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, (difference, line)) in self.lines.iter().enumerate() {
            validate_walk(rules, NAME, k, line, (2, n * n))?;
            if *difference == 0 || usize::from(*difference) >= n {
                return Err(RulesError::Clue {
                    rule: NAME,
                    index: k + 1,
                    cells: line.clone(),
                    why: format!("a difference of 1 to {}, not {difference}", n - 1),
                });
            }
        }
        Ok(())
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        self.lines
            .iter()
            .flat_map(|(difference, line)| {
                line.windows(2)
                    .map(move |pair| (pair[0], pair[1], Neighbour::ApartBy(*difference)))
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::lines(NAME, self.lines.iter().map(|(_, line)| line))
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (difference, line) in &self.lines {
            for pair in line.windows(2) {
                let (x, y) = (
                    grid[pair[0].0 * n + pair[0].1],
                    grid[pair[1].0 * n + pair[1].1],
                );
                if x.abs_diff(y) < *difference {
                    return Some(format!(
                        "{} and {} on a whisper line differ by less than {difference}",
                        cell_name(pair[0]),
                        cell_name(pair[1])
                    ));
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|(difference, line)| format!("{difference} {}", path_text(line)))
            .collect()
    }
}
