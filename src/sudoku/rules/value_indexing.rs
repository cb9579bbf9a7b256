//! Value indexing lines (ISS's slingshots): the line's second cell holds K, and the K-th cell
//! after it along the line holds the same symbol as the line's first cell.
//!
//! Read by a machine (see [`super::sequences`]) that keeps the first symbol and counts down
//! from K.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{Cell, Rule, Rules, RulesError, cell_name, parse_paths, path_text, validate_path};

pub(super) const NAME: &str = "value-indexing";

/// Value indexing lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueIndexing {
    pub lines: Vec<Vec<Cell>>,
}

impl ValueIndexing {
    /// Reads one line a line: the value's cell, the index cell, then the indexed cells.
    pub fn parse(lines: &[(usize, String)]) -> Result<ValueIndexing, (usize, String)> {
        Ok(ValueIndexing {
            lines: parse_paths(lines)?,
        })
    }
}

impl Rule for ValueIndexing {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a value indexing line"
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
                let indexed = (line.len() - 2) as State;
                // The state: the first symbol (above bit 8) and the cells still to go to the
                // indexed one (0 once it is passed).
                Sequence::new(
                    line.clone(),
                    format!("the value indexing line from {}", cell_name(line[0])),
                    0,
                    move |at, state: State, symbol| {
                        let symbol = State::from(symbol);
                        let (value, left) = (state >> 8, state & 0xff);
                        match (at, left) {
                            (0, _) => Some(symbol << 8),
                            (1, _) => (symbol <= indexed).then_some(value << 8 | symbol),
                            (_, 0) => Some(state),
                            (_, 1) => (symbol == value).then_some(value << 8),
                            _ => Some(state - 1),
                        }
                    },
                    |state| state & 0xff == 0,
                )
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::circled_lines(NAME, "value-indexing-start", false, &self.lines)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let at = |(r, c): Cell| grid[r * n + c];
        for line in &self.lines {
            let k = usize::from(at(line[1]));
            let target = line.get(1 + k).copied();
            if target.is_none_or(|cell| at(cell) != at(line[0])) {
                return Some(format!(
                    "on the value indexing line from {}, cell {k} after {} does not hold {}",
                    cell_name(line[0]),
                    cell_name(line[1]),
                    at(line[0])
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.lines.iter().map(|line| path_text(line)).collect()
    }
}
