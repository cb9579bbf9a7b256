//! An independent judge of filled variant grids, sharing no code with the encoding: each rule
//! is read straight from [`Rules`] and checked on the grid cell by cell, so a mistake in how
//! the encoding builds units, neighbour pairs or cage options cannot hide itself here.

use super::Rules;

/// The first rule a filled grid (row by row, symbols from 1) breaks, described; `None` when
/// it keeps every rule. Givens that the grid overwrote are a broken rule too.
pub fn broken_rule(rules: &Rules, givens: &[u8], grid: &[u8]) -> Option<String> {
    let n = rules.size;
    if grid.len() != n * n {
        return Some(format!("the grid has {} cells, not {}", grid.len(), n * n));
    }
    let at = |r: usize, c: usize| grid[r * n + c];
    for r in 0..n {
        for c in 0..n {
            let v = at(r, c);
            if v == 0 || usize::from(v) > n {
                return Some(format!(
                    "r{}c{} holds no symbol from 1 to {n}",
                    r + 1,
                    c + 1
                ));
            }
            if givens.get(r * n + c).is_some_and(|&g| g != 0 && g != v) {
                return Some(format!("r{}c{} does not hold its given", r + 1, c + 1));
            }
        }
    }
    // Each group must hold every symbol once.
    let holds_all = |cells: &mut dyn Iterator<Item = (usize, usize)>| {
        let mut seen = vec![false; n + 1];
        let mut count = 0;
        for (r, c) in cells {
            count += 1;
            let v = usize::from(at(r, c));
            if std::mem::replace(&mut seen[v], true) {
                return false;
            }
        }
        count == n
    };
    for i in 0..n {
        if !holds_all(&mut (0..n).map(|c| (i, c))) {
            return Some(format!("row {} repeats a symbol", i + 1));
        }
        if !holds_all(&mut (0..n).map(|r| (r, i))) {
            return Some(format!("column {} repeats a symbol", i + 1));
        }
    }
    if let Some(shape) = rules.boxes {
        let (h, w) = (shape.box_rows(), shape.box_cols());
        for top in (0..n).step_by(h) {
            for left in (0..n).step_by(w) {
                let mut cells = (top..top + h).flat_map(|r| (left..left + w).map(move |c| (r, c)));
                if !holds_all(&mut cells) {
                    return Some(format!(
                        "the box at r{}c{} repeats a symbol",
                        top + 1,
                        left + 1
                    ));
                }
            }
        }
    }
    if let Some(regions) = &rules.regions {
        let mut seen = vec![vec![false; n + 1]; n];
        for (i, &region) in regions.iter().enumerate() {
            let v = usize::from(grid[i]);
            if std::mem::replace(&mut seen[usize::from(region)][v], true) {
                return Some(format!("region {} repeats {v}", char::from(b'A' + region)));
            }
        }
    }
    if rules.diagonals {
        if !holds_all(&mut (0..n).map(|i| (i, i))) {
            return Some("the main diagonal repeats a symbol".into());
        }
        if !holds_all(&mut (0..n).map(|i| (i, n - 1 - i))) {
            return Some("the anti-diagonal repeats a symbol".into());
        }
    }
    if rules.windows {
        let k = rules.boxes.map_or(0, |shape| shape.box_rows());
        // On 9x9 the windows start at rows and columns 2 and 6 (from 1).
        let starts: Vec<usize> = (0..k.saturating_sub(1)).map(|i| 1 + i * (k + 1)).collect();
        for &top in &starts {
            for &left in &starts {
                let mut cells = (top..top + k).flat_map(|r| (left..left + k).map(move |c| (r, c)));
                if !holds_all(&mut cells) {
                    return Some(format!(
                        "the window at r{}c{} repeats a symbol",
                        top + 1,
                        left + 1
                    ));
                }
            }
        }
    }
    // The neighbour rules, from every cell in every direction.
    const KNIGHT: [(isize, isize); 8] = [
        (1, 2),
        (2, 1),
        (-1, 2),
        (-2, 1),
        (1, -2),
        (2, -1),
        (-1, -2),
        (-2, -1),
    ];
    const KING: [(isize, isize); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const ORTHOGONAL: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    for r in 0..n {
        for c in 0..n {
            let v = at(r, c);
            let neighbours = |steps: &'static [(isize, isize)]| {
                steps.iter().filter_map(move |&(dr, dc)| {
                    let (r2, c2) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
                    (r2 < n && c2 < n).then_some((r2, c2))
                })
            };
            if rules.anti_knight && neighbours(&KNIGHT).any(|(r2, c2)| at(r2, c2) == v) {
                return Some(format!(
                    "r{}c{} sees its symbol a knight's move away",
                    r + 1,
                    c + 1
                ));
            }
            if rules.anti_king && neighbours(&KING).any(|(r2, c2)| at(r2, c2) == v) {
                return Some(format!("r{}c{} sees its symbol diagonally", r + 1, c + 1));
            }
            if rules.non_consecutive
                && neighbours(&ORTHOGONAL).any(|(r2, c2)| at(r2, c2).abs_diff(v) == 1)
            {
                return Some(format!("r{}c{} has a consecutive neighbour", r + 1, c + 1));
            }
        }
    }
    for (k, cage) in rules.cages.iter().enumerate() {
        let values: Vec<u8> = cage.cells.iter().map(|&(r, c)| at(r, c)).collect();
        let sum: u32 = values.iter().map(|&v| u32::from(v)).sum();
        if sum != cage.sum {
            return Some(format!("cage {} adds up to {sum}, not {}", k + 1, cage.sum));
        }
        for (i, v) in values.iter().enumerate() {
            if values[i + 1..].contains(v) {
                return Some(format!("cage {} repeats {v}", k + 1));
            }
        }
    }
    None
}
