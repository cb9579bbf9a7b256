//! Rests counted in bulk (`Matrix::set_rest_counter`): counts with a counter of rests equal
//! counts without one, at every inference setting, with limits, on one thread and several,
//! whether the counter counts every rest or declines some; verdicts and first solutions whose
//! rests the counter lists are genuine and as many as there are; a counter that miscounts
//! shows in the counts (so they do go through it); listing every solution never uses it. The counter here is a plain
//! backtracking count over the problem's lists, sharing no code with the engine.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use proptest::prelude::*;
use xcover::dlx::{
    Enumeration, Inference, Matrix, Monitor, OptionId, Problem, RestCount, RestCounter, Subtree,
    Sum, Verdict,
};

use crate::properties::build;

/// Random problems big enough for searches several levels deep.
fn problems() -> impl Strategy<Value = (Vec<bool>, Vec<Vec<usize>>)> {
    (1usize..=9, 0usize..=3).prop_flat_map(|(primary, secondary)| {
        let n = primary + secondary;
        let kinds: Vec<bool> = (0..n).map(|i| i < primary).collect();
        let option = proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=n.min(3));
        (Just(kinds), proptest::collection::vec(option, 0..=30))
    })
}

/// The exact covers of the problem (`kinds`: primary or not; `options`: their items) that hold
/// every option of `chosen`, counted by plain backtracking up to `limit`.
fn backtrack_count(
    kinds: &[bool],
    options: &[Vec<usize>],
    chosen: &[OptionId],
    limit: u128,
) -> u128 {
    backtrack_list(kinds, options, chosen, limit, &mut |_| {})
}

/// [`backtrack_count`], calling `visit` with the options of each cover found beyond
/// `chosen`.
fn backtrack_list(
    kinds: &[bool],
    options: &[Vec<usize>],
    chosen: &[OptionId],
    limit: u128,
    visit: &mut dyn FnMut(&[OptionId]),
) -> u128 {
    let mut covered = vec![false; kinds.len()];
    for option in chosen {
        for &item in &options[option.0 as usize] {
            if covered[item] {
                return 0;
            }
            covered[item] = true;
        }
    }
    let mut count = 0;
    extend_listing(
        kinds,
        options,
        &mut covered,
        limit,
        &mut count,
        &mut Vec::new(),
        visit,
    );
    count
}

/// Extends the partial cover `covered` by backtracking, calling `visit` with the options of
/// each cover found (beyond those that `covered` stands for).
fn extend_listing(
    kinds: &[bool],
    options: &[Vec<usize>],
    covered: &mut [bool],
    limit: u128,
    count: &mut u128,
    path: &mut Vec<OptionId>,
    visit: &mut dyn FnMut(&[OptionId]),
) {
    let Some(item) = (0..kinds.len()).find(|&i| kinds[i] && !covered[i]) else {
        *count += 1;
        visit(path);
        return;
    };
    for (k, option) in options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.contains(&item))
    {
        if option.iter().any(|&i| covered[i]) {
            continue;
        }
        for &i in option {
            covered[i] = true;
        }
        path.push(OptionId(k as u32));
        extend_listing(kinds, options, covered, limit, count, path, visit);
        path.pop();
        for &i in option {
            covered[i] = false;
        }
        if *count >= limit {
            return;
        }
    }
}

/// A counter of rests by [`backtrack_count`], which declines every `decline_every`-th rest
/// (never if 0) and adds `extra` to every count it makes.
#[derive(Debug)]
struct Backtracking {
    kinds: Vec<bool>,
    options: Vec<Vec<usize>>,
    most: usize,
    decline_every: u64,
    extra: u128,
    calls: AtomicU64,
}

impl Backtracking {
    fn new(kinds: &[bool], options: &[Vec<usize>], most: usize) -> Backtracking {
        Backtracking {
            kinds: kinds.to_vec(),
            options: options.to_vec(),
            most,
            decline_every: 0,
            extra: 0,
            calls: AtomicU64::new(0),
        }
    }

