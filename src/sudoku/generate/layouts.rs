//! The layouts a generator draws afresh for each puzzle: killer cages and the other clues
//! read from a full grid (thermometers, arrows, kropki dots, XV, little killers), and the
//! region map of a jigsaw.

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::sudoku::BoxShape;
use crate::sudoku::rules::{
    Arrow, Arrows, Cage, Cell, Dot, Kropki, LittleKillers, Negated, NegativeClues, Thermometers,
    Xv, connected, orthogonal_neighbours,
};

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

/// The cells that touch cell `c` (at an edge or a corner) in a grid of side `n`.
fn touching(n: usize, c: usize) -> Vec<usize> {
    let (r, col) = ((c / n) as isize, (c % n) as isize);
    let mut cells = Vec::new();
    for dr in -1..=1isize {
        for dc in -1..=1isize {
            let (r2, c2) = (r + dr, col + dc);
            if (dr, dc) != (0, 0) && (0..n as isize).contains(&r2) && (0..n as isize).contains(&c2)
            {
                cells.push(r2 as usize * n + c2 as usize);
            }
        }
    }
    cells
}

fn cell_of(n: usize, c: usize) -> Cell {
    (c / n, c % n)
}

/// About `n / 2` thermometers over `solution`, none sharing a cell: each grows from a
/// random bulb through random touching cells of larger symbols, to three to five cells where
/// it can (a shorter one is dropped).
pub fn random_thermometers(n: usize, solution: &[u8], rng: &mut ChaCha8Rng) -> Thermometers {
    let mut used = vec![false; n * n];
    let mut lines = Vec::new();
    let mut starts: Vec<usize> = (0..n * n).collect();
    starts.shuffle(rng);
    for start in starts {
        if lines.len() >= n.div_ceil(2) || used[start] {
            continue;
        }
        let length = rng.random_range(3..=5).min(n);
        let mut line = vec![start];
        while line.len() < length {
            let last = *line.last().expect("a bulb");
            let next: Vec<usize> = touching(n, last)
                .into_iter()
                .filter(|&x| !used[x] && !line.contains(&x) && solution[x] > solution[last])
                .collect();
            let Some(&next) = next.get(rng.random_range(0..next.len().max(1))) else {
                break;
            };
            line.push(next);
        }
        if line.len() >= 3 {
            for &c in &line {
                used[c] = true;
            }
            lines.push(line.iter().map(|&c| cell_of(n, c)).collect());
        }
    }
    Thermometers { lines }
}

/// About `n / 2` arrows over `solution`, none sharing a cell: a circle on a random cell, and
/// a path of two or three touching cells from it whose symbols add up to the circle's (found
/// by a short random search; a circle with none is skipped).
pub fn random_arrows(n: usize, solution: &[u8], rng: &mut ChaCha8Rng) -> Arrows {
    fn extend(
        n: usize,
        solution: &[u8],
        used: &[bool],
        path: &mut Vec<usize>,
        left: u32,
        rng: &mut ChaCha8Rng,
    ) -> bool {
        if left == 0 {
            return path.len() >= 3;
        }
        if path.len() >= 4 {
            return false;
        }
        let mut next = touching(n, *path.last().expect("a circle"));
        next.shuffle(rng);
        for x in next {
            if used[x] || path.contains(&x) || u32::from(solution[x]) > left {
                continue;
            }
            path.push(x);
            if extend(n, solution, used, path, left - u32::from(solution[x]), rng) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut used = vec![false; n * n];
    let mut arrows = Vec::new();
    let mut starts: Vec<usize> = (0..n * n).collect();
    starts.shuffle(rng);
    for start in starts {
        if arrows.len() >= n.div_ceil(2) || used[start] || solution[start] < 3 {
            continue;
        }
        let mut path = vec![start];
        if extend(
            n,
            solution,
            &used,
            &mut path,
            u32::from(solution[start]),
            rng,
        ) {
            for &c in &path {
                used[c] = true;
            }
            arrows.push(Arrow {
                circle: vec![cell_of(n, path[0])],
                line: path[1..].iter().map(|&c| cell_of(n, c)).collect(),
            });
        }
    }
    Arrows { arrows }
}

/// Every pair of cells that touch along an edge, as (first, second) in reading order.
fn edges(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n * n).flat_map(move |c| {
        let right = (c % n + 1 < n).then_some((c, c + 1));
        let down = (c + n < n * n).then_some((c, c + n));
        right.into_iter().chain(down)
    })
}

/// Every kropki dot `solution` has (white between consecutive symbols, a 1 beside a 2
/// included; black where one is double the other), with the rule that all white dots are
/// given. (With both negative rules a 1 beside a 2 would need two dots: under each rule a
/// pair its dots do not mark may not have its relation.)
pub fn all_kropki_dots(n: usize, solution: &[u8]) -> (Kropki, NegativeClues) {
    let mut dots = Vec::new();
    for (a, b) in edges(n) {
        let (x, y) = (solution[a], solution[b]);
        let dot = if x.abs_diff(y) == 1 {
            Dot::White
        } else if u16::from(x) * 2 == u16::from(y) || u16::from(y) * 2 == u16::from(x) {
            Dot::Black
        } else {
            continue;
        };
        dots.push((dot, cell_of(n, a), cell_of(n, b)));
    }
    let negative = NegativeClues {
        kinds: vec![Negated::White],
    };
    (Kropki { dots }, negative)
}

/// Every X (sum 10) and V (sum 5) that `solution` has, with the rule that all are given.
pub fn all_xv_clues(n: usize, solution: &[u8]) -> (Xv, NegativeClues) {
    let clues = edges(n)
        .filter_map(|(a, b)| {
            let sum = solution[a] + solution[b];
            (sum == 10 || sum == 5).then(|| (sum, cell_of(n, a), cell_of(n, b)))
        })
        .collect();
    let negative = NegativeClues {
        kinds: vec![Negated::Xv],
    };
    (Xv { clues }, negative)
}

/// About `n` little killers over `solution`: diagonals of three cells or more from a random
/// place beside the grid, each with the sum of its symbols.
pub fn random_little_killers(n: usize, solution: &[u8], rng: &mut ChaCha8Rng) -> LittleKillers {
    // Every diagonal that starts at an edge cell and runs inward, once.
    let mut diagonals: Vec<Vec<Cell>> = Vec::new();
    let last = n.saturating_sub(1);
    for i in 0..n {
        for (start, step) in [
            ((0, i), (1, 1)),
            ((0, i), (1, -1)),
            ((last, i), (-1, 1)),
            ((last, i), (-1, -1)),
            ((i, 0), (1, 1)),
            ((i, 0), (-1, 1)),
            ((i, last), (1, -1)),
            ((i, last), (-1, -1)),
        ] {
            let cells = LittleKillers::diagonal(n, start, step);
            let mut set = cells.clone();
            set.sort_unstable();
            // The same diagonal read from its other end is the same clue.
            let seen = diagonals.iter().any(|other| {
                let mut other = other.clone();
                other.sort_unstable();
                other == set
            });
            if cells.len() >= 3 && !seen {
                diagonals.push(cells);
            }
        }
    }
    diagonals.shuffle(rng);
    diagonals.truncate(n);
    let mut clues: Vec<(u32, Vec<Cell>)> = diagonals
        .into_iter()
        .map(|cells| {
            let sum = cells
                .iter()
                .map(|&(r, c)| u32::from(solution[r * n + c]))
                .sum();
            (sum, cells)
        })
        .collect();
    clues.sort_by(|a, b| a.1.cmp(&b.1));
    LittleKillers { clues }
}
