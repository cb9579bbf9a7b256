//! Rows, columns and boxes: the rules every Sudoku has (boxes when its shape has them). They
//! are the shape of a grid rather than a [`Constraint`](super::Constraint) of its list.

use super::{Rules, Unit, repeats};

/// The rows, the columns and, when the grid has them, the boxes, in that order (the items of
/// the exact-cover problem follow it).
pub fn units(rules: &Rules) -> Vec<Unit> {
    let n = rules.size;
    let rows = rules.house_rows();
    let mut units = Vec::with_capacity(3 * n);
    for row in 0..rows {
        units.push(Unit {
            tag: format!("r{}", row + 1),
            name: format!("row {}", row + 1),
            cells: (0..n).map(|c| (row, c)).collect(),
        });
    }
    for col in 0..n {
        units.push(Unit {
            tag: format!("c{}", col + 1),
            name: format!("column {}", col + 1),
            cells: (0..rows).map(|r| (r, col)).collect(),
        });
    }
    if let Some(shape) = rules.boxes {
        // A band of boxes across the grid holds `box_rows` of them (`size / box_cols`).
        let boxes = rows / shape.box_rows() * shape.box_rows();
        for b in 0..boxes {
            units.push(Unit {
                tag: format!("b{}", b + 1),
                name: format!("box {}", b + 1),
                cells: (0..rows)
                    .flat_map(|r| (0..n).map(move |c| (r, c)))
                    .filter(|&(r, c)| shape.box_of(r, c) == b)
                    .collect(),
            });
        }
    }
    units
}

/// The first row, column or box of a filled grid that repeats a symbol, described.
pub fn broken(rules: &Rules, grid: &[u8]) -> Option<String> {
    let n = rules.size;
    let rows = rules.house_rows();
    for i in 0..rows {
        if let Some(v) = repeats(grid, n, (0..n).map(|c| (i, c))) {
            return Some(format!("row {} holds {v} twice", i + 1));
        }
    }
    for i in 0..n {
        if let Some(v) = repeats(grid, n, (0..rows).map(|r| (r, i))) {
            return Some(format!("column {} holds {v} twice", i + 1));
        }
    }
    let shape = rules.boxes?;
    let (h, w) = (shape.box_rows(), shape.box_cols());
    for top in (0..rows).step_by(h) {
        for left in (0..n).step_by(w) {
            let cells = (top..top + h).flat_map(|r| (left..left + w).map(move |c| (r, c)));
            if let Some(v) = repeats(grid, n, cells) {
                return Some(format!(
                    "the box at r{}c{} holds {v} twice",
                    top + 1,
                    left + 1
                ));
            }
        }
    }
    None
}
