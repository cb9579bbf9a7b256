//! Randomised restarts, for searches that want a solution rather than every one.
//!
//! A search that finds its first solution late is one that chose badly near the root: a
//! wrong choice there costs a whole subtree before the search comes back to it. So
//! [`Solver::verdict_restarting`] gives each search a budget of branch points, growing
//! (doubling) from run to run; a run that spends its budget without a solution is abandoned
//! and the next one searches the same problem (what the chosen options leave of it) with its
//! options in a fresh random order, so that each item's options are tried in another order.
//! The first run keeps the input's order, so a problem that solves within the first budget
//! is solved exactly as before.
//!
//! The answer stays exact: the run that finds the first solution goes on, with no budget,
//! to look for a second, so "unique" means that run's whole tree held one solution; a run
//! that ends within its budget has seen its whole tree, so "none" is a proof, reached within
//! about twice the work of one search, since budgets double.
//!
//! Items keep their order: shuffling them too (so that ties between items with the fewest
//! options break at random) made empty 25x25 and 36x36 grids 6 and 50 times slower to
//! solve, because the input's row-by-row order is what makes the first-fewest tie-break fill a
//! grid well. Measured on large grids, restarts do not pay even so (`docs/design/search.md`),
//! which is why the command line uses them only when asked (`sudoku solve --restarts SEED`).
//!
//! The random order comes from the seed alone (a SplitMix64 stream, written here so that
//! the engine needs no random crate), so the same seed gives the same runs on every machine.

use super::matrix::Matrix;
use super::problem::{OptionId, Problem};
use super::search::{Search, Solver, Stop, Verdict};

/// Branch points of the first run; each later run gets twice as many as the one before.
pub const FIRST_BUDGET: u64 = 1024;

/// Search nodes between two looks at a run's budget.
const NODES_PER_LOOK: u64 = 256;

/// How a run with a budget ended.
enum RunEnd {
    /// A solution, as options of the run's matrix.
    Found(Vec<OptionId>),
    /// The run saw its whole tree and found nothing.
    Exhausted,
    /// The run spent its budget.
    OutOfBudget,
    /// The deadline or the cancellation flag stopped it.
    Stopped,
}

impl<'m> Solver<'m> {
    /// None, one or several solutions, as [`Solver::verdict`], found with randomised
    /// restarts (module documentation): the same answer, but a search that gets lost near the
    /// root is abandoned for a fresh random order instead of running on. `seed` chooses the
    /// orders. Statistics of every run are added to [`Solver::stats`]. Problems with colours
    /// or multiplicities, and solvers with a node limit, get a plain [`Solver::verdict`].
    ///
    /// ```
    /// use xcover::dlx::{Matrix, Verdict};
    /// use xcover::problems;
    ///
    /// let matrix = Matrix::new(problems::queens(8)).unwrap();
    /// let mut solver = matrix.solver();
    /// let Verdict::Multiple(first, second) = solver.verdict_restarting(7) else { panic!() };
    /// assert_ne!(first, second);
    /// ```
    pub fn verdict_restarting(&mut self, seed: u64) -> Verdict<Vec<OptionId>> {
        self.verdict_restarting_from(seed, FIRST_BUDGET)
    }

    /// [`Solver::verdict_restarting`] with a first run of `first_budget` branch points
    /// (at least 1) instead of [`FIRST_BUDGET`].
    pub fn verdict_restarting_from(
        &mut self,
        seed: u64,
        first_budget: u64,
    ) -> Verdict<Vec<OptionId>> {
        let problem = self.matrix.problem();
        if problem.has_colors() || problem.has_multiplicities() || self.has_node_limit() {
            return self.verdict();
        }
        let mut budget = first_budget.max(1);
        {
            let mut search = self.search();
            match run(&mut search, budget) {
                RunEnd::Found(first) => return finish(&mut search, first, &|o| o),
                RunEnd::Exhausted | RunEnd::Stopped => return Verdict::None,
                RunEnd::OutOfBudget => {}
            }
        }
        let chosen: Vec<OptionId> = self.chosen().collect();
        let (residual, original) = residual_problem(problem, &chosen);
        let mut random = SplitMix(seed);
        loop {
            budget = budget.saturating_mul(2);
            let (shuffled, order) = shuffle(&residual, &mut random);
            let Ok(matrix) = Matrix::new(shuffled) else {
                // No primary item is left to cover: the chosen options are the solution,
                // which the first run would have found.
                return self.verdict();
            };
            let back = |option: OptionId| original[order[option.0 as usize] as usize];
            let mut solver = matrix.solver();
            solver.set_inference(self.inference());
            solver.set_branching(self.branching());
            solver.set_deadline(self.deadline());
            solver.set_cancel_flag(self.cancel_flag());
            let end = {
                let mut search = solver.search();
                match run(&mut search, budget) {
                    RunEnd::Found(first) => Some(finish(&mut search, first, &back)),
                    RunEnd::Exhausted | RunEnd::Stopped => Some(Verdict::None),
                    RunEnd::OutOfBudget => None,
                }
            };
            self.absorb(&solver);
            if let Some(verdict) = end {
                // The run's solutions lack the options chosen before it.
                return verdict.map(|mut options| {
                    options.splice(0..0, chosen.iter().copied());
                    options
                });
            }
        }
    }
}

