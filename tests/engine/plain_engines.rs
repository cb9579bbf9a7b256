//! The two engines for plain exact covers, dancing cells (`xcover::dlx::cells`) and bit sets
//! (`xcover::dlx::bits`), each against brute force and the published counts, and against
//! dancing links on problems too large for brute force: the three searches share no code
//! beyond reading the problem.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use xcover::dlx::cells::{Counted, Limits, Unsupported};
use xcover::dlx::{Inference, ItemKind, Matrix, OptionId, Problem, bits, cells};
use xcover::problems;

use crate::properties::{brute_force, build, problem_strategy};

/// A visitor of solutions, as the engines' listings take it.
type Visit<'a> = &'a mut dyn FnMut(&[OptionId]) -> ControlFlow<()>;

/// One plain engine's entry points.
struct Engine {
    name: &'static str,
    count: fn(&Problem, &Limits) -> Result<Counted, Unsupported>,
    count_parallel: fn(&Problem, &Limits) -> Result<Counted, Unsupported>,
    list: fn(&Problem, &Limits, Visit<'_>) -> Result<Counted, Unsupported>,
}

const ENGINES: [Engine; 2] = [
    Engine {
        name: "cells",
        count: cells::count,
        count_parallel: cells::count_parallel,
        list: |problem, limits, visit| cells::for_each_solution(problem, limits, visit),
    },
    Engine {
        name: "bits",
        count: bits::count,
        count_parallel: bits::count_parallel,
        list: |problem, limits, visit| bits::for_each_solution(problem, limits, visit),
    },
];

impl Engine {
    fn count_all(&self, problem: &Problem) -> Counted {
        (self.count)(problem, &Limits::default()).unwrap()
    }
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

/// Problems of up to 700 options (1 to 11 words of bits a set, so that the bit sets' search
/// is run compiled for each width of 1 to 8 words and for any): 8 to 40 primary items and up
/// to 6 secondary ones, options of 4 to 8 items (with fewer, the covers of so many options
/// are far too many to count). Two words of primary items are pentominoes' in
/// [`published_counts`].
fn wide_strategy() -> impl Strategy<Value = (Vec<bool>, Vec<Vec<usize>>)> {
    (8usize..=40, 0usize..=6, 1usize..=700).prop_flat_map(|(primary, secondary, options)| {
        let n = primary + secondary;
        let kinds: Vec<bool> = (0..n).map(|i| i < primary).collect();
        let option = proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 4..=8);
        (Just(kinds), proptest::collection::vec(option, options))
    })
}

proptest! {
    #![proptest_config(crate::config(2000))]

    #[test]
    fn counts_and_solutions_equal_brute_force((kinds, options) in problem_strategy()) {
        let expected = brute_force(&kinds, &options);
        let problem = build(&kinds, &options);
        for engine in &ENGINES {
            let counted = engine.count_all(&problem);
            prop_assert!(counted.finished);
            prop_assert_eq!(counted.solutions, expected.len() as u128, "{}", engine.name);
            let mut listed = BTreeSet::new();
            let found = (engine.list)(&problem, &Limits::default(), &mut |solution| {
                listed.insert(solution.iter().map(|option| option.0).collect::<BTreeSet<u32>>());
                ControlFlow::Continue(())
            })
            .unwrap();
            prop_assert_eq!(found, counted, "{}", engine.name);
            prop_assert_eq!(&listed, &expected, "{}", engine.name);
        }
    }

    #[test]
    fn counts_equal_dancing_links((kinds, options) in larger_strategy()) {
        counts_and_limits_equal_dancing_links(&kinds, &options, None)?;
    }
}

proptest! {
    #![proptest_config(crate::config(200))]

    #[test]
    fn wide_counts_equal_dancing_links((kinds, options) in wide_strategy()) {
        counts_and_limits_equal_dancing_links(&kinds, &options, Some(5_000))?;
    }
}

/// Each engine's count of the problem (up to `cap` solutions) against the links', with a
/// limit, and on three threads with and without it.
fn counts_and_limits_equal_dancing_links(
    kinds: &[bool],
    options: &[Vec<usize>],
    cap: Option<u128>,
) -> Result<(), TestCaseError> {
    let mut matrix = Matrix::new(build(kinds, options)).unwrap();
    let mut solver = matrix.solver();
    solver.set_inference(Inference::None);
    let want = solver.count(cap);
    drop(solver);
    matrix = Matrix::new(build(kinds, options)).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let capped = Limits {
        solutions: cap,
        ..Limits::default()
    };
    for engine in &ENGINES {
        let counted = (engine.count)(matrix.problem(), &capped).unwrap();
        prop_assert_eq!(counted.solutions, want, "{}", engine.name);
        // A limit stops the count there, finished.
        let limit = (want / 2).max(1);
        let within = Limits {
            solutions: Some(limit),
            ..Limits::default()
        };
        let limited = (engine.count)(matrix.problem(), &within).unwrap();
        prop_assert!(limited.finished);
        prop_assert_eq!(limited.solutions, want.min(limit), "{}", engine.name);
        // Cut into parts and counted on three threads: the same count, and the limit held.
        let parallel = pool.install(|| (engine.count_parallel)(matrix.problem(), &capped));
        prop_assert_eq!(parallel.unwrap().solutions, want, "{}", engine.name);
        let limited = pool.install(|| (engine.count_parallel)(matrix.problem(), &within));
        prop_assert_eq!(
            limited.unwrap().solutions,
            want.min(limit),
            "{}",
            engine.name
        );
    }
    Ok(())
}

#[test]
fn published_counts() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for engine in &ENGINES {
        let name = engine.name;
        let queens = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
        for (n, &want) in (1..=10).zip(&queens) {
            let counted = engine.count_all(&problems::queens(n));
            assert_eq!(counted.solutions, want, "{name}: queens {n}");
        }
        for (n, want) in [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
            let counted = engine.count_all(&problems::langford(n));
            assert_eq!(counted.solutions, want, "{name}: langford {n}");
        }
        let pentominoes = problems::pentominoes(20, 3).unwrap();
        assert_eq!(engine.count_all(&pentominoes).solutions, 8, "{name}");
        for (problem, want) in [
            (problems::pentominoes(15, 4).unwrap(), 1_472),
            (problems::queens(10), 724),
            (problems::langford(8), 300),
        ] {
            let counted = pool
                .install(|| (engine.count_parallel)(&problem, &Limits::default()))
                .unwrap();
            assert_eq!(
                (counted.solutions, counted.finished),
                (want, true),
                "{name}"
            );
        }
        let pentominoes = problems::pentominoes(8, 8).unwrap();
        assert_eq!(engine.count_all(&pentominoes).solutions, 520, "{name}");
        for (n, want) in [(1, 1), (2, 2), (3, 12), (4, 576)] {
            let counted = engine.count_all(&problems::latin_square(n));
            assert_eq!(counted.solutions, want, "{name}: latin {n}");
        }
    }
}

