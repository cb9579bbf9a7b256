//! Pencilmarks as givens: a cell holds one of the symbols listed for it (odd and even cells
//! are pencilmarks of the odd or the even symbols).

use super::Mark;
use super::{Cell, Rule, Rules, RulesError, cell_name, parse_cells};

pub(super) const NAME: &str = "pencilmarks";

/// Cells, each with the symbols it may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pencilmarks {
    pub cells: Vec<(Cell, Vec<u8>)>,
}

impl Pencilmarks {
    /// Reads one cell a line: the cell, then its symbols as numbers (`r1c1 2 4 6 8`).
    pub fn parse(lines: &[(usize, String)]) -> Result<Pencilmarks, (usize, String)> {
        let cells = lines
            .iter()
            .map(|(line, text)| {
                let mut words = text.split_whitespace();
                let cell = parse_cells(words.next().unwrap_or("")).map_err(|why| (*line, why))?;
                let [cell] = cell[..] else {
                    return Err((*line, format!("'{text}': a cell, then its symbols")));
                };
                let symbols = words
                    .map(|word| {
                        word.parse::<u8>()
                            .map_err(|_| (*line, format!("'{word}' is not a symbol")))
                    })
                    .collect::<Result<Vec<u8>, _>>()?;
                Ok((cell, symbols))
            })
            .collect::<Result<_, _>>()?;
        Ok(Pencilmarks { cells })
    }
}

impl Rule for Pencilmarks {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "its pencilmarks"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, (cell, symbols)) in self.cells.iter().enumerate() {
            let bad = |why: String| RulesError::Clue {
                rule: NAME,
                index: k + 1,
                cells: vec![*cell],
                why,
            };
            if cell.0 >= n || cell.1 >= n {
                return Err(bad(format!("{} is outside the grid", cell_name(*cell))));
            }
            if symbols.is_empty() || symbols.iter().any(|&v| v == 0 || usize::from(v) > n) {
                return Err(bad(format!(
                    "{} needs symbols from 1 to {n}",
                    cell_name(*cell)
                )));
            }
        }
        Ok(())
    }

    fn excluded(&self, rules: &Rules) -> Vec<(Cell, u8)> {
        let n = rules.size as u8;
        self.cells
            .iter()
            .flat_map(|(cell, symbols)| {
                (1..=n)
                    .filter(|v| !symbols.contains(v))
                    .map(move |v| (*cell, v))
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.cells
            .iter()
            .map(|(cell, symbols)| Mark::Note {
                style: NAME,
                cell: *cell,
                text: symbols
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(""),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        self.cells.iter().find_map(|((r, c), symbols)| {
            let value = grid[r * n + c];
            (!symbols.contains(&value)).then(|| {
                format!(
                    "{} holds {value}, not one of its pencilmarks",
                    cell_name((*r, *c))
                )
            })
        })
    }

    fn lines(&self) -> Vec<String> {
        self.cells
            .iter()
            .map(|(cell, symbols)| {
                let symbols: Vec<String> = symbols.iter().map(u8::to_string).collect();
                format!("{} {}", cell_name(*cell), symbols.join(" "))
            })
            .collect()
    }
}
