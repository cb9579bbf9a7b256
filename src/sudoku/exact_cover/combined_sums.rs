//! Unions of sums: where clues' sums (little killers, sums over cells) lie in cells that see
//! each other across them, the cells of several add up to their totals together, and the
//! symbols that must differ across them bind that total more tightly than each sum binds its
//! own. Four diagonals of 49, crossing the same boxes, need more large symbols there than the
//! boxes hold: each can reach 49 alone, together they cannot reach 196. The sums' filter sees
//! one sum at a time, so such a union is added as a sum of its own, with the units' groups of
//! all its cells. Sums merge two at a time, greedily, while the union's groups bind better
//! than its parts' ([`combined_sums`]); ISS's optimizer combines sums in this way, and the
//! measurements are in `docs/sums.md`. A union of sums holds wherever they do, so counts
//! never change.

use crate::sudoku::rules::Cell;

/// A sum over plain symbols (each cell adds its symbol): its cells (none twice) and the range
/// its total must lie in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PlainSum {
    pub cells: Vec<Cell>,
    pub min: i64,
    pub max: i64,
}

/// The least and greatest totals of cells of symbols 1 to `n` where each group's cells differ:
/// `groups` gives the size of each group, `loose` how many cells lie in none.
fn reach(groups: impl Iterator<Item = usize>, loose: usize, n: usize) -> (i64, i64) {
    let (n, loose) = (n as i64, loose as i64);
    let (mut least, mut most) = (loose, loose * n);
    for k in groups {
        let k = k as i64;
        least += k * (k + 1) / 2;
        most += k * n - k * (k - 1) / 2;
    }
    (least, most)
}

/// How far a total in `min..=max` can stay from the ends of what cells reaching `(least,
/// most)` can make: the freedom the sum leaves them (negative where it cannot be met).
fn slack((least, most): (i64, i64), min: i64, max: i64) -> i64 {
    (max - least).min(most - min)
}

/// How much a sum's groups hold its cells: each group of `k` cells that differ rules out
/// `k * (n - k)` placements of its symbols, less the freedom the total leaves. A sum scoring
/// above zero binds its cells; one scoring below, hardly.
fn score(groups: &[Vec<usize>], cells: usize, (min, max): (i64, i64), n: usize) -> i64 {
    let grouped: usize = groups.iter().map(Vec::len).sum();
    let reached = reach(groups.iter().map(Vec::len), cells - grouped, n);
    let free = slack(reached, min, max);
    let n = n as i64;
    let sizes = groups
        .iter()
        .map(Vec::len)
        .chain(std::iter::repeat_n(1, cells - grouped));
    sizes.map(|k| k as i64 * (n - k as i64) - free).sum()
}

/// A sum in the pool that [`combined_sums`] merges: a clue's, or the union of two in it.
struct Record {
    sum: PlainSum,
    groups: Vec<Vec<usize>>,
    score: i64,
    clue: bool,
}