#[test]
fn no_primary_item_is_one_solution_and_an_item_without_options_none() {
    for engine in &ENGINES {
        // No primary item: the empty choice is the one solution.
        let mut problem = Problem::new();
        let s = problem.add_item("s", ItemKind::Secondary).unwrap();
        problem.add_option(&[s]).unwrap();
        assert_eq!(engine.count_all(&problem).solutions, 1, "{}", engine.name);
        // A primary item without options: none.
        let mut problem = Problem::new();
        let a = problem.add_item("a", ItemKind::Primary).unwrap();
        problem.add_item("b", ItemKind::Primary).unwrap();
        problem.add_option(&[a]).unwrap();
        let counted = engine.count_all(&problem);
        assert_eq!(
            (counted.solutions, counted.finished),
            (0, true),
            "{}",
            engine.name
        );
    }
}

#[test]
fn a_set_cancellation_flag_stops_the_count() {
    let limits = Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::default()
    };
    for engine in &ENGINES {
        let counted = (engine.count)(&problems::queens(12), &limits).unwrap();
        assert!(!counted.finished, "{}", engine.name);
        assert!(counted.solutions < 14_200, "{}", engine.name);
    }
}

#[test]
fn a_visitor_that_breaks_stops_the_listing() {
    for engine in &ENGINES {
        let mut seen = 0;
        let listed = (engine.list)(&problems::queens(8), &Limits::default(), &mut |solution| {
            assert_eq!(solution.len(), 8);
            seen += 1;
            if seen == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(
            (seen, listed.solutions, listed.finished),
            (3, 3, false),
            "{}",
            engine.name
        );
    }
}

#[test]
fn a_node_budget_stops_the_count_there() {
    for engine in &ENGINES {
        let limits = Limits {
            nodes: Some(100),
            ..Limits::default()
        };
        let counted = (engine.count)(&problems::queens(8), &limits).unwrap();
        assert_eq!(
            (counted.nodes, counted.finished),
            (100, false),
            "{}",
            engine.name
        );
        assert!(counted.solutions < 92);
        let limits = Limits {
            nodes: Some(counted.nodes * 1000),
            ..Limits::default()
        };
        let counted = (engine.count)(&problems::queens(8), &limits).unwrap();
        assert_eq!(
            (counted.solutions, counted.finished),
            (92, true),
            "{}",
            engine.name
        );
    }
}

/// Dancing cells refuse colours and multiplicities (the bit sets take them: `bit_sets.rs`);
/// both refuse sums.
#[test]
fn what_a_plain_engine_does_not_take_is_refused() {
    let words = ["ab", "ba", "aa"];
    let colours = problems::word_squares(&words, 2).unwrap();
    let multiplicities = problems::partial_queens(5, std::num::NonZeroUsize::new(3).unwrap());
    let refused = cells::count(&colours, &Limits::default()).unwrap_err();
    assert_eq!(refused, Unsupported::Colors);
    let refused = cells::count(&multiplicities, &Limits::default()).unwrap_err();
    assert_eq!(refused, Unsupported::Multiplicities);
    // One cell a digit 1 or 2, adding up to 2.
    let mut sums = Problem::new();
    let cell = sums.add_primary("a").unwrap();
    let digits = [1, 2].map(|digit| (sums.add_option(&[cell]).unwrap(), digit));
    let sum = xcover::dlx::Sum {
        terms: vec![digits.to_vec()],
        min: 2,
        max: 2,
        distinct: false,
        apart: Vec::new(),
        excluded: Vec::new(),
    };
    sums.add_sum(sum).unwrap();
    for engine in &ENGINES {
        let taken = (engine.count)(&colours, &Limits::default());
        assert_eq!(taken.is_ok(), engine.name == "bits", "{}", engine.name);
        let refused = (engine.count)(&sums, &Limits::default()).unwrap_err();
        assert_eq!(refused, Unsupported::Sums, "{}", engine.name);
    }
}

#[test]
fn bit_sets_refuse_a_problem_whose_tables_are_too_large() {
    // 25,000 options of one item: their clashes alone would take 25,000 x 391 words.
    let mut problem = Problem::new();
    let a = problem.add_item("a", ItemKind::Primary).unwrap();
    for _ in 0..25_000 {
        problem.add_option(&[a]).unwrap();
    }
    assert!(bits::words_needed(&problem).unwrap() > bits::MAX_WORDS);
    let refused = bits::count(&problem, &Limits::default()).unwrap_err();
    assert_eq!(refused, Unsupported::TooLarge);
    assert!(refused.to_string().contains("too many"), "{refused}");
    // Dancing cells take it.
    assert_eq!(
        cells::count(&problem, &Limits::default())
            .unwrap()
            .solutions,
        25_000
    );
    // 200,000 primary items cut into 1,000 options of 200: the options' sets of items and
    // the search's levels (one per option of a solution) would hold 2,000 sets of 200,000
    // items.
    let problem = items_cut_into_options(200_000, 200);
    let refused = bits::count(&problem, &Limits::default()).unwrap_err();
    assert_eq!(refused, Unsupported::TooLarge);
    assert_eq!(
        cells::count(&problem, &Limits::default())
            .unwrap()
            .solutions,
        1
    );
    // The same items in one option: one level below the root, taken.
    let problem = items_cut_into_options(200_000, 200_000);
    assert_eq!(
        bits::count(&problem, &Limits::default()).unwrap().solutions,
        1
    );
}

/// `items` primary items, cut in order into options of `size` items: one solution.
fn items_cut_into_options(items: usize, size: usize) -> Problem {
    let mut problem = Problem::new();
    let items: Vec<_> = (0..items)
        .map(|i| {
            problem
                .add_item(&format!("i{i}"), ItemKind::Primary)
                .unwrap()
        })
        .collect();
    for part in items.chunks(size) {
        problem.add_option(part).unwrap();
    }
    problem
}
