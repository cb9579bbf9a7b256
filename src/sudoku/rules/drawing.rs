//! What a rule looks like on a board: the marks a page (or any picture of the puzzle) draws
//! for it. Each rule says which marks it has ([`super::Rule::marks`]); the page draws marks,
//! never rules, so a new rule is drawn without touching it.
//!
//! Cells are (row, column) from 0. A mark carries a style, the rule's name in files unless
//! the rule draws several kinds of mark (a thermometer's bulb and its tube), and the page
//! picks colours and shapes by style, with a plain look for a style it does not know.

use super::Cell;

/// One thing drawn on or beside the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mark {
    /// A line through the centres of `cells`, in order (a thermometer's tube, a whisper, an
    /// arrow's shaft, which ends in a head when the style is an arrow's). A loop repeats its
    /// first cell at the end.
    Line {
        style: &'static str,
        cells: Vec<Cell>,
    },
    /// A circle over one cell, or a pill over several in a row, with `text` inside (an
    /// arrow's circle, a between line's ends, a thermometer's bulb with no text).
    Circle {
        style: &'static str,
        cells: Vec<Cell>,
        text: String,
    },
    /// A mark on the edge between two cells that touch (a kropki dot, an X or a V, a
    /// greater-than sign pointing from the first cell to the second).
    Edge {
        style: &'static str,
        cells: [Cell; 2],
        text: String,
    },
    /// A dashed outline around `cells`, with `text` in the corner of its first cell in
    /// reading order (a killer cage and its sum).
    Cage {
        style: &'static str,
        cells: Vec<Cell>,
        text: String,
    },
    /// Cells shaded together (the diagonals of X-Sudoku, windows, clones of one clue); cells
    /// of the same style and `group` share a shade.
    Shade {
        style: &'static str,
        group: usize,
        cells: Vec<Cell>,
    },
    /// Text outside the grid at (row, column), one of them -1 or the side, read along
    /// `toward` (each step -1, 0 or 1) into the grid: a sandwich's sum beside its row, a
    /// little killer's sum at the end of its diagonal.
    Outside {
        style: &'static str,
        at: (isize, isize),
        toward: (isize, isize),
        text: String,
    },
    /// Text in a circle where four cells meet, the cell given being their top-left one (a
    /// quadruple's symbols).
    Corner {
        style: &'static str,
        cell: Cell,
        text: String,
    },
    /// Small text in a cell (the symbols a pencilmark allows).
    Note {
        style: &'static str,
        cell: Cell,
        text: String,
    },
}

impl Mark {
    /// The mark's style.
    pub fn style(&self) -> &'static str {
        match self {
            Mark::Line { style, .. }
            | Mark::Circle { style, .. }
            | Mark::Edge { style, .. }
            | Mark::Cage { style, .. }
            | Mark::Shade { style, .. }
            | Mark::Outside { style, .. }
            | Mark::Corner { style, .. }
            | Mark::Note { style, .. } => style,
        }
    }

    /// Every cell of the grid the mark covers or touches (none for a clue outside it).
    pub fn cells(&self) -> Vec<Cell> {
        match self {
            Mark::Line { cells, .. }
            | Mark::Circle { cells, .. }
            | Mark::Cage { cells, .. }
            | Mark::Shade { cells, .. } => cells.clone(),
            Mark::Edge { cells, .. } => cells.to_vec(),
            Mark::Corner { cell: (r, c), .. } => {
                vec![(*r, *c), (*r, c + 1), (r + 1, *c), (r + 1, c + 1)]
            }
            Mark::Note { cell, .. } => vec![*cell],
            Mark::Outside { .. } => Vec::new(),
        }
    }
}

/// A line of `style` through each of `lines`.
pub(super) fn lines<'a>(
    style: &'static str,
    lines: impl IntoIterator<Item = &'a Vec<Cell>>,
) -> Vec<Mark> {
    lines
        .into_iter()
        .map(|line| Mark::Line {
            style,
            cells: line.clone(),
        })
        .collect()
}

/// A line of `style` through each of `lines`, with an empty circle of `circle` on its first
/// cell and, with `both_ends`, on its last (a thermometer's bulb, a between line's ends).
pub(super) fn circled_lines<'a>(
    style: &'static str,
    circle: &'static str,
    both_ends: bool,
    lines: impl IntoIterator<Item = &'a Vec<Cell>>,
) -> Vec<Mark> {
    let mut marks = Vec::new();
    for line in lines {
        marks.push(Mark::Line {
            style,
            cells: line.clone(),
        });
        let ends = if both_ends { line.last() } else { None };
        for &end in line.first().into_iter().chain(ends) {
            marks.push(Mark::Circle {
                style: circle,
                cells: vec![end],
                text: String::new(),
            });
        }
    }
    marks
}

/// Each unit's cells shaded alike (the diagonals, the windows).
pub(super) fn shaded_units(style: &'static str, units: Vec<super::Unit>) -> Vec<Mark> {
    units
        .into_iter()
        .map(|unit| Mark::Shade {
            style,
            group: 0,
            cells: unit.cells,
        })
        .collect()
}

/// Where a clue read along `cells` from outside the grid stands: one step back from its
/// first cell, in the direction from the second cell to the first (a line of one cell is
/// read from the nearest side). `None` when that place is inside the grid of side `n`.
pub fn outside_start(n: usize, cells: &[Cell]) -> Option<((isize, isize), (isize, isize))> {
    let &(r, c) = cells.first()?;
    let (r, c) = (r as isize, c as isize);
    let toward = match cells.get(1) {
        Some(&(r2, c2)) => (r2 as isize - r, c2 as isize - c),
        None => {
            let last = n as isize - 1;
            match (r, c) {
                (0, _) => (1, 0),
                (_, 0) => (0, 1),
                (row, _) if row == last => (-1, 0),
                _ => (0, -1),
            }
        }
    };
    let at = (r - toward.0, c - toward.1);
    let outside = !(0..n as isize).contains(&at.0) || !(0..n as isize).contains(&at.1);
    outside.then_some((at, toward))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagonal_from_the_top_row_is_read_from_above_it() {
        assert_eq!(
            outside_start(9, &[(0, 2), (1, 3), (2, 4)]),
            Some(((-1, 1), (1, 1)))
        );
        assert_eq!(
            outside_start(9, &[(8, 8), (7, 7)]),
            Some(((9, 9), (-1, -1)))
        );
        assert_eq!(outside_start(9, &[(4, 4), (5, 5)]), None);
        assert_eq!(outside_start(9, &[(8, 0)]), Some(((8, -1), (0, 1))));
    }
}
