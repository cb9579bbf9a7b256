//! Full rank: every row and column, read from each of its two ends, is a number (the row 1 2
//! ... 9 read from the left is 123456789); the 4N numbers are ranked from the lowest (rank 1),
//! and a clue beside a row or column says where the number read from that side ranks. A
//! clued number ties with no other (ISS's default, "unclued ranks only": unclued numbers may
//! tie with each other, which changes no clue's rank).
//!
//! Every symbol begins exactly four of the numbers (once in the first and last row and
//! column), so rank R begins with symbol d = ceil(R / 4), and R - 4(d - 1) - 1 of the other
//! three numbers beginning with d, one of each kind (rows from the left, rows from the right,
//! columns from the top, columns from the bottom), are lower. The search sees a clue as sums
//! (see [`FullRank::sums`]); the backtracking baseline and the logic read it by a machine that
//! compares the clued line with every line of the other three kinds, in turn.

use super::outside::{Outside, Side, parse_outside_clues, validate_outside};
use super::sequences::{Sequence, State};
use super::{CellSum, Mark, Rule, Rules, RulesError, Weight};

pub(super) const NAME: &str = "full-rank";

/// The largest side read: the numbers compared are the first N - 1 symbols in base N (the
/// last follows from them), which fit a 64-bit sum up to a side of 16.
const MAX_SIDE: usize = 16;

/// Full rank clues: where each stands and the rank of the number read from there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullRank {
    pub clues: Vec<(Outside, u32)>,
}

/// The four kinds of numbers, each read from one side of the grid.
const SIDES: [Side; 4] = [Side::Left, Side::Right, Side::Top, Side::Bottom];

/// A clue's parts: the cells of its line from the clue inward, the symbol it begins with,
/// and how many of the three other numbers beginning with that symbol are lower.
struct Clued {
    line: Vec<(usize, usize)>,
    first: u8,
    lower: usize,
}

impl FullRank {
    /// Reads one clue a line: `left 3 17`, `bottom 2 12`.
    pub fn parse(lines: &[(usize, String)]) -> Result<FullRank, (usize, String)> {
        Ok(FullRank {
            clues: parse_outside_clues(lines)?,
        })
    }

    fn clued(at: Outside, rank: u32, n: usize) -> Clued {
        let index = (rank as usize).saturating_sub(1);
        Clued {
            line: at.cells(n),
            first: (index / 4 + 1) as u8,
            lower: index % 4,
        }
    }

    /// The clues (by index) with one or two lower numbers, which need switches.
    fn switched(&self, n: usize) -> Vec<usize> {
        (0..self.clues.len())
            .filter(|&k| {
                let (at, rank) = self.clues[k];
                matches!(FullRank::clued(at, rank, n).lower, 1 | 2)
            })
            .collect()
    }

    /// The lines a clue on `side` compares its own with: every row or column read from each
    /// of the three other sides, with the kind (its place among the three).
    fn rivals(side: Side, n: usize) -> Vec<(usize, Vec<(usize, usize)>)> {
        SIDES
            .iter()
            .filter(|&&other| other != side)
            .enumerate()
            .flat_map(|(kind, &other)| {
                (0..n).map(move |index| (kind, Outside { side: other, index }.cells(n)))
            })
            .collect()
    }
}

/// The symbols compared between two numbers beginning alike: the second to the one before
/// last (the last is the one symbol the others leave).
fn compared(n: usize) -> std::ops::Range<usize> {
    1..n.saturating_sub(1)
}

