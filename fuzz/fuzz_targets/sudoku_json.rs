//! Fuzz target `sudoku_json`: see `harness::sudoku_json` in `fuzz/harness.rs`.
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::sudoku_json(data));
