//! Box shapes: how an N x N grid is cut into boxes of R rows by C columns (N = R x C).
//!
//! Everything that depends on the shape (which box a cell is in, which symbols are allowed) asks
//! a [`BoxShape`], so 4x4, 6x6 with 2x3 or 3x2 boxes, 12x12, 16x16 and 36x36 grids all run
//! through the same code.

use std::fmt;
use std::str::FromStr;

/// The largest grid side supported: 64 symbols, 64^3 = 262,144 options.
pub const MAX_SIZE: usize = 64;

/// Boxes of `rows` x `cols` cells in a grid of side `rows * cols`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoxShape {
    rows: u8,
    cols: u8,
}

impl BoxShape {
    /// Boxes of `rows` x `cols`; `None` unless both are at least 1 and the side is at most
    /// [`MAX_SIZE`].
    pub fn new(rows: usize, cols: usize) -> Option<BoxShape> {
        let size = rows.checked_mul(cols)?;
        if rows == 0 || cols == 0 || size > MAX_SIZE {
            return None;
        }
        Some(BoxShape {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// The default boxes for a side `size`: the most square shape with at least as many
    /// columns as rows (9: 3x3, 6: 2x3, 12: 3x4, 7: 1x7).
    pub fn for_size(size: usize) -> Option<BoxShape> {
        // Checked first: the search below is over the side, and r * r overflows for a side
        // near usize::MAX (a request could make it spin for ever).
        if size == 0 || size > MAX_SIZE {
            return None;
        }
        let rows = (1..=size)
            .take_while(|r| r * r <= size)
            .filter(|&r| size.is_multiple_of(r))
            .last()?;
        BoxShape::new(rows, size / rows)
    }

    /// Rows of one box.
    pub fn box_rows(self) -> usize {
        self.rows as usize
    }

    /// Columns of one box.
    pub fn box_cols(self) -> usize {
        self.cols as usize
    }

    /// Side of the grid: the number of symbols, rows, columns and boxes.
    pub fn size(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// Number of cells.
    pub fn cells(self) -> usize {
        self.size() * self.size()
    }

    /// The box (numbered row by row from 0) holding cell (`row`, `col`).
    #[inline]
    pub fn box_of(self, row: usize, col: usize) -> usize {
        (row / self.box_rows()) * self.box_rows() + col / self.box_cols()
    }
}

impl fmt::Display for BoxShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for BoxShape {
    type Err = String;

    /// Parses `RxC`, such as `2x3` (boxes of 2 rows by 3 columns).
    fn from_str(text: &str) -> Result<BoxShape, String> {
        let bad = || format!("expected a box shape RxC such as 2x3, found '{text}'");
        let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let r: usize = r.trim().parse().map_err(|_| bad())?;
        let c: usize = c.trim().parse().map_err(|_| bad())?;
        BoxShape::new(r, c).ok_or_else(|| {
            format!("box shape {r}x{c} is not supported: the side must be 1 to {MAX_SIZE}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_out_of_range_have_no_shape_at_once() {
        for size in [0, MAX_SIZE + 1, usize::MAX, usize::MAX / 2, 1 << 40] {
            assert_eq!(BoxShape::for_size(size), None, "{size}");
        }
        assert_eq!(
            BoxShape::for_size(MAX_SIZE).map(BoxShape::size),
            Some(MAX_SIZE)
        );
    }

    #[test]
    fn default_shapes_are_the_most_square_with_more_columns() {
        let shape = |n| BoxShape::for_size(n).unwrap().to_string();
        assert_eq!(shape(4), "2x2");
        assert_eq!(shape(6), "2x3");
        assert_eq!(shape(8), "2x4");
        assert_eq!(shape(9), "3x3");
        assert_eq!(shape(12), "3x4");
        assert_eq!(shape(16), "4x4");
        assert_eq!(shape(36), "6x6");
        assert_eq!(shape(7), "1x7");
    }

    #[test]
    fn boxes_are_numbered_row_by_row() {
        let shape: BoxShape = "2x3".parse().unwrap();
        assert_eq!(shape.box_of(0, 0), 0);
        assert_eq!(shape.box_of(1, 3), 1);
        assert_eq!(shape.box_of(2, 0), 2);
        assert_eq!(shape.box_of(5, 5), 5);
        assert!("2by3".parse::<BoxShape>().is_err());
        assert!("9x9".parse::<BoxShape>().is_err());
    }
}
