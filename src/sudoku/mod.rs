//! Sudoku of any box shape, on top of the exact-cover engine.
//!
//! A [`Grid`] is encoded into the engine's items and options by an [`Encoding`] (built once
//! per [`BoxShape`]), solved by a [`GridSolver`], and the chosen options are decoded back into
//! a grid. [`text`] reads and writes the usual puzzle file formats; [`check`] is an
//! independent checker of solutions that shares no code with the solver; [`backtrack`] holds
//! the simple backtracking baselines, which share the [`SudokuSolver`] interface with Dancing
//! Links so that they can be compared.
//!
//! ```
//! use xcover::sudoku::{text, Verdict};
//!
//! let puzzles = text::parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n", None);
//! let puzzle = puzzles[0].as_ref().unwrap();
//! match puzzle.grid.verdict() {
//!     Verdict::Unique(solution) => assert!(solution.is_full()),
//!     other => panic!("top95 #1 is proper, got {other:?}"),
//! }
//! ```

pub mod backtrack;
pub mod check;
pub mod compare;
mod encode;
pub mod generate;
mod grid;
pub mod logic;
mod shape;
mod solver;
pub mod text;

pub use encode::{Answer, Encoding, GridSolver, Verdict};
pub use grid::{Cell, Clash, Grid, symbol_name};
pub use shape::{BoxShape, MAX_SIZE};
pub use solver::{Run, SudokuSolver};
