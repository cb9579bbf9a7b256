//! Property test of chains over choices (`Problem::add_chain`): on random small problems —
//! cells that each take one value, secondary items that some values of some cells share, a
//! sum now and then, and random chains (random machines of up to three states a layer, not
//! always deterministic, each accepting some word, over random cells, a cell read twice now
//! and then) — the engine
//! finds exactly the solutions that trying every assignment of values finds, at every
//! inference setting and either branching, counted and enumerated. The brute force follows
//! each chain's word through sets of states on its own.

use std::collections::BTreeSet;

use proptest::prelude::*;
use xcover::dlx::{Chain, Matrix, Move, OptionId, Problem, Sum};

/// A chain of a case: the cell each term reads, and per term its moves (from, value, to).
type CaseChain = (Vec<usize>, Vec<Vec<(u32, i64, u32)>>);

#[derive(Debug, Clone)]
struct Case {
    cells: usize,
    values: usize,
    shared: Vec<Vec<(usize, usize)>>,
    chains: Vec<CaseChain>,
    /// A sum of distinct values over the first two cells, equal to this, if any.
    sum: Option<i64>,
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (2usize..=5, 2usize..=4).prop_flat_map(|(cells, values)| {
        let pair = (0..cells, 1..=values);
        let shared = proptest::collection::vec(proptest::collection::vec(pair, 2..=3), 0..=3);
        // Each step has a move from state 0 to state 0, so that each chain accepts some
        // word, and up to seven random ones.
        let step = (
            1..=values as i64,
            proptest::collection::vec((0u32..3, 1..=values as i64, 0u32..3), 0..=7),
        )
            .prop_map(|(value, mut moves)| {
                moves.push((0, value, 0));
                moves
            });
        let chain = (1usize..=cells + 1).prop_flat_map(move |length| {
            (
                proptest::collection::vec(0..cells, length),
                proptest::collection::vec(step.clone(), length),
            )
        });
        let chains = proptest::collection::vec(chain, 1..=3);
        let sum = proptest::option::of(3i64..=6);
        (shared, chains, sum).prop_map(move |(shared, chains, sum)| Case {
            cells,
            values,
            shared: shared
                .into_iter()
                .map(|mut holders| {
                    holders.sort_unstable();
                    holders.dedup();
                    holders
                })
                .collect(),
            chains,
            sum,
        })
    })
}

/// The problem of a case; option `cell * values + value - 1` puts `value` in `cell`.
fn build(case: &Case) -> Problem {
    let mut problem = Problem::new();
    let cells: Vec<_> = (0..case.cells)
        .map(|c| problem.add_primary(&format!("c{c}")).unwrap())
        .collect();
    let shared: Vec<_> = (0..case.shared.len())
        .map(|k| problem.add_secondary(&format!("s{k}")).unwrap())
        .collect();
    for (c, &cell) in cells.iter().enumerate() {
        for v in 1..=case.values {
            let mut items = vec![cell];
            for (k, holders) in case.shared.iter().enumerate() {
                if holders.contains(&(c, v)) {
                    items.push(shared[k]);
                }
            }
            problem.add_option(&items).unwrap();
        }
    }
    let option = |c: usize, v: usize| OptionId((c * case.values + v - 1) as u32);
    for (reads, steps) in &case.chains {
        let terms = reads
            .iter()
            .map(|&c| {
                (1..=case.values)
                    .map(|v| (option(c, v), v as i64))
                    .collect()
            })
            .collect();
        let moves = steps
            .iter()
            .map(|step| {
                step.iter()
                    .map(|&(from, value, to)| Move { from, value, to })
                    .collect()
            })
            .collect();
        problem.add_chain(Chain { terms, moves }).unwrap();
    }
    if let Some(total) = case.sum {
        let terms = (0..2)
            .map(|c| {
                (1..=case.values)
                    .map(|v| (option(c, v), v as i64))
                    .collect()
            })
            .collect();
        problem
            .add_sum(Sum {
                terms,
                min: total,
                max: total,
                distinct: true,
                apart: Vec::new(),
                excluded: Vec::new(),
            })
            .unwrap();
    }
    problem
}

/// Whether the machine of `steps` has a path from state 0 reading `word`.
fn accepts(steps: &[Vec<(u32, i64, u32)>], word: &[i64]) -> bool {
    let mut states = vec![0u32];
    for (step, &value) in steps.iter().zip(word) {
        let mut next: Vec<u32> = step
            .iter()
            .filter(|&&(from, v, _)| v == value && states.contains(&from))
            .map(|&(_, _, to)| to)
            .collect();
        next.sort_unstable();
        next.dedup();
        states = next;
    }
    !states.is_empty()
}

/// Every assignment of values to cells that the shared items, the chains and the sum allow,
/// each as its set of options.
fn brute_force(case: &Case) -> BTreeSet<BTreeSet<u32>> {
    let mut found = BTreeSet::new();
    let total = case.values.pow(case.cells as u32);
    for code in 0..total {
        let mut rest = code;
        let grid: Vec<usize> = (0..case.cells)
            .map(|_| {
                let v = rest % case.values + 1;
                rest /= case.values;
                v
            })
            .collect();
        let shared_ok = case
            .shared
            .iter()
            .all(|holders| holders.iter().filter(|&&(c, v)| grid[c] == v).count() <= 1);
        let chains_ok = case.chains.iter().all(|(reads, steps)| {
            let word: Vec<i64> = reads.iter().map(|&c| grid[c] as i64).collect();
            accepts(steps, &word)
        });
        let sum_ok = case
            .sum
            .is_none_or(|total| grid[0] != grid[1] && (grid[0] + grid[1]) as i64 == total);
        if shared_ok && chains_ok && sum_ok {
            found.insert(
                grid.iter()
                    .enumerate()
                    .map(|(c, &v)| (c * case.values + v - 1) as u32)
                    .collect(),
            );
        }
    }
    found
}

proptest! {
    #![proptest_config(crate::config(1500))]

    #[test]
    fn solutions_with_chains_equal_brute_force(case in case_strategy()) {
        let expected = brute_force(&case);
        let matrix = Matrix::new(build(&case)).unwrap();
        crate::every_setting_finds(&matrix, &expected)?;
    }
}
