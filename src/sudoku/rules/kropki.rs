//! Kropki dots between two cells that touch along an edge: a white dot's symbols are
//! consecutive, a black dot's are one double the other (a 1 and a 2 may take either).

use super::Mark;
use super::{Cell, Neighbour, Rule, Rules, RulesError, cell_name, parse_marked_pairs};

pub(super) const NAME: &str = "kropki";

/// The colour of a kropki dot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dot {
    /// The two symbols differ by one.
    White,
    /// One symbol is twice the other.
    Black,
}

/// Kropki dots, each between two orthogonally adjacent cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kropki {
    pub dots: Vec<(Dot, Cell, Cell)>,
}

impl Kropki {
    /// Reads one dot a line: `white r1c1 r1c2` or `black r1c1 r2c1`.
    pub fn parse(lines: &[(usize, String)]) -> Result<Kropki, (usize, String)> {
        let dots = parse_marked_pairs(lines, "a dot", |colour| match colour {
            "white" => Ok(Dot::White),
            "black" => Ok(Dot::Black),
            other => Err(format!("'{other}': a kropki dot is white or black")),
        })?;
        Ok(Kropki { dots })
    }
}

impl Rule for Kropki {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a kropki dot"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, &(_, a, b)) in self.dots.iter().enumerate() {
            adjacent_inside(rules.size, NAME, k, a, b)?;
        }
        Ok(())
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        self.dots
            .iter()
            .map(|&(dot, a, b)| {
                let relation = match dot {
                    Dot::White => Neighbour::Consecutive,
                    Dot::Black => Neighbour::Double,
                };
                (a, b, relation)
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        self.dots
            .iter()
            .map(|&(dot, a, b)| Mark::Edge {
                style: match dot {
                    Dot::White => "kropki-white",
                    Dot::Black => "kropki-black",
                },
                cells: [a, b],
                text: String::new(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for &(dot, a, b) in &self.dots {
            let (x, y) = (grid[a.0 * n + a.1], grid[b.0 * n + b.1]);
            let kept = match dot {
                Dot::White => x + 1 == y || y + 1 == x,
                Dot::Black => x * 2 == y || y * 2 == x,
            };
            if !kept {
                return Some(format!(
                    "the {} dot between {} and {} joins {x} and {y}",
                    if dot == Dot::White { "white" } else { "black" },
                    cell_name(a),
                    cell_name(b)
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.dots
            .iter()
            .map(|&(dot, a, b)| {
                let colour = if dot == Dot::White { "white" } else { "black" };
                format!("{colour} {} {}", cell_name(a), cell_name(b))
            })
            .collect()
    }
}

/// Checks that clue `k` (from 0) of the rule `name` joins two cells inside a grid of side `n`
/// that touch along an edge.
pub(super) fn adjacent_inside(
    n: usize,
    name: &'static str,
    k: usize,
    a: Cell,
    b: Cell,
) -> Result<(), RulesError> {
    let bad = |why: String| RulesError::Clue {
        rule: name,
        index: k + 1,
        cells: vec![a, b],
        why,
    };
    if let Some(&cell) = [a, b].iter().find(|&&(r, c)| r >= n || c >= n) {
        return Err(bad(format!("{} is outside the grid", cell_name(cell))));
    }
    if a.0.abs_diff(b.0) + a.1.abs_diff(b.1) != 1 {
        return Err(bad(format!(
            "{} and {} do not touch along an edge",
            cell_name(a),
            cell_name(b)
        )));
    }
    Ok(())
}
