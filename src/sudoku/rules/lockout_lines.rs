//! Lockout lines: a line with a diamond at each end; the diamonds' symbols differ by at least
//! a given amount (4 on 9x9 unless said), and no symbol on the line between them lies between
//! theirs or equals either.
//!
//! Read by a machine (see [`super::sequences`]) that takes both ends first.

use super::Mark;
use super::between_lines::ends_first;
use super::sequences::{Sequence, State};
use super::{
    Cell, Rule, Rules, RulesError, cell_name, parse_numbered_paths, path_text, validate_path,
};

pub(super) const NAME: &str = "lockout-lines";

/// Lockout lines, each with the least difference of its ends and its cells, diamond to
/// diamond.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockoutLines {
    pub lines: Vec<(u8, Vec<Cell>)>,
}

impl LockoutLines {
    /// Reads one line a line: the least difference, then the cells (`4 r1c1 r2c1 r3c1`); the
    /// difference is (side - 1) / 2 where it is left out (4 on 9x9).
    pub fn parse(size: usize, lines: &[(usize, String)]) -> Result<LockoutLines, (usize, String)> {
        let default = ((size.saturating_sub(1)) / 2).min(255) as u8;
        Ok(LockoutLines {
            lines: parse_numbered_paths(lines, default)?,
        })
    }
}

impl Rule for LockoutLines {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a lockout line"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, (_, line)) in self.lines.iter().enumerate() {
            validate_path(rules, NAME, k, line, (2, rules.size * rules.size))?;
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.lines
            .iter()
            .map(|(least, line)| {
                let least = State::from(*least);
                Sequence::new(
                    ends_first(line),
                    format!("the lockout line from {}", cell_name(line[0])),
                    0,
                    move |at, state: State, symbol| {
                        let symbol = State::from(symbol);
                        match at {
                            0 => Some(symbol << 8),
                            1 => ((state >> 8).abs_diff(symbol) >= least).then_some(state | symbol),
                            _ => {
                                let (a, b) = (state >> 8, state & 0xff);
                                (symbol < a.min(b) || symbol > a.max(b)).then_some(state)
                            }
                        }
                    },
                    |_| true,
                )
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::circled_lines(
            NAME,
            "lockout-end",
            true,
            self.lines.iter().map(|(_, line)| line),
        )
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let at = |(r, c): Cell| grid[r * n + c];
        for (least, line) in &self.lines {
            let (a, b) = (at(line[0]), at(line[line.len() - 1]));
            if a.abs_diff(b) < *least {
                return Some(format!(
                    "the lockout line from {} has ends {a} and {b}, less than {least} apart",
                    cell_name(line[0])
                ));
            }
            for &cell in &line[1..line.len() - 1] {
                let v = at(cell);
                if v >= a.min(b) && v <= a.max(b) {
                    return Some(format!(
                        "{} holds {v}, locked out by {a} and {b}",
                        cell_name(cell)
                    ));
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|(least, line)| format!("{least} {}", path_text(line)))
            .collect()
    }
}
