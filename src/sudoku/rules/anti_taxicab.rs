//! Anti-taxicab: a cell holding X has no cell holding X exactly X steps away, counting steps
//! between cells that share an edge (rows plus columns apart).

use super::{Cell, Neighbour, Rule, Rules, all_cells, cell_name};

pub(super) const NAME: &str = "anti-taxicab";

/// The anti-taxicab rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AntiTaxicab;

impl Rule for AntiTaxicab {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the anti-taxicab rule"
    }

    fn pairs(&self, rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        let n = rules.size;
        let cells: Vec<Cell> = all_cells(n).collect();
        let mut pairs = Vec::new();
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                let distance = a.0.abs_diff(b.0) + a.1.abs_diff(b.1);
                if distance >= 2 && distance <= n {
                    pairs.push((a, b, Neighbour::NotBoth(distance as u8)));
                }
            }
        }
        pairs
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (r, c) in all_cells(n) {
            let x = usize::from(grid[r * n + c]);
            for (r2, c2) in all_cells(n) {
                if r.abs_diff(r2) + c.abs_diff(c2) == x && usize::from(grid[r2 * n + c2]) == x {
                    return Some(format!(
                        "{} and {} both hold {x}, {x} steps apart",
                        cell_name((r, c)),
                        cell_name((r2, c2))
                    ));
                }
            }
        }
        None
    }
}
