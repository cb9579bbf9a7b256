//! Region sum lines: where a line crosses several boxes (jigsaw regions on a grid without
//! boxes), each stretch of it inside one box adds up to the same sum.
//!
//! Read by a machine (see [`super::sequences`]) whose state is the sum of the stretches (once
//! the first is done) and the sum of the current stretch so far.

use super::Mark;
use super::sequences::{Sequence, equal_sums_machine};
use super::{
    Cell, CellSum, Rule, Rules, RulesError, cell_name, clue_error, parse_paths, path_text,
    validate_path,
};

pub(super) const NAME: &str = "region-sum-lines";

/// Region sum lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionSumLines {
    pub lines: Vec<Vec<Cell>>,
}

impl RegionSumLines {
    /// Reads one line a line.
    pub fn parse(lines: &[(usize, String)]) -> Result<RegionSumLines, (usize, String)> {
        Ok(RegionSumLines {
            lines: parse_paths(lines)?,
        })
    }
}

/// The box (or, without boxes, the jigsaw region) of each cell, row by row; `None` on a grid
/// with neither.
fn areas(rules: &Rules) -> Option<Vec<usize>> {
    let n = rules.size;
    if let Some(shape) = rules.boxes {
        return Some((0..n * n).map(|i| shape.box_of(i / n, i % n)).collect());
    }
    rules
        .regions()
        .map(|map| map.iter().map(|&r| usize::from(r)).collect())
}

/// The stretches of `line` inside one area each: the index where each ends.
fn stretch_ends(line: &[Cell], area: &[usize], n: usize) -> Vec<bool> {
    (0..line.len())
        .map(|i| {
            i + 1 == line.len() || {
                let (a, b) = (line[i], line[i + 1]);
                area[a.0 * n + a.1] != area[b.0 * n + b.1]
            }
        })
        .collect()
}

impl Rule for RegionSumLines {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a region sum line"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, line) in self.lines.iter().enumerate() {
            validate_path(rules, NAME, k, line, (2, rules.size * rules.size))?;
            if areas(rules).is_none() {
                return Err(clue_error(
                    NAME,
                    k,
                    line,
                    "a region sum line needs boxes or jigsaw regions".into(),
                ));
            }
        }
        Ok(())
    }

    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let n = rules.size;
        let Some(area) = areas(rules) else {
            return Vec::new();
        };
        self.lines
            .iter()
            .map(|line| {
                let ends = stretch_ends(line, &area, n);
                equal_sums_machine(
                    line.clone(),
                    ends,
                    format!("the region sum line from {}", cell_name(line[0])),
                )
            })
            .collect()
    }

    fn sums(&self, rules: &Rules) -> Vec<CellSum> {
        let n = rules.size;
        let Some(area) = areas(rules) else {
            return Vec::new();
        };
        let mut sums = Vec::new();
        for line in &self.lines {
            let mut stretches: Vec<Vec<Cell>> = vec![Vec::new()];
            for (&cell, end) in line.iter().zip(stretch_ends(line, &area, n)) {
                stretches.last_mut().expect("one at least").push(cell);
                if end {
                    stretches.push(Vec::new());
                }
            }
            stretches.pop();
            sums.extend(CellSum::all_equal(&stretches));
        }
        sums
    }

    fn stated_by_sums(&self, rules: &Rules) -> bool {
        areas(rules).is_some()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::lines(NAME, &self.lines)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let area = areas(rules)?;
        for line in &self.lines {
            let mut sums = vec![0u32];
            for (i, &(r, c)) in line.iter().enumerate() {
                if i > 0 {
                    let (pr, pc) = line[i - 1];
                    if area[pr * n + pc] != area[r * n + c] {
                        sums.push(0);
                    }
                }
                *sums.last_mut().expect("one at least") += u32::from(grid[r * n + c]);
            }
            if sums.iter().any(|&s| s != sums[0]) {
                return Some(format!(
                    "the region sum line from {} has stretches adding up to {sums:?}",
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