/// The sums `sums` combine into, each with its cells and its groups of cells that differ
/// (`groups_of`, indices into those cells). Two sums with no cell in common, at least six of
/// whose cells lie in groups with cells of the other, merge into one where that scores above
/// both, or above the two together ([`score`]); the pair scoring highest merges first, and the
/// merged sum takes their place and may merge again. The merged sums scoring above zero are
/// returned, the clues' own never. With more than `most` sums, none; no union holds more
/// than `4 * n` cells (the groups of a union are found by looking at every pair of its cells
/// and their units, for every pair of sums left after each merge).
pub(super) fn combined_sums(
    sums: &[PlainSum],
    groups_of: &dyn Fn(&[Cell]) -> Vec<Vec<usize>>,
    n: usize,
    most: usize,
) -> Vec<(PlainSum, Vec<Vec<usize>>)> {
    if sums.len() > most {
        return Vec::new();
    }
    let largest = 4 * n;
    let record = |sum: PlainSum, clue: bool| {
        let groups = groups_of(&sum.cells);
        let score = score(&groups, sum.cells.len(), (sum.min, sum.max), n);
        Record {
            sum,
            groups,
            score,
            clue,
        }
    };
    let mut pool: Vec<Option<Record>> = sums
        .iter()
        .map(|sum| Some(record(sum.clone(), true)))
        .collect();
    // The union of records `a` and `b`, where they may merge.
    let merge = |a: &Record, b: &Record| -> Option<Record> {
        if a.sum.cells.len() + b.sum.cells.len() > largest
            || a.sum.cells.iter().any(|cell| b.sum.cells.contains(cell))
        {
            return None;
        }
        let cells: Vec<Cell> = a.sum.cells.iter().chain(&b.sum.cells).copied().collect();
        let split = a.sum.cells.len();
        let merged = record(
            PlainSum {
                cells,
                min: a.sum.min + b.sum.min,
                max: a.sum.max + b.sum.max,
            },
            false,
        );
        let crossing: usize = (merged.groups.iter())
            .filter(|group| group.iter().any(|&t| t < split) && group.iter().any(|&t| t >= split))
            .map(Vec::len)
            .sum();
        let better =
            merged.score > a.score && merged.score > b.score || merged.score > a.score + b.score;
        (crossing >= 6 && better).then_some(merged)
    };
    // Every pair that may merge, with its union (the first's slot keeps it, the second's
    // empties); after a merge, the pairs of the merged sum.
    let mut pairs: Vec<(usize, usize, Record)> = Vec::new();
    for i in 0..pool.len() {
        for j in i + 1..pool.len() {
            if let (Some(a), Some(b)) = (&pool[i], &pool[j])
                && let Some(merged) = merge(a, b)
            {
                pairs.push((i, j, merged));
            }
        }
    }
    while let Some(best) =
        (0..pairs.len()).max_by_key(|&p| (pairs[p].2.score, std::cmp::Reverse(p)))
    {
        let (i, j, merged) = pairs.swap_remove(best);
        pool[i] = Some(merged);
        pool[j] = None;
        pairs.retain(|&(a, b, _)| a != i && a != j && b != i && b != j);
        for k in 0..pool.len() {
            if k != i
                && let (Some(a), Some(b)) = (&pool[i], &pool[k])
                && let Some(merged) = merge(a, b)
            {
                pairs.push((i, k, merged));
            }
        }
    }
    pool.into_iter()
        .flatten()
        .filter(|record| !record.clue && record.score > 0)
        .map(|record| (record.sum, record.groups))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Groups by the 3x3 boxes of a 9x9 grid alone, the largest first.
    fn boxes(cells: &[Cell]) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for b in 0..9 {
            let group: Vec<usize> = (0..cells.len())
                .filter(|&t| (cells[t].0 / 3) * 3 + cells[t].1 / 3 == b)
                .collect();
            if group.len() >= 2 {
                groups.push(group);
            }
        }
        groups.sort_by_key(|group| std::cmp::Reverse(group.len()));
        groups
    }

    /// The diagonals going down to the right that hold `length` cells or more.
    fn diagonals(length: usize) -> Vec<Vec<Cell>> {
        let mut lines = Vec::new();
        for start in [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2)] {
            let line: Vec<Cell> = (0..9)
                .map(|i| (start.0 + i, start.1 + i))
                .take_while(|&(r, c)| r < 9 && c < 9)
                .collect();
            if line.len() >= length {
                lines.push(line);
            }
        }
        lines
    }

    #[test]
    fn tight_diagonals_through_the_same_boxes_are_combined_with_their_totals() {
        // Five diagonals of 7 to 9 cells at 49 each: alone, each can reach it; the boxes they
        // cross together hold too few large symbols for all of them.
        let sums: Vec<PlainSum> = diagonals(7)
            .into_iter()
            .map(|cells| PlainSum {
                cells,
                min: 49,
                max: 49,
            })
            .collect();
        let combined = combined_sums(&sums, &boxes, 9, 64);
        assert!(!combined.is_empty());
        for (union, groups) in &combined {
            // A union of whole clues, its total theirs together, its groups within it.
            let parts: Vec<&PlainSum> = sums
                .iter()
                .filter(|sum| sum.cells.iter().all(|cell| union.cells.contains(cell)))
                .collect();
            assert!(parts.len() >= 2);
            assert_eq!(
                parts.iter().map(|sum| sum.cells.len()).sum::<usize>(),
                union.cells.len()
            );
            assert_eq!(union.min, 49 * parts.len() as i64);
            assert_eq!(union.max, union.min);
            assert!(groups.iter().flatten().all(|&t| t < union.cells.len()));
        }
        // With more sums than allowed, none is looked at.
        assert!(combined_sums(&sums, &boxes, 9, sums.len() - 1).is_empty());
    }

    #[test]
    fn sums_far_from_their_ends_or_sharing_a_cell_are_not_combined() {
        // Totals in the middle of what the cells can make: the groups bind nothing.
        let loose: Vec<PlainSum> = diagonals(7)
            .into_iter()
            .map(|cells| PlainSum {
                min: 5 * cells.len() as i64,
                max: 5 * cells.len() as i64,
                cells,
            })
            .collect();
        assert!(combined_sums(&loose, &boxes, 9, 64).is_empty());
        let main: Vec<Cell> = (0..9).map(|i| (i, i)).collect();
        let overlapping = [
            PlainSum {
                cells: main,
                min: 49,
                max: 49,
            },
            PlainSum {
                cells: vec![(0, 0), (1, 0), (2, 0), (2, 1), (1, 2), (0, 2)],
                min: 40,
                max: 40,
            },
        ];
        assert!(combined_sums(&overlapping, &boxes, 9, 64).is_empty());
    }
}
