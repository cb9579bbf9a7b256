//! Fuzz target `api_requests`: see `api_harness::api_request` in `fuzz/api_harness.rs`.
#![no_main]

#[allow(dead_code, unused_imports)]
#[path = "../cli_sources.rs"]
mod cli;

include!("../api_harness.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| api_harness::api_request(data));
