//! Bad input never panics: arbitrary text through both readers, and arbitrary grids (clashing
//! clues included) through every solver and the logic, which must agree with each other.

use proptest::prelude::*;
use xcover::dlx::{Matrix, format};
use xcover::sudoku::backtrack::Mrv;
use xcover::sudoku::{BoxShape, Grid, SudokuSolver, logic, text};

/// Text made of the characters both formats care about, plus a few others.
fn noisy_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('\n'),
            Just(' '),
            Just('|'),
            Just('.'),
            Just('#'),
            Just(','),
            Just(':'),
            Just('-'),
            Just('\r'),
            proptest::char::range('0', '9'),
            proptest::char::range('a', 'e'),
            proptest::char::range('A', 'Z'),
            any::<char>(),
        ],
        0..300,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn the_knuth_reader_never_panics(text in noisy_text()) {
        if let Ok(parsed) = format::read(&text) {
            // Whatever it accepts must compile and search.
            let matrix = Matrix::new(parsed.problem).unwrap();
            let _ = matrix.solver().count(Some(10));
        }
    }

    #[test]
    fn the_puzzle_reader_never_panics(text in noisy_text()) {
        for puzzle in text::parse(&text, None).into_iter().flatten() {
            let _ = puzzle.validate();
        }
    }

    #[test]
    fn random_4x4_and_6x6_grids_agree_across_solvers(
        cells in proptest::collection::vec(0u8..=6, 36),
        four in any::<bool>(),
    ) {
        let (shape, n) = if four { (BoxShape::new(2, 2).unwrap(), 4) } else { (BoxShape::new(2, 3).unwrap(), 6) };
        let cells: Vec<u8> = cells.into_iter().take(n * n).map(|v| v % (n as u8 + 1)).collect();
        let grid = Grid::from_cells(shape, cells).unwrap();
        let dlx = grid.count_solutions(Some(50));
        prop_assert_eq!(Mrv.count_up_to(&grid, Some(50)).value, dlx);
        let solution = logic::solve(&grid);
        if grid.clash().is_none() && dlx == 1 {
            prop_assert!(solution.contradiction.is_none());
        }
        if solution.is_complete() {
            prop_assert_eq!(dlx, 1, "logic only completes a grid with one solution");
        }
    }
}

#[test]
fn logic_never_completes_a_grid_whose_clues_clash() {
    let grid = text::parse("1234123412341234", None)
        .remove(0)
        .unwrap()
        .grid;
    assert!(grid.clash().is_some());
    let solution = logic::solve(&grid);
    assert!(!solution.is_complete());
    assert!(solution.contradiction.unwrap().0.contains("both hold"));
}
