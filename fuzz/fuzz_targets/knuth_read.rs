//! Fuzz target `knuth_read`: see `harness::knuth_read` in `fuzz/harness.rs`.
#![no_main]

include!("../harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::knuth_read(data));
