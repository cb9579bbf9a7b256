//! Sudoku and its variants through the library (and, where a user would, the binary): published
//! counts, the backtracking baselines, one model of every rule against brute force, the
//! readers and writers of every format, the human-style solver, the generator, true
//! candidates, and the replay of the fuzzers' corpora. The differential run over every shared
//! 9x9 puzzle is ignored by default: `cargo test --release --test sudoku differential --
//! --ignored`.

#[path = "../common/mod.rs"]
mod common;

mod baselines;
mod boards;
mod differential;
mod drawing;
mod fpuzzles;
mod fuzz_corpus;
mod generate;
mod logic;
mod many_solutions;
mod no_panic;
mod one_model;
mod oracles;
mod reader_errors;
mod round_trip;
mod sequence_rules;
mod true_candidates;
mod variant_logic;
mod variants;
