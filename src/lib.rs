//! xcover: an exact-cover solver built on Knuth's Algorithm X with dancing links.
//!
//! The crate is layered so that each part can be used on its own. Where to start:
//!
//! | to ... | start from |
//! |---|---|
//! | solve any exact-cover problem you build in code | [`dlx::Problem`], then [`dlx::Matrix::new`] and [`dlx::Matrix::solver`] |
//! | read a problem in Knuth's DLX1 format (with DLX2 colours, DLX3 bounds) | [`dlx::format::read`] |
//! | colours on secondary items, items covered between bounds | [`dlx::Problem::add_colored_option`], [`dlx::Problem::set_bounds`] |
//! | count with a limit, prove uniqueness, enumerate lazily | [`dlx::Solver::count`], [`dlx::Solver::verdict`], [`dlx::Solver::solutions`] |
//! | stop a long search and resume it | [`dlx::Search`], [`dlx::Stop`] |
//! | split a search into parts (shards, checkpoints) | [`dlx::Solver::subtrees`], [`dlx::Solver::shard`], [`dlx::Solver::search_below`], [`dlx::Search::remainder`], [`dlx::checkpoint`] |
//! | count or enumerate one problem on every core (feature `parallel`) | `dlx::Solver::enumerate_parallel` |
//! | count the last levels of a search your own, faster way | [`dlx::RestCounter`], [`dlx::Matrix::set_rest_counter`] |
//! | solve one Sudoku from a string | `"...".parse::<`[`sudoku::Grid`]`>()`, then [`sudoku::Grid::verdict`] |
//! | solve many Sudoku of one shape | [`sudoku::Encoding`] and its [`sudoku::GridSolver`] |
//! | read and write puzzle files | [`sudoku::text::Reader`], [`sudoku::text::write`] |
//! | solve a batch on every core (feature `parallel`) | `sudoku::batch::Batch` |
//! | explain or rate a puzzle as a person would | [`sudoku::logic`] |
//! | make new puzzles (feature `generate`) | `sudoku::generate::Recipe` (any rules) |
//! | classic problems with published counts | [`problems`] |
//!
//! - [`dlx`]: the generic engine; it knows nothing about Sudoku.
//! - [`problems`]: N-queens, Langford pairs, pentominoes, Latin squares, as examples and
//!   oracles with published solution counts.
//! - [`sudoku`]: Sudoku of any box shape on the engine.
//!
//! With `default-features = false` the library depends on `bitvec` and `itertools` only; the
//! features `generate`, `json` and `parallel` add the generator (rand), JSON puzzle records
//! (serde_json) and the parallel batch runner (rayon), and `cli` (the default) builds the
//! `xcover` command with all of them.
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

// The library's one `unsafe` code is in `dlx/dance.rs` (under 800 lines): the dancing links'
// arrays, the check of their invariants and the moves that change them, with unchecked
// indexing. What enters it is checked, and its reads for other code are masked into bounds,
// so no safe code can misuse it; the search loop, Algorithm M, inference and probing
// (`dlx/links.rs`, `dlx/links/`) are safe code on top of it, and everywhere else `unsafe` is
// refused. (The command's server, outside the library, calls glibc's allocator in
// `cli/serve/memory.rs`.)
#![deny(unsafe_code)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod dlx;
pub mod problems;
pub mod sudoku;

/// The README's Rust examples, compiled and run as doctests so that they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
