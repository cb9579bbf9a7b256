//! Colours on secondary items (Knuth's DLX2): options that give an item the same colour may
//! share it. Checked against a brute-force enumeration of option subsets under the same rule
//! on random problems, on Knuth's own example, through the text format both ways, and through
//! the searches that split a problem into parts. Malformed colours are in the table of
//! `cover_format_errors.rs`.

use std::collections::BTreeSet;

use proptest::prelude::*;
use xcover::dlx::{Branching, Inference, Matrix, OptionId, Verdict, format};

use crate::random_xcc;
use random_xcc::{brute_force, build, problems, sorted_lines};

fn as_set(solution: &[OptionId]) -> BTreeSet<u32> {
    solution.iter().map(|o| o.0).collect()
}

/// Knuth's example from DLX2: the unique solution is `A C X:1 Y:1` and `B X:1`.
const KNUTH_DLX2: &str = "| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\n\
                          A C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n";

#[test]
fn knuths_example_has_his_unique_solution() {
    let parsed = format::read(KNUTH_DLX2).unwrap();
    assert_eq!(
        parsed.warnings.len(),
        1,
        "the option of secondary items only is dropped"
    );
    let matrix = Matrix::new(parsed.problem).unwrap();
    let mut solver = matrix.solver();
    let Verdict::Unique(solution) = solver.verdict() else {
        panic!("one solution")
    };
    assert_eq!(sorted_lines(&matrix, &solution), ["A C X:1 Y:1", "B X:1"]);
}

#[test]
fn colours_read_back_as_written_with_long_names() {
    let text = "p q | x y\np x:red y:blue\nq x:red\nq y:green\n";
    let problem = format::read(text).unwrap().problem;
    let mut written = Vec::new();
    format::write(&problem, &mut written).unwrap();
    assert_eq!(String::from_utf8(written).unwrap(), text);
    let matrix = Matrix::new(problem).unwrap();
    // p with the first q: x is red in both. With the second q, y would be blue and green.
    assert_eq!(matrix.solver().count(None), 1);
}

#[test]
fn options_chosen_up_front_respect_colours() {
    let matrix = Matrix::new(
        format::read("a b c | x\na x:1\nb x:1\nb x:2\nc x:1\nc\n")
            .unwrap()
            .problem,
    )
    .unwrap();
    let mut solver = matrix.solver();
    // a x:1, b x:1, then c x:1 or plain c: 2 solutions; b x:2 clashes with a x:1.
    assert_eq!(solver.count(None), 2);
    solver.choose(OptionId(0)).unwrap();
    assert!(
        solver.choose(OptionId(2)).is_err(),
        "x has colour 1 already"
    );
    solver.choose(OptionId(1)).unwrap();
    assert_eq!(solver.count(None), 2);
    solver.unchoose_all();
    solver.choose(OptionId(2)).unwrap();
    assert_eq!(solver.count(None), 0);
}

proptest! {
    #![proptest_config(crate::config(3000))]

    #[test]
    fn coloured_solutions_equal_brute_force((items, options) in problems(4, 1..=3, 11, false)) {
        let expected = brute_force(&items, &options);
        let matrix = Matrix::new(build(&items, &options)).unwrap();
        let mut solver = matrix.solver();
        let found: Vec<BTreeSet<u32>> = solver.solutions().map(|s| as_set(&s)).collect();
        let distinct: BTreeSet<BTreeSet<u32>> = found.iter().cloned().collect();
        prop_assert_eq!(found.len(), distinct.len(), "a solution found twice");
        prop_assert_eq!(&distinct, &expected);
        prop_assert_eq!(solver.count(None), expected.len() as u128);
        // Every split into parts holds each solution once.
        for parts in [2, 5] {
            let subtrees = solver.subtrees(parts);
            let mut pieced = BTreeSet::new();
            let mut total = 0;
            for subtree in &subtrees {
                let mut search = solver.search_below(subtree).unwrap();
                while let Some(solution) = search.next_solution() {
                    pieced.insert(as_set(&solution.to_vec()));
                    total += 1;
                }
            }
            prop_assert_eq!(total, expected.len());
            prop_assert_eq!(&pieced, &expected);
        }
        // Choosing a solution's first option up front leaves the solutions that hold it.
        if let Some(first) = expected.iter().next().and_then(|s| s.iter().next()) {
            let holding = expected.iter().filter(|s| s.contains(first)).count();
            if solver.choose(OptionId(*first)).is_ok() {
                prop_assert_eq!(solver.count(None), holding as u128);
            }
            solver.unchoose_all();
            prop_assert_eq!(solver.count(None), expected.len() as u128);
        }
    }
}

