//! Property test: on random small problems, the engine finds exactly the solutions that a
//! brute-force enumeration of option subsets finds, with and without options chosen up front,
//! at every inference setting.

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use xcover::dlx::{Branching, Inference, ItemId, ItemKind, Matrix, OptionId, Problem, Verdict};

/// A random problem: item kinds, then options as item-index sets.
pub fn problem_strategy() -> impl Strategy<Value = (Vec<bool>, Vec<Vec<usize>>)> {
    (1usize..=5, 0usize..=3).prop_flat_map(|(primary, secondary)| {
        let n = primary + secondary;
        let kinds: Vec<bool> = (0..n).map(|i| i < primary).collect();
        let option = proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n);
        (Just(kinds), proptest::collection::vec(option, 0..=10))
    })
}

pub fn build(kinds: &[bool], options: &[Vec<usize>]) -> Problem {
    let mut problem = Problem::new();
    let ids: Vec<_> = kinds
        .iter()
        .enumerate()
        .map(|(i, &primary)| {
            let kind = if primary {
                ItemKind::Primary
            } else {
                ItemKind::Secondary
            };
            problem.add_item(&format!("i{i}"), kind).unwrap()
        })
        .collect();
    for option in options {
        let items: Vec<_> = option.iter().map(|&i| ids[i]).collect();
        problem.add_option(&items).unwrap();
    }
    problem
}

/// Every subset of options (leaving out those with only secondary items, as DLX1 does) that
/// covers each primary item once and each secondary item at most once.
pub fn brute_force(kinds: &[bool], options: &[Vec<usize>]) -> BTreeSet<BTreeSet<u32>> {
    let usable: Vec<usize> = (0..options.len())
        .filter(|&k| options[k].iter().any(|&i| kinds[i]))
        .collect();
    let mut found = BTreeSet::new();
    for mask in 0u32..(1 << usable.len()) {
        let mut covered = vec![0; kinds.len()];
        let chosen: Vec<usize> = (0..usable.len())
            .filter(|b| mask & (1 << b) != 0)
            .map(|b| usable[b])
            .collect();
        for &k in &chosen {
            for &i in &options[k] {
                covered[i] += 1;
            }
        }
        let ok = kinds
            .iter()
            .zip(&covered)
            .all(|(&primary, &c)| if primary { c == 1 } else { c <= 1 });
        if ok {
            found.insert(chosen.iter().map(|&k| k as u32).collect());
        }
    }
    found
}

fn as_set(solution: &[OptionId]) -> BTreeSet<u32> {
    solution.iter().map(|o| o.0).collect()
}

proptest! {
    #![proptest_config(crate::config(2000))]

    #[test]
    fn solutions_equal_brute_force((kinds, options) in problem_strategy()) {
        let expected = brute_force(&kinds, &options);
        let matrix = Matrix::new(build(&kinds, &options)).unwrap();
        let settings = Inference::ALL.into_iter().flat_map(|inference| {
            [Branching::Fewest, Branching::Conflicts].map(|branching| (inference, branching))
        });
        for (inference, branching) in settings {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            solver.set_branching(branching);
            // A search branching on its conflicts is one part.
            prop_assert_eq!(solver.can_split(), branching == Branching::Fewest);
            let found: Vec<BTreeSet<u32>> = solver.solutions().map(|s| as_set(&s)).collect();
            prop_assert_eq!(found.len(), expected.len(), "{}: no solution twice", inference);
            prop_assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), expected.clone());
            prop_assert_eq!(solver.count(None), expected.len() as u128);
            // A search dropped half-way puts the links back as they were.
            prop_assert_eq!(solver.count(Some(1)), expected.len().min(1) as u128);
            prop_assert_eq!(solver.count(None), expected.len() as u128, "{}", inference);
        }
        // The default setting ([`Inference::Auto`]) was checked above; its limit and verdict:
        let mut solver = matrix.solver();
        prop_assert_eq!(solver.count(Some(1)), expected.len().min(1) as u128);
        match solver.verdict() {
            Verdict::None => prop_assert!(expected.is_empty()),
            Verdict::Unique(s) => {
                prop_assert_eq!(expected.len(), 1);
                prop_assert!(expected.contains(&as_set(&s)));
            }
            Verdict::Multiple(a, b) => {
                prop_assert!(expected.len() >= 2);
                prop_assert!(expected.contains(&as_set(&a)) && expected.contains(&as_set(&b)));
                prop_assert_ne!(as_set(&a), as_set(&b));
            }
        }
    }

    #[test]
    fn items_given_to_the_exclusion_rule_keep_exactly_the_solutions(
        (kinds, options) in problem_strategy(),
        watched in proptest::collection::vec(any::<bool>(), 5),
    ) {
        let expected = brute_force(&kinds, &options);
        let mut problem = build(&kinds, &options);
        let items: Vec<_> = (0..kinds.len())
            .filter(|&i| kinds[i] && watched[i])
            .map(|i| ItemId(i as u32))
            .collect();
        problem.add_exclusion_items(&items).unwrap();
        let matrix = Matrix::new(problem).unwrap();
        for inference in Inference::ALL {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            let found: BTreeSet<BTreeSet<u32>> = solver.solutions().map(|s| as_set(&s)).collect();
            prop_assert_eq!(&found, &expected, "{}", inference);
            prop_assert_eq!(solver.count(None), expected.len() as u128, "{}", inference);
        }
    }

    #[test]
    fn chosen_options_keep_exactly_the_solutions_containing_them(
        (kinds, options) in problem_strategy(),
        pick in 0usize..10,
    ) {
        prop_assume!(!options.is_empty());
        let pick = pick % options.len();
        let matrix = Matrix::new(build(&kinds, &options)).unwrap();
        let mut solver = matrix.solver();
        let chosen = solver.choose(OptionId(pick as u32));
        if options[pick].iter().all(|&i| !kinds[i]) {
            prop_assert!(chosen.is_err(), "a dropped option cannot be chosen");
            return Ok(());
        }
        prop_assert!(chosen.is_ok());
        let expected: BTreeSet<_> = brute_force(&kinds, &options)
            .into_iter()
            .filter(|s| s.contains(&(pick as u32)))
            .collect();
        let found: BTreeSet<_> = solver.solutions().map(|s| as_set(&s)).collect();
        prop_assert_eq!(found, expected);
        solver.unchoose_all();
        prop_assert_eq!(solver.count(None), brute_force(&kinds, &options).len() as u128);
    }
}

