//! Latin squares as exact cover: every cell holds one symbol, every row and column holds each
//! symbol once. A Sudoku is this plus boxes.

use crate::dlx::Problem;

/// All Latin squares of order `n`: items `rIcJ`, `rIvV` and `cJvV`, all primary; one option per
/// cell and symbol. The counts are 1, 2, 12, 576, 161280 for n = 1..5.
pub fn latin_square(n: usize) -> Problem {
    let mut problem = Problem::new();
    for (a, b) in [("r", "c"), ("r", "v"), ("c", "v")] {
        for i in 0..n {
            for j in 0..n {
                problem
                    .add_primary(&format!("{a}{i}{b}{j}"))
                    .expect("fresh name");
            }
        }
    }
    for row in 0..n {
        for col in 0..n {
            for value in 0..n {
                let names = [
                    format!("r{row}c{col}"),
                    format!("r{row}v{value}"),
                    format!("c{col}v{value}"),
                ];
                problem.add_option_by_names(&names).expect("declared items");
            }
        }
    }
    problem
}
