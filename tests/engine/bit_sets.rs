//! The bit sets (`xcover::dlx::bits`) beyond plain exact covers: colours, which they read as
//! clashes between options, and multiplicities, which they count level by level. Against
//! brute force on random small problems (`random_xcc`), against dancing links on larger ones
//! (counts, limits, three threads), and on the published counts of partial queens and word
//! squares. The plain covers are in `plain_engines.rs`.

use std::collections::BTreeSet;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;

use proptest::prelude::*;
use xcover::dlx::cells::Limits;
use xcover::dlx::{Inference, Matrix, Problem, bits, format};
use xcover::problems;

use crate::random_xcc::{brute_force, build, problems};

/// Counts, lists, and counts on three threads, with and without a limit, checked against
/// `want` solutions (with `expected`, the solutions themselves).
fn bit_sets_find(
    problem: &Problem,
    want: u128,
    expected: Option<&BTreeSet<BTreeSet<u32>>>,
) -> Result<(), TestCaseError> {
    let counted = bits::count(problem, &Limits::default()).unwrap();
    prop_assert!(counted.finished);
    prop_assert_eq!(counted.solutions, want);
    let mut listed = Vec::new();
    let found = bits::for_each_solution(problem, &Limits::default(), |solution| {
        listed.push(
            solution
                .iter()
                .map(|option| option.0)
                .collect::<BTreeSet<u32>>(),
        );
        ControlFlow::Continue(())
    })
    .unwrap();
    prop_assert_eq!(found, counted);
    let distinct: BTreeSet<BTreeSet<u32>> = listed.iter().cloned().collect();
    prop_assert_eq!(distinct.len(), listed.len(), "a solution listed twice");
    if let Some(expected) = expected {
        prop_assert_eq!(&distinct, expected);
    }
    let limit = (want / 2).max(1);
    let within = Limits {
        solutions: Some(limit),
        ..Limits::default()
    };
    let limited = bits::count(problem, &within).unwrap();
    prop_assert!(limited.finished);
    prop_assert_eq!(limited.solutions, want.min(limit));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let parallel = pool.install(|| bits::count_parallel(problem, &Limits::default()));
    prop_assert_eq!(parallel.unwrap().solutions, want);
    let limited = pool.install(|| bits::count_parallel(problem, &within));
    prop_assert_eq!(limited.unwrap().solutions, want.min(limit));
    Ok(())
}

proptest! {
    #![proptest_config(crate::config(3000))]

    #[test]
    fn colours_and_multiplicities_equal_brute_force(
        (items, options) in problems(4, 0..=3, 12, true)
    ) {
        let expected = brute_force(&items, &options);
        bit_sets_find(&build(&items, &options), expected.len() as u128, Some(&expected))?;
    }

    #[test]
    fn colours_alone_equal_brute_force((items, options) in problems(5, 1..=4, 12, false)) {
        let expected = brute_force(&items, &options);
        bit_sets_find(&build(&items, &options), expected.len() as u128, Some(&expected))?;
    }
}

proptest! {
    #![proptest_config(crate::config(300))]

    /// Too many subsets for brute force: up to 8 primary items (bounds up to 0:4) and 4
    /// secondary ones, 40 options; the links count them (up to 20,000).
    #[test]
    fn larger_problems_count_what_the_links_count(
        (items, options) in problems(8, 0..=4, 40, true)
    ) {
        let problem = build(&items, &options);
        let matrix = Matrix::new(problem.clone()).unwrap();
        let mut solver = matrix.solver();
        solver.set_inference(Inference::None);
        let want = solver.count(Some(20_000));
        if want < 20_000 {
            bit_sets_find(&problem, want, None)?;
        }
    }
}

#[test]
fn partial_queens_and_word_squares_count_what_the_links_count() {
    // Published: 92 ways for eight queens on a chessboard, 1,288 for two (OEIS A036464), 25
    // for one queen on 5x5.
    for (n, m, published) in [(8, 8, Some(92)), (8, 2, Some(1_288)), (5, 1, Some(25))]
        .into_iter()
        .chain([(6, 5, None), (7, 4, None), (7, 7, None), (9, 3, None)])
    {
        let problem = problems::partial_queens(n, NonZeroUsize::new(m).unwrap());
        let counted = bits::count(&problem, &Limits::default()).unwrap();
        let links = Matrix::new(problem).unwrap().solver().count(None);
        assert_eq!(counted.solutions, links, "{m} queens on {n}x{n}");
        if let Some(published) = published {
            assert_eq!(counted.solutions, published, "{m} queens on {n}x{n}");
        }
    }
    let words = [
        "ab", "ba", "aa", "bb", "abc", "cab", "bca", "aaa", "bab", "cac",
    ];
    for n in 2..=3 {
        let problem = problems::word_squares(&words, n).unwrap();
        let counted = bits::count(&problem, &Limits::default()).unwrap();
        let links = Matrix::new(problem).unwrap().solver().count(None);
        assert!(links > 0, "squares of {n}");
        assert_eq!(counted.solutions, links, "squares of {n}");
    }
}

#[test]
fn knuths_multiplicities_example_has_his_solution() {
    let text = "| A simple example of color controls\nA B 2:3|C | X Y\nA B X:0 Y:0\n\
                A C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
    let problem = format::read(text).unwrap().problem;
    let mut found = Vec::new();
    bits::for_each_solution(&problem, &Limits::default(), |solution| {
        let mut options: Vec<u32> = solution.iter().map(|option| option.0).collect();
        options.sort();
        found.push(options);
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(found, [vec![1, 3, 4]]);
}