/// Chooses the first `take` options of up to three solutions in turn, counting with them
/// chosen and after taking them back: taking back many is one copy of the links as they
/// were, few are taken back one by one, and either must leave the problem whole.
fn check_taken_back(
    kinds: &[bool],
    options: &[Vec<usize>],
    take: usize,
) -> Result<(), TestCaseError> {
    let expected = brute_force(kinds, options);
    let matrix = Matrix::new(build(kinds, options)).unwrap();
    let mut solver = matrix.solver();
    for solution in expected.iter().take(3) {
        let chosen: Vec<u32> = solution.iter().copied().take(take).collect();
        for &option in &chosen {
            solver.choose(OptionId(option)).unwrap();
        }
        let containing = expected
            .iter()
            .filter(|s| chosen.iter().all(|o| s.contains(o)))
            .count();
        prop_assert_eq!(solver.count(None), containing as u128);
        solver.unchoose_all();
        prop_assert_eq!(solver.count(None), expected.len() as u128);
        // A search ended half-way with the options it was under taken back at once, at
        // every setting (inference keeps removals on the trail at the root and below).
        for inference in Inference::ALL {
            solver.set_inference(inference);
            for &option in &chosen {
                solver.choose(OptionId(option)).unwrap();
            }
            let mut search = solver.search();
            prop_assert!(search.next_solution().is_some(), "{}", inference);
            search.end_unchoosing_all();
            prop_assert_eq!(solver.chosen().count(), 0);
            prop_assert_eq!(solver.count(None), expected.len() as u128, "{}", inference);
        }
        solver.set_inference(Inference::Auto);
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::config(256))]

    #[test]
    fn options_taken_back_leave_the_problem_whole(
        (kinds, options) in problem_strategy(),
        take in 0usize..6,
    ) {
        check_taken_back(&kinds, &options, take)?;
    }
}

/// A random problem with 20 to 26 primary items (so that the item choice scans header lengths
/// in blocks, not only the short list): a planted exact cover of the primary items, so that
/// solutions exist, and random options beside it; 14 options at most for the brute force.
fn wide_problem_strategy() -> impl Strategy<Value = (Vec<bool>, Vec<Vec<usize>>)> {
    (20usize..=26, 0usize..=3, 3usize..=7).prop_flat_map(|(primary, secondary, groups)| {
        let n = primary + secondary;
        let kinds: Vec<bool> = (0..n).map(|i| i < primary).collect();
        let planted = proptest::collection::vec(0..groups, primary);
        let extra = proptest::collection::vec(
            proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=7),
            0..=14 - groups,
        );
        (Just(kinds), Just(groups), planted, extra).prop_map(|(kinds, groups, planted, extra)| {
            let mut options: Vec<Vec<usize>> = (0..groups)
                .map(|g| (0..planted.len()).filter(|&i| planted[i] == g).collect())
                .filter(|o: &Vec<usize>| !o.is_empty())
                .collect();
            options.extend(extra);
            (kinds, options)
        })
    })
}

