//! Random small problems with colours and multiplicities, the brute force that says which
//! sets of options solve them, and a solution as the sorted lines Knuth's format prints, for
//! the tests of `colors.rs` and `multiplicities.rs`.

use std::collections::BTreeSet;

use proptest::prelude::*;
use xcover::dlx::{ColorId, ItemId, ItemKind, Matrix, OptionId, Problem, format};

/// One item: primary or not, and its bounds (lower, upper; 1 and 1 for plain items).
pub type Item = (bool, u32, u32);
/// One option: (item, colour) pairs; colour 0 is none, 1 and 2 are colours.
pub type Choice = Vec<(usize, u32)>;

/// Problems of 1 to `max_primary` primary and `secondary` secondary items and up to
/// `max_options` options; with `bounds`, primary items get lower bounds 0 to 2 and upper
/// bounds up to 2 more (at least 1).
pub fn problems(
    max_primary: usize,
    secondary: std::ops::RangeInclusive<usize>,
    max_options: usize,
    bounds: bool,
) -> impl Strategy<Value = (Vec<Item>, Vec<Choice>)> {
    (1..=max_primary, secondary).prop_flat_map(move |(primary, secondary)| {
        let n = primary + secondary;
        let limits = if bounds {
            (0u32..=2, 0u32..=2)
        } else {
            (1u32..=1, 0u32..=0)
        };
        let items = proptest::collection::vec(limits, primary).prop_map(move |bounds| {
            let mut items: Vec<Item> = bounds
                .into_iter()
                .map(|(lower, extra)| (true, lower, (lower + extra).max(1)))
                .collect();
            items.extend((0..secondary).map(|_| (false, 0, 1)));
            items
        });
        let option = proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n)
            .prop_flat_map(|items| {
                let len = items.len();
                (Just(items), proptest::collection::vec(0u32..=2, len))
            })
            .prop_map(move |(items, colors)| {
                items
                    .into_iter()
                    .zip(colors)
                    .map(|(i, c)| (i, if i < primary { 0 } else { c }))
                    .collect::<Choice>()
            });
        (items, proptest::collection::vec(option, 0..=max_options))
    })
}

/// The problem, items named `i0`, `i1`, ..., colours `c1` and `c2`.
pub fn build(items: &[Item], options: &[Choice]) -> Problem {
    let mut problem = Problem::new();
    for (i, &(primary, lower, upper)) in items.iter().enumerate() {
        let kind = if primary {
            ItemKind::Primary
        } else {
            ItemKind::Secondary
        };
        let id = problem.add_item(&format!("i{i}"), kind).unwrap();
        if primary {
            problem.set_bounds(id, lower, upper).unwrap();
        }
    }
    let colors: Vec<ColorId> = (1..=2)
        .map(|c| problem.add_color(&format!("c{c}")).unwrap())
        .collect();
    for option in options {
        let pairs: Vec<(ItemId, Option<ColorId>)> = option
            .iter()
            .map(|&(i, c)| {
                (
                    ItemId(i as u32),
                    c.checked_sub(1).map(|c| colors[c as usize]),
                )
            })
            .collect();
        problem.add_colored_option(&pairs).unwrap();
    }
    problem
}

/// Every subset of usable options (those naming a primary item) in which each primary item
/// is covered between its bounds and each secondary item once without a colour, or any
/// number of times with one colour.
pub fn brute_force(items: &[Item], options: &[Choice]) -> BTreeSet<BTreeSet<u32>> {
    let usable: Vec<usize> = (0..options.len())
        .filter(|&k| options[k].iter().any(|&(i, _)| items[i].0))
        .collect();
    let mut found = BTreeSet::new();
    for mask in 0u32..(1 << usable.len()) {
        let chosen: Vec<usize> = (0..usable.len())
            .filter(|b| mask & (1 << b) != 0)
            .map(|b| usable[b])
            .collect();
        let ok = items
            .iter()
            .enumerate()
            .all(|(item, &(primary, lower, upper))| {
                let uses: Vec<u32> = chosen
                    .iter()
                    .flat_map(|&k| {
                        options[k]
                            .iter()
                            .filter(|&&(i, _)| i == item)
                            .map(|&(_, c)| c)
                    })
                    .collect();
                if primary {
                    (lower..=upper).contains(&(uses.len() as u32))
                } else {
                    uses.len() <= 1 || (uses[0] != 0 && uses.iter().all(|&c| c == uses[0]))
                }
            });
        if ok {
            found.insert(chosen.iter().map(|&k| k as u32).collect());
        }
    }
    found
}

/// A solution's options as Knuth's format writes them (colours included), sorted.
pub fn sorted_lines(matrix: &Matrix, solution: &[OptionId]) -> Vec<String> {
    let mut lines: Vec<String> = solution
        .iter()
        .map(|&option| {
            let mut text = Vec::new();
            format::write_option(matrix.problem(), option, &mut text).unwrap();
            String::from_utf8(text).unwrap()
        })
        .collect();
    lines.sort();
    lines
}
