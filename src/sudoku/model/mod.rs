//! The Sudoku model: box shapes and grids, plain data that knows the rules of the puzzle and
//! nothing of how it is solved.

mod grid;
mod shape;

pub use grid::{Cell, Clash, Grid, symbol_name};
pub use shape::{BoxShape, MAX_SIZE};