/// Runs `search` until a solution, the end of its tree, a stop, or `budget` branch points.
fn run(search: &mut Search<'_, '_>, budget: u64) -> RunEnd {
    let start = search.branches();
    loop {
        // A node is a branch point at most once, so the run stops within its budget.
        let left = budget.saturating_sub(search.branches() - start).max(1);
        search.set_node_limit(Some(left.min(NODES_PER_LOOK)));
        if let Some(solution) = search.next_solution() {
            return RunEnd::Found(solution.to_vec());
        }
        match search.stopped() {
            None => return RunEnd::Exhausted,
            Some(Stop::NodeLimit) if search.branches() - start < budget => {}
            Some(Stop::NodeLimit) => return RunEnd::OutOfBudget,
            Some(_) => return RunEnd::Stopped,
        }
    }
}

/// The verdict of a run that found `first`: it goes on, with no budget, for a second.
fn finish(
    search: &mut Search<'_, '_>,
    first: Vec<OptionId>,
    back: &dyn Fn(OptionId) -> OptionId,
) -> Verdict<Vec<OptionId>> {
    search.set_node_limit(None);
    let map = |options: Vec<OptionId>| options.into_iter().map(back).collect::<Vec<_>>();
    match search.next_solution().map(|s| s.to_vec()) {
        Some(second) => Verdict::Multiple(map(first), map(second)),
        None => Verdict::Unique(map(first)),
    }
}

/// What is left of `problem` once `chosen` are in the solution: the items they do not
/// cover, and the options made only of those. Returns it with the original id of each of
/// its options.
fn residual_problem(problem: &Problem, chosen: &[OptionId]) -> (Problem, Vec<OptionId>) {
    let mut covered = vec![false; problem.item_count()];
    for &option in chosen {
        for item in problem.option(option) {
            covered[item.0 as usize] = true;
        }
    }
    let mut residual = Problem::new();
    let mut new_id = vec![None; problem.item_count()];
    for item in problem.items().filter(|item| !covered[item.0 as usize]) {
        let id = residual
            .add_item(problem.name(item), problem.kind(item))
            .expect("names of a valid problem");
        new_id[item.0 as usize] = Some(id);
    }
    let mut original = Vec::new();
    let mut items = Vec::new();
    for option in problem.options() {
        items.clear();
        items.extend(problem.option(option).iter().map(|i| new_id[i.0 as usize]));
        if let Some(items) = items.iter().copied().collect::<Option<Vec<_>>>() {
            residual
                .add_option(&items)
                .expect("items of a valid option");
            original.push(option);
        }
    }
    (residual, original)
}

/// `problem` with its options in a random order (items keep theirs); with the index in
/// `problem` of each of its options.
fn shuffle(problem: &Problem, random: &mut SplitMix) -> (Problem, Vec<u32>) {
    let mut shuffled = Problem::new();
    for item in problem.items() {
        shuffled
            .add_item(problem.name(item), problem.kind(item))
            .expect("names of a valid problem");
    }
    let mut order: Vec<u32> = (0..problem.option_count() as u32).collect();
    random.shuffle(&mut order);
    for &option in &order {
        shuffled
            .add_option(problem.option(OptionId(option)))
            .expect("items of a valid option");
    }
    (shuffled, order)
}

/// Sebastiano Vigna's SplitMix64: a small, fast, well-mixed stream from a 64-bit seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `bound` (not zero), by multiply-shift (bias below 2^-32 for the
    /// sizes shuffled here).
    fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next()) * bound as u128) >> 64) as usize
    }

    /// Fisher-Yates.
    fn shuffle<T>(&mut self, slice: &mut [T]) {
        for k in (1..slice.len()).rev() {
            let j = self.below(k + 1);
            slice.swap(k, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffles_are_permutations_and_repeatable() {
        let mut a = SplitMix(5);
        let mut b = SplitMix(5);
        let mut x: Vec<u32> = (0..100).collect();
        let mut y = x.clone();
        a.shuffle(&mut x);
        b.shuffle(&mut y);
        assert_eq!(x, y);
        assert_ne!(x, (0..100).collect::<Vec<_>>());
        x.sort_unstable();
        assert_eq!(x, (0..100).collect::<Vec<_>>());
    }
}
