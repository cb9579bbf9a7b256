//! The symbols two related cells may not hold together, as few secondary items that let the
//! engine's implication rule see the relation whole.
//!
//! A pair relation (a thermometer's "at least one more", a whisper's "at least five apart", a
//! dot) forbids some pairs of symbols (x in the first cell, y in the second). One secondary
//! item per forbidden pair states it, but then the only thing the search learns from the
//! relation is what a placed symbol rules out: two options of a cell share no item of the
//! relation, so the implication rule ("if every option of a primary item holds item j, every
//! other option through j goes") never fires on it.
//!
//! Here the forbidden pairs are covered by *bicliques*: a set X of symbols of the first cell
//! and a set Y of the second, every pair of X x Y forbidden, one secondary item held by the
//! options of X in the first cell and of Y in the second. At most one of them is chosen, as
//! before, and a pair is forbidden exactly when some biclique holds it. Two bicliques per
//! symbol are taken: for a symbol x of the first cell, Y the symbols it forbids in the second
//! and X every symbol that forbids at least those; and the same from each symbol of the second
//! cell. Then a symbol y of the second cell that every symbol left in the first forbids goes
//! by the implication rule: the first cell's options all hold the biclique taken from y, whose
//! Y holds y. So the rule keeps the pair arc-consistent wherever it runs (a thermometer's
//! cells bounded from both ends, a whisper's cells kept apart) with as many nodes as before:
//! on a thermometer of two cells, one biclique per symbol (x at least k, y at most k) instead
//! of one item per forbidden pair.

/// The symbols of `allowed` (bit v for symbol v) among 1 to `n`, in order.
fn symbols_in(n: usize, allowed: u128) -> impl Iterator<Item = u8> {
    (1..=n as u8).filter(move |&v| allowed & 1 << v != 0)
}

/// The bicliques covering the pairs `forbids` rules out among symbols 1 to `n`, counting
/// only those each cell still allows (`first` and `second`, bit v for symbol v): each as the
/// symbols of the first cell and of the second, bit v for symbol v. None is contained in
/// another.
pub(super) fn bicliques(
    n: usize,
    first: u128,
    second: u128,
    forbids: impl Fn(u8, u8) -> bool,
) -> Vec<(u128, u128)> {
    let symbols = |allowed| symbols_in(n, allowed);
    let mut forbidden_by_first = vec![0u128; n + 1];
    let mut forbidden_by_second = vec![0u128; n + 1];
    for x in symbols(first) {
        for y in symbols(second).filter(|&y| forbids(x, y)) {
            forbidden_by_first[usize::from(x)] |= 1 << y;
            forbidden_by_second[usize::from(y)] |= 1 << x;
        }
    }
    // Each symbol's biclique: the symbols it forbids, and on its own side every symbol that
    // forbids at least as much.
    let widest = |forbidden: &[u128], allowed: u128, v: usize| {
        symbols(allowed)
            .filter(|&w| forbidden[usize::from(w)] & forbidden[v] == forbidden[v])
            .fold(0u128, |set, w| set | 1 << w)
    };
    let mut found: Vec<(u128, u128)> = Vec::new();
    for x in symbols(first).map(usize::from) {
        if forbidden_by_first[x] != 0 {
            found.push((widest(&forbidden_by_first, first, x), forbidden_by_first[x]));
        }
    }
    for y in symbols(second).map(usize::from) {
        if forbidden_by_second[y] != 0 {
            found.push((
                forbidden_by_second[y],
                widest(&forbidden_by_second, second, y),
            ));
        }
    }
    found.sort_unstable();
    found.dedup();
    let within = |inner: (u128, u128), outer: (u128, u128)| {
        inner != outer && inner.0 & outer.0 == inner.0 && inner.1 & outer.1 == inner.1
    };
    found
        .iter()
        .filter(|&&biclique| !found.iter().any(|&other| within(biclique, other)))
        .copied()
        .collect()
}

