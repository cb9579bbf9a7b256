//! Latin squares as exact cover: every cell holds one symbol, every row and column holds each
//! symbol once. A Sudoku is this plus boxes.

use crate::dlx::Problem;

/// All Latin squares of order `n`: items `rIcJ`, `rIvV` and `cJvV`, all primary; one option per
/// cell and symbol; rows, columns and symbols declared as one-to-one blocks. The counts are 1,
/// 2, 12, 576, 161280 for n = 1..5.
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
    // One-to-one blocks: each row's cells against its symbols, each column's likewise, and
    // each symbol's rows against its columns (items were added kind by kind, row-major).
    let item =
        |kind: usize, i: usize, j: usize| crate::dlx::ItemId((kind * n * n + i * n + j) as u32);
    for i in 0..n {
        let blocks = [
            (
                (0..n).map(|j| item(0, i, j)).collect::<Vec<_>>(),
                (0..n).map(|v| item(1, i, v)).collect::<Vec<_>>(),
            ),
            (
                (0..n).map(|j| item(0, j, i)).collect(),
                (0..n).map(|v| item(2, i, v)).collect(),
            ),
            (
                (0..n).map(|r| item(1, r, i)).collect(),
                (0..n).map(|c| item(2, c, i)).collect(),
            ),
        ];
        for (left, right) in blocks {
            problem.add_block(&left, &right).expect("primary items");
        }
    }
    problem
}
