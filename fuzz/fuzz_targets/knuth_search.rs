//! Fuzz target `knuth_search`: see `harness::knuth_search` in `fuzz/harness.rs`.
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::knuth_search(data));
