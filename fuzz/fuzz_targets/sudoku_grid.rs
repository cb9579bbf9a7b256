//! Fuzz target `sudoku_grid`: see `harness::sudoku_grid` in `fuzz/harness.rs`.
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::sudoku_grid(data));
