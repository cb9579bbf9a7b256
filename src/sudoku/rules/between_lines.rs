//! Between lines: a line with a circle at each end; every symbol on the line between them
//! lies strictly between the circles' symbols.
//!
//! Read by a machine (see [`super::sequences`]) that takes both ends first.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{Cell, Rule, Rules, RulesError, cell_name, parse_paths, path_text, validate_path};

pub(super) const NAME: &str = "between-lines";

/// Between lines, each from one circle to the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetweenLines {
    pub lines: Vec<Vec<Cell>>,
}

impl BetweenLines {
    /// Reads one line a line, circle to circle.
    pub fn parse(lines: &[(usize, String)]) -> Result<BetweenLines, (usize, String)> {
        Ok(BetweenLines {
            lines: parse_paths(lines)?,
        })
    }
}

/// The cells of a line ends first (`[first, last, the cells between...]`), for machines that
/// judge the middle by the ends.
pub(super) fn ends_first(line: &[Cell]) -> Vec<Cell> {
    let last = line.len() - 1;
    let mut cells = vec![line[0], line[last]];
    cells.extend(&line[1..last]);
    cells
}

impl Rule for BetweenLines {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a between line"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, line) in self.lines.iter().enumerate() {
            validate_path(rules, NAME, k, line, (3, rules.size * rules.size))?;
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.lines
            .iter()
            .map(|line| {
                // The state: the first end (above bit 8) and the second.
                Sequence::new(
                    ends_first(line),
                    format!("the between line from {}", cell_name(line[0])),
                    0,
                    |at, state: State, symbol| {
                        let symbol = State::from(symbol);
                        match at {
                            0 => Some(symbol << 8),
                            1 => Some(state | symbol),
                            _ => {
                                let (a, b) = (state >> 8, state & 0xff);
                                (a.min(b) < symbol && symbol < a.max(b)).then_some(state)
                            }
                        }
                    },
                    |_| true,
                )
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::circled_lines(NAME, "between-end", true, &self.lines)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let at = |(r, c): Cell| grid[r * n + c];
        for line in &self.lines {
            let (a, b) = (at(line[0]), at(line[line.len() - 1]));
            for &cell in &line[1..line.len() - 1] {
                let v = at(cell);
                if !(v > a.min(b) && v < a.max(b)) {
                    return Some(format!(
                        "{} holds {v}, not between {a} and {b}",
                        cell_name(cell)
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
