//! Double arrows: a line with a circle at each end; the symbols between the circles add up
//! to the two circles' symbols together.
//!
//! Read by a machine (see [`super::sequences`]) that takes the two ends first, then each
//! cell between off their sum.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{
    Cell, CellSum, Rule, Rules, RulesError, cell_name, parse_paths, path_text, validate_path,
};

pub(super) const NAME: &str = "double-arrows";

/// Double arrows, each a line of cells from one circle to the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoubleArrows {
    pub lines: Vec<Vec<Cell>>,
}

impl DoubleArrows {
    /// Reads one line a line, circle to circle (`r1c1 r1c2 r1c3 r1c4`).
    pub fn parse(lines: &[(usize, String)]) -> Result<DoubleArrows, (usize, String)> {
        Ok(DoubleArrows {
            lines: parse_paths(lines)?,
        })
    }
}

impl Rule for DoubleArrows {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a double arrow"
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
                let last = line.len() - 1;
                let mut cells = vec![line[0], line[last]];
                cells.extend(&line[1..last]);
                Sequence::new(
                    cells,
                    format!("the double arrow from {}", cell_name(line[0])),
                    0,
                    |at, state: State, symbol| {
                        if at < 2 {
                            Some(state + State::from(symbol))
                        } else {
                            state.checked_sub(State::from(symbol))
                        }
                    },
                    |left| left == 0,
                )
            })
            .collect()
    }

    fn sums(&self, _rules: &Rules) -> Vec<CellSum> {
        self.lines
            .iter()
            .map(|line| {
                let last = line.len() - 1;
                CellSum::difference(&line[1..last], &[line[0], line[last]], 0)
            })
            .collect()
    }

    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        true
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::circled_lines(NAME, "double-arrow-end", true, &self.lines)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let at = |(r, c): Cell| u32::from(grid[r * n + c]);
        for line in &self.lines {
            let ends = at(line[0]) + at(line[line.len() - 1]);
            let between: u32 = line[1..line.len() - 1].iter().map(|&c| at(c)).sum();
            if ends != between {
                return Some(format!(
                    "the double arrow from {} holds {between} between circles adding up to {ends}",
                    cell_name(line[0])
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.lines.iter().map(|line| path_text(line)).collect()
    }
}
