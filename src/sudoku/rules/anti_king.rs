//! Anti-king: two cells that touch diagonally never hold the same symbol (cells that touch
//! along an edge share a row or a column already).

use super::{Cell, Neighbour, Rule, Rules, cell_name, pairs_by_steps};

pub(super) const NAME: &str = "anti-king";

/// Two cells diagonally touching never hold the same symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AntiKing;

impl Rule for AntiKing {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the anti-king rule"
    }

    fn pairs(&self, rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        pairs_by_steps(rules, &[(1, -1), (1, 1)], Neighbour::Different)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        // Each 2 x 2 square of the grid: its two diagonals.
        for r in 0..rules.rows().saturating_sub(1) {
            for c in 0..n - 1 {
                let at = |r: usize, c: usize| grid[r * n + c];
                if at(r, c) == at(r + 1, c + 1) || at(r, c + 1) == at(r + 1, c) {
                    return Some(format!(
                        "the square at {} holds one symbol diagonally twice",
                        cell_name((r, c))
                    ));
                }
            }
        }
        None
    }
}
