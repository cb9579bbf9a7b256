//! Jigsaw: irregular regions instead of boxes, each of `size` connected cells holding each
//! symbol once.

use super::{Rule, Rules, RulesError, Unit, all_cells};

pub(super) const NAME: &str = "regions";

/// Irregular regions (jigsaw): the region of each cell, row by row, from 0; each of the
/// `size` regions holds each symbol once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regions {
    pub map: Vec<u8>,
}

impl Rule for Regions {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the regions"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        if self.map.len() != n * n || self.map.iter().any(|&r| usize::from(r) >= n) {
            return Err(RulesError::BadSize(format!(
                "the region map must give each of the {} cells one of {n} regions",
                n * n
            )));
        }
        for region in 0..n {
            let cells: Vec<usize> = (0..n * n)
                .filter(|&i| usize::from(self.map[i]) == region)
                .collect();
            if cells.len() != n {
                return Err(RulesError::RegionSize(region_name(region), cells.len()));
            }
            if !connected(n, &cells) {
                return Err(RulesError::RegionNotConnected(region_name(region)));
            }
        }
        Ok(())
    }

    fn units(&self, rules: &Rules) -> Vec<Unit> {
        let n = rules.size;
        (0..n)
            .map(|region| {
                let name = region_name(region);
                Unit {
                    tag: format!("g{name}"),
                    name: format!("region {name}"),
                    cells: all_cells(n)
                        .filter(|&(r, c)| usize::from(self.map[r * n + c]) == region)
                        .collect(),
                }
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let mut seen = vec![vec![false; n + 1]; n];
        for (&region, &v) in self.map.iter().zip(grid) {
            if std::mem::replace(&mut seen[usize::from(region)][usize::from(v)], true) {
                return Some(format!(
                    "region {} holds {v} twice",
                    region_name(usize::from(region))
                ));
            }
        }
        None
    }
}

/// The letter of region `index` (from 0, below 26) in maps: A, B, ...
pub fn region_letter(index: usize) -> char {
    char::from(b'A' + index as u8)
}

/// The name of region `index` (from 0) in messages and maps: its letter up to Z, else its
/// number from 1 (27 for the 27th), as maps of more than 26 regions write them.
pub fn region_name(index: usize) -> String {
    if index < 26 {
        region_letter(index).to_string()
    } else {
        (index + 1).to_string()
    }
}

/// The cells (indices row * n + col) above, below, left and right of `cell` in a grid of side
/// `n`.
pub(crate) fn orthogonal_neighbours(n: usize, cell: usize) -> Vec<usize> {
    let (r, c) = (cell / n, cell % n);
    let mut neighbours = Vec::with_capacity(4);
    if r > 0 {
        neighbours.push(cell - n);
    }
    if r + 1 < n {
        neighbours.push(cell + n);
    }
    if c > 0 {
        neighbours.push(cell - 1);
    }
    if c + 1 < n {
        neighbours.push(cell + 1);
    }
    neighbours
}

/// Whether `cells` (indices row * n + col) are connected through orthogonal neighbours.
pub(crate) fn connected(n: usize, cells: &[usize]) -> bool {
    let Some(&start) = cells.first() else {
        return true;
    };
    let mut seen = vec![start];
    let mut stack = vec![start];
    while let Some(cell) = stack.pop() {
        for other in orthogonal_neighbours(n, cell) {
            if cells.contains(&other) && !seen.contains(&other) {
                seen.push(other);
                stack.push(other);
            }
        }
    }
    seen.len() == cells.len()
}
