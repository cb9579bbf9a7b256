//! Fuzz target `sudoku_numbers`: see `harness::sudoku_numbers` in `fuzz/harness.rs`.
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::sudoku_numbers(data));
