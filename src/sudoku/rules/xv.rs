//! XV: an X between two cells that touch along an edge says their symbols add up to 10, a V
//! that they add up to 5.

use super::Mark;
use super::kropki::adjacent_inside;
use super::{Cell, Neighbour, Rule, Rules, RulesError, cell_name, parse_marked_pairs};

pub(super) const NAME: &str = "xv";

/// XV clues: the sum (10 for X, 5 for V) of two orthogonally adjacent cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Xv {
    pub clues: Vec<(u8, Cell, Cell)>,
}

impl Xv {
    /// Reads one clue a line: `x r1c1 r1c2` or `v r1c1 r2c1`.
    pub fn parse(lines: &[(usize, String)]) -> Result<Xv, (usize, String)> {
        let clues = parse_marked_pairs(lines, "an XV clue", |letter| match letter {
            "x" | "X" => Ok(10),
            "v" | "V" => Ok(5),
            other => Err(format!("'{other}': an XV clue is x or v")),
        })?;
        Ok(Xv { clues })
    }
}

impl Rule for Xv {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "an XV clue"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, &(_, a, b)) in self.clues.iter().enumerate() {
            adjacent_inside(rules.size, NAME, k, a, b)?;
        }
        Ok(())
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        self.clues
            .iter()
            .map(|&(sum, a, b)| (a, b, Neighbour::Sum(sum)))
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.clues
            .iter()
            .map(|&(sum, a, b)| Mark::Edge {
                style: NAME,
                cells: [a, b],
                text: if sum == 10 { "X" } else { "V" }.to_string(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for &(sum, a, b) in &self.clues {
            let (x, y) = (grid[a.0 * n + a.1], grid[b.0 * n + b.1]);
            if u32::from(x) + u32::from(y) != u32::from(sum) {
                return Some(format!(
                    "{} and {} add up to {}, not {sum}",
                    cell_name(a),
                    cell_name(b),
                    u32::from(x) + u32::from(y)
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues
            .iter()
            .map(|&(sum, a, b)| {
                let letter = if sum == 10 { "x" } else { "v" };
                format!("{letter} {} {}", cell_name(a), cell_name(b))
            })
            .collect()
    }
}