    /// Whether this call is one of those it declines.
    fn declines(&self) -> bool {
        let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        self.decline_every > 0 && call.is_multiple_of(self.decline_every)
    }
}

impl RestCounter for Backtracking {
    fn items_at_most(&self) -> usize {
        self.most
    }

    fn count(&self, chosen: &[OptionId], limit: u128, budget: u64) -> RestCount {
        if self.declines() {
            return RestCount {
                solutions: None,
                nodes: budget,
            };
        }
        RestCount {
            solutions: Some(
                backtrack_count(&self.kinds, &self.options, chosen, limit) + self.extra,
            ),
            nodes: 1,
        }
    }

    fn lists(&self) -> bool {
        true
    }

    fn list(
        &self,
        chosen: &[OptionId],
        limit: usize,
        budget: u64,
        visit: &mut dyn FnMut(&[OptionId]),
    ) -> RestCount {
        if self.declines() {
            return RestCount {
                solutions: None,
                nodes: budget,
            };
        }
        let count = backtrack_list(&self.kinds, &self.options, chosen, limit as u128, visit);
        RestCount {
            solutions: Some(count),
            nodes: 1,
        }
    }
}

/// Whether `solution` (options by index) is an exact cover of the problem.
fn covers(kinds: &[bool], options: &[Vec<usize>], solution: &[OptionId]) -> bool {
    let mut times = vec![0; kinds.len()];
    for option in solution {
        for &item in &options[option.0 as usize] {
            times[item] += 1;
        }
    }
    kinds
        .iter()
        .zip(&times)
        .all(|(&primary, &t)| if primary { t == 1 } else { t <= 1 })
}

/// The count of a parallel enumeration without a visitor on a pool of `threads`.
fn parallel_count(
    matrix: &Matrix,
    inference: Inference,
    threads: usize,
    limit: Option<u128>,
) -> u128 {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut solver = matrix.solver();
        solver.set_inference(inference);
        let settings = Enumeration {
            limit,
            ..Enumeration::default()
        };
        solver
            .enumerate_parallel(vec![Subtree::root()], &settings, None, &Monitor::new())
            .unwrap()
            .solutions
    })
}

const SETTINGS: [Inference; 5] = [
    Inference::None,
    Inference::Root,
    Inference::Shallow,
    Inference::EveryNode,
    Inference::Probe,
];

proptest! {
    #![proptest_config(crate::config(300))]

    #[test]
    fn counts_with_rests_equal_counts_without(
        (kinds, options) in problems(),
        most in 1usize..=12,
        decline_every in 0u64..=3,
    ) {
        let expected = backtrack_count(&kinds, &options, &[], u128::MAX);
        let mut matrix = Matrix::new(build(&kinds, &options)).unwrap();
        let mut counter = Backtracking::new(&kinds, &options, most);
        counter.decline_every = decline_every;
        let counter = Arc::new(counter);
        matrix.set_rest_counter(counter.clone());
        for inference in SETTINGS {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            prop_assert_eq!(solver.count(None), expected, "{:?}", inference);
            for limit in 1..=3 {
                prop_assert_eq!(solver.count(Some(limit)), expected.min(limit), "{:?}", inference);
            }
            // A verdict and a first solution may be listed by the counter: genuine covers,
            // as many as there are up to two, distinct.
            let witnesses: Vec<Vec<OptionId>> = match solver.verdict() {
                Verdict::None => Vec::new(),
                Verdict::Unique(a) => vec![a],
                Verdict::Multiple(a, b) => vec![a, b],
            };
            prop_assert_eq!(witnesses.len() as u128, expected.min(2), "{:?}", inference);
            for witness in &witnesses {
                prop_assert!(covers(&kinds, &options, witness), "{:?}: {:?}", inference, witness);
            }
            if let [a, b] = &witnesses[..] {
                let (mut a, mut b) = (a.clone(), b.clone());
                a.sort();
                b.sort();
                prop_assert_ne!(a, b);
            }
            let first = solver.first();
            prop_assert_eq!(first.is_some(), expected > 0);
            if let Some(first) = first {
                prop_assert!(covers(&kinds, &options, &first));
            }
            // Listing shows every solution, and never hands a rest over.
            let calls = counter.calls.load(Ordering::Relaxed);
            let listed = solver.solutions().count() as u128;
            prop_assert_eq!(listed, expected);
            prop_assert_eq!(counter.calls.load(Ordering::Relaxed), calls);
        }
        // Not under Miri, which reports the pool's threads as leaked.
        for threads in [1, 3].into_iter().filter(|_| !cfg!(miri)) {
            prop_assert_eq!(parallel_count(&matrix, Inference::None, threads, None), expected);
            prop_assert_eq!(
                parallel_count(&matrix, Inference::Shallow, threads, Some(2)),
                expected.min(2)
            );
        }
    }
}

