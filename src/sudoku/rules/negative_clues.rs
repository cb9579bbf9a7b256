//! The negative rules of dots and XV, "every clue of this kind is given": two cells that touch
//! along an edge and that no clue of the kind marks do not have its relation. No white dot:
//! not consecutive. No black dot: neither is double the other. No X and no V: they add up to
//! neither 10 nor 5. Each kind looks at its own clues only (a pair with a black dot and no
//! white one may not be consecutive), as f-puzzles and Rangsk's solver read these rules.

use super::kropki::Dot;
use super::{Cell, Constraint, Neighbour, Rule, Rules, RulesError, cell_name};

pub(super) const NAME: &str = "negative";

/// A kind of clue that is given wherever it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Negated {
    /// White kropki dots (consecutive symbols).
    White,
    /// Black kropki dots (one symbol double the other).
    Black,
    /// X and V clues (sums of 10 and 5).
    Xv,
}

impl Negated {
    fn word(self) -> &'static str {
        match self {
            Negated::White => "white",
            Negated::Black => "black",
            Negated::Xv => "xv",
        }
    }
}

/// The kinds of clue that are all given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NegativeClues {
    pub kinds: Vec<Negated>,
}

impl NegativeClues {
    /// Reads one kind a line: `white`, `black` or `xv`.
    pub fn parse(lines: &[(usize, String)]) -> Result<NegativeClues, (usize, String)> {
        let kinds = lines
            .iter()
            .map(|(line, text)| match text.trim() {
                "white" => Ok(Negated::White),
                "black" => Ok(Negated::Black),
                "xv" => Ok(Negated::Xv),
                other => Err((
                    *line,
                    format!("'{other}': the kinds are white, black and xv"),
                )),
            })
            .collect::<Result<_, _>>()?;
        Ok(NegativeClues { kinds })
    }

    /// Whether the cells `a` and `b` carry a clue of `kind` in `rules`.
    fn marked(rules: &Rules, kind: Negated, a: Cell, b: Cell) -> bool {
        let same = |x: Cell, y: Cell| (x, y) == (a, b) || (x, y) == (b, a);
        rules
            .constraints()
            .iter()
            .any(|constraint| match (constraint, kind) {
                (Constraint::Kropki(kropki), Negated::White | Negated::Black) => {
                    let colour = if kind == Negated::White {
                        Dot::White
                    } else {
                        Dot::Black
                    };
                    kropki
                        .dots
                        .iter()
                        .any(|&(dot, x, y)| dot == colour && same(x, y))
                }
                (Constraint::Xv(xv), Negated::Xv) => xv.clues.iter().any(|&(_, x, y)| same(x, y)),
                _ => false,
            })
    }

    /// Every two cells that touch along an edge, each pair once.
    fn edges(n: usize) -> impl Iterator<Item = (Cell, Cell)> {
        (0..n * n).flat_map(move |i| {
            let (r, c) = (i / n, i % n);
            let right = (c + 1 < n).then_some(((r, c), (r, c + 1)));
            let down = (r + 1 < n).then_some(((r, c), (r + 1, c)));
            right.into_iter().chain(down)
        })
    }
}

impl Rule for NegativeClues {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the negative rule of a kind of clue"
    }

    fn validate(&self, _rules: &Rules) -> Result<(), RulesError> {
        for (k, kind) in self.kinds.iter().enumerate() {
            if self.kinds[..k].contains(kind) {
                return Err(RulesError::Clue {
                    rule: NAME,
                    index: k + 1,
                    cells: Vec::new(),
                    why: format!("'{}' is given twice", kind.word()),
                });
            }
        }
        Ok(())
    }

    fn pairs(&self, rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        let mut pairs = Vec::new();
        for (a, b) in Self::edges(rules.size) {
            for &kind in &self.kinds {
                if Self::marked(rules, kind, a, b) {
                    continue;
                }
                match kind {
                    Negated::White => pairs.push((a, b, Neighbour::NotConsecutive)),
                    Negated::Black => pairs.push((a, b, Neighbour::NotDouble)),
                    Negated::Xv => {
                        pairs.push((a, b, Neighbour::NotSum(10)));
                        pairs.push((a, b, Neighbour::NotSum(5)));
                    }
                }
            }
        }
        pairs
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (a, b) in Self::edges(n) {
            let (x, y) = (grid[a.0 * n + a.1], grid[b.0 * n + b.1]);
            for &kind in &self.kinds {
                let holds = match kind {
                    Negated::White => x.abs_diff(y) == 1,
                    Negated::Black => x == 2 * y || y == 2 * x,
                    Negated::Xv => x + y == 10 || x + y == 5,
                };
                if holds && !Self::marked(rules, kind, a, b) {
                    return Some(format!(
                        "{} and {} need a {} clue between them: all are given",
                        cell_name(a),
                        cell_name(b),
                        kind.word()
                    ));
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.kinds
            .iter()
            .map(|kind| kind.word().to_string())
            .collect()
    }
}
