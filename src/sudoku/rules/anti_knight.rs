//! Anti-knight: two cells a chess knight's move apart never hold the same symbol.

use super::{Cell, Neighbour, Rule, Rules, cell_name, pairs_by_steps};

pub(super) const NAME: &str = "anti-knight";

/// Two cells a knight's move apart never hold the same symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AntiKnight;

impl Rule for AntiKnight {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the anti-knight rule"
    }

    fn pairs(&self, rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        pairs_by_steps(
            rules,
            &[(1, -2), (1, 2), (2, -1), (2, 1)],
            Neighbour::Different,
        )
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let (rows, n) = (rules.rows() as isize, rules.size as isize);
        // From every cell, all eight knight's moves.
        for r in 0..rows {
            for c in 0..n {
                for (dr, dc) in [(1, 2), (2, 1), (-1, 2), (-2, 1)] {
                    for (r2, c2) in [(r + dr, c + dc), (r - dr, c - dc)] {
                        if (0..rows).contains(&r2)
                            && (0..n).contains(&c2)
                            && grid[(r * n + c) as usize] == grid[(r2 * n + c2) as usize]
                        {
                            return Some(format!(
                                "{} sees its symbol a knight's move away",
                                cell_name((r as usize, c as usize))
                            ));
                        }
                    }
                }
            }
        }
        None
    }
}
