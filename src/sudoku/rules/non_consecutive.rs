//! Non-consecutive: two cells that touch along an edge never hold symbols one apart.

use super::{Cell, Neighbour, Rule, Rules, cell_name, pairs_by_steps};

pub(super) const NAME: &str = "non-consecutive";

/// Two orthogonally adjacent cells never hold consecutive symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonConsecutive;

impl Rule for NonConsecutive {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the non-consecutive rule"
    }

    fn pairs(&self, rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        pairs_by_steps(rules, &[(0, 1), (1, 0)], Neighbour::NotConsecutive)
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (i, pair) in grid.windows(2).enumerate() {
            // Side by side in one row.
            if (i + 1) % n != 0 && pair[0].abs_diff(pair[1]) == 1 {
                return Some(format!(
                    "{} and its right neighbour are consecutive",
                    cell_name((i / n, i % n))
                ));
            }
        }
        for i in 0..grid.len().saturating_sub(n) {
            if grid[i].abs_diff(grid[i + n]) == 1 {
                return Some(format!(
                    "{} and the cell below it are consecutive",
                    cell_name((i / n, i % n))
                ));
            }
        }
        None
    }
}
