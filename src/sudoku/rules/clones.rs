//! Clones: sets of cells of the same size hold the same symbols, as many times each (the
//! cells of one set need not differ).
//!
//! Read by a machine (see [`super::sequences`]) per set after the first: the first set is
//! counted in, the other counted out, and nothing may be left.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{Cell, Rule, Rules, RulesError, cell_name, clue_error, parse_cells, path_text};

pub(super) const NAME: &str = "clones";

/// The largest side clones read on (the machine keeps four bits of count per symbol).
pub const MAX_CLONE_SIZE: usize = 16;

/// Clones: each clue a list of sets of equal size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clones {
    pub clues: Vec<Vec<Vec<Cell>>>,
}

impl Clones {
    /// Reads one clue a line: its sets separated by `|` (`r1c1 r1c2 | r5c5 r5c6`).
    pub fn parse(lines: &[(usize, String)]) -> Result<Clones, (usize, String)> {
        let clues = lines
            .iter()
            .map(|(line, text)| {
                text.split('|')
                    .map(|set| parse_cells(set).map_err(|why| (*line, why)))
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<_, _>>()?;
        Ok(Clones { clues })
    }
}

impl Rule for Clones {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a clone"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, sets) in self.clues.iter().enumerate() {
            let all: Vec<Cell> = sets.iter().flatten().copied().collect();
            let bad = |why: String| clue_error(NAME, k, &all, why);
            if rules.size > MAX_CLONE_SIZE {
                return Err(bad(format!("clones are read up to side {MAX_CLONE_SIZE}")));
            }
            let size = sets[0].len();
            if sets.len() < 2 || size == 0 || size > 15 || sets.iter().any(|s| s.len() != size) {
                return Err(bad(
                    "clones are two sets or more of the same size (1 to 15 cells)".into(),
                ));
            }
            for set in sets {
                super::validate_cells(rules, set).map_err(bad)?;
            }
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        let mut sequences = Vec::new();
        for sets in &self.clues {
            let size = sets[0].len();
            for other in &sets[1..] {
                let cells: Vec<Cell> = sets[0].iter().chain(other).copied().collect();
                // The state: four bits of count per symbol.
                sequences.push(Sequence::new(
                    cells,
                    format!(
                        "the clone of {} at {}",
                        cell_name(sets[0][0]),
                        cell_name(other[0])
                    ),
                    0,
                    move |at, counts: State, symbol| {
                        let shift = 4 * (u32::from(symbol) - 1);
                        let count = counts >> shift & 0xf;
                        if at < size {
                            Some(counts + (1 << shift))
                        } else {
                            (count > 0).then(|| counts - (1 << shift))
                        }
                    },
                    |counts| counts == 0,
                ));
            }
        }
        sequences
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.clues
            .iter()
            .enumerate()
            .flat_map(|(k, clue)| {
                clue.iter().map(move |set| Mark::Shade {
                    style: NAME,
                    group: k,
                    cells: set.clone(),
                })
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for sets in &self.clues {
            let sorted = |set: &Vec<Cell>| {
                let mut values: Vec<u8> = set.iter().map(|&(r, c)| grid[r * n + c]).collect();
                values.sort_unstable();
                values
            };
            let first = sorted(&sets[0]);
            if let Some(other) = sets[1..].iter().find(|set| sorted(set) != first) {
                return Some(format!(
                    "the clone at {} does not hold what {} holds",
                    cell_name(other[0]),
                    cell_name(sets[0][0])
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues
            .iter()
            .map(|sets| {
                let sets: Vec<String> = sets.iter().map(|set| path_text(set)).collect();
                sets.join(" | ")
            })
            .collect()
    }
}
