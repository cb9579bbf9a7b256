//! Splitting one search into parts: subtrees below paths, searches that give parts away or
//! stop and hand back the rest, and the parallel enumeration built on them. Every split must
//! partition the solutions exactly: the parts' counts add up to the oracle, and the parts'
//! solutions, put together, are the one-thread search's solutions.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::sync::Mutex;

use xcover::dlx::{Branching, Enumeration, Inference, Matrix, Monitor, OptionId, Subtree, format};
use xcover::problems;

/// Problems with published counts, small enough to split every way.
fn oracles() -> Vec<(&'static str, Matrix, u128)> {
    vec![
        ("queens 8", Matrix::new(problems::queens(8)).unwrap(), 92),
        ("queens 10", Matrix::new(problems::queens(10)).unwrap(), 724),
        (
            "langford 8",
            Matrix::new(problems::langford(8)).unwrap(),
            300,
        ),
        (
            "pentominoes 3x20",
            Matrix::new(problems::pentominoes(20, 3).unwrap()).unwrap(),
            8,
        ),
        (
            "latin 4",
            Matrix::new(problems::latin_square(4)).unwrap(),
            576,
        ),
    ]
}

fn sorted(solution: &[OptionId]) -> Vec<u32> {
    let mut options: Vec<u32> = solution.iter().map(|o| o.0).collect();
    options.sort_unstable();
    options
}

fn count_below(matrix: &Matrix, inference: Inference, subtrees: &[Subtree]) -> u128 {
    let mut solver = matrix.solver();
    solver.set_inference(inference);
    subtrees
        .iter()
        .map(|subtree| {
            let mut search = solver.search_below(subtree).unwrap();
            let mut count = 0;
            while search.next_solution().is_some() {
                count += 1;
            }
            count
        })
        .sum()
}

#[test]
fn subtrees_partition_every_search_at_every_inference_setting() {
    for (name, matrix, expected) in oracles() {
        for inference in Inference::ALL {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            for parts in [1, 2, 7, 64, 1000] {
                let subtrees = solver.subtrees(parts);
                let count = count_below(&matrix, inference, &subtrees);
                assert_eq!(count, expected, "{name}, {inference}, {parts} parts");
                let share: f64 = subtrees.iter().map(|s| s.share).sum();
                assert!((share - 1.0).abs() < 1e-9, "{name}: shares add to {share}");
            }
        }
    }
}

#[test]
fn subtrees_are_visited_in_the_order_of_the_whole_search() {
    // With probing, the search tries some items' options bottom to top: the order is the
    // search's, not that of the paths.
    for (name, matrix, _) in oracles() {
        for inference in [Inference::Auto, Inference::Probe] {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            let whole: Vec<Vec<OptionId>> = solver.solutions().collect();
            let mut pieced = Vec::new();
            for subtree in solver.subtrees(500) {
                let mut search = solver.search_below(&subtree).unwrap();
                while let Some(solution) = search.next_solution() {
                    pieced.push(solution.to_vec());
                }
            }
            // A solution lists the path first, then the rest in the order chosen: as the
            // whole search does.
            assert_eq!(pieced, whole, "{name}, {inference}");
        }
    }
}

/// The split by its definition, with nothing clever: the biggest subtree (the first of
/// equals, in a list kept in search order) is replaced by its children until there are
/// enough.
fn split_by_definition(solver: &mut xcover::dlx::Solver<'_>, parts: usize) -> Vec<Subtree> {
    let mut subtrees = vec![(Subtree::root(), true)];
    while subtrees.len() < parts {
        let biggest = (0..subtrees.len())
            .filter(|&i| subtrees[i].1)
            .max_by(|&a, &b| {
                (subtrees[a].0.share)
                    .total_cmp(&subtrees[b].0.share)
                    .then(b.cmp(&a))
            });
        let Some(biggest) = biggest else { break };
        match solver.children(&subtrees[biggest].0).unwrap() {
            Some(children) if !children.is_empty() => {
                let children = children.into_iter().map(|child| (child, true));
                subtrees.splice(biggest..=biggest, children);
            }
            _ => subtrees[biggest].1 = false,
        }
    }
    subtrees.into_iter().map(|(subtree, _)| subtree).collect()
}

