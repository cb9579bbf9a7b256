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

/// Checks that every inference setting under either branching, enumerating and counting,
/// finds exactly `expected` (each solution as the set of its options' indices), as the
/// property tests of sums and chains require.
pub fn every_setting_finds(
    matrix: &xcover::dlx::Matrix,
    expected: &std::collections::BTreeSet<std::collections::BTreeSet<u32>>,
) -> Result<(), proptest::test_runner::TestCaseError> {
    use xcover::dlx::{Branching, Inference};
    let settings = [
        Inference::None,
        Inference::Root,
        Inference::Shallow,
        Inference::EveryNode,
        Inference::Probe,
    ]
    .into_iter()
    .flat_map(|inference| {
        [Branching::Fewest, Branching::Conflicts].map(|branching| (inference, branching))
    });
    for setting @ (inference, branching) in settings {
        let mut solver = matrix.solver();
        solver.set_inference(inference);
        solver.set_branching(branching);
        let mut found = std::collections::BTreeSet::new();
        let mut search = solver.search();
        while let Some(solution) = search.next_solution() {
            found.insert(solution.options().map(|o| o.0).collect());
        }
        drop(search);
        proptest::prop_assert_eq!(&found, expected, "{:?}", setting);
        let mut solver = matrix.solver();
        solver.set_inference(inference);
        solver.set_branching(branching);
        proptest::prop_assert_eq!(solver.count(None), expected.len() as u128, "{:?}", setting);
    }
    Ok(())
}

mod bit_sets;
mod candidates;
mod chains;
mod colors;
mod format_errors;
mod inference;
mod multiplicities;
mod oracles;
mod plain_engines;
mod properties;
mod rests;
mod search;
mod subtrees;
mod sums;