impl Rule for FullRank {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a full rank clue"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, &(at, rank)) in self.clues.iter().enumerate() {
            validate_outside(n, NAME, k, at)?;
            let bad = |why: String| RulesError::Clue {
                rule: NAME,
                index: k + 1,
                cells: at.cells(n),
                why,
            };
            if n > MAX_SIDE {
                return Err(bad(format!("full rank is read on sides up to {MAX_SIDE}")));
            }
            if !(1..=4 * n as u32).contains(&rank) {
                return Err(bad(format!(
                    "rank {rank} of {}: the {} numbers rank from 1 to {}",
                    at.name(),
                    4 * n,
                    4 * n
                )));
            }
            if let Some(&(other, _)) = self.clues[..k].iter().find(|(_, r)| *r == rank) {
                return Err(bad(format!(
                    "rank {rank} is given to {} and to {}: two numbers cannot share it",
                    other.name(),
                    at.name()
                )));
            }
            if self.clues[..k].iter().any(|(other, _)| *other == at) {
                return Err(bad(format!("{} is ranked twice", at.name())));
            }
        }
        Ok(())
    }

    /// A clue's line begins with the symbol its rank says.
    fn excluded(&self, rules: &Rules) -> Vec<((usize, usize), u8)> {
        let n = rules.size;
        let mut excluded = Vec::new();
        for &(at, rank) in &self.clues {
            let clued = FullRank::clued(at, rank, n);
            for v in (1..=n as u8).filter(|&v| v != clued.first) {
                excluded.push((clued.line[0], v));
            }
        }
        excluded
    }

    /// A machine per clue. It reads, for every line of the other three kinds in turn, the
    /// line's first symbol, then the clued line's and the other's symbols by turns (from the
    /// second to the one before last). The state: how many of the lines beginning with the
    /// clue's symbol were lower (bits 16 up), and for the line being read whether it begins
    /// otherwise (ignored), is lower, higher, or equal so far with the clued line's symbol
    /// waiting to be compared (bits 0 to 7). Equal to the end is a tie, refused.
    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let n = rules.size;
        let span = 1 + 2 * compared(n).len();
        const IGNORED: State = 1 << 8;
        const LOWER: State = 2 << 8;
        const HIGHER: State = 3 << 8;
        const EQUAL: State = 4 << 8;
        self.clues
            .iter()
            .map(|&(at, rank)| {
                let clued = FullRank::clued(at, rank, n);
                let mut cells = Vec::new();
                for (_, line) in FullRank::rivals(at.side, n) {
                    cells.push(line[0]);
                    for i in compared(n) {
                        cells.push(clued.line[i]);
                        cells.push(line[i]);
                    }
                }
                let (first, lower) = (clued.first, clued.lower as State);
                Sequence::new(
                    cells,
                    format!("the full rank clue {rank} of {}", at.name()),
                    0,
                    move |position, state, symbol| {
                        let (count, phase, waiting) =
                            (state >> 16, state & 0xff00, State::from(symbol));
                        let j = position % span;
                        let next = if j == 0 {
                            if symbol == first { EQUAL } else { IGNORED }
                        } else if phase != EQUAL {
                            phase
                        } else if j % 2 == 1 {
                            EQUAL | waiting
                        } else {
                            let clue_symbol = state & 0xff;
                            match State::from(symbol).cmp(&clue_symbol) {
                                std::cmp::Ordering::Less => LOWER,
                                std::cmp::Ordering::Greater => HIGHER,
                                std::cmp::Ordering::Equal => EQUAL,
                            }
                        };
                        if j + 1 < span {
                            return Some(count << 16 | next);
                        }
                        // The line ends: a tie is refused, a lower one counted.
                        match next & 0xff00 {
                            EQUAL => None,
                            LOWER => (count < lower).then_some((count + 1) << 16),
                            _ => Some(count << 16),
                        }
                    },
                    move |state| state >> 16 == lower,
                )
            })
            .collect()
    }

    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        true
    }

    /// Three switches a clue with one or two lower numbers: whether the number of each other
    /// kind beginning with its symbol is lower.
    fn switches(&self, rules: &Rules) -> usize {
        3 * self.switched(rules.size).len()
    }

    /// The numbers as sums: a line read as its symbols 2 to N - 1 in base N (symbol i
    /// weighs N^(N - 1 - i)) is lower than another exactly when its sum is. For each line L
    /// of another kind than the clued line C: L - C >= 1 (L higher) or C - L >= 1 (L lower),
    /// unless L begins with another symbol, which adds a large number B (more than any
    /// difference) and frees it. With no lower number, every L is higher; with three, every
    /// L is lower; else switch s of L's kind says which, adding B to free the other way
    /// (C - L - B s >= 1 - B and L - C + B s >= 1), and the switches add up to the count.
    fn sums(&self, rules: &Rules) -> Vec<CellSum> {
        let n = rules.size;
        let weight = |i: usize| (n as i64).pow((n - 1 - i) as u32 - 1);
        let big = (n as i64).pow(n.saturating_sub(2) as u32);
        let freed: Vec<i64> = (1..=n).map(|_| big).collect();
        let switched = self.switched(n);
        let mut sums = Vec::new();
        for &(at, rank) in &self.clues {
            let clued = FullRank::clued(at, rank, n);
            let switch = switched
                .iter()
                .position(|&k| self.clues[k].0 == at)
                .map(|s| 3 * s);
            let mut begins_otherwise = freed.clone();
            begins_otherwise[usize::from(clued.first) - 1] = 0;
            for (kind, line) in FullRank::rivals(at.side, n) {
                // `sign` 1: the line is higher; -1: lower.
                for sign in [1i64, -1] {
                    // None lower: no line is; three: every line is.
                    if matches!((clued.lower, sign), (0, -1) | (3, 1)) {
                        continue;
                    }
                    let mut terms = vec![(line[0], Weight::Values(begins_otherwise.clone()))];
                    for i in compared(n) {
                        terms.push((line[i], Weight::Times(sign * weight(i))));
                        terms.push((clued.line[i], Weight::Times(-sign * weight(i))));
                    }
                    let (switches, min) = match switch {
                        Some(s) if sign == 1 => (vec![(s + kind, big)], 1),
                        Some(s) => (vec![(s + kind, -big)], 1 - big),
                        None => (Vec::new(), 1),
                    };
                    sums.push(CellSum {
                        terms,
                        switches,
                        min,
                        max: 3 * big,
                    });
                }
            }
            if let Some(s) = switch {
                sums.push(CellSum {
                    terms: Vec::new(),
                    switches: (s..s + 3).map(|s| (s, 1)).collect(),
                    min: clued.lower as i64,
                    max: clued.lower as i64,
                });
            }
        }
        sums
    }

    fn marks(&self, rules: &Rules) -> Vec<Mark> {
        self.clues
            .iter()
            .map(|&(place, rank)| place.mark(rules.size, NAME, format!("#{rank}")))
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let number = |at: Outside| -> Vec<u8> {
            let (i, last) = (at.index, n - 1);
            (0..n)
                .map(|k| match at.side {
                    Side::Left => grid[i * n + k],
                    Side::Right => grid[i * n + last - k],
                    Side::Top => grid[k * n + i],
                    Side::Bottom => grid[(last - k) * n + i],
                })
                .collect()
        };
        let all: Vec<(Outside, Vec<u8>)> = SIDES
            .iter()
            .flat_map(|&side| (0..n).map(move |index| Outside { side, index }))
            .map(|at| (at, number(at)))
            .collect();
        for &(at, rank) in &self.clues {
            let own = number(at);
            if let Some((other, _)) = all.iter().find(|(o, v)| *o != at && *v == own) {
                return Some(format!(
                    "{} reads the same number as {}, so its rank {rank} is tied",
                    at.name(),
                    other.name()
                ));
            }
            let lower = all.iter().filter(|(_, v)| *v < own).count();
            if lower + 1 != rank as usize {
                return Some(format!("{} ranks {}, not {rank}", at.name(), lower + 1));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues
            .iter()
            .map(|&(at, rank)| format!("{} {rank}", at.text()))
            .collect()
    }
}
