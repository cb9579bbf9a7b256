//! Palindromes: a line reads the same from either end (its first and last cells hold the same
//! symbol, its second and second to last, and so on).

use super::Mark;
use super::{
    Cell, Neighbour, Rule, Rules, RulesError, cell_name, parse_paths, path_text, validate_path,
};

pub(super) const NAME: &str = "palindromes";

/// Palindrome lines, each a path of cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palindromes {
    pub lines: Vec<Vec<Cell>>,
}

impl Palindromes {
    /// Reads one line a clue: its cells.
    pub fn parse(lines: &[(usize, String)]) -> Result<Palindromes, (usize, String)> {
        Ok(Palindromes {
            lines: parse_paths(lines)?,
        })
    }
}

impl Rule for Palindromes {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a palindrome"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, line) in self.lines.iter().enumerate() {
            validate_path(rules, NAME, k, line, (2, n * n))?;
        }
        Ok(())
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        self.lines
            .iter()
            .flat_map(|line| {
                let half = line.len() / 2;
                (0..half).map(move |i| (line[i], line[line.len() - 1 - i], Neighbour::Equal))
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::lines(NAME, &self.lines)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for line in &self.lines {
            let values: Vec<u8> = line.iter().map(|&(r, c)| grid[r * n + c]).collect();
            let mut reversed = values.clone();
            reversed.reverse();
            if values != reversed {
                return Some(format!(
                    "the palindrome from {} does not read the same both ways",
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
