//! Counts of 9x9 puzzles with many solutions, where the encoding counts the last levels of a
//! search in bit sets (`classic_rest.rs`): equal to the backtracking baseline's counts and to
//! the links' counts on the puzzle's own matrix (which has no counter of rests), with and
//! without limits, on one thread and on several; verdicts and first solutions, which the
//! counter lists, checked by the independent checker.

use proptest::prelude::*;
use xcover::dlx::{Enumeration, Matrix, Monitor, Subtree};
use xcover::sudoku::backtrack::{Backtracker, Fill};
use xcover::sudoku::check::check_solution;
use xcover::sudoku::rules::Rules;
use xcover::sudoku::{BoxShape, Encoding, Grid, Verdict};

/// A random full grid (from `seed`), with only the cells of `keep` given.
fn puzzle(seed: u64, keep: &[bool]) -> Grid {
    let shape = BoxShape::new(3, 3).unwrap();
    let backtracker = Backtracker::new(&Rules::classic(shape));
    let mut state = seed | 1;
    let mut pick = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let Fill::Found(full) = backtracker.random_solution(&[0; 81], &mut pick, u64::MAX) else {
        panic!("an empty grid has solutions");
    };
    let cells = full
        .iter()
        .zip(keep)
        .map(|(&value, &kept)| if kept { value } else { 0 })
        .collect();
    Grid::from_cells(shape, cells).unwrap()
}

/// Its count by the links of the puzzle's own matrix (no counter of rests).
fn links_count(encoding: &Encoding, grid: &Grid, limit: Option<u128>) -> u128 {
    let matrix = Matrix::new(encoding.puzzle_problem(grid)).unwrap();
    assert!(matrix.rest_counter().is_none());
    matrix.solver().count(limit)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn counts_equal_the_baseline_and_the_plain_links(
        seed in any::<u64>(),
        keep in (0.2f64..0.42).prop_flat_map(|p| proptest::collection::vec(proptest::bool::weighted(p), 81)),
    ) {
        let grid = puzzle(seed, &keep);
        let encoding = Encoding::new(grid.shape());
        prop_assert!(encoding.matrix().rest_counter().is_some());
        let cap = 20_000;
        let backtracker = Backtracker::new(&Rules::classic(grid.shape()));
        let expected = backtracker.count(grid.cells(), cap);
        prop_assert!(expected >= 1);
        prop_assert_eq!(links_count(&encoding, &grid, Some(cap)), expected);
        let mut solver = encoding.solver();
        prop_assert_eq!(solver.count(&grid, Some(cap)).value, expected);
        for limit in [1, 2, 7] {
            prop_assert_eq!(solver.count(&grid, Some(limit)).value, expected.min(limit));
        }
        // Verdicts and first solutions, whose rests the counter lists: genuine solutions
        // (the independent checker), as many as there are up to two.
        let witnesses = match solver.verdict(&grid).value {
            Verdict::None => Vec::new(),
            Verdict::Unique(a) => vec![a],
            Verdict::Multiple(a, b) => {
                prop_assert_ne!(&a, &b);
                vec![a, b]
            }
        };
        prop_assert_eq!(witnesses.len() as u128, expected.min(2));
        for witness in &witnesses {
            prop_assert!(check_solution(&grid, witness).is_ok());
        }
        let first = solver.first(&grid).value.unwrap();
        prop_assert!(check_solution(&grid, &first).is_ok());
        if expected < cap {
            prop_assert_eq!(solver.count(&grid, None).value, expected);
            let parallel = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
            let counted = parallel.install(|| {
                let solver = encoding.puzzle_solver(&grid).unwrap();
                solver
                    .enumerate_parallel(vec![Subtree::root()], &Enumeration::default(), None, &Monitor::new())
                    .unwrap()
                    .solutions
            });
            prop_assert_eq!(counted, expected);
        }
    }
}

/// Published counts: the puzzle of `../shared/data/README.md` with 3,828,403 solutions, and
/// the empty 4x4 grid's 288 (no counter of rests: its boxes are 2x2).
#[test]
fn published_counts_of_many_solutions() {
    let millions: Grid =
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...96........"
            .parse()
            .unwrap();
    assert_eq!(millions.count_solutions(None), 3_828_403);
    assert_eq!(millions.count_solutions(Some(1_000_000)), 1_000_000);
    let empty = Grid::empty(BoxShape::new(2, 2).unwrap());
    assert_eq!(empty.count_solutions(None), 288);
}
