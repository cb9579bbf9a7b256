//! The Sudoku grid: a box shape and one symbol (or blank) per cell.
//!
//! A [`Grid`] is plain data, the same type for puzzles and solutions, and knows nothing of the
//! engine. It knows its rules (no symbol twice in a row, column or box) so it can report
//! clashing clues before any search. The convenience methods a casual user wants
//! (`solution()`, `count_solutions()`, `verdict()`) are defined beside the encoding, in
//! `exact_cover/mod.rs`; batch work goes through [`Encoding`](super::Encoding) to reuse one matrix.

use std::fmt;

use super::shape::BoxShape;

/// A cell position, 0-based; shown 1-based as `r3c5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Row, from 0.
    pub row: usize,
    /// Column, from 0.
    pub col: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// Two clues with the same symbol in one row, column or box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clash {
    /// The earlier cell in reading order.
    pub first: Cell,
    /// The later cell.
    pub second: Cell,
    /// The symbol both hold, from 1.
    pub value: u8,
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.first.row == self.second.row {
            "row"
        } else if self.first.col == self.second.col {
            "column"
        } else {
            "box"
        };
        write!(
            f,
            "{} and {} both hold {} (same {unit})",
            self.first,
            self.second,
            symbol_name(self.value)
        )
    }
}

/// How a symbol is written in messages: digits, then letters from 10 up to 35, else a number.
pub fn symbol_name(value: u8) -> String {
    match value {
        1..=9 => ((b'0' + value) as char).to_string(),
        10..=35 => ((b'A' + value - 10) as char).to_string(),
        _ => value.to_string(),
    }
}

/// A Sudoku grid of any box shape; 0 is a blank, 1..=N a symbol.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: BoxShape,
    cells: Vec<u8>,
}

impl Grid {
    /// An empty grid.
    pub fn empty(shape: BoxShape) -> Grid {
        Grid {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// A grid from its cells in reading order; `None` if the count or a value is wrong.
    pub fn from_cells(shape: BoxShape, cells: Vec<u8>) -> Option<Grid> {
        let ok = cells.len() == shape.cells() && cells.iter().all(|&v| v as usize <= shape.size());
        ok.then_some(Grid { shape, cells })
    }

    /// The box shape.
    pub fn shape(&self) -> BoxShape {
        self.shape
    }

    /// The side N of the grid.
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// The cells in reading order, 0 for blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at a cell, 0 for blank.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.size() + col]
    }

    /// Sets a cell (0 to blank it). Panics if the position or value is out of range.
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        assert!(value as usize <= self.size(), "value {value} out of range");
        let n = self.size();
        self.cells[row * n + col] = value;
    }

    /// The filled cells with their values, in reading order.
    pub fn clues(&self) -> impl Iterator<Item = (Cell, u8)> + '_ {
        let n = self.size();
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0)
            .map(move |(i, &v)| {
                (
                    Cell {
                        row: i / n,
                        col: i % n,
                    },
                    v,
                )
            })
    }

    /// Number of filled cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of equal clues in one row, column or box, if any, in reading order of
    /// the second cell.
    pub fn clash(&self) -> Option<Clash> {
        let n = self.size();
        // For each unit and symbol, the first cell seen holding it (+1; 0 = none yet).
        let mut seen = vec![0u32; 3 * n * (n + 1)];
        for (cell, value) in self.clues() {
            let units = [
                cell.row,
                n + cell.col,
                2 * n + self.shape.box_of(cell.row, cell.col),
            ];
            for unit in units {
                let slot = &mut seen[unit * (n + 1) + value as usize];
                if *slot != 0 {
                    let index = *slot as usize - 1;
                    return Some(Clash {
                        first: Cell {
                            row: index / n,
                            col: index % n,
                        },
                        second: cell,
                        value,
                    });
                }
            }
            for unit in units {
                seen[unit * (n + 1) + value as usize] = (cell.row * n + cell.col + 1) as u32;
            }
        }
        None
    }
}
