//! Property test of sums over choices (`Problem::add_sum`): on random small problems — cells
//! that each take one value, secondary items that some values of some cells share (with and
//! without colours), and random sums over random cells (with distinct values or not,
//! negative values, terms apart, excluded options) — the engine finds exactly the solutions that trying
//! every assignment of values finds, at every inference setting and either branching, counted
//! and enumerated.

use std::collections::BTreeSet;

use proptest::prelude::*;
use xcover::dlx::{Inference, Matrix, OptionId, Problem, Sum};

/// A random problem: `cells` cells with values `1..=values`; `shared[k]` lists the (cell,
/// value) pairs holding secondary item k (at most one of them in a solution); sums as
/// (cells with signs, min, span, distinct, excluded (cell, value) pairs).
/// A sum of a case: (cell, sign) terms, its least total, how far above it the greatest
/// lies, whether values are distinct, and its excluded (cell, value) pairs.
type CaseSum = (Vec<(usize, i64)>, i64, i64, bool, Vec<(usize, usize)>);

#[derive(Debug, Clone)]
struct Case {
    cells: usize,
    values: usize,
    shared: Vec<Vec<(usize, usize)>>,
    sums: Vec<CaseSum>,
    colored: bool,
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (2usize..=5, 2usize..=4, any::<bool>()).prop_flat_map(|(cells, values, colored)| {
        let pair = (0..cells, 1..=values);
        let shared =
            proptest::collection::vec(proptest::collection::vec(pair.clone(), 2..=3), 0..=4);
        let term = (
            0..cells,
            prop_oneof![3 => Just(1i64), 1 => Just(-1i64), 1 => Just(2i64)],
        );
        let sum = (
            proptest::collection::vec(term, 1..=cells),
            -4i64..=12,
            0i64..=3,
            any::<bool>(),
            proptest::collection::vec(pair, 0..=3),
        );
        let sums = proptest::collection::vec(sum, 1..=3);
        (shared, sums).prop_map(move |(shared, sums)| Case {
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
            sums: sums
                .into_iter()
                .map(|(mut terms, min, span, distinct, excluded)| {
                    // A cell once per sum.
                    terms.sort_by_key(|&(cell, _)| cell);
                    terms.dedup_by_key(|&mut (cell, _)| cell);
                    (terms, min, span, distinct, excluded)
                })
                .collect(),
            colored,
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
    let colour = problem.add_color("red").unwrap();
    for (c, &cell) in cells.iter().enumerate() {
        for v in 1..=case.values {
            let mut items = vec![(cell, None)];
            for (k, holders) in case.shared.iter().enumerate() {
                if holders.contains(&(c, v)) {
                    // With colours, holders of value 1 agree (may go together).
                    let color = (case.colored && v == 1).then_some(colour);
                    items.push((shared[k], color));
                }
            }
            if case.colored && (c + v) % 2 == 0 {
                // Some options open with their secondary items: a node in the column of an
                // item whose colour is settled does not tell whether its option is open.
                items.rotate_left(1);
            }
            problem.add_colored_option(&items).unwrap();
        }
    }
    let option = |c: usize, v: usize| OptionId((c * case.values + v - 1) as u32);
    for (terms, min, span, distinct, excluded) in &case.sums {
        problem
            .add_sum(Sum {
                terms: terms
                    .iter()
                    .map(|&(c, sign)| {
                        (1..=case.values)
                            .map(|v| (option(c, v), sign * v as i64))
                            .collect()
                    })
                    .collect(),
                min: *min,
                max: min + span,
                distinct: *distinct,
                apart: apart_of(terms, *distinct),
                excluded: excluded
                    .iter()
                    .map(|&(c, v)| (option(c, v), v as i64))
                    .collect(),
            })
            .unwrap();
    }
    problem
}

/// Without distinct values, a sum of three terms or more makes its first two apart (their
/// values differ).
fn apart_of(terms: &[(usize, i64)], distinct: bool) -> Vec<Vec<usize>> {
    if distinct || terms.len() < 3 {
        Vec::new()
    } else {
        vec![vec![0, 1]]
    }
}

/// Every assignment of values to cells that the shared items and the sums allow, each as
/// its set of options.
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
        let shared_ok = case.shared.iter().all(|holders| {
            let held: Vec<usize> = holders
                .iter()
                .filter(|&&(c, v)| grid[c] == v)
                .map(|&(_, v)| v)
                .collect();
            // Several holders only where colours let them agree (value 1, coloured).
            held.len() <= 1 || (case.colored && held.iter().all(|&v| v == 1))
        });
        let sums_ok = case
            .sums
            .iter()
            .all(|(terms, min, span, distinct, excluded)| {
                let values: Vec<i64> = terms
                    .iter()
                    .map(|&(c, sign)| sign * grid[c] as i64)
                    .collect();
                let total: i64 = values.iter().sum();
                let mut sorted = values.clone();
                sorted.sort_unstable();
                sorted.dedup();
                (*min..=min + span).contains(&total)
                    && (!distinct || sorted.len() == values.len())
                    && apart_of(terms, *distinct)
                        .iter()
                        .all(|group| values[group[0]] != values[group[1]])
                    && excluded
                        .iter()
                        .all(|&(c, v)| grid[c] != v || !values.contains(&(v as i64)))
            });
        if shared_ok && sums_ok {
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
    fn solutions_with_sums_equal_brute_force(case in case_strategy()) {
        let expected = brute_force(&case);
        let matrix = Matrix::new(build(&case)).unwrap();
        crate::every_setting_finds(&matrix, &expected)?;
    }
}

#[test]
fn a_sum_naming_an_unknown_option_is_refused() {
    let mut problem = Problem::new();
    let a = problem.add_primary("a").unwrap();
    problem.add_option(&[a]).unwrap();
    let error = problem
        .add_sum(Sum {
            terms: vec![vec![(OptionId(3), 1)]],
            min: 1,
            max: 1,
            distinct: false,
            apart: Vec::new(),
            excluded: Vec::new(),
        })
        .unwrap_err();
    assert!(error.to_string().contains("option 3"), "{error}");
    let empty = problem
        .add_sum(Sum {
            terms: vec![Vec::new()],
            min: 0,
            max: 0,
            distinct: false,
            apart: Vec::new(),
            excluded: Vec::new(),
        })
        .unwrap_err();
    assert!(empty.to_string().contains("empty"), "{empty}");
    let stray = problem
        .add_sum(Sum {
            terms: vec![vec![(OptionId(0), 1)]],
            min: 1,
            max: 1,
            distinct: false,
            apart: vec![vec![0, 1]],
            excluded: Vec::new(),
        })
        .unwrap_err();
    assert!(stray.to_string().contains("term 2"), "{stray}");
}

/// The default setting probes where half or more of the options that sums hold lie in sums
/// of distinct values (a killer's cages), and else, on a small problem, leaves the search to
/// the sums' filter alone (little killers, arrows): `docs/sums.md` has the figures.
#[test]
fn auto_probes_where_sums_are_mostly_of_distinct_values() {
    // Three items, each with three options valued 1 to 3; `distinct` says, for each item,
    // whether its term lies in a sum of distinct values (one sum of those, one of the rest).
    let resolved = |distinct: [bool; 3]| {
        let mut problem = Problem::new();
        let mut terms = Vec::new();
        for name in ["a", "b", "c"] {
            let item = problem.add_primary(name).unwrap();
            let term: Vec<(OptionId, i64)> = (1..=3)
                .map(|value| (problem.add_option(&[item]).unwrap(), value))
                .collect();
            terms.push(term);
        }
        for kind in [true, false] {
            let terms: Vec<_> = (terms.iter().zip(distinct))
                .filter(|&(_, d)| d == kind)
                .map(|(term, _)| term.clone())
                .collect();
            if terms.is_empty() {
                continue;
            }
            problem
                .add_sum(Sum {
                    min: 1,
                    max: 3 * terms.len() as i64,
                    terms,
                    distinct: kind,
                    apart: Vec::new(),
                    excluded: Vec::new(),
                })
                .unwrap();
        }
        let matrix = Matrix::new(problem).unwrap();
        let mut solver = matrix.solver();
        let auto = solver.resolved_inference();
        solver.set_inference(Inference::Shallow);
        (auto, solver.resolved_inference())
    };
    let probe = (Inference::Probe, Inference::Shallow);
    let filter_alone = (Inference::None, Inference::Shallow);
    assert_eq!(resolved([true; 3]), probe);
    assert_eq!(resolved([true, true, false]), probe);
    assert_eq!(resolved([true, false, false]), filter_alone);
    assert_eq!(resolved([false; 3]), filter_alone);
}