#[test]
fn the_split_is_the_one_its_definition_gives() {
    let mut problems = oracles();
    // Colours too: each letter of a word square is a colour of a cell.
    let words = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/words/three-letter.txt"
    ))
    .unwrap();
    let words: Vec<&str> = words.split_whitespace().collect();
    problems.push((
        "word squares 3",
        Matrix::new(problems::word_squares(&words, 3).unwrap()).unwrap(),
        6319,
    ));
    for (name, matrix, _) in problems {
        for inference in Inference::ALL {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            for parts in [1, 2, 3, 7, 64, 500, 5000] {
                let fast = solver.subtrees(parts);
                assert_eq!(
                    fast,
                    split_by_definition(&mut solver, parts),
                    "{name}, {inference}, {parts} parts"
                );
            }
        }
    }
}

#[test]
fn a_path_of_another_search_is_refused() {
    let matrix = Matrix::new(problems::queens(6)).unwrap();
    let mut solver = matrix.solver();
    let subtree = &solver.subtrees(10)[3];
    let mut wrong = subtree.clone();
    // The option of the first step again: it cannot be chosen twice.
    wrong.path.push(subtree.path[0]);
    let error = solver.search_below(&wrong).unwrap_err();
    assert_eq!(error.index, subtree.path.len());
    let unknown = Subtree {
        path: vec![OptionId(10_000)],
        share: 1.0,
    };
    assert_eq!(solver.search_below(&unknown).unwrap_err().index, 0);
    // The solver is left ready for the next search.
    assert_eq!(solver.count(None), 4);
}

