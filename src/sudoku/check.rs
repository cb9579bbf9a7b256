//! An independent checker of Sudoku solutions.
//!
//! Tests trust a solution only after this module has checked it, and it shares nothing with the
//! solver: no matrix, no encoding, no box lookup. A plain grid is judged by the one checker of
//! every ruleset, [`Rules::broken_rule`], under the classic rules of its shape: each rule judges
//! from its own definition (rows, columns and boxes from the box shape's two numbers) that every
//! unit holds every symbol exactly once, and the solution keeps every clue of the puzzle.

use super::model::Grid;
use super::rules::Rules;

/// Checks that `solution` is a complete, valid grid that agrees with every clue of `puzzle`.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> Result<(), String> {
    if puzzle.shape() != solution.shape() {
        return Err(format!(
            "the puzzle has boxes {} but the solution {}",
            puzzle.shape(),
            solution.shape()
        ));
    }
    match Rules::classic(solution.shape()).broken_rule(puzzle.cells(), solution.cells()) {
        Some(broken) => Err(broken),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::BoxShape;

    fn grid(shape: &str, cells: &[u8]) -> Grid {
        Grid::from_cells(shape.parse::<BoxShape>().unwrap(), cells.to_vec()).unwrap()
    }

    #[test]
    fn accepts_a_valid_6x6_with_2x3_boxes() {
        #[rustfmt::skip]
        let cells = [
            1, 2, 3, 4, 5, 6,
            4, 5, 6, 1, 2, 3,
            2, 3, 1, 5, 6, 4,
            5, 6, 4, 2, 3, 1,
            3, 1, 2, 6, 4, 5,
            6, 4, 5, 3, 1, 2,
        ];
        let solution = grid("2x3", &cells);
        let mut puzzle = Grid::empty(solution.shape());
        puzzle.set(0, 0, 1);
        assert_eq!(check_solution(&puzzle, &solution), Ok(()));
        // The same rows are not valid with 3x2 boxes: box 1 (rows 1-3, columns 3-4) holds
        // 3 and 6 twice.
        let tall = grid("3x2", &cells);
        assert!(check_solution(&Grid::empty(tall.shape()), &tall).is_err());
        puzzle.set(0, 0, 2);
        assert!(
            check_solution(&puzzle, &solution)
                .unwrap_err()
                .contains("r1c1")
        );
    }

    #[test]
    fn rejects_blanks_and_repeats() {
        let shape: BoxShape = "2x2".parse().unwrap();
        let empty = Grid::empty(shape);
        assert!(check_solution(&empty, &empty).is_err());
        let repeated = grid("2x2", &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 1, 2]);
        assert_eq!(
            check_solution(&empty, &repeated),
            Err("column 3 holds 1 twice".to_string())
        );
    }
}