proptest! {
    #![proptest_config(crate::config(300))]

    #[test]
    fn wide_problems_equal_brute_force((kinds, options) in wide_problem_strategy()) {
        let expected = brute_force(&kinds, &options);
        prop_assert!(!expected.is_empty(), "the planted cover is a solution");
        let matrix = Matrix::new(build(&kinds, &options)).unwrap();
        for inference in Inference::ALL {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            let found: Vec<BTreeSet<u32>> = solver.solutions().map(|s| as_set(&s)).collect();
            prop_assert_eq!(found.len(), expected.len(), "{}", inference);
            prop_assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), expected.clone());
        }
        let mut solver = matrix.solver();
        // The branch item's options split the search into disjoint parts that hold every
        // solution: what a parallel or sharded search hands out.
        let branch = solver.branch().expect("primary items to cover");
        let mut parts = 0;
        for option in branch.options {
            solver.choose(option).unwrap();
            parts += solver.count(None);
            solver.unchoose_all();
        }
        prop_assert_eq!(parts, expected.len() as u128);
    }

    #[test]
    fn options_taken_back_leave_wide_problems_whole(
        (kinds, options) in wide_problem_strategy(),
        take in 1usize..5,
    ) {
        check_taken_back(&kinds, &options, take)?;
    }

    #[test]
    fn a_resumed_search_yields_exactly_the_uninterrupted_solutions(
        (kinds, options) in problem_strategy(),
        budget in 1u64..=4,
    ) {
        let matrix = Matrix::new(build(&kinds, &options)).unwrap();
        // Searches that branch on their conflicts with the rules at every node also refute
        // options and enter a node again (where a pause can fall); probing ones do not.
        let settings = [
            (Branching::Fewest, Inference::Auto),
            (Branching::Conflicts, Inference::EveryNode),
            (Branching::Conflicts, Inference::Probe),
        ];
        for (branching, inference) in settings {
            let mut solver = matrix.solver();
            solver.set_branching(branching);
            solver.set_inference(inference);
            let whole: Vec<Vec<OptionId>> = solver.solutions().collect();
            let whole_nodes = solver.stats().nodes;
            solver.reset_stats();
            solver.set_node_limit(Some(budget));
            let mut resumed = Vec::new();
            let mut stops = 0;
            let mut search = solver.search();
            loop {
                let next = search.next_solution().map(|solution| solution.to_vec());
                match next {
                    Some(solution) => resumed.push(solution),
                    None if search.stopped().is_some() => {
                        stops += 1;
                        search.set_node_limit(Some(budget));
                    }
                    None => break,
                }
            }
            drop(search);
            prop_assert_eq!(&resumed, &whole);
            prop_assert_eq!(solver.stats().nodes, whole_nodes, "no node entered twice");
            prop_assert!(stops as u64 >= whole_nodes.saturating_sub(1) / budget);
            // A search dropped at each of its pauses in turn leaves the links as they were.
            for pause in 1..=stops.min(8) {
                solver.set_node_limit(Some(budget));
                let mut search = solver.search();
                for _ in 0..pause {
                    search.set_node_limit(Some(budget));
                    while search.next_solution().is_some() {}
                }
                drop(search);
                solver.set_node_limit(None);
                prop_assert_eq!(solver.count(None), whole.len() as u128);
            }
        }
    }
}

proptest! {
    #![proptest_config(crate::config(500))]

    /// Restarts (with a budget of one branch point, so that runs really are abandoned and
    /// repeated in shuffled orders) give the verdict brute force gives, with and without an
    /// option chosen before the search, at every inference setting.
    #[test]
    fn restarts_give_the_brute_force_verdict(
        (kinds, options) in wide_problem_strategy(),
        seed in 0u64..1000,
        choose_last in any::<bool>(),
    ) {
        let matrix = Matrix::new(build(&kinds, &options)).unwrap();
        let mut chosen = None;
        let mut expected = brute_force(&kinds, &options);
        // The last option: often an extra one, in no solution, so "none" is tested too.
        let last = options.len() - 1;
        if choose_last && options[last].iter().any(|&i| kinds[i]) {
            chosen = Some(OptionId(last as u32));
            expected.retain(|solution| solution.contains(&(last as u32)));
        }
        for inference in Inference::ALL {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            if let Some(option) = chosen {
                solver.choose(option).unwrap();
            }
            match solver.verdict_restarting_from(seed, 1) {
                Verdict::None => prop_assert!(expected.is_empty(), "{}", inference),
                Verdict::Unique(s) => {
                    prop_assert_eq!(expected.len(), 1, "{}", inference);
                    prop_assert!(expected.contains(&as_set(&s)));
                }
                Verdict::Multiple(a, b) => {
                    prop_assert!(expected.len() >= 2, "{}", inference);
                    prop_assert_ne!(as_set(&a), as_set(&b));
                    prop_assert!(expected.contains(&as_set(&a)) && expected.contains(&as_set(&b)));
                }
            }
            prop_assert_eq!(solver.stats().solutions, expected.len().min(2) as u128);
        }
    }
}

