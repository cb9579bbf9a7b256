//! Arrows: the symbols along an arrow add up to the number in its circle. The circle may be
//! several cells (a pill), read as one number from its first cell to its last.
//!
//! An arrow is read by a machine (see [`super::sequences`]): first the circle, digit by digit,
//! into a number, then each cell of the arrow taken off it; the arrow is kept when nothing is
//! left.

use super::Mark;
use super::sequences::{Sequence, State};
use super::{
    Cell, CellSum, Rule, Rules, RulesError, Weight, cell_name, clue_error, parse_cells, path_text,
};

pub(super) const NAME: &str = "arrows";

/// The most cells a circle may have: a pill of three reads up to 999.
pub const MAX_CIRCLE: usize = 3;

/// One arrow: the circle's cells (one, or a pill), then the cells of the arrow from the
/// circle outward.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrow {
    pub circle: Vec<Cell>,
    pub line: Vec<Cell>,
}

/// Arrows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrows {
    pub arrows: Vec<Arrow>,
}

/// The number that symbols written side by side in decimal make (`[1, 2]` is 12; on grids
/// past 9, `[1, 12]` is 112).
pub fn pill_number(symbols: impl IntoIterator<Item = u8>) -> u64 {
    symbols.into_iter().fold(0, |number, symbol| {
        let shift = if symbol >= 10 { 100 } else { 10 };
        number * shift + u64::from(symbol)
    })
}

impl Arrows {
    /// Reads one arrow a line: the circle's cells, `>`, the arrow's cells
    /// (`r1c1 > r1c2 r1c3`; a pill: `r1c1 r1c2 > r2c3 r3c3`).
    pub fn parse(lines: &[(usize, String)]) -> Result<Arrows, (usize, String)> {
        let arrows = lines
            .iter()
            .map(|(line, text)| {
                let (circle, arrow) = text.split_once('>').ok_or_else(|| {
                    (
                        *line,
                        format!("'{text}': an arrow is its circle, '>', then its cells"),
                    )
                })?;
                Ok(Arrow {
                    circle: parse_cells(circle).map_err(|why| (*line, why))?,
                    line: parse_cells(arrow).map_err(|why| (*line, why))?,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Arrows { arrows })
    }
}

impl Rule for Arrows {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "an arrow"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, arrow) in self.arrows.iter().enumerate() {
            let cells: Vec<Cell> = arrow.circle.iter().chain(&arrow.line).copied().collect();
            let bad = |why: String| clue_error(NAME, k, &cells, why);
            if arrow.circle.is_empty() || arrow.circle.len() > MAX_CIRCLE {
                return Err(bad(format!(
                    "a circle has 1 to {MAX_CIRCLE} cells, this one {}",
                    arrow.circle.len()
                )));
            }
            if arrow.line.is_empty() {
                return Err(bad("an arrow has at least one cell".into()));
            }
            super::validate_cells(rules, &cells).map_err(bad)?;
        }
        Ok(())
    }

    fn sequences(&self, _rules: &Rules) -> Vec<Sequence> {
        self.arrows
            .iter()
            .map(|arrow| {
                let circle = arrow.circle.len();
                let cells = arrow.circle.iter().chain(&arrow.line).copied().collect();
                // In the circle the state is the number read so far; on the arrow, what is
                // left of it.
                Sequence::new(
                    cells,
                    format!("the arrow from {}", cell_name(arrow.circle[0])),
                    0,
                    move |at, state: State, symbol| {
                        if at < circle {
                            Some(state * if symbol >= 10 { 100 } else { 10 } + State::from(symbol))
                        } else {
                            state.checked_sub(State::from(symbol))
                        }
                    },
                    |left| left == 0,
                )
            })
            .collect()
    }

    /// The arrow's cells less the circle's number make 0: a circle of one cell, or a pill on
    /// a grid whose symbols are single digits (past 9 a pill's number is not a weighted sum
    /// of its symbols; its machine alone reads it).
    fn sums(&self, rules: &Rules) -> Vec<CellSum> {
        self.arrows
            .iter()
            .filter(|arrow| arrow.circle.len() == 1 || rules.size <= 9)
            .map(|arrow| {
                let mut sum = CellSum::difference(&arrow.line, &[], 0);
                let mut weight = 1;
                for &cell in arrow.circle.iter().rev() {
                    sum.terms.push((cell, Weight::Times(-weight)));
                    weight *= 10;
                }
                sum
            })
            .collect()
    }

    fn stated_by_sums(&self, rules: &Rules) -> bool {
        self.arrows
            .iter()
            .all(|arrow| arrow.circle.len() == 1 || rules.size <= 9)
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        let mut marks = Vec::new();
        for arrow in &self.arrows {
            // The shaft leaves the circle from its cell nearest the arrow's first cell.
            if let (Some(&first), Some(&from)) = (
                arrow.line.first(),
                arrow.circle.iter().min_by_key(|&&(r, c)| {
                    let (fr, fc) = arrow.line.first().copied().unwrap_or((r, c));
                    r.abs_diff(fr).max(c.abs_diff(fc))
                }),
            ) {
                let mut cells = vec![from, first];
                cells.extend_from_slice(&arrow.line[1..]);
                marks.push(Mark::Line { style: NAME, cells });
            }
            marks.push(Mark::Circle {
                style: NAME,
                cells: arrow.circle.clone(),
                text: String::new(),
            });
        }
        marks
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let at = |(r, c): Cell| grid[r * n + c];
        for arrow in &self.arrows {
            let circle = pill_number(arrow.circle.iter().map(|&cell| at(cell)));
            let sum: u64 = arrow.line.iter().map(|&cell| u64::from(at(cell))).sum();
            if circle != sum {
                return Some(format!(
                    "the arrow from {} adds up to {sum}, not {circle}",
                    cell_name(arrow.circle[0])
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.arrows
            .iter()
            .map(|arrow| format!("{} > {}", path_text(&arrow.circle), path_text(&arrow.line)))
            .collect()
    }
}
