//! True candidates of Sudoku puzzles: on classic puzzles with many solutions (serg's
//! multi-solution set, the 3,828,403-solution puzzle of `../shared/data/README.md`, random
//! grids of every box shape) the candidates of each cell equal the union of every solution
//! the engine lists, and capped counts the number of them; `xcover sudoku candidates` prints
//! them, says which cells are open, and writes JSON records.

use crate::common;

use std::collections::BTreeSet;

use common::{err, out, xcover};
use proptest::prelude::*;
use xcover::sudoku::{AnyPuzzle, BoxShape, Grid};

/// Per cell, the symbols some solution of `puzzle` puts there, with how many do: from every
/// solution, enumerated.
fn union_of_every_solution(puzzle: &AnyPuzzle) -> (Vec<BTreeSet<u8>>, Vec<Vec<u128>>, u128) {
    let n = puzzle.size();
    let mut sets = vec![BTreeSet::new(); n * n];
    let mut counts = vec![vec![0u128; n + 1]; n * n];
    let mut total = 0;
    puzzle
        .with_solver(
            |_| {},
            |solver, decode| {
                let Some(solver) = solver else { return };
                for solution in solver.solutions() {
                    total += 1;
                    for (cell, &v) in decode(&solution).iter().enumerate() {
                        sets[cell].insert(v);
                        counts[cell][usize::from(v)] += 1;
                    }
                }
            },
        )
        .unwrap();
    (sets, counts, total)
}

fn candidate_sets(puzzle: &AnyPuzzle, threads: usize) -> Vec<BTreeSet<u8>> {
    let found = puzzle.true_candidates(None, threads, |_| {}).unwrap();
    assert_eq!(found.stopped, None);
    found
        .cells
        .iter()
        .map(|c| c.iter().map(|&(v, _)| v).collect())
        .collect()
}

/// Every `step`-th puzzle of serg's 10,000 puzzles of several solutions: its true candidates
/// are the union of every solution, and its capped counts those of every solution.
fn serg_multi_candidates_hold(step: usize) {
    let text = std::fs::read_to_string("../shared/data/sudoku9/serg-multi-10000.txt").unwrap();
    for (k, line) in text.lines().enumerate().step_by(step) {
        let puzzle = AnyPuzzle::Grid(line.parse::<Grid>().unwrap());
        let (sets, counts, total) = union_of_every_solution(&puzzle);
        assert!(total > 1, "puzzle {k} has several solutions");
        assert_eq!(candidate_sets(&puzzle, 1 + k % 3), sets, "puzzle {}", k + 1);
        // Counted with a cap of 20: the number of solutions holding each, up to 20.
        let capped = puzzle.true_candidates(Some(20), 2, |_| {}).unwrap();
        for (cell, list) in capped.cells.iter().enumerate() {
            for &(v, count) in list {
                assert_eq!(
                    count,
                    Some(counts[cell][usize::from(v)].min(20)),
                    "puzzle {k}"
                );
            }
        }
        assert_eq!(capped.solutions, Some(total.min(20)));
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn serg_multi_candidates_are_the_union_of_every_solution() {
    serg_multi_candidates_hold(8);
}

/// All 10,000 (half a minute; CI runs it).
#[test]
#[cfg_attr(
    shared_data,
    ignore = "half a minute: cargo test --test sudoku every_serg_multi -- --ignored"
)]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn every_serg_multi_puzzle_has_the_union_of_its_solutions_as_candidates() {
    serg_multi_candidates_hold(1);
}

/// The puzzle of 3,828,403 solutions: its candidates from a few hundred searches are the
/// union of all 3,828,403 (enumerated here, some seconds).
#[test]
fn the_puzzle_of_millions_of_solutions_has_the_union_of_them_as_candidates() {
    let puzzle = AnyPuzzle::Grid(
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...96........"
            .parse()
            .unwrap(),
    );
    let (sets, _, total) = union_of_every_solution(&puzzle);
    assert_eq!(total, 3_828_403);
    assert_eq!(candidate_sets(&puzzle, 1), sets);
    let found = puzzle.true_candidates(None, 1, |_| {}).unwrap();
    assert!(found.searches < 729, "{} searches", found.searches);
}

