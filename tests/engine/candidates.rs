//! True candidates against brute force: on random small problems with secondary items,
//! colours and multiplicities, the options the engine says occur are exactly those of some
//! solution that a brute-force enumeration of option subsets finds, and the capped counts are
//! the numbers of those solutions holding each option; with options chosen up front, on one
//! thread and on three, and with the search stopped (every undecided option is marked so).

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use xcover::dlx::{Matrix, OptionId, Presence, Solver};

use crate::random_xcc;
use random_xcc::{brute_force, build, problems, sorted_lines};

/// What brute force says of each of `options` options: the solutions holding it (among
/// `solutions`), capped.
fn expected(
    solutions: &BTreeSet<BTreeSet<u32>>,
    options: usize,
    cap: u128,
) -> (Vec<Presence>, Vec<u128>) {
    let counts: Vec<u128> = (0..options as u32)
        .map(|k| solutions.iter().filter(|s| s.contains(&k)).count() as u128)
        .collect();
    let presence = counts
        .iter()
        .map(|&c| {
            if c > 0 {
                Presence::Occurs
            } else {
                Presence::Never
            }
        })
        .collect();
    (presence, counts.into_iter().map(|c| c.min(cap)).collect())
}

fn check(
    solver: &mut Solver<'_>,
    solutions: &BTreeSet<BTreeSet<u32>>,
) -> Result<(), TestCaseError> {
    let options = solver.matrix().problem().option_count();
    for (cap, threads) in [(1, 1), (3, 3), (u128::MAX, 1)] {
        let (presence, counts) = expected(solutions, options, cap);
        let found = solver.candidates(None, threads);
        prop_assert_eq!(found.stopped, None);
        prop_assert_eq!(&found.presence, &presence);
        prop_assert_eq!(found.counts, None);
        let counted = solver.candidates(Some(cap), threads);
        prop_assert_eq!(&counted.presence, &presence);
        prop_assert_eq!(counted.counts.as_ref(), Some(&counts));
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::config(1500))]

    #[test]
    fn candidates_with_colours_equal_brute_force((items, options) in problems(4, 0..=3, 11, false)) {
        let solutions = brute_force(&items, &options);
        let matrix = Matrix::new(build(&items, &options)).unwrap();
        let mut solver = matrix.solver();
        check(&mut solver, &solutions)?;
        // As option lines: those of the solutions, together.
        let union: BTreeSet<u32> = solutions.iter().flatten().copied().collect();
        let union: Vec<OptionId> = union.into_iter().map(OptionId).collect();
        let occurring: Vec<OptionId> = solver.candidates(None, 1).occurring().collect();
        prop_assert_eq!(sorted_lines(&matrix, &occurring), sorted_lines(&matrix, &union));
        // With the first option of some solution chosen, the solutions that hold it.
        if let Some(&first) = solutions.iter().next().and_then(|s| s.iter().next()) {
            solver.choose(OptionId(first)).unwrap();
            let holding: BTreeSet<BTreeSet<u32>> =
                solutions.iter().filter(|s| s.contains(&first)).cloned().collect();
            check(&mut solver, &holding)?;
            solver.unchoose_all();
        }
        // The solver is left as it was.
        prop_assert_eq!(solver.count(None), solutions.len() as u128);
    }

    #[test]
    fn candidates_with_multiplicities_equal_brute_force((items, options) in problems(3, 0..=2, 9, true)) {
        let solutions = brute_force(&items, &options);
        let matrix = Matrix::new(build(&items, &options)).unwrap();
        check(&mut matrix.solver(), &solutions)?;
    }

    /// A search stopped at once leaves every option it did not decide unknown, and says so;
    /// what it did decide is right.
    #[test]
    fn stopped_candidates_are_marked_unknown((items, options) in problems(4, 0..=2, 10, false)) {
        let solutions = brute_force(&items, &options);
        let matrix = Matrix::new(build(&items, &options)).unwrap();
        let mut solver = matrix.solver();
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        solver.set_cancel_flag(Some(cancel));
        let found = solver.candidates(Some(2), 1);
        let (presence, _) = expected(&solutions, options.len(), 2);
        if found.stopped.is_none() {
            // Nothing to search (a problem decided without entering a node) is not stopped.
            prop_assert_eq!(&found.presence, &presence);
        } else {
            for (k, p) in found.presence.iter().enumerate() {
                prop_assert!(*p == Presence::Unknown || *p == presence[k], "{k}: {p:?}");
            }
            prop_assert!(found.presence.contains(&Presence::Unknown));
        }
    }
}
