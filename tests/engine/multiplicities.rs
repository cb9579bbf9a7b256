//! Multiplicities (Knuth's DLX3, Algorithm M): a primary item covered between a lower and an
//! upper number of times. Checked against a brute-force enumeration of option subsets under
//! the same rules (with colours on secondary items too), on Knuth's own example, and through
//! the text format both ways. Malformed bounds are in the table of `cover_format_errors.rs`.

use std::collections::BTreeSet;

use proptest::prelude::*;
use xcover::dlx::{ChooseError, Matrix, OptionId, Verdict, format};

use crate::random_xcc;
use random_xcc::{brute_force, build, problems, sorted_lines};

/// Knuth's example from DLX3: the unique solution is `A C X:1 Y:1`, `B X:1` and `C Y:1`.
const KNUTH_DLX3: &str = "| A simple example of color controls\nA B 2:3|C | X Y\nA B X:0 Y:0\n\
                          A C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";

#[test]
fn knuths_example_has_his_unique_solution() {
    let matrix = Matrix::new(format::read(KNUTH_DLX3).unwrap().problem).unwrap();
    let mut solver = matrix.solver();
    let Verdict::Unique(solution) = solver.verdict() else {
        panic!("one solution")
    };
    assert_eq!(
        sorted_lines(&matrix, &solution),
        ["A C X:1 Y:1", "B X:1", "C Y:1"]
    );
}

#[test]
fn bounds_read_back_as_written() {
    let text = "a 2|b 0:3|c | x\na b\nb c x\nc\n";
    let problem = format::read(text).unwrap().problem;
    assert_eq!(problem.bounds(problem.item("b").unwrap()), (2, 2));
    assert_eq!(problem.bounds(problem.item("c").unwrap()), (0, 3));
    let mut written = Vec::new();
    format::write(&problem, &mut written).unwrap();
    assert_eq!(String::from_utf8(written).unwrap(), text);
}

#[test]
fn small_counts_by_hand() {
    // Choose 2 of 4 options that each cover one item `k` twice...: `2|k` with four options
    // `k` gives C(4,2) = 6 sets; `0:4|k` gives 2^4 = 16, the empty set included.
    for (bounds, expected) in [("2", 6), ("0:4", 16), ("1:2", 10), ("4", 1), ("5", 0)] {
        let text = format!("{bounds}|k\nk\nk\nk\nk\n");
        let matrix = Matrix::new(format::read(&text).unwrap().problem).unwrap();
        assert_eq!(matrix.solver().count(None), expected, "{bounds}|k");
    }
    // Options chosen up front are refused, not mishandled.
    let matrix = Matrix::new(format::read("2|k\nk\nk\n").unwrap().problem).unwrap();
    assert_eq!(
        matrix.solver().choose(OptionId(0)),
        Err(ChooseError::Multiplicities(OptionId(0)))
    );
}

proptest! {
    #![proptest_config(crate::config(4000))]

    #[test]
    fn solutions_with_bounds_equal_brute_force((items, options) in problems(3, 0..=2, 10, true)) {
        let expected = brute_force(&items, &options);
        let matrix = Matrix::new(build(&items, &options)).unwrap();
        let mut solver = matrix.solver();
        let found: Vec<BTreeSet<u32>> = solver
            .solutions()
            .map(|s| s.iter().map(|o| o.0).collect())
            .collect();
        let distinct: BTreeSet<BTreeSet<u32>> = found.iter().cloned().collect();
        prop_assert_eq!(found.len(), distinct.len(), "a solution found twice");
        prop_assert_eq!(&distinct, &expected);
        prop_assert_eq!(solver.count(None), expected.len() as u128);
        // A search stopped every few nodes and resumed finds the same.
        let mut search = solver.search();
        search.set_node_limit(Some(3));
        let mut resumed = 0;
        loop {
            if search.next_solution().is_some() {
                resumed += 1;
            } else if search.stopped().is_some() {
                search.set_node_limit(Some(3));
            } else {
                break;
            }
        }
        drop(search);
        prop_assert_eq!(resumed, expected.len());
        // Dropped half-way, the search leaves the solver as it found it.
        let mut search = solver.search();
        search.set_node_limit(Some(5));
        let _ = search.next_solution();
        drop(search);
        prop_assert_eq!(solver.count(None), expected.len() as u128);
    }
}

/// Ways to put `m` non-attacking queens on an `n` x `n` board, counted square by square
/// without the engine.
fn brute_force_queens(n: usize, m: usize) -> u128 {
    fn place(n: usize, from: usize, left: usize, queens: &mut Vec<(usize, usize)>) -> u128 {
        if left == 0 {
            return 1;
        }
        let mut count = 0;
        for square in from..n * n {
            let (r, c) = (square / n, square % n);
            let attacked = queens
                .iter()
                .any(|&(qr, qc)| qr == r || qc == c || qr + c == qc + r || qr + qc == r + c);
            if !attacked {
                queens.push((r, c));
                count += place(n, square + 1, left - 1, queens);
                queens.pop();
            }
        }
        count
    }
    place(n, 0, m, &mut Vec::new())
}

#[test]
fn partial_queens_count_what_brute_force_counts() {
    use std::num::NonZeroUsize;
    use xcover::problems::partial_queens;
    let count = |n: usize, m: usize| {
        let problem = partial_queens(n, NonZeroUsize::new(m).unwrap());
        Matrix::new(problem).unwrap().solver().count(None)
    };
    for n in 1..=6 {
        for m in 1..=n + 1 {
            assert_eq!(
                count(n, m),
                brute_force_queens(n, m),
                "{m} queens on {n}x{n}"
            );
        }
    }
    // Published: 1288 ways for two queens on a chessboard (OEIS A036464), 92 for eight.
    assert_eq!(count(8, 2), 1288);
    assert_eq!(count(8, 8), 92);
}