#[test]
fn split_off_and_remainder_partition_what_is_left() {
    for (name, matrix, expected) in oracles() {
        for inference in Inference::ALL {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            let mut given = Vec::new();
            let mut found = 0u128;
            let mut search = solver.search();
            search.set_node_limit(Some(50));
            // Find a few solutions, giving work away as we go, then stop.
            for round in 0..6 {
                while search.next_solution().is_some() {
                    found += 1;
                }
                if search.stopped().is_none() {
                    break;
                }
                if round % 2 == 0 {
                    given.extend(search.split_off());
                }
                search.set_node_limit(Some(50));
            }
            let rest = search.remainder();
            let progress = search.progress();
            drop(search);
            let explored: f64 = 1.0 - given.iter().chain(&rest).map(|s| s.share).sum::<f64>();
            assert!(
                (0.0..=1.0 + 1e-9).contains(&progress) && progress <= explored + 1e-9,
                "{name}: progress {progress} beyond the explored share {explored}"
            );
            let more =
                count_below(&matrix, inference, &given) + count_below(&matrix, inference, &rest);
            assert_eq!(found + more, expected, "{name}, {inference}");
        }
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// The whole search of `matrix` on a pool of `threads`, each solution to `visit`.
fn enumerate(
    matrix: &Matrix,
    threads: usize,
    settings: &Enumeration,
    visit: Option<xcover::dlx::Visitor<'_>>,
) -> xcover::dlx::Outcome {
    pool(threads).install(|| {
        matrix
            .solver()
            .enumerate_parallel(vec![Subtree::root()], settings, visit, &Monitor::new())
            .unwrap()
    })
}

#[test]
fn parallel_counts_are_exact_for_every_thread_count() {
    for (name, matrix, expected) in oracles() {
        for threads in [1, 2, 3] {
            let outcome = enumerate(&matrix, threads, &Enumeration::default(), None);
            assert_eq!(outcome.solutions, expected, "{name} on {threads} threads");
            assert_eq!(
                outcome.stats.solutions, expected,
                "{name} on {threads} threads"
            );
            assert!(outcome.remainder.is_empty() && outcome.stopped.is_none());
        }
    }
}

/// Searches big enough to be split many times while they run, at the default setting (the
/// shallow rules, whose subtrees below their reach the plain loop runs): a search paused in
/// such a subtree and split there, or moved to a sibling below where the plain loop began,
/// must give away paths that other searches follow, and its links must come back whole.
#[test]
fn parallel_counts_split_inside_the_plain_loop_stay_exact() {
    let searches = [
        (
            "queens 12",
            Matrix::new(problems::queens(12)).unwrap(),
            14_200,
        ),
        (
            "langford 11",
            Matrix::new(problems::langford(11)).unwrap(),
            35_584,
        ),
        (
            "pentominoes 4x15",
            Matrix::new(problems::pentominoes(15, 4).unwrap()).unwrap(),
            1_472,
        ),
    ];
    for (name, matrix, expected) in &searches {
        for threads in [2, 3] {
            for round in 0..4 {
                let outcome = enumerate(matrix, threads, &Enumeration::default(), None);
                assert_eq!(
                    outcome.solutions, *expected,
                    "{name} on {threads} threads, round {round}"
                );
            }
        }
    }
}

/// A search too big to finish before the pool joins in (12 queens: 217,017 nodes, the lone
/// budget 16,384) goes on in the pool rather than being cut into a task for every
/// untried option of every level, each entered again down its path: on a pool of one thread,
/// which gives nothing away, the enumeration does exactly the work of the plain search.
#[test]
fn a_big_lone_search_goes_on_in_the_pool_uncut() {
    let matrix = Matrix::new(problems::queens(12)).unwrap();
    for limit in [None, Some(5_000)] {
        let mut solver = matrix.solver();
        let count = solver.count(limit);
        let alone = solver.stats();
        let settings = Enumeration {
            limit,
            ordered: false,
            ..Enumeration::default()
        };
        let outcome = enumerate(&matrix, 1, &settings, None);
        assert_eq!(outcome.solutions, count);
        assert!(alone.nodes > 16_384, "{} nodes", alone.nodes);
        assert_eq!(
            (outcome.stats.nodes, outcome.stats.updates),
            (alone.nodes, alone.updates),
            "limit {limit:?}"
        );
    }
}

/// A probing search looks at the shared state every 64 nodes and hands work to the pool after
/// 256 (its nodes cost far more): these small problems are cut up into many tasks, and the
/// solutions still come exactly once each, in the order of the one-thread search when asked.
#[test]
fn probing_searches_split_early_and_stay_exact() {
    for (name, matrix, expected) in oracles() {
        let mut solver = matrix.solver();
        solver.set_inference(Inference::Probe);
        let whole: Vec<Vec<OptionId>> = solver.solutions().collect();
        assert_eq!(whole.len() as u128, expected, "{name}");
        for threads in [2, 3] {
            for ordered in [false, true] {
                let found = Mutex::new(Vec::new());
                let visit = |solution: &[OptionId]| {
                    found.lock().unwrap().push(solution.to_vec());
                    ControlFlow::Continue(())
                };
                let settings = Enumeration {
                    limit: None,
                    ordered,
                    ..Enumeration::default()
                };
                let outcome = pool(threads).install(|| {
                    solver
                        .enumerate_parallel(
                            vec![Subtree::root()],
                            &settings,
                            Some(&visit),
                            &Monitor::new(),
                        )
                        .unwrap()
                });
                assert_eq!(outcome.solutions, expected, "{name} on {threads} threads");
                let mut found = found.into_inner().unwrap();
                if !ordered {
                    let position = |s: &Vec<OptionId>| whole.iter().position(|w| w == s);
                    found.sort_by_key(|s| position(s));
                }
                assert_eq!(
                    found, whole,
                    "{name} on {threads} threads, ordered {ordered}"
                );
            }
        }
    }
}

#[test]
fn parallel_solutions_are_the_same_set_and_ordered_when_asked() {
    let matrix = Matrix::new(problems::langford(8)).unwrap();
    let whole: Vec<Vec<OptionId>> = matrix.solver().solutions().collect();
    let as_set = |solutions: &[Vec<OptionId>]| -> BTreeSet<Vec<u32>> {
        solutions.iter().map(|s| sorted(s)).collect()
    };
    for threads in [2, 3] {
        for ordered in [false, true] {
            let seen = Mutex::new(Vec::new());
            let visit = |solution: &[OptionId]| {
                seen.lock().unwrap().push(solution.to_vec());
                ControlFlow::Continue(())
            };
            let settings = Enumeration {
                ordered,
                ..Enumeration::default()
            };
            let outcome = enumerate(&matrix, threads, &settings, Some(&visit));
            let seen = seen.into_inner().unwrap();
            assert_eq!(outcome.solutions, 300);
            assert_eq!(seen.len(), 300);
            assert_eq!(as_set(&seen), as_set(&whole));
            if ordered {
                assert_eq!(seen, whole, "{threads} threads, ordered");
            }
        }
    }
}

#[test]
fn parallel_limits_are_exact() {
    let matrix = Matrix::new(problems::queens(10)).unwrap();
    for ordered in [false, true] {
        for limit in [1, 5, 724, 1000] {
            let seen = Mutex::new(0u128);
            let visit = |_: &[OptionId]| {
                *seen.lock().unwrap() += 1;
                ControlFlow::Continue(())
            };
            let settings = Enumeration {
                ordered,
                limit: Some(limit),
                ..Enumeration::default()
            };
            let outcome = enumerate(&matrix, 2, &settings, Some(&visit));
            assert_eq!(outcome.solutions, limit.min(724));
            assert_eq!(seen.into_inner().unwrap(), limit.min(724));
        }
    }
    // The search stops at the limit, not at the end of its slice of nodes (4096): the
    // first solution of 10 queens takes a few dozen, the whole count 35,000 and more.
    let settings = Enumeration {
        ordered: false,
        limit: Some(1),
        ..Enumeration::default()
    };
    let outcome = enumerate(&matrix, 1, &settings, None);
    assert_eq!(outcome.solutions, 1);
    assert!(outcome.stats.nodes < 1000, "{} nodes", outcome.stats.nodes);
}

#[test]
fn knuth_format_problems_split_too() {
    // Secondary items, and options that name them.
    let text = "a b c | x y\na x\nb x\nb y\nc\na y\nc x\n";
    let matrix = Matrix::new(format::read(text).unwrap().problem).unwrap();
    let expected = matrix.solver().count(None);
    let mut solver = matrix.solver();
    for parts in 1..6 {
        let subtrees = solver.subtrees(parts);
        // Subtrees are paths of the tree that the setting they were made at searches.
        assert_eq!(
            count_below(&matrix, solver.inference(), &subtrees),
            expected
        );
    }
}

mod random_problems {
    use proptest::prelude::*;
    use xcover::dlx::{Inference, ItemKind, Matrix, Problem};

    /// A random problem with `primary` primary and `secondary` secondary items, its options
    /// given as bit masks over the items.
    fn problem(primary: usize, secondary: usize, masks: &[u16]) -> Option<Matrix> {
        let mut problem = Problem::new();
        let items: Vec<_> = (0..primary + secondary)
            .map(|i| {
                let kind = if i < primary {
                    ItemKind::Primary
                } else {
                    ItemKind::Secondary
                };
                problem.add_item(&format!("i{i}"), kind).unwrap()
            })
            .collect();
        for &mask in masks {
            let option: Vec<_> = (0..items.len())
                .filter(|&i| mask & (1 << i) != 0)
                .map(|i| items[i])
                .collect();
            if !option.is_empty() {
                problem.add_option(&option).unwrap();
            }
        }
        Matrix::new(problem).ok()
    }

    proptest! {
        #![proptest_config(crate::config(500))]

        /// Splits into any number of parts, and searches stopped anywhere, partition the
        /// solutions of random problems at every inference setting.
        #[test]
        fn every_split_partitions_the_solutions(
            primary in 1usize..=6,
            secondary in 0usize..=3,
            masks in proptest::collection::vec(1u16..512, 0..=14),
            parts in 1usize..=40,
            budget in 1u64..=30,
        ) {
            let Some(matrix) = problem(primary, secondary, &masks) else { return Ok(()) };
            for inference in [Inference::None, Inference::Root, Inference::EveryNode] {
                let mut solver = matrix.solver();
                solver.set_inference(inference);
                let expected = solver.count(None);
                let subtrees = solver.subtrees(parts);
                prop_assert_eq!(super::count_below(&matrix, inference, &subtrees), expected);
                let mut search = solver.search();
                search.set_node_limit(Some(budget));
                let mut found = 0;
                while search.next_solution().is_some() {
                    found += 1;
                }
                let given = search.split_off();
                let rest = search.remainder();
                drop(search);
                let more = super::count_below(&matrix, inference, &given)
                    + super::count_below(&matrix, inference, &rest);
                // What the search found, what it gave away and what it had left (nothing,
                // when it ran to the end) are the solutions, each once.
                prop_assert_eq!(found + more, expected);
            }
        }
    }
}

/// A count stopped three times (by a flag that the visitor raises after a few more
/// solutions, as Ctrl-C would), saved to a checkpoint, read back and resumed each time, ends
/// with the oracle's total, on 1, 2 and 3 threads.
#[test]
fn counts_stopped_and_resumed_three_times_reach_the_total() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use xcover::dlx::checkpoint::Checkpoint;

    let mut cases = oracles();
    cases.push((
        "queens 12",
        Matrix::new(problems::queens(12)).unwrap(),
        14_200,
    ));
    cases.push((
        "langford 11",
        Matrix::new(problems::langford(11)).unwrap(),
        35_584,
    ));
    for (name, matrix, expected) in cases {
        for threads in [1, 2, 3] {
            let flag = Arc::new(AtomicBool::new(false));
            let mut solver = matrix.solver();
            solver.set_cancel_flag(Some(Arc::clone(&flag)));
            let fingerprint = solver.fingerprint();
            let mut checkpoint = Checkpoint {
                fingerprint,
                solutions: 0,
                nodes: 0,
                seconds: 0.0,
                explored: 0.0,
                remainder: vec![Subtree::root()],
            };
            for round in 0..4 {
                flag.store(false, Ordering::SeqCst);
                let seen = AtomicU64::new(0);
                // Stop after a quarter of the solutions more (never in the last round).
                let stop_at = (expected as u64 / 4).max(1);
                let visit = |_: &[OptionId]| {
                    if seen.fetch_add(1, Ordering::SeqCst) + 1 >= stop_at && round < 3 {
                        flag.store(true, Ordering::SeqCst);
                    }
                    ControlFlow::Continue(())
                };
                let outcome = pool(threads).install(|| {
                    solver
                        .enumerate_parallel(
                            checkpoint.remainder.clone(),
                            &Enumeration::default(),
                            Some(&visit),
                            &Monitor::new(),
                        )
                        .unwrap()
                });
                assert_eq!(outcome.solutions, u128::from(seen.load(Ordering::SeqCst)));
                checkpoint.solutions += outcome.solutions;
                checkpoint.remainder = outcome.remainder;
                // Through the file format and back.
                let mut text = Vec::new();
                checkpoint.write(&mut text).unwrap();
                checkpoint = Checkpoint::read(std::str::from_utf8(&text).unwrap()).unwrap();
                if outcome.stopped.is_none() {
                    assert!(checkpoint.remainder.is_empty());
                }
            }
            assert!(
                checkpoint.remainder.is_empty(),
                "{name}: work left after the last round"
            );
            assert_eq!(
                checkpoint.solutions, expected,
                "{name} on {threads} threads"
            );
        }
    }
}

/// A caller that will not resume asks for no remainder: a stopped enumeration then builds
/// none (the server's counts, whose remainders took hundreds of megabytes), and says it
/// stopped all the same.
#[test]
fn a_stopped_enumeration_builds_no_remainder_when_told() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let matrix = Matrix::new(problems::queens(12)).unwrap();
    for (discard, threads) in [(false, 1), (false, 2), (true, 1), (true, 2)] {
        let flag = Arc::new(AtomicBool::new(false));
        let mut solver = matrix.solver();
        solver.set_cancel_flag(Some(Arc::clone(&flag)));
        let seen = AtomicU64::new(0);
        let visit = |_: &[OptionId]| {
            if seen.fetch_add(1, Ordering::SeqCst) + 1 >= 1000 {
                flag.store(true, Ordering::SeqCst);
            }
            ControlFlow::Continue(())
        };
        let settings = Enumeration {
            discard_remainder: discard,
            ..Enumeration::default()
        };
        let outcome = pool(threads).install(|| {
            solver
                .enumerate_parallel(
                    vec![Subtree::root()],
                    &settings,
                    Some(&visit),
                    &Monitor::new(),
                )
                .unwrap()
        });
        assert!(outcome.stopped.is_some());
        assert!(outcome.solutions < 14_200);
        assert_eq!(
            outcome.remainder.is_empty(),
            discard,
            "discard {discard}, {threads} threads"
        );
    }
}

