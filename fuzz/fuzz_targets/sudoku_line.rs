//! Fuzz target `sudoku_line`: see `harness::sudoku_line` in `fuzz/harness.rs`.
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::sudoku_line(data));
