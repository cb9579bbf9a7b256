//! Zipper lines: the symbols at equal distances from the middle of the line add up to the
//! same sum; on a line of odd length, that sum is the middle cell's symbol.
//!
//! Read by a machine (see [`super::sequences`]): the middle first (odd length), then the
//! pairs from the middle outward, two cells each; the state is the sum and the first cell of
//! the pair being read.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{
    Cell, CellSum, Rule, Rules, RulesError, cell_name, parse_paths, path_text, validate_path,
};

pub(super) const NAME: &str = "zipper-lines";

/// Zipper lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipperLines {
    pub lines: Vec<Vec<Cell>>,
}

impl ZipperLines {
    /// Reads one line a line.
    pub fn parse(lines: &[(usize, String)]) -> Result<ZipperLines, (usize, String)> {
        Ok(ZipperLines {
            lines: parse_paths(lines)?,
        })
    }
}

impl Rule for ZipperLines {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a zipper line"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, line) in self.lines.iter().enumerate() {
            validate_path(rules, NAME, k, line, (2, rules.size * rules.size))?;
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.lines
            .iter()
            .map(|line| {
                let m = line.len();
                let odd = m % 2 == 1;
                let mut cells = Vec::with_capacity(m);
                if odd {
                    cells.push(line[m / 2]);
                }
                for i in (0..m / 2).rev() {
                    cells.push(line[i]);
                    cells.push(line[m - 1 - i]);
                }
                // The state: the sum (above bit 16; 0 until known) and the pending first
                // symbol of a pair (0 when none).
                Sequence::new(
                    cells,
                    format!("the zipper line from {}", cell_name(line[0])),
                    0,
                    move |at, state: State, symbol| {
                        let symbol = State::from(symbol);
                        let (sum, pending) = (state >> 16, state & 0xffff);
                        if odd && at == 0 {
                            return Some(symbol << 16);
                        }
                        if pending == 0 {
                            return Some(sum << 16 | symbol);
                        }
                        let pair = pending + symbol;
                        if sum == 0 || sum == pair {
                            Some(pair << 16)
                        } else {
                            None
                        }
                    },
                    |_| true,
                )
            })
            .collect()
    }

    /// Each pair less the middle cell (odd length) or less the outermost pair (even length)
    /// makes 0.
    fn sums(&self, _rules: &Rules) -> Vec<CellSum> {
        let mut sums = Vec::new();
        for line in &self.lines {
            let m = line.len();
            let pair = |i: usize| vec![line[i], line[m - 1 - i]];
            if m % 2 == 1 {
                sums.extend((0..m / 2).map(|i| CellSum::difference(&pair(i), &[line[m / 2]], 0)));
            } else {
                let pairs: Vec<Vec<Cell>> = (0..m / 2).map(pair).collect();
                sums.extend(CellSum::all_equal(&pairs));
            }
        }
        sums
    }

    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        true
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::lines(NAME, &self.lines)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let at = |(r, c): Cell| u32::from(grid[r * n + c]);
        for line in &self.lines {
            let m = line.len();
            let sums: Vec<u32> = (0..m / 2)
                .map(|i| at(line[i]) + at(line[m - 1 - i]))
                .collect();
            let target = if m % 2 == 1 { at(line[m / 2]) } else { sums[0] };
            if let Some(i) = sums.iter().position(|&s| s != target) {
                return Some(format!(
                    "on the zipper line from {}, {} and {} add up to {}, not {target}",
                    cell_name(line[0]),
                    cell_name(line[i]),
                    cell_name(line[m - 1 - i]),
                    sums[i]
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.lines.iter().map(|line| path_text(line)).collect()
    }
}
