//! Dancing cells (`xcover::dlx::cells`) against brute force and the published counts, and
//! against dancing links on problems too large for brute force: the two searches share no
//! code beyond reading the problem.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use xcover::dlx::cells::{self, Counted, Limits, Unsupported};
use xcover::dlx::{Inference, ItemKind, Matrix, Problem};
use xcover::problems;

use crate::properties::{brute_force, build, problem_strategy};

fn count(problem: &Problem) -> Counted {
    cells::count(problem, &Limits::default()).unwrap()
}

/// Larger random problems than brute force reaches: up to 9 primary and 4 secondary items,
/// up to 40 options of up to 4 items each.
fn larger_strategy() -> impl Strategy<Value = (Vec<bool>, Vec<Vec<usize>>)> {
    (1usize..=9, 0usize..=4).prop_flat_map(|(primary, secondary)| {
        let n = primary + secondary;
        let kinds: Vec<bool> = (0..n).map(|i| i < primary).collect();
        let option = proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n.min(4));
        (Just(kinds), proptest::collection::vec(option, 0..=40))
    })
}

proptest! {
    #![proptest_config(crate::config(2000))]

    #[test]
    fn counts_and_solutions_equal_brute_force((kinds, options) in problem_strategy()) {
        let expected = brute_force(&kinds, &options);
        let problem = build(&kinds, &options);
        let counted = count(&problem);
        prop_assert!(counted.finished);
        prop_assert_eq!(counted.solutions, expected.len() as u128);
        let mut listed = BTreeSet::new();
        let found = cells::for_each_solution(&problem, &Limits::default(), |solution| {
            listed.insert(solution.iter().map(|option| option.0).collect::<BTreeSet<u32>>());
            ControlFlow::Continue(())
        })
        .unwrap();
        prop_assert_eq!(found, counted);
        prop_assert_eq!(listed, expected);
    }

    #[test]
    fn counts_equal_dancing_links((kinds, options) in larger_strategy()) {
        let problem = build(&kinds, &options);
        let counted = count(&problem);
        let mut matrix = Matrix::new(problem).unwrap();
        let mut solver = matrix.solver();
        solver.set_inference(Inference::None);
        prop_assert_eq!(counted.solutions, solver.count(None));
        drop(solver);
        matrix = Matrix::new(build(&kinds, &options)).unwrap();
        // A limit stops the count there, finished.
        let limit = (counted.solutions / 2).max(1);
        let limited = cells::count(
            matrix.problem(),
            &Limits { solutions: Some(limit), ..Limits::default() },
        )
        .unwrap();
        prop_assert!(limited.finished);
        prop_assert_eq!(limited.solutions, counted.solutions.min(limit));
        // Cut into parts and counted on three threads: the same count, and the limit held.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let parallel = pool.install(|| cells::count_parallel(matrix.problem(), &Limits::default()));
        prop_assert_eq!(parallel.unwrap().solutions, counted.solutions);
        let limited = pool.install(|| {
            cells::count_parallel(
                matrix.problem(),
                &Limits { solutions: Some(limit), ..Limits::default() },
            )
        });
        prop_assert_eq!(limited.unwrap().solutions, counted.solutions.min(limit));
    }
}

#[test]
fn published_counts() {
    let queens = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &want) in (1..=10).zip(&queens) {
        assert_eq!(count(&problems::queens(n)).solutions, want, "queens {n}");
    }
    for (n, want) in [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
        assert_eq!(
            count(&problems::langford(n)).solutions,
            want,
            "langford {n}"
        );
    }
    assert_eq!(count(&problems::pentominoes(20, 3).unwrap()).solutions, 8);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for (problem, want) in [
        (problems::pentominoes(15, 4).unwrap(), 1_472),
        (problems::queens(10), 724),
        (problems::langford(8), 300),
    ] {
        let counted = pool
            .install(|| cells::count_parallel(&problem, &Limits::default()))
            .unwrap();
        assert_eq!((counted.solutions, counted.finished), (want, true));
    }
    assert_eq!(count(&problems::pentominoes(8, 8).unwrap()).solutions, 520);
    for (n, want) in [(1, 1), (2, 2), (3, 12), (4, 576)] {
        assert_eq!(
            count(&problems::latin_square(n)).solutions,
            want,
            "latin {n}"
        );
    }
}

#[test]
fn no_primary_item_is_one_solution_and_an_item_without_options_none() {
    // No primary item: the empty choice is the one solution.
    let mut problem = Problem::new();
    let s = problem.add_item("s", ItemKind::Secondary).unwrap();
    problem.add_option(&[s]).unwrap();
    assert_eq!(count(&problem).solutions, 1);
    // A primary item without options: none.
    let mut problem = Problem::new();
    let a = problem.add_item("a", ItemKind::Primary).unwrap();
    problem.add_item("b", ItemKind::Primary).unwrap();
    problem.add_option(&[a]).unwrap();
    let counted = count(&problem);
    assert_eq!((counted.solutions, counted.finished), (0, true));
}

#[test]
fn a_set_cancellation_flag_stops_the_count() {
    let limits = Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::default()
    };
    let counted = cells::count(&problems::queens(12), &limits).unwrap();
    assert!(!counted.finished);
    assert!(counted.solutions < 14_200);
}

#[test]
fn a_visitor_that_breaks_stops_the_listing() {
    let mut seen = 0;
    let listed = cells::for_each_solution(&problems::queens(8), &Limits::default(), |solution| {
        assert_eq!(solution.len(), 8);
        seen += 1;
        if seen == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!((seen, listed.solutions, listed.finished), (3, 3, false));
}

#[test]
fn a_node_budget_stops_the_count_there() {
    let limits = Limits {
        nodes: Some(100),
        ..Limits::default()
    };
    let counted = cells::count(&problems::queens(8), &limits).unwrap();
    assert_eq!((counted.nodes, counted.finished), (100, false));
    assert!(counted.solutions < 92);
    let limits = Limits {
        nodes: Some(counted.nodes * 1000),
        ..Limits::default()
    };
    let counted = cells::count(&problems::queens(8), &limits).unwrap();
    assert_eq!((counted.solutions, counted.finished), (92, true));
}

#[test]
fn problems_with_colours_or_multiplicities_are_refused() {
    let words = ["ab", "ba", "aa"];
    let problem = problems::word_squares(&words, 2).unwrap();
    assert_eq!(
        cells::count(&problem, &Limits::default()).unwrap_err(),
        Unsupported::Colors
    );
    let problem = problems::partial_queens(5, std::num::NonZeroUsize::new(3).unwrap());
    assert_eq!(
        cells::count(&problem, &Limits::default()).unwrap_err(),
        Unsupported::Multiplicities
    );
}
