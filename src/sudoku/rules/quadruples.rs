//! Quadruples: a circle where four cells meet lists up to four symbols, each of which appears
//! among those cells (as many times as listed).
//!
//! Read by a machine (see [`super::sequences`]) whose state is the set of listed symbols
//! already seen: a symbol read matches the first listed copy of it not yet matched.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{Cell, Rule, Rules, RulesError, cell_name, clue_error};

pub(super) const NAME: &str = "quadruples";

/// Quadruples: the top-left cell of the four, and the listed symbols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quadruples {
    pub clues: Vec<(Cell, Vec<u8>)>,
}

/// The four cells whose top-left is `(r, c)`.
fn square((r, c): Cell) -> Vec<Cell> {
    vec![(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
}

impl Quadruples {
    /// Reads one clue a line: the top-left cell, then the symbols (`r1c1 1 4 6`).
    pub fn parse(lines: &[(usize, String)]) -> Result<Quadruples, (usize, String)> {
        let clues = lines
            .iter()
            .map(|(line, text)| {
                let mut words = text.split_whitespace();
                let corner =
                    super::parse_cells(words.next().unwrap_or("")).map_err(|why| (*line, why))?;
                let [corner] = corner[..] else {
                    return Err((
                        *line,
                        format!("'{text}': a quadruple is a cell, then symbols"),
                    ));
                };
                let symbols = words
                    .map(|w| {
                        w.parse::<u8>()
                            .map_err(|_| (*line, format!("'{w}' is not a symbol")))
                    })
                    .collect::<Result<_, _>>()?;
                Ok((corner, symbols))
            })
            .collect::<Result<_, _>>()?;
        Ok(Quadruples { clues })
    }
}

impl Rule for Quadruples {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a quadruple"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, (corner, symbols)) in self.clues.iter().enumerate() {
            let bad = |why: String| clue_error(NAME, k, &[*corner], why);
            if corner.0 + 1 >= n || corner.1 + 1 >= n {
                return Err(bad(format!(
                    "{} is not the top-left of four cells inside the grid",
                    cell_name(*corner)
                )));
            }
            if symbols.is_empty() || symbols.len() > 4 {
                return Err(bad(format!(
                    "a quadruple lists 1 to 4 symbols, this one {}",
                    symbols.len()
                )));
            }
            if let Some(v) = symbols.iter().find(|&&v| v == 0 || usize::from(v) > n) {
                return Err(bad(format!("{v} is not a symbol from 1 to {n}")));
            }
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.clues
            .iter()
            .map(|(corner, symbols)| {
                let symbols = symbols.clone();
                let all = (1 << symbols.len()) - 1;
                Sequence::new(
                    square(*corner),
                    format!("the quadruple at {}", cell_name(*corner)),
                    0,
                    move |_, seen: State, symbol| {
                        let unmatched = (0..symbols.len())
                            .find(|&i| symbols[i] == symbol && seen & (1 << i) == 0);
                        Some(unmatched.map_or(seen, |i| seen | 1 << i))
                    },
                    move |seen| seen == all,
                )
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.clues
            .iter()
            .map(|(corner, symbols)| Mark::Corner {
                style: NAME,
                cell: *corner,
                text: symbols
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (corner, symbols) in &self.clues {
            let mut held: Vec<u8> = square(*corner)
                .iter()
                .map(|&(r, c)| grid[r * n + c])
                .collect();
            for &v in symbols {
                match held.iter().position(|&h| h == v) {
                    Some(i) => {
                        held.swap_remove(i);
                    }
                    None => {
                        return Some(format!("the quadruple at {} lacks {v}", cell_name(*corner)));
                    }
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.clues
            .iter()
            .map(|(corner, symbols)| {
                let list: Vec<String> = symbols.iter().map(u8::to_string).collect();
                format!("{} {}", cell_name(*corner), list.join(" "))
            })
            .collect()
    }
}
