//! Counting circles: the symbol in a circle counts the circles of its set holding that
//! symbol (a 3 in a circle means exactly three circles of the set hold 3); sets are
//! independent of each other.
//!
//! The search sees a set as sums: a switch per symbol says whether the set holds it; the
//! circles holding d number d where it is on and none where it is off, and the symbols on
//! add up to the number of circles (which symbols can be there at all). The backtracking
//! baseline and the logic read a set by a machine counting each symbol.

use super::sequences::{Sequence, State};
use super::{Cell, Mark};
use super::{
    CellSum, Rule, Rules, RulesError, Weight, cell_name, clue_error, parse_paths, path_text,
};

pub(super) const NAME: &str = "counting-circles";

/// Bits of a machine's state for the count of one symbol (up to 31): five, so twelve
/// symbols fit a state; past a side of 12 the clue is read by its sums alone.
const COUNT_BITS: usize = 5;

/// Sets of counting circles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountingCircles {
    pub sets: Vec<Vec<Cell>>,
}

impl CountingCircles {
    /// Reads one set a line: its circles' cells.
    pub fn parse(lines: &[(usize, String)]) -> Result<CountingCircles, (usize, String)> {
        Ok(CountingCircles {
            sets: parse_paths(lines)?,
        })
    }
}

impl Rule for CountingCircles {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "counting circles"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, cells) in self.sets.iter().enumerate() {
            let bad = |why: String| clue_error(NAME, k, cells, why);
            if cells.is_empty() {
                return Err(bad("a set of counting circles needs a circle".into()));
            }
            super::validate_cells(rules, cells).map_err(bad)?;
            let mut sorted = cells.clone();
            sorted.sort_unstable();
            if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
                return Err(bad(format!("{} is a circle twice", cell_name(pair[0]))));
            }
        }
        Ok(())
    }

    /// A machine per set (the backtracking baseline and the logic read it): the state holds
    /// how many circles hold each symbol so far; no symbol d more than d times, and at the end
    /// each d none or d times.
    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let n = rules.size;
        if n * COUNT_BITS > 64 {
            return Vec::new();
        }
        let count = move |state: State, d: usize| (state >> ((d - 1) * COUNT_BITS)) & 31;
        self.sets
            .iter()
            .map(|cells| {
                Sequence::new(
                    cells.clone(),
                    format!("the counting circles from {}", cell_name(cells[0])),
                    0,
                    move |_, state, symbol| {
                        let d = usize::from(symbol);
                        (count(state, d) < d as State)
                            .then(|| state + (1 << ((d - 1) * COUNT_BITS)))
                    },
                    move |state| (1..=n).all(|d| [0, d as State].contains(&count(state, d))),
                )
            })
            .collect()
    }

    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        true
    }

    /// A switch per set and symbol: on when the set holds the symbol at all.
    fn switches(&self, rules: &Rules) -> usize {
        self.sets.len() * rules.size
    }

    /// In each set, the circles holding d are d where d's switch is on and none where it is
    /// off; and the symbols switched on add up to the number of circles.
    fn sums(&self, rules: &Rules) -> Vec<CellSum> {
        let n = rules.size;
        let mut sums = Vec::new();
        for (k, cells) in self.sets.iter().enumerate() {
            let switch = |d: usize| k * n + d - 1;
            for d in 1..=n {
                let indicator: Vec<i64> = (1..=n).map(|v| i64::from(v == d)).collect();
                sums.push(CellSum {
                    terms: cells
                        .iter()
                        .map(|&cell| (cell, Weight::Values(indicator.clone())))
                        .collect(),
                    switches: vec![(switch(d), -(d as i64))],
                    min: 0,
                    max: 0,
                });
            }
            sums.push(CellSum {
                terms: Vec::new(),
                switches: (1..=n).map(|d| (switch(d), d as i64)).collect(),
                min: cells.len() as i64,
                max: cells.len() as i64,
            });
        }
        sums
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.sets
            .iter()
            .flatten()
            .map(|&cell| Mark::Circle {
                style: NAME,
                cells: vec![cell],
                text: String::new(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for cells in &self.sets {
            let symbols: Vec<u8> = cells.iter().map(|&(r, c)| grid[r * n + c]).collect();
            for (&cell, &symbol) in cells.iter().zip(&symbols) {
                let count = symbols.iter().filter(|&&s| s == symbol).count();
                if count != usize::from(symbol) {
                    return Some(format!(
                        "the counting circle at {} holds {symbol}, and {count} circles of its set do",
                        cell_name(cell)
                    ));
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.sets.iter().map(|cells| path_text(cells)).collect()
    }
}
