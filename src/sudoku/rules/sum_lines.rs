//! Sum lines: a line cut into stretches that each add up to its sum (10 unless said). A
//! loop may be cut anywhere; an open line's first stretch starts at its first cell.
//!
//! Read by machines (see [`super::sequences`]). An open line's state is the current
//! stretch's sum so far. A loop's cuts are where the running sum from its first cell takes
//! one remainder modulo the sum, and every number with that remainder up to the total must
//! be a running sum: the state is the running sum modulo the sum and the set of remainders
//! that no step has jumped over, so that each grid is read along one path whatever cut
//! fits it.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{
    Cell, Rule, Rules, RulesError, cell_name, clue_error, parse_cells, path_text, validate_path,
};

pub(super) const NAME: &str = "sum-lines";

/// The largest sum of a loop (its state keeps a bit per remainder).
pub const MAX_LOOP_SUM: u32 = 32;

/// One sum line: its sum, its cells, and whether it closes into a loop (the last cell
/// touching the first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumLine {
    pub sum: u32,
    pub cells: Vec<Cell>,
    pub is_loop: bool,
}

/// Sum lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumLines {
    pub lines: Vec<SumLine>,
}

impl SumLines {
    /// Reads one line a line: an optional sum, the cells, and `loop` at the end of a loop
    /// (`10 r1c1 r1c2 r2c2 r2c1 loop`).
    pub fn parse(lines: &[(usize, String)]) -> Result<SumLines, (usize, String)> {
        let lines = lines
            .iter()
            .map(|(line, text)| {
                let mut words: Vec<&str> = text.split_whitespace().collect();
                let is_loop = words.last() == Some(&"loop");
                if is_loop {
                    words.pop();
                }
                let sum = match words.first().map(|w| w.parse::<u32>()) {
                    Some(Ok(sum)) => {
                        words.remove(0);
                        sum
                    }
                    _ => 10,
                };
                Ok(SumLine {
                    sum,
                    cells: parse_cells(&words.join(" ")).map_err(|why| (*line, why))?,
                    is_loop,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(SumLines { lines })
    }
}

impl Rule for SumLines {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a sum line"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, line) in self.lines.iter().enumerate() {
            validate_path(rules, NAME, k, &line.cells, (1, rules.size * rules.size))?;
            let bad = |why: String| clue_error(NAME, k, &line.cells, why);
            if line.sum == 0 {
                return Err(bad("a sum line's sum is at least 1".into()));
            }
            if line.is_loop {
                let (first, last) = (line.cells[0], line.cells[line.cells.len() - 1]);
                if first.0.abs_diff(last.0) > 1 || first.1.abs_diff(last.1) > 1 {
                    return Err(bad(format!(
                        "a loop's last cell {} does not touch its first",
                        cell_name(last)
                    )));
                }
                if line.sum > MAX_LOOP_SUM {
                    return Err(bad(format!(
                        "a loop's sum is at most {MAX_LOOP_SUM}, this one {}",
                        line.sum
                    )));
                }
            }
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.lines
            .iter()
            .map(|line| {
                let sum = State::from(line.sum);
                let what = format!("the sum line from {}", cell_name(line.cells[0]));
                if !line.is_loop {
                    return Sequence::new(
                        line.cells.clone(),
                        what,
                        0,
                        move |_, so_far, symbol| {
                            let more = so_far + State::from(symbol);
                            match more.cmp(&sum) {
                                std::cmp::Ordering::Less => Some(more),
                                std::cmp::Ordering::Equal => Some(0),
                                std::cmp::Ordering::Greater => None,
                            }
                        },
                        |so_far| so_far == 0,
                    );
                }
                // The state: the running sum modulo the sum (above bit 32) and the remainders
                // still possible as cuts (a bit each).
                let every = (1 << sum) - 1;
                Sequence::new(
                    line.cells.clone(),
                    what,
                    every,
                    move |_, state, symbol| {
                        let (position, mut alive) = (state >> 32, state & 0xffff_ffff);
                        let symbol = State::from(symbol);
                        for skipped in 1..symbol {
                            alive &= !(1 << ((position + skipped) % sum));
                        }
                        (alive != 0).then_some(((position + symbol) % sum) << 32 | alive)
                    },
                    |state| state >> 32 == 0,
                )
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        let mut marks = Vec::new();
        for line in &self.lines {
            let mut cells = line.cells.clone();
            if line.is_loop {
                cells.extend(line.cells.first().copied());
            }
            marks.push(Mark::Line { style: NAME, cells });
            if let Some(&first) = line.cells.first() {
                marks.push(Mark::Note {
                    style: NAME,
                    cell: first,
                    text: line.sum.to_string(),
                });
            }
        }
        marks
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for line in &self.lines {
            let values: Vec<u32> = line
                .cells
                .iter()
                .map(|&(r, c)| u32::from(grid[r * n + c]))
                .collect();
            // Try every start (only the first for an open line): cut greedily from there.
            let starts = if line.is_loop { values.len() } else { 1 };
            let cut = (0..starts).any(|start| {
                let mut so_far = 0;
                for i in 0..values.len() {
                    so_far += values[(start + i) % values.len()];
                    if so_far == line.sum {
                        so_far = 0;
                    } else if so_far > line.sum {
                        return false;
                    }
                }
                so_far == 0
            });
            if !cut {
                return Some(format!(
                    "the sum line from {} cannot be cut into stretches of {}",
                    cell_name(line.cells[0]),
                    line.sum
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|line| {
                let tail = if line.is_loop { " loop" } else { "" };
                format!("{} {}{tail}", line.sum, path_text(&line.cells))
            })
            .collect()
    }
}