/// A random partial Latin square of side 2 to 4 as exact cover, with one-to-one blocks
/// declared (each row's cells against its symbols, each column's likewise, each symbol's rows
/// against its columns): the options are a random subset of the (row, column, symbol)
/// triples, some with a secondary item (a random one of three) added, a few twice (two
/// options with the same two items of each block: the search then reads those blocks' edges
/// from the links instead of tracking them); a few triples may be chosen up front.
fn latin_with_blocks_strategy()
-> impl Strategy<Value = (usize, Vec<bool>, Vec<Option<usize>>, Vec<bool>, usize)> {
    (2usize..=4).prop_flat_map(|side| {
        let triples = side * side * side;
        (
            Just(side),
            proptest::collection::vec(proptest::bool::weighted(0.7), triples),
            proptest::collection::vec(proptest::option::weighted(0.2, 0usize..3), triples),
            proptest::collection::vec(proptest::bool::weighted(0.05), triples),
            0usize..3,
        )
    })
}

/// The problem of [`latin_with_blocks_strategy`], with or without its blocks; the problem
/// option of each kept triple.
fn latin_problem(
    side: usize,
    kept: &[bool],
    secondary: &[Option<usize>],
    twice: &[bool],
    blocks: bool,
) -> Problem {
    let mut problem = Problem::new();
    let mut items = |prefix: &str| -> Vec<_> {
        (0..side * side)
            .map(|k| problem.add_primary(&format!("{prefix}{k}")).unwrap())
            .collect()
    };
    let (cell, row, column) = (items("p"), items("r"), items("c"));
    let extra: Vec<_> = (0..3)
        .map(|k| problem.add_secondary(&format!("s{k}")).unwrap())
        .collect();
    for t in 0..side * side * side {
        let (r, c, v) = (t / (side * side), t / side % side, t % side);
        if kept[t] {
            let mut items = vec![cell[r * side + c], row[r * side + v], column[c * side + v]];
            items.extend(secondary[t].map(|s| extra[s]));
            problem.add_option(&items).unwrap();
            if twice[t] {
                problem.add_option(&items[..3]).unwrap();
            }
        }
    }
    if blocks {
        for i in 0..side {
            let range = i * side..(i + 1) * side;
            let cells_of_column: Vec<_> = (0..side).map(|r| cell[r * side + i]).collect();
            let rows_of_symbol: Vec<_> = (0..side).map(|r| row[r * side + i]).collect();
            let columns_of_symbol: Vec<_> = (0..side).map(|c| column[c * side + i]).collect();
            problem
                .add_block(&cell[range.clone()], &row[range.clone()])
                .unwrap();
            problem.add_block(&cells_of_column, &column[range]).unwrap();
            problem
                .add_block(&rows_of_symbol, &columns_of_symbol)
                .unwrap();
        }
    }
    problem
}

/// Every solution, as sets of problem options.
fn all_solutions(solver: &mut xcover::dlx::Solver<'_>) -> BTreeSet<BTreeSet<u32>> {
    let mut found = BTreeSet::new();
    solver.for_each_solution(|solution| {
        found.insert(as_set(&solution.to_vec()));
        std::ops::ControlFlow::Continue(())
    });
    found
}

proptest! {
    #![proptest_config(crate::config(600))]

    /// Declaring one-to-one blocks changes no solution at any inference setting (with options
    /// chosen up front too): the same sets as plain dancing links without them.
    #[test]
    fn blocks_change_no_solution(
        (side, kept, secondary, twice, choose) in latin_with_blocks_strategy()
    ) {
        let plain = Matrix::new(latin_problem(side, &kept, &secondary, &twice, false)).unwrap();
        let blocked = Matrix::new(latin_problem(side, &kept, &secondary, &twice, true)).unwrap();
        let chosen: Vec<OptionId> = plain.problem().options().take(choose).collect();
        let mut reference = plain.solver();
        reference.set_inference(Inference::None);
        let mut clash = false;
        for &option in &chosen {
            clash |= reference.choose(option).is_err();
        }
        prop_assume!(!clash);
        let expected = all_solutions(&mut reference);
        for inference in Inference::ALL {
            let mut solver = blocked.solver();
            solver.set_inference(inference);
            for &option in &chosen {
                solver.choose(option).unwrap();
            }
            prop_assert_eq!(&all_solutions(&mut solver), &expected, "{}", inference);
        }
    }
}