/// A wide item (one item with 20,000 options, another with one) counted on two threads does
/// about the work of one: its options are handed out as runs, halved as threads ask, not as
/// 20,000 subtrees each entering the item's column again (quadratic: -j2 took 31.6 s on
/// 100,000 options where -j1 took 0.03 s). Measured in branch points: entering the wide item
/// is one, so a search per option made one per option.
#[test]
fn a_wide_item_is_split_in_runs_not_option_by_option() {
    let options = 20_000;
    let text = format!("A B\n{}B\n", "A\n".repeat(options));
    let matrix = Matrix::new(format::read(&text).unwrap().problem).unwrap();
    let one = enumerate(&matrix, 1, &Enumeration::default(), None);
    assert_eq!(one.solutions, options as u128);
    for threads in [2, 3] {
        for _ in 0..3 {
            let split = enumerate(&matrix, threads, &Enumeration::default(), None);
            assert_eq!(split.solutions, options as u128);
            assert!(
                split.stats.branches <= 64,
                "{threads} threads: {} branch points against {} on one",
                split.stats.branches,
                one.stats.branches
            );
            assert!(split.stats.nodes <= one.stats.nodes + 1000);
        }
    }
}

/// A search that branches on its conflicts is one part: its split is the root alone, it
/// gives nothing away, a stopped one hands back the whole search, and a path into it is
/// refused; counted whole, on any number of threads or resumed after stops, it is exact.
#[test]
fn a_search_branching_on_its_conflicts_stays_whole_and_exact() {
    for (name, matrix, expected) in oracles() {
        let mut solver = matrix.solver();
        solver.set_branching(Branching::Conflicts);
        assert!(!solver.can_split(), "{name}");
        assert_eq!(solver.subtrees(8), vec![Subtree::root()], "{name}");
        let child = Subtree {
            path: vec![solver.branch().unwrap().options[0]],
            share: 0.5,
        };
        assert!(solver.search_below(&child).is_err(), "{name}");
        assert_eq!(solver.count(None), expected, "{name}");
        for threads in [1, 2] {
            let outcome = pool(threads).install(|| {
                solver
                    .enumerate_parallel(
                        vec![Subtree::root()],
                        &Enumeration::default(),
                        None,
                        &Monitor::new(),
                    )
                    .unwrap()
            });
            assert_eq!(outcome.solutions, expected, "{name} on {threads} threads");
        }
        solver.set_node_limit(Some(50));
        let mut search = solver.search();
        let mut before = 0;
        while search.next_solution().is_some() {
            before += 1;
        }
        if search.stopped().is_some() {
            assert!(search.split_off().is_empty(), "{name}");
            let remainder = search.remainder();
            assert_eq!(remainder, vec![Subtree::root()], "{name}");
            drop(search);
            solver.set_node_limit(None);
            assert_eq!(count_below(&matrix, Inference::Auto, &remainder), expected);
        } else {
            assert_eq!(before, expected, "{name}");
        }
    }
}
