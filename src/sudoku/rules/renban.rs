//! Renban lines: the symbols on a line are different and consecutive, in any order. Two cells
//! of a line of k cells differ, and by less than k: together that is the whole rule. The
//! search also sees each line as one of its runs (see [`Rule::set_groups`]), so that the
//! symbols every run holds (4 to 6 on a line of six) are placed on the line.

use super::Mark;
use super::sequences::Symbols;
use super::{
    Cell, Neighbour, Rule, Rules, RulesError, SetGroup, cell_name, parse_paths, path_text,
    validate_path,
};

pub(super) const NAME: &str = "renban";

/// Renban lines, each a path of cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renban {
    pub lines: Vec<Vec<Cell>>,
}

impl Renban {
    /// Reads one line a clue: its cells.
    pub fn parse(lines: &[(usize, String)]) -> Result<Renban, (usize, String)> {
        Ok(Renban {
            lines: parse_paths(lines)?,
        })
    }
}

impl Rule for Renban {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a renban line"
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
            let within = Neighbour::DifferentWithin(line.len() as u8 - 1);
            for (i, &a) in line.iter().enumerate() {
                pairs.extend(line[i + 1..].iter().map(|&b| (a, b, within)));
            }
        }
        pairs
    }

    /// Each line holds one run of as many consecutive symbols as it has cells.
    fn set_groups(&self, rules: &Rules) -> Vec<SetGroup> {
        let n = rules.size;
        self.lines
            .iter()
            .filter(|line| line.len() <= n)
            .map(|line| {
                let k = line.len();
                let run: Symbols = ((1 << k) - 1) << 1;
                SetGroup {
                    cells: line.clone(),
                    sets: (0..=n - k).map(|low| run << low).collect(),
                    // Hard renban 3 of ISS's collection: 11.4 s to about 0.1 s
                    // (docs/sums.md, "Renban lines: the exclusion rule").
                    exclusions: true,
                }
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::lines(NAME, &self.lines)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for line in &self.lines {
            let mut values: Vec<u8> = line.iter().map(|&(r, c)| grid[r * n + c]).collect();
            values.sort_unstable();
            if values.windows(2).any(|pair| pair[1] != pair[0] + 1) {
                return Some(format!(
                    "the renban line from {} does not hold a run of consecutive symbols",
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
