//! Thermometers: along each thermometer, from its bulb, the symbols strictly increase.
//!
//! A thermometer is a path of cells, each touching the next (along an edge or at a corner).
//! The encoding relates every two cells of it, not only neighbours: the k-th cell after
//! another holds at least k more, which is what the rule implies and what lets the search
//! see it at once.

use super::Mark;
use super::{
    Cell, Neighbour, Rule, Rules, RulesError, cell_name, parse_paths, path_text, validate_path,
};

pub(super) const NAME: &str = "thermometers";

/// Thermometers, each a path of cells from the bulb.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thermometers {
    pub lines: Vec<Vec<Cell>>,
}

impl Thermometers {
    /// Reads one thermometer a line (`r1c1 r1c2 r2c3`, from the bulb), each line with its
    /// number in the file for errors.
    pub fn parse(lines: &[(usize, String)]) -> Result<Thermometers, (usize, String)> {
        Ok(Thermometers {
            lines: parse_paths(lines)?,
        })
    }
}

impl Rule for Thermometers {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a thermometer"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, line) in self.lines.iter().enumerate() {
            validate_path(rules, NAME, k, line, (2, n))?;
        }
        Ok(())
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        let mut pairs = Vec::new();
        for line in &self.lines {
            for (i, &a) in line.iter().enumerate() {
                for (k, &b) in line[i + 1..].iter().enumerate() {
                    pairs.push((a, b, Neighbour::Increasing(k as u8 + 1)));
                }
            }
        }
        pairs
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::circled_lines(NAME, "thermometer-bulb", false, &self.lines)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for line in &self.lines {
            for pair in line.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                if grid[a.0 * n + a.1] >= grid[b.0 * n + b.1] {
                    return Some(format!(
                        "the thermometer from {} does not rise from {} to {}",
                        cell_name(line[0]),
                        cell_name(a),
                        cell_name(b)
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
