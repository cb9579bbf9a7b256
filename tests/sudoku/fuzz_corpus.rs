//! Replays the fuzzers' corpora and every crash input they ever found (`fuzz/corpus/TARGET/`,
//! `fuzz/artifacts/TARGET/`) through the same functions the fuzz targets call, so that a
//! fixed crash stays fixed and the corpora's coverage is exercised by a plain `cargo test`.

include!("../../fuzz/harness.rs");

/// The server's request handlers, for the API target's corpus.
#[allow(dead_code, unused_imports)]
#[path = "../../fuzz/cli_sources.rs"]
mod cli;

include!("../../fuzz/api_harness.rs");

use std::path::Path;

#[test]
fn every_corpus_and_crash_input_runs_cleanly() {
    let mut inputs = 0;
    let api: (&str, fn(&[u8])) = ("api_requests", api_harness::api_request);
    for &(target, run) in harness::TARGETS.iter().chain([&api]) {
        for folder in ["fuzz/corpus", "fuzz/artifacts"] {
            let dir = Path::new(folder).join(target);
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                // A running fuzzer may replace files while this reads the folder.
                let Ok(data) = std::fs::read(&path) else {
                    continue;
                };
                let outcome = std::panic::catch_unwind(|| run(&data));
                assert!(outcome.is_ok(), "{target} fails on {}", path.display());
                inputs += 1;
            }
        }
    }
    assert!(
        inputs >= 20,
        "the corpora are in the repository ({inputs} inputs found)"
    );
}