proptest! {
    #![proptest_config(crate::config(1500))]

    /// The rules and probes take only the items an option holds without a colour as
    /// conflicts, and walk no column of an item whose colour is settled: every setting and
    /// branching finds exactly the solutions brute force does, in one search or in parts,
    /// paused at every node and resumed.
    #[test]
    fn every_inference_setting_finds_the_coloured_solutions(
        (items, options) in problems(7, 1..=4, 14, false),
    ) {
        let expected = brute_force(&items, &options);
        let matrix = Matrix::new(build(&items, &options)).unwrap();
        for inference in Inference::ALL {
            for branching in [Branching::Fewest, Branching::Conflicts] {
                let mut solver = matrix.solver();
                solver.set_inference(inference);
                solver.set_branching(branching);
                let found: Vec<BTreeSet<u32>> = solver.solutions().map(|s| as_set(&s)).collect();
                let distinct: BTreeSet<BTreeSet<u32>> = found.iter().cloned().collect();
                let setting = format!("{inference} {branching:?}");
                prop_assert_eq!(found.len(), distinct.len(), "{}: a solution twice", setting);
                prop_assert_eq!(&distinct, &expected, "{}", setting);
                prop_assert_eq!(solver.count(None), expected.len() as u128);
                solver.set_node_limit(Some(1));
                let mut resumed = BTreeSet::new();
                let mut search = solver.search();
                loop {
                    let next = search.next_solution().map(|solution| as_set(&solution.to_vec()));
                    match next {
                        Some(solution) => {
                            resumed.insert(solution);
                        }
                        None if search.stopped().is_some() => search.set_node_limit(Some(1)),
                        None => break,
                    }
                }
                drop(search);
                prop_assert_eq!(&resumed, &expected, "{}: resumed", setting);
                solver.set_node_limit(None);
                prop_assert_eq!(solver.count(None), expected.len() as u128, "links put back");
            }
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            let mut pieced = Vec::new();
            for subtree in &solver.subtrees(4) {
                let mut search = solver.search_below(subtree).unwrap();
                while let Some(solution) = search.next_solution() {
                    pieced.push(as_set(&solution.to_vec()));
                }
            }
            prop_assert_eq!(pieced.len(), expected.len(), "{}: parts", inference);
            prop_assert_eq!(pieced.into_iter().collect::<BTreeSet<_>>(), expected.clone());
        }
    }
}

/// The words of the built-in list (as `xcover example word-squares` reads it).
fn three_letter_words() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/words/three-letter.txt"
    ))
    .unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(str::to_string)
        .collect()
}

/// Double word squares counted without the engine: every choice of row words whose columns
/// are words too.
fn brute_force_squares(words: &[String], n: usize) -> u128 {
    let list: Vec<&[u8]> = words
        .iter()
        .filter(|w| w.len() == n)
        .map(|w| w.as_bytes())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let prefixes: BTreeSet<&[u8]> = list.iter().flat_map(|w| (0..=n).map(|k| &w[..k])).collect();
    fn extend(rows: &mut Vec<usize>, list: &[&[u8]], prefixes: &BTreeSet<&[u8]>, n: usize) -> u128 {
        if rows.len() == n {
            return 1;
        }
        let mut count = 0;
        for (k, _) in list.iter().enumerate() {
            rows.push(k);
            let columns_ok = (0..n).all(|j| {
                let column: Vec<u8> = rows.iter().map(|&r| list[r][j]).collect();
                prefixes.contains(column.as_slice())
            });
            if columns_ok {
                count += extend(rows, list, prefixes, n);
            }
            rows.pop();
        }
        count
    }
    extend(&mut Vec::new(), &list, &prefixes, n)
}

#[test]
fn word_squares_count_what_brute_force_counts() {
    let words = three_letter_words();
    assert_eq!(words.len(), 319);
    let expected = brute_force_squares(&words, 3);
    assert_eq!(
        expected, 6319,
        "the built-in list's squares, counted without the engine"
    );
    let matrix = Matrix::new(xcover::problems::word_squares(&words, 3).unwrap()).unwrap();
    let mut solver = matrix.solver();
    assert_eq!(solver.count(None), expected);
    // Every setting of inference: the probes clash on the letters (tens of thousands of
    // options removed), the rules find nothing (every item but the words' is coloured).
    for inference in Inference::ALL {
        let mut solver = matrix.solver();
        solver.set_inference(inference);
        assert_eq!(solver.count(None), expected, "{inference}");
        if inference == Inference::Probe {
            assert!(solver.stats().removals > 10_000, "{:?}", solver.stats());
        }
    }
    // In parts, as shards would.
    let subtrees = solver.subtrees(50);
    let mut total = 0;
    for subtree in &subtrees {
        let mut search = solver.search_below(subtree).unwrap();
        while search.next_solution().is_some() {
            total += 1;
        }
    }
    assert_eq!(total, expected);
    let small: Vec<String> = "at it is in on no so to go do an as am me be we he up us of or"
        .split(' ')
        .map(str::to_string)
        .collect();
    let matrix = Matrix::new(xcover::problems::word_squares(&small, 2).unwrap()).unwrap();
    assert_eq!(matrix.solver().count(None), brute_force_squares(&small, 2));
    assert!(xcover::problems::word_squares(&small, 3).is_err());
}
