//! Where a clue outside the grid stands, and the cells it looks along: sandwiches, X-sums,
//! skyscrapers and numbered rooms read a row or a column from one of its ends.

use super::{Cell, Mark};

/// The side of the grid a clue stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
    Top,
    Bottom,
}

/// An outside clue's place: a side, and the row (left, right) or column (top, bottom) it
/// looks along, from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outside {
    pub side: Side,
    pub index: usize,
}

impl Outside {
    /// The cells of its row or column on a grid of side `n`, from the clue inward.
    pub fn cells(self, n: usize) -> Vec<Cell> {
        let i = self.index;
        match self.side {
            Side::Left => (0..n).map(|c| (i, c)).collect(),
            Side::Right => (0..n).rev().map(|c| (i, c)).collect(),
            Side::Top => (0..n).map(|r| (r, i)).collect(),
            Side::Bottom => (0..n).rev().map(|r| (r, i)).collect(),
        }
    }

    /// The clue drawn beside its row or column on a grid of side `n`, reading inward.
    pub fn mark(self, n: usize, style: &'static str, text: String) -> Mark {
        let (i, last) = (self.index as isize, n as isize);
        let (at, toward) = match self.side {
            Side::Left => ((i, -1), (0, 1)),
            Side::Right => ((i, last), (0, -1)),
            Side::Top => ((-1, i), (1, 0)),
            Side::Bottom => ((last, i), (-1, 0)),
        };
        Mark::Outside {
            style,
            at,
            toward,
            text,
        }
    }

    /// The clue as people say it: `row 3 from the left`.
    pub fn name(self) -> String {
        let i = self.index + 1;
        match self.side {
            Side::Left => format!("row {i} from the left"),
            Side::Right => format!("row {i} from the right"),
            Side::Top => format!("column {i} from the top"),
            Side::Bottom => format!("column {i} from the bottom"),
        }
    }

    /// The block format's words for it: `left 3`.
    pub fn text(self) -> String {
        let side = match self.side {
            Side::Left => "left",
            Side::Right => "right",
            Side::Top => "top",
            Side::Bottom => "bottom",
        };
        format!("{side} {}", self.index + 1)
    }

    /// Reads `left 3`, `top 5`... (rows and columns from 1).
    pub fn parse(side: &str, index: &str) -> Result<Outside, String> {
        let side = match side {
            "left" => Side::Left,
            "right" => Side::Right,
            "top" => Side::Top,
            "bottom" => Side::Bottom,
            other => return Err(format!("'{other}': a side is left, right, top or bottom")),
        };
        let index = index
            .parse::<usize>()
            .ok()
            .filter(|&i| i >= 1)
            .ok_or_else(|| format!("'{index}': a row or column number, from 1"))?;
        Ok(Outside {
            side,
            index: index - 1,
        })
    }
}

/// Reads one outside clue a line, `SIDE INDEX VALUE` (`left 3 25`), each line with its number
/// in the file for errors.
pub(super) fn parse_outside_clues(
    lines: &[(usize, String)],
) -> Result<Vec<(Outside, u32)>, (usize, String)> {
    lines
        .iter()
        .map(|(line, text)| {
            let words: Vec<&str> = text.split_whitespace().collect();
            let [side, index, value] = words[..] else {
                return Err((
                    *line,
                    format!("'{text}': an outside clue is a side, a row or column and a value"),
                ));
            };
            let at = Outside::parse(side, index).map_err(|why| (*line, why))?;
            let value = value
                .parse::<u32>()
                .map_err(|_| (*line, format!("'{value}' is not a number")))?;
            Ok((at, value))
        })
        .collect()
}

/// Checks that outside clue `k` (from 0) of the rule `name` looks along a row or column of a
/// grid of side `n`.
pub(super) fn validate_outside(
    n: usize,
    name: &'static str,
    k: usize,
    at: Outside,
) -> Result<(), super::RulesError> {
    if at.index >= n {
        return Err(super::RulesError::Clue {
            rule: name,
            index: k + 1,
            cells: Vec::new(),
            why: format!("{} is outside a grid of side {n}", at.name()),
        });
    }
    Ok(())
}
