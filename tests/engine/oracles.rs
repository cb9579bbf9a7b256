//! The engine against published solution counts, through the API and through Knuth's format.

use std::collections::BTreeSet;

use xcover::dlx::{Matrix, OptionId, Problem, Verdict, format};
use xcover::problems;

fn count(problem: Problem) -> u128 {
    Matrix::new(problem).unwrap().solver().count(None)
}

/// Writes the problem in Knuth's format, reads it back and counts: the format round trip must
/// not change the answer.
fn count_through_text(problem: &Problem) -> u128 {
    let mut text = Vec::new();
    format::write(problem, &mut text).unwrap();
    let parsed = format::read(std::str::from_utf8(&text).unwrap()).unwrap();
    assert!(parsed.warnings.is_empty());
    count(parsed.problem)
}

#[test]
fn queens_1_to_10_match_oeis() {
    let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &want) in (1..=10).zip(&expected) {
        let problem = problems::queens(n);
        assert_eq!(count_through_text(&problem), want, "queens {n} (text)");
        assert_eq!(count(problem), want, "queens {n}");
    }
}

#[test]
fn langford_pairs_match_published_counts() {
    for (n, want) in [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
        assert_eq!(count(problems::langford(n)), want, "langford {n}");
    }
}

#[test]
fn pentominoes_3x20_and_6x10() {
    assert_eq!(count(problems::pentominoes(20, 3).unwrap()), 8);
    let problem = problems::pentominoes(10, 6).unwrap();
    assert_eq!(count_through_text(&problem), 9356);
}

#[test]
fn pentominoes_8x8_with_a_hole() {
    assert_eq!(count(problems::pentominoes(8, 8).unwrap()), 520);
}

#[test]
fn latin_squares_of_order_1_to_5() {
    for (n, want) in [(1, 1), (2, 2), (3, 12), (4, 576), (5, 161_280)] {
        assert_eq!(count(problems::latin_square(n)), want, "latin {n}");
    }
}

#[test]
fn knuths_seven_item_example_has_one_solution() {
    let text = std::fs::read_to_string("data/cover/knuth-7.dlx").unwrap();
    let matrix = Matrix::new(format::read(&text).unwrap().problem).unwrap();
    let mut solver = matrix.solver();
    let Verdict::Unique(solution) = solver.verdict() else {
        panic!("expected exactly one solution");
    };
    let chosen: BTreeSet<u32> = solution.iter().map(|o| o.0).collect();
    assert_eq!(chosen, BTreeSet::from([0, 3, 4]), "C E F, A D, B G");
    let stats = solver.stats();
    assert!(stats.nodes > 0 && stats.updates > 0);
}

#[test]
fn secondary_items_are_covered_at_most_once() {
    let text = std::fs::read_to_string("data/cover/secondary.dlx").unwrap();
    let parsed = format::read(&text).unwrap();
    assert_eq!(parsed.warnings.len(), 1);
    assert_eq!(parsed.warnings[0].line, 8);
    let matrix = Matrix::new(parsed.problem).unwrap();
    assert_eq!(matrix.dropped_options(), &[OptionId(4)]);
    let mut solutions: Vec<BTreeSet<u32>> = matrix
        .solver()
        .solutions()
        .map(|s| s.iter().map(|o| o.0).collect())
        .collect();
    solutions.sort();
    let mut want = vec![
        BTreeSet::from([0, 3]),
        BTreeSet::from([1, 2]),
        BTreeSet::from([2, 3]),
    ];
    want.sort();
    assert_eq!(solutions, want);
}

#[test]
fn count_stops_at_the_limit_and_the_solver_is_reusable() {
    let matrix = Matrix::new(problems::queens(8)).unwrap();
    let mut solver = matrix.solver();
    assert_eq!(solver.count(Some(5)), 5);
    assert_eq!(solver.count(Some(1000)), 92);
    // A lazily dropped iterator must leave the links as they were.
    assert_eq!(solver.solutions().take(3).count(), 3);
    assert_eq!(solver.count(None), 92);
    let first = solver.first().unwrap();
    assert_eq!(first.len(), 8);
    assert_eq!(solver.count(None), 92);
}

#[test]
fn verdicts_carry_distinct_witnesses() {
    let matrix = Matrix::new(problems::queens(6)).unwrap();
    let Verdict::Multiple(a, b) = matrix.solver().verdict() else {
        panic!("queens 6 has four solutions");
    };
    assert_ne!(
        a.iter().collect::<BTreeSet<_>>(),
        b.iter().collect::<BTreeSet<_>>()
    );
    assert_eq!(
        Matrix::new(problems::queens(3)).unwrap().solver().verdict(),
        Verdict::None
    );
}

#[test]
fn chosen_options_restrict_the_search() {
    // Fix the queen of row 0 in column 0: of the 92 solutions of 8 queens, 4 have it.
    let problem = problems::queens(8);
    let option = problem
        .options()
        .find(|&o| {
            let names: Vec<&str> = problem.option(o).iter().map(|&i| problem.name(i)).collect();
            names[0] == "r0" && names[1] == "c0"
        })
        .unwrap();
    let clash = problem
        .options()
        .find(|&o| {
            let names: Vec<&str> = problem.option(o).iter().map(|&i| problem.name(i)).collect();
            names[0] == "r1" && names[1] == "c1"
        })
        .unwrap();
    let matrix = Matrix::new(problem).unwrap();
    let mut solver = matrix.solver();
    solver.choose(option).unwrap();
    assert!(solver.choose(clash).is_err(), "same diagonal");
    assert_eq!(solver.count(None), 4);
    for solution in solver.solutions() {
        assert_eq!(solution[0], option);
    }
    solver.unchoose_all();
    assert_eq!(solver.count(None), 92);
}

#[test]
fn a_passed_deadline_interrupts_and_leaves_the_solver_usable() {
    let matrix = Matrix::new(problems::queens(12)).unwrap();
    let mut solver = matrix.solver();
    solver.set_deadline(Some(std::time::Instant::now()));
    let partial = solver.count(None);
    assert!(solver.interrupted());
    assert!(partial < 14_200, "stopped early, found {partial}");
    solver.set_deadline(None);
    assert_eq!(solver.count(None), 14_200);
    assert!(!solver.interrupted());
}