/// Counts past the first enumeration: a puzzle of 15,824 solutions counted with a cap of 100
/// (the counts' first enumeration stops at 6,400 solutions, so the options it saw fewer than
/// 100 times are counted one by one) and of 20,000 (it sees every solution).
#[test]
fn capped_counts_equal_those_of_every_solution() {
    let puzzle = AnyPuzzle::Grid(
        "1..26.53...8.379.43..9......321...8.....8...................8.........2.9..7....3"
            .parse()
            .unwrap(),
    );
    let (sets, counts, total) = union_of_every_solution(&puzzle);
    assert_eq!(total, 15_824);
    for (cap, threads) in [(100, 1), (100, 2), (20_000, 1)] {
        let found = puzzle.true_candidates(Some(cap), threads, |_| {}).unwrap();
        assert_eq!(found.solutions, Some(total.min(cap)));
        for (cell, list) in found.cells.iter().enumerate() {
            let symbols: BTreeSet<u8> = list.iter().map(|&(v, _)| v).collect();
            assert_eq!(symbols, sets[cell]);
            for &(v, count) in list {
                assert_eq!(count, Some(counts[cell][usize::from(v)].min(cap)), "{cap}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Random classic puzzles of every box shape up to 12x12, with most clues of a random
    /// solution taken away so that many have several solutions (up to a few thousand).
    #[test]
    fn classic_candidates_are_the_union_of_every_solution(
        shape in prop::sample::select(vec![(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4)]),
        seed in any::<u64>(),
        keep in 0.45f64..0.75,
    ) {
        let shape = BoxShape::new(shape.0, shape.1).unwrap();
        let full = AnyPuzzle::Grid(Grid::empty(shape))
            .with_solver(|_| {}, |solver, decode| decode(&solver.unwrap().first().unwrap()))
            .unwrap();
        // Keep each clue with probability `keep`, by a small generator of the seed.
        let mut state = seed | 1;
        let givens: Vec<u8> = full
            .iter()
            .map(|&v| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if (state % 1000) as f64 / 1000.0 < keep { v } else { 0 }
            })
            .collect();
        let puzzle = AnyPuzzle::Grid(Grid::from_cells(shape, givens).unwrap());
        let count = puzzle
            .with_solver(|_| {}, |solver, _| solver.map_or(0, |s| s.count(Some(20_001))))
            .unwrap();
        prop_assume!(count <= 20_000);
        let (sets, _, total) = union_of_every_solution(&puzzle);
        prop_assert_eq!(total, count);
        prop_assert_eq!(candidate_sets(&puzzle, 2), sets);
    }
}

#[test]
fn the_command_prints_candidates_open_cells_and_counts() {
    // A full grid (top95 #1's solution) with the four cells of a rectangle emptied: two
    // solutions, which differ in those four cells only.
    let solution =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
    let mut cells: Vec<char> = solution.chars().collect();
    let set = unavoidable_rectangle(solution);
    for &i in &set {
        cells[i] = '.';
    }
    let puzzle: String = cells.into_iter().collect();
    let run = xcover(
        &["sudoku", "candidates", "--counts", "-"],
        &format!("{puzzle}\n"),
    );
    assert!(run.status.success(), "{}", err(&run));
    let text = out(&run);
    let names: Vec<String> = set
        .iter()
        .map(|&i| format!("r{}c{}", i / 9 + 1, i % 9 + 1))
        .collect();
    assert!(
        text.contains(&format!("open: 4 cells: {}", names.join(" "))),
        "{text}"
    );
    assert!(text.contains("solutions: 2\n"), "{text}");
    let json = xcover(
        &["sudoku", "candidates", "--format", "json", "-"],
        &format!("{puzzle}\n"),
    );
    let record: serde_json::Value = serde_json::from_str(out(&json).trim()).unwrap();
    assert_eq!(record["open"].as_array().unwrap().len(), 4, "{record}");
    for &i in &set {
        assert_eq!(
            record["candidates"][i].as_array().unwrap().len(),
            2,
            "{record}"
        );
    }
    // A unique puzzle has no open cell.
    let unique = xcover(&["sudoku", "candidates", "-"], &format!("{solution}\n"));
    assert!(out(&unique).contains("unique: every cell has one true candidate"));
}

/// Four cells of `solution` (9x9, a line of digits) at the corners of a rectangle over two
/// boxes, holding a b / b a: emptied, they leave exactly two solutions.
fn unavoidable_rectangle(solution: &str) -> Vec<usize> {
    let g: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            if r1 / 3 != r2 / 3 {
                continue; // both rows in one band: the rectangle spans two boxes of it
            }
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    if c1 / 3 == c2 / 3 {
                        continue;
                    }
                    let (a, b) = (g[r1 * 9 + c1], g[r1 * 9 + c2]);
                    if g[r2 * 9 + c1] == b && g[r2 * 9 + c2] == a {
                        return vec![r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                    }
                }
            }
        }
    }
    panic!("no rectangle");
}
