//! The twelve pentominoes as exact cover: each piece once, each board cell once.

use std::fmt;

use itertools::Itertools;

use crate::dlx::Problem;

/// The twelve pieces by Conway's letters, each as (row, column) cells.
const PIECES: [(char, [(i32, i32); 5]); 12] = [
    ('F', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('I', [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
    ('L', [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ('N', [(0, 0), (0, 1), (1, 1), (1, 2), (1, 3)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// A board the twelve pieces cannot tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PentominoError {
    width: usize,
    height: usize,
}

impl fmt::Display for PentominoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {}x{} board has {} cells; the twelve pentominoes cover 60 \
             (or an 8x8 board with its centre 2x2 removed)",
            self.width,
            self.height,
            self.width * self.height
        )
    }
}

impl std::error::Error for PentominoError {}

/// Packing the twelve pentominoes into a `width` x `height` board of 60 cells, or into the 8x8
/// board with its centre 2x2 removed. Items: the pieces (`F`, `I`, ...) and the cells `rIcJ`,
/// all primary. Every placement of every rotation and reflection is an option, so each
/// tiling is counted once for each symmetry of the board (6x10 has 9,356 = 4 x 2,339).
pub fn pentominoes(width: usize, height: usize) -> Result<Problem, PentominoError> {
    let centre_hole = width == 8 && height == 8;
    if width * height != 60 && !centre_hole {
        return Err(PentominoError { width, height });
    }
    let on_board = |row: i32, col: i32| {
        row >= 0
            && col >= 0
            && (row as usize) < height
            && (col as usize) < width
            && !(centre_hole && (3..=4).contains(&row) && (3..=4).contains(&col))
    };
    let mut problem = Problem::new();
    for (name, _) in PIECES {
        problem.add_primary(&name.to_string()).expect("fresh name");
    }
    for row in 0..height as i32 {
        for col in 0..width as i32 {
            if on_board(row, col) {
                problem
                    .add_primary(&cell_name(row, col))
                    .expect("fresh name");
            }
        }
    }
    for (name, cells) in PIECES {
        for shape in orientations(&cells) {
            for row in 0..height as i32 {
                for col in 0..width as i32 {
                    if shape.iter().all(|&(r, c)| on_board(row + r, col + c)) {
                        let names = std::iter::once(name.to_string())
                            .chain(shape.iter().map(|&(r, c)| cell_name(row + r, col + c)))
                            .collect_vec();
                        problem.add_option_by_names(&names).expect("declared items");
                    }
                }
            }
        }
    }
    Ok(problem)
}

fn cell_name(row: i32, col: i32) -> String {
    format!("r{row}c{col}")
}

/// A cell of a piece: (row, column).
type Cell = (i32, i32);

/// The distinct shapes a piece takes under the eight rotations and reflections, each moved
/// to touch row 0 and column 0 and sorted so that equal shapes compare equal.
fn orientations(cells: &[Cell; 5]) -> Vec<[Cell; 5]> {
    let transforms: [fn(Cell) -> Cell; 8] = [
        |(r, c)| (r, c),
        |(r, c)| (c, -r),
        |(r, c)| (-r, -c),
        |(r, c)| (-c, r),
        |(r, c)| (r, -c),
        |(r, c)| (c, r),
        |(r, c)| (-r, c),
        |(r, c)| (-c, -r),
    ];
    transforms
        .iter()
        .map(|transform| {
            let mut shape = cells.map(transform);
            let min_r = shape.iter().map(|p| p.0).min().unwrap_or(0);
            let min_c = shape.iter().map(|p| p.1).min().unwrap_or(0);
            for p in &mut shape {
                *p = (p.0 - min_r, p.1 - min_c);
            }
            shape.sort_unstable();
            shape
        })
        .unique()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_have_their_known_number_of_orientations() {
        let counts: Vec<usize> = PIECES
            .iter()
            .map(|(_, cells)| orientations(cells).len())
            .collect();
        // F I L N P T U V W X Y Z
        assert_eq!(counts, vec![8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
    }

    #[test]
    fn boards_of_the_wrong_size_are_refused() {
        assert!(pentominoes(7, 7).is_err());
        assert!(pentominoes(8, 8).is_ok());
    }
}
