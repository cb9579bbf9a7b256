//! Sudoku of any box shape, on top of the exact-cover engine.
//!
//! The layers, each in its own module:
//!
//! - the model: a [`Grid`] of any [`BoxShape`], plain data that knows the rules and nothing of
//!   how puzzles are solved; [`rules`], one module per rule, which every puzzle is played under
//!   (a classic grid under rows, columns and boxes); [`AnyPuzzle`], a classic grid or a
//!   puzzle under other rules, as commands take it;
//! - [`text`]: the file formats people use, read (streaming) and written; it depends on the
//!   model only;
//! - the exact-cover bridge: one builder makes the problem of any ruleset
//!   ([`variant::VariantEncoding`]); an [`Encoding`] (built once per shape) turns a grid into
//!   the engine's items and options, a [`GridSolver`] solves it and decodes the chosen options
//!   back into a grid; [`SudokuSolver`] is the interface it shares with the baselines;
//! - [`check`]: an independent checker of solutions that shares no code with the solver (each
//!   rule's own judge);
//! - [`backtrack`]: the backtracking baseline under any rules, compared with Dancing Links
//!   and used to check it;
//! - [`candidates`]: the true candidates of a puzzle (the symbols some solution puts in
//!   each cell, and how many solutions do);
//! - [`logic`]: human-style techniques with explanations and ratings;
//! - [`generate`] (feature `generate`): new puzzles under any rules with exactly one
//!   solution;
//! - [`variant`]: a puzzle under any rules (jigsaw, X, windoku, anti-knight, anti-king,
//!   non-consecutive and killer, alone or combined), and its file format, through the same
//!   engine;
//! - [`batch`] (feature `parallel`): many puzzles on every core, answers in input order.
//!
//! ```
//! use xcover::sudoku::{Grid, Verdict};
//!
//! let grid: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! match grid.verdict() {
//!     Verdict::Unique(solution) => assert!(solution.is_full()),
//!     other => panic!("top95 #1 is proper, got {other:?}"),
//! }
//! ```

mod any_puzzle;
pub mod backtrack;
#[cfg(feature = "parallel")]
pub mod batch;
pub mod candidates;
pub mod check;
pub mod comparison;
mod exact_cover;
#[cfg(feature = "generate")]
pub mod generate;
pub mod logic;
mod model;
pub mod rules;
pub mod text;
pub mod variant;

pub use any_puzzle::AnyPuzzle;
pub use exact_cover::{Answer, DancingLinks, Encoding, GridSolver, Run, SudokuSolver, Verdict};
pub use model::{BoxShape, Cell, Clash, Grid, MAX_SIZE, symbol_name};
