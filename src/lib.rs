//! xcover: an exact-cover solver built on Knuth's Algorithm X with dancing links.
//!
//! The crate is layered so that each part can be used on its own:
//!
//! - [`dlx`]: the generic engine. Describe a [`dlx::Problem`] (items and options), compile it
//!   into a [`dlx::Matrix`], and search it with a [`dlx::Solver`].
//! - [`problems`]: classic exact-cover problems (N-queens, Langford pairs, pentominoes, Latin
//!   squares) used as examples and as oracles with published solution counts.
//! - [`sudoku`]: Sudoku of any box shape on the engine: grids and their text formats, the
//!   encoding, an independent checker, backtracking baselines to compare with, human-style
//!   logic with explanations and ratings, and a puzzle generator.
//!
//! ```
//! use xcover::dlx::{Matrix, format};
//!
//! // Knuth's example from "Dancing Links": seven items, six options, one solution.
//! let text = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
//! let matrix = Matrix::new(format::read(text).unwrap().problem).unwrap();
//! let mut solver = matrix.solver();
//! let solution = solver.first().unwrap();
//! let mut options: Vec<u32> = solution.iter().map(|o| o.0).collect();
//! options.sort();
//! assert_eq!(options, vec![0, 3, 4]); // C E F, A D, B G
//! assert_eq!(solver.count(None), 1);
//! ```

pub mod dlx;
pub mod problems;
pub mod sudoku;

/// The README's Rust examples, compiled and run as doctests so that they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
