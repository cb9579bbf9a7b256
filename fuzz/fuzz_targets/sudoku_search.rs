//! Fuzz target `sudoku_search`: see `harness::sudoku_search` in `fuzz/harness.rs`.
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::sudoku_search(data));
