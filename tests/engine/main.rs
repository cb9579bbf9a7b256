//! The generic engine through its API and Knuth's format: published counts, search pinned node
//! by node, property tests against brute force (colours, multiplicities, sums, chains, inference,
//! subtrees, true candidates), and the errors of malformed problem files.

mod random_xcc;

/// The configuration of a property test: `normal` cases, or under Miri (which interprets
/// every step and checks each memory access, about a thousand times slower) a few
/// (`XCOVER_MIRI_CASES`, 2 unless set) and not the seeds of the regressions files, so that the
/// engine's unchecked core is exercised on every kind of problem in minutes.
pub fn config(normal: u32) -> proptest::test_runner::Config {
    if cfg!(miri) {
        let cases = std::env::var("XCOVER_MIRI_CASES")
            .ok()
            .and_then(|text| text.parse().ok())
            .unwrap_or(2);
        proptest::test_runner::Config {
            cases,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        }
    } else {
        proptest::test_runner::Config::with_cases(normal)
    }
}

mod candidates;
mod chains;
mod colors;
mod format_errors;
mod inference;
mod multiplicities;
mod oracles;
mod properties;
mod search;
mod subtrees;
mod sums;