/// Queens on a 6x6 board: 4 solutions. A counter that counts one too many per rest makes
/// the count wrong, so counts do go through the counter; one that declines every rest
/// leaves them exact, and its steps are in the statistics.
#[test]
fn counts_go_through_the_counter() {
    let problem = xcover::problems::queens(6);
    let option_items = |problem: &Problem| -> (Vec<bool>, Vec<Vec<usize>>) {
        let kinds = problem
            .items()
            .map(|item| problem.kind(item) == xcover::dlx::ItemKind::Primary)
            .collect();
        let options = problem
            .options()
            .map(|option| {
                problem
                    .option(option)
                    .iter()
                    .map(|i| i.0 as usize)
                    .collect()
            })
            .collect();
        (kinds, options)
    };
    let (kinds, options) = option_items(&problem);
    assert_eq!(backtrack_count(&kinds, &options, &[], u128::MAX), 4);

    let mut lying = Backtracking::new(&kinds, &options, kinds.len());
    lying.extra = 1;
    let mut matrix = Matrix::new(problem.clone()).unwrap();
    matrix.set_rest_counter(Arc::new(lying));
    let mut solver = matrix.solver();
    solver.set_inference(Inference::None);
    assert!(solver.count(None) > 4, "a counter that lies shows");

    let mut declining = Backtracking::new(&kinds, &options, kinds.len());
    declining.decline_every = 1;
    let declining = Arc::new(declining);
    let mut matrix = Matrix::new(problem.clone()).unwrap();
    matrix.set_rest_counter(declining.clone());
    let mut solver = matrix.solver();
    solver.set_inference(Inference::None);
    assert_eq!(solver.count(None), 4);
    assert!(declining.calls.load(Ordering::Relaxed) > 0);
    let plain = Matrix::new(problem).unwrap().solver().count(None);
    assert_eq!(plain, 4);
}

/// A counter given to a problem with sums is not used: their solutions are checked one by
/// one.
#[test]
fn problems_with_sums_take_no_counter() {
    let mut problem = Problem::new();
    let item = problem
        .add_item("a", xcover::dlx::ItemKind::Primary)
        .unwrap();
    let one = problem.add_option(&[item]).unwrap();
    let two = problem.add_option(&[item]).unwrap();
    problem
        .add_sum(Sum {
            terms: vec![vec![(one, 1), (two, 2)]],
            min: 2,
            max: 2,
            distinct: false,
            apart: Vec::new(),
            excluded: Vec::new(),
        })
        .unwrap();
    let mut matrix = Matrix::new(problem).unwrap();
    matrix.set_rest_counter(Arc::new(Backtracking::new(&[true], &[vec![0], vec![0]], 1)));
    assert!(matrix.rest_counter().is_none());
    assert_eq!(matrix.solver().count(None), 1);
}