/// The pairs `forbids` rules out among the symbols each cell allows, one by one, in the form
/// of [`bicliques`].
pub(super) fn one_by_one(
    n: usize,
    first: u128,
    second: u128,
    forbids: impl Fn(u8, u8) -> bool,
) -> Vec<(u128, u128)> {
    let symbols = |allowed| symbols_in(n, allowed);
    symbols(first)
        .flat_map(|x| symbols(second).map(move |y| (x, y)))
        .filter(|&(x, y)| forbids(x, y))
        .map(|(x, y)| (1 << x, 1 << y))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::rules::Neighbour;

    const ALL: u128 = 0x3fe; // symbols 1 to 9

    /// The pairs the bicliques hold, as a table.
    fn covered(bicliques: &[(u128, u128)]) -> Vec<(u8, u8)> {
        let mut pairs = Vec::new();
        for x in 1..=9u8 {
            for y in 1..=9u8 {
                if bicliques
                    .iter()
                    .any(|&(xs, ys)| xs & 1 << x != 0 && ys & 1 << y != 0)
                {
                    pairs.push((x, y));
                }
            }
        }
        pairs
    }

    #[test]
    fn a_thermometer_step_is_one_biclique_a_symbol() {
        let found = bicliques(9, ALL, ALL, |x, y| Neighbour::Increasing(1).forbids(x, y));
        assert_eq!(found.len(), 9);
        // The symbol 4: at least 4 in the first cell, at most 4 in the second.
        assert!(found.contains(&(0x3f0, 0x1e)));
    }

    #[test]
    fn different_symbols_keep_one_item_a_symbol() {
        let found = bicliques(9, ALL, ALL, |x, y| x == y);
        assert_eq!(found.len(), 9);
        assert!(
            found
                .iter()
                .all(|&(xs, ys)| xs == ys && xs.count_ones() == 1)
        );
    }

    /// Random relations between two cells of 9 symbols, with some symbols ruled out in each:
    /// the bicliques hold the forbidden pairs and no other, and the implication rule on them
    /// removes exactly the symbols left without a partner.
    #[test]
    fn bicliques_hold_the_forbidden_pairs_and_make_the_rule_arc_consistent() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2000 {
            let table: Vec<bool> = (0..81).map(|_| next() % 3 == 0).collect();
            let forbids = |x: u8, y: u8| table[usize::from(x - 1) * 9 + usize::from(y - 1)];
            let first = next() as u128 & ALL | 2;
            let second = next() as u128 & ALL | 4;
            let found = bicliques(9, first, second, forbids);
            let expected: Vec<(u8, u8)> = (1..=9u8)
                .flat_map(|x| (1..=9u8).map(move |y| (x, y)))
                .filter(|&(x, y)| first & 1 << x != 0 && second & 1 << y != 0 && forbids(x, y))
                .collect();
            let held: Vec<(u8, u8)> = covered(&found)
                .into_iter()
                .filter(|&(x, y)| first & 1 << x != 0 && second & 1 << y != 0)
                .collect();
            assert_eq!(held, expected);
            // The implication rule, once the cells have lost more symbols: every biclique that
            // all the options left in one cell hold removes its symbols of the other cell.
            let left_first = first & (next() as u128 | 2);
            let left_second = second & (next() as u128 | 4);
            let removed_second = found
                .iter()
                .filter(|&&(xs, _)| left_first & xs == left_first)
                .fold(0u128, |set, &(_, ys)| set | ys);
            let removed_first = found
                .iter()
                .filter(|&&(_, ys)| left_second & ys == left_second)
                .fold(0u128, |set, &(xs, _)| set | xs);
            let unsupported_second = (1..=9u8)
                .filter(|&y| (1..=9u8).all(|x| left_first & 1 << x == 0 || forbids(x, y)))
                .fold(0u128, |set, y| set | 1 << y);
            let unsupported_first = (1..=9u8)
                .filter(|&x| (1..=9u8).all(|y| left_second & 1 << y == 0 || forbids(x, y)))
                .fold(0u128, |set, x| set | 1 << x);
            assert_eq!(
                removed_second & left_second,
                unsupported_second & left_second
            );
            assert_eq!(removed_first & left_first, unsupported_first & left_first);
        }
    }
}
