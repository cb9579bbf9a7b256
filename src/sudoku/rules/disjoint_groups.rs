//! Disjoint groups: the cells at the same place in every box (the top-left cell of each box,
//! and so on) hold each symbol once. With boxes of R rows and C columns there are R x C such
//! groups of N cells, each one more unit.

use super::{Rule, Rules, RulesError, Unit, cell_name, repeats};

pub(super) const NAME: &str = "disjoint-groups";

/// The cells at one place in every box hold each symbol once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisjointGroups;

impl Rule for DisjointGroups {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the disjoint groups"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        match rules.boxes {
            Some(_) => Ok(()),
            None => Err(RulesError::BadSize(
                "disjoint groups are the places within boxes: they need boxes".to_string(),
            )),
        }
    }

    fn units(&self, rules: &Rules) -> Vec<Unit> {
        let n = rules.size;
        let Some(shape) = rules.boxes else {
            return Vec::new();
        };
        let (rows, cols) = (shape.box_rows(), shape.box_cols());
        (0..rows)
            .flat_map(|i| (0..cols).map(move |j| (i, j)))
            .enumerate()
            .map(|(k, (i, j))| Unit {
                tag: format!("j{}", k + 1),
                name: format!("the disjoint group of {}", cell_name((i, j))),
                cells: (0..n / rows)
                    .flat_map(|band| {
                        (0..n / cols).map(move |stack| (band * rows + i, stack * cols + j))
                    })
                    .collect(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let shape = rules.boxes?;
        // Cells whose row and column leave the same remainders by the box's height and width.
        for i in 0..shape.box_rows() {
            for j in 0..shape.box_cols() {
                let cells = (0..n * n)
                    .map(|index| (index / n, index % n))
                    .filter(|&(r, c)| r % shape.box_rows() == i && c % shape.box_cols() == j);
                if let Some(v) = repeats(grid, n, cells) {
                    return Some(format!(
                        "the disjoint group of {} holds {v} twice",
                        cell_name((i, j))
                    ));
                }
            }
        }
        None
    }
}
