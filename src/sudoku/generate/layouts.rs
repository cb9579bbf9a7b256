//! The layouts a generator draws afresh for each puzzle: killer cages over a full grid, and
//! the region map of a jigsaw.

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::sudoku::BoxShape;
use crate::sudoku::rules::{Cage, connected, orthogonal_neighbours};

/// Cages covering the grid: from each cell not yet caged, in random order, a cage grows by
/// random orthogonal neighbours not yet caged whose symbols it does not hold, to a random size
/// of two to four cells (or less where it cannot grow); its sum is its symbols' in `solution`.
pub fn random_cages(n: usize, solution: &[u8], rng: &mut ChaCha8Rng) -> Vec<Cage> {
    let mut caged = vec![false; n * n];
    let mut starts: Vec<usize> = (0..n * n).collect();
    starts.shuffle(rng);
    let mut cages = Vec::new();
    for start in starts {
        if caged[start] {
            continue;
        }
        let size = rng.random_range(2..=4);
        let mut cells = vec![start];
        caged[start] = true;
        while cells.len() < size {
            let grow: Vec<usize> = cells
                .iter()
                .flat_map(|&c| orthogonal_neighbours(n, c))
                .filter(|&x| !caged[x] && cells.iter().all(|&c| solution[c] != solution[x]))
                .collect();
            let Some(&next) = grow.get(rng.random_range(0..grow.len().max(1))) else {
                break;
            };
            caged[next] = true;
            cells.push(next);
        }
        cells.sort_unstable();
        cages.push(Cage {
            sum: cells.iter().map(|&c| u32::from(solution[c])).sum(),
            cells: cells.iter().map(|&c| (c / n, c % n)).collect(),
        });
    }
    // In reading order of their first cells, as people list them.
    cages.sort_by_key(|cage| cage.cells[0]);
    cages
}

/// A random map of `n` connected regions of `n` cells: the boxes of the most square shape
/// (rows when `n` has none), then many random swaps of two cells on the border between two
/// regions, each kept only if both regions stay connected.
pub fn random_regions(n: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut map: Vec<u8> = match BoxShape::for_size(n) {
        Some(shape) => (0..n * n)
            .map(|i| shape.box_of(i / n, i % n) as u8)
            .collect(),
        None => (0..n * n).map(|i| (i / n) as u8).collect(),
    };
    let neighbours = |cell: usize| orthogonal_neighbours(n, cell);
    for _ in 0..40 * n * n {
        // A cell a of region A that touches region B, and a cell b of B that touches A.
        let a = rng.random_range(0..n * n);
        let others: Vec<usize> = neighbours(a)
            .into_iter()
            .filter(|&x| map[x] != map[a])
            .collect();
        let Some(&toward) = others.get(rng.random_range(0..others.len().max(1))) else {
            continue;
        };
        let (region_a, region_b) = (map[a], map[toward]);
        let candidates: Vec<usize> = (0..n * n)
            .filter(|&b| map[b] == region_b && b != toward)
            .filter(|&b| neighbours(b).iter().any(|&x| map[x] == region_a && x != a))
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let b = candidates[rng.random_range(0..candidates.len())];
        map[a] = region_b;
        map[b] = region_a;
        let cells_of =
            |region: u8| -> Vec<usize> { (0..n * n).filter(|&i| map[i] == region).collect() };
        if !(connected(n, &cells_of(region_a)) && connected(n, &cells_of(region_b))) {
            map[a] = region_a;
            map[b] = region_b;
        }
    }
    // Letters in the order regions first appear, A for r1c1's.
    let mut order = Vec::new();
    for &region in &map {
        if !order.contains(&region) {
            order.push(region);
        }
    }
    map.iter()
        .map(|region| order.iter().position(|r| r == region).unwrap() as u8)
        .collect()
}
