//! Algorithm X with dancing links: the search and its mutable state.
//!
//! A [`Solver`] owns a working copy of a [`Matrix`]'s links plus the choice stack; it is the
//! scratch space of a search, kept apart from the immutable matrix so that one matrix can feed
//! many solvers (one per thread) and one solver can run many searches without allocating. Every
//! search puts the links back exactly as it found them, whether it runs to the end, stops early
//! or is dropped half-way, so the solver is always ready for the next one.
//!
//! The search is Knuth's iterative `dlx1` loop over an explicit choice stack (no recursion, so
//! no depth limit): choose the primary item with the fewest remaining options, cover it, try
//! each of its options in turn, backtrack. It is written as a resumable state machine so that
//! solutions can be handed out lazily, one at a time.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::links::Links;
use super::matrix::Matrix;
use super::problem::OptionId;

/// Counters of the work a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search-tree nodes entered (Knuth's "nodes").
    pub nodes: u64,
    /// Links removed from a column while covering (Knuth's "updates").
    pub updates: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Search nodes where the chosen item had two or more options: the points where the
    /// search had to guess rather than follow a forced move.
    pub branches: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.solutions += other.solutions;
        self.branches += other.branches;
    }
}

/// How many solutions a problem has, with witnesses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(Vec<OptionId>),
    /// At least two solutions; here are two distinct ones.
    Multiple(Vec<OptionId>, Vec<OptionId>),
}

/// Why an option cannot be chosen before a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChooseError {
    /// The option does not exist in the problem.
    Unknown(OptionId),
    /// The option names only secondary items and was dropped from the matrix.
    Dropped(OptionId),
    /// The option shares an item with an option already chosen.
    Conflict(OptionId),
}

impl std::fmt::Display for ChooseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChooseError::Unknown(o) => write!(f, "option {} does not exist", o.0),
            ChooseError::Dropped(o) => write!(f, "option {} names only secondary items", o.0),
            ChooseError::Conflict(o) => {
                write!(f, "option {} clashes with an option already chosen", o.0)
            }
        }
    }
}

impl std::error::Error for ChooseError {}

/// The mutable state of searches on one [`Matrix`].
///
/// ```
/// use xcover::dlx::{Matrix, Verdict};
/// use xcover::problems;
///
/// let matrix = Matrix::new(problems::queens(8)).unwrap();
/// let mut solver = matrix.solver();
/// assert_eq!(solver.count(None), 92);
/// assert!(matches!(solver.verdict(), Verdict::Multiple(..)));
/// ```
#[derive(Debug, Clone)]
pub struct Solver<'m> {
    matrix: &'m Matrix,
    links: Links,
    /// First nodes of the options chosen before the search, in the order chosen.
    chosen: Vec<u32>,
    /// The choice stack: at level `l`, the node of the option being tried.
    stack: Vec<u32>,
    stats: Stats,
    /// When searches must give up; checked every [`DEADLINE_CHECK`] nodes.
    deadline: Option<Instant>,
    /// How many search nodes a search may enter before it gives up.
    node_limit: u64,
    /// A flag that another thread (or a signal handler) sets to stop searches.
    cancel: Option<Arc<AtomicBool>>,
    /// Whether the last search gave up at the deadline, node limit or cancellation.
    interrupted: bool,
}

/// Search nodes between two looks at the clock and the cancellation flag.
const DEADLINE_CHECK: u64 = 1024;

impl<'m> Solver<'m> {
    /// A solver with nothing chosen.
    pub fn new(matrix: &'m Matrix) -> Solver<'m> {
        let primary = matrix.primary_count as usize;
        Solver {
            matrix,
            links: Links::new(matrix),
            chosen: Vec::new(),
            stack: vec![0; primary + 1],
            stats: Stats::default(),
            deadline: None,
            node_limit: u64::MAX,
            cancel: None,
            interrupted: false,
        }
    }

    /// The matrix this solver searches.
    pub fn matrix(&self) -> &'m Matrix {
        self.matrix
    }

    /// Puts an option into every solution before searching, as if the search had chosen it
    /// (this is how Sudoku clues are applied without rebuilding the matrix). Fails, changing
    /// nothing, if the option clashes with one chosen already.
    pub fn choose(&mut self, option: OptionId) -> Result<(), ChooseError> {
        let first = *self
            .matrix
            .option_first
            .get(option.0 as usize)
            .ok_or(ChooseError::Unknown(option))?;
        if first == 0 {
            return Err(ChooseError::Dropped(option));
        }
        let mut p = first;
        while self.links.top(p) != 0 {
            if !self.links.is_active(self.links.top(p)) {
                return Err(ChooseError::Conflict(option));
            }
            p += 1;
        }
        let mut p = first;
        while self.links.top(p) != 0 {
            self.stats.updates += self.links.cover(self.links.top(p));
            p += 1;
        }
        self.chosen.push(first);
        Ok(())
    }

    /// Takes back every option given to [`Solver::choose`], newest first.
    pub fn unchoose_all(&mut self) {
        while let Some(first) = self.chosen.pop() {
            let mut last = first;
            while self.links.top(last + 1) != 0 {
                last += 1;
            }
            for p in (first..=last).rev() {
                self.links.uncover(self.links.top(p));
            }
        }
    }

    /// The options chosen before the search.
    pub fn chosen(&self) -> impl Iterator<Item = OptionId> + '_ {
        self.chosen
            .iter()
            .map(|&x| OptionId(self.matrix.node_option[x as usize]))
    }

    /// Statistics of the searches since the last [`Solver::reset_stats`].
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Sets the statistics (and the interrupted flag) back to zero.
    pub fn reset_stats(&mut self) {
        self.stats = Stats::default();
        self.interrupted = false;
    }

    /// Makes later searches give up at `deadline` (or never, with `None`): they then end as
    /// if the solutions had run out, and [`Solver::interrupted`] says so. Used to keep
    /// comparisons with slow solvers within a time budget.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Makes later searches give up after entering `limit` search nodes (or never, with
    /// `None`), like [`Solver::set_deadline`] but the same on every machine, so that seeded
    /// work (such as puzzle generation) stays reproducible.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit.unwrap_or(u64::MAX);
    }

    /// Makes later searches give up soon after `flag` becomes true (within about a thousand
    /// search nodes), as they do at a deadline: how a Ctrl-C handler or another thread stops
    /// a long count and still gets the count so far.
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// Whether the last search stopped at the deadline, node limit or cancellation rather
    /// than finishing.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// A search that hands out solutions one at a time without allocating.
    pub fn search(&mut self) -> Search<'_, 'm> {
        self.interrupted = false;
        Search {
            solver: self,
            level: 0,
            step: Step::Enter,
        }
    }

    /// Every solution, lazily, each as the list of its options.
    pub fn solutions(&mut self) -> Solutions<'_, 'm> {
        Solutions {
            search: self.search(),
        }
    }

    /// Calls `visit` on each solution until it breaks or the solutions run out.
    pub fn for_each_solution<F>(&mut self, mut visit: F)
    where
        F: FnMut(&Solution<'_>) -> ControlFlow<()>,
    {
        let mut search = self.search();
        while let Some(solution) = search.next_solution() {
            if visit(&solution).is_break() {
                break;
            }
        }
    }

    /// The first solution found, if any.
    pub fn first(&mut self) -> Option<Vec<OptionId>> {
        self.search().next_solution().map(|s| s.to_vec())
    }

    /// The number of solutions, stopping at `limit` if one is given.
    pub fn count(&mut self, limit: Option<u64>) -> u64 {
        let limit = limit.unwrap_or(u64::MAX);
        let mut count = 0;
        let mut search = self.search();
        while count < limit && search.next_solution().is_some() {
            count += 1;
        }
        count
    }

    /// None, one or several solutions: the search stops at the second.
    pub fn verdict(&mut self) -> Verdict {
        let mut search = self.search();
        let Some(first) = search.next_solution().map(|s| s.to_vec()) else {
            return Verdict::None;
        };
        match search.next_solution() {
            None => Verdict::Unique(first),
            Some(second) => Verdict::Multiple(first, second.to_vec()),
        }
    }
}

/// Where the state machine resumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Enter a new level: stop at a solution, or choose an item and cover it.
    Enter,
    /// Try the option at `stack[level]`, or uncover the item when its options are exhausted.
    Try,
    /// Go back one level and move to the next option there.
    Backtrack,
    /// The search space is exhausted, or the deadline passed.
    Done,
}

/// One search in progress on a [`Solver`]; see [`Search::next_solution`].
///
/// Dropping it before the end undoes its choices, so the solver is left as it was.
#[derive(Debug)]
pub struct Search<'s, 'm> {
    solver: &'s mut Solver<'m>,
    level: usize,
    step: Step,
}

/// A solution, borrowed from the search that found it.
#[derive(Debug, Clone, Copy)]
pub struct Solution<'a> {
    matrix: &'a Matrix,
    chosen: &'a [u32],
    stack: &'a [u32],
}

impl Solution<'_> {
    /// The options of the solution: first those chosen before the search, then those the
    /// search chose, in the order it chose them.
    pub fn options(&self) -> impl Iterator<Item = OptionId> + '_ {
        self.chosen
            .iter()
            .chain(self.stack)
            .map(|&x| OptionId(self.matrix.node_option[x as usize]))
    }

    /// The options as a vector.
    pub fn to_vec(&self) -> Vec<OptionId> {
        self.options().collect()
    }

    /// How many options the solution has.
    pub fn len(&self) -> usize {
        self.chosen.len() + self.stack.len()
    }

    /// Whether the solution has no option (only when there is nothing left to cover).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<'m> Search<'_, 'm> {
    /// The next solution, or `None` when there are no more.
    pub fn next_solution(&mut self) -> Option<Solution<'_>> {
        let solver = &mut *self.solver;
        let links = &mut solver.links;
        let stack = &mut solver.stack[..];
        let headers = solver.matrix.item_count;
        let deadline = solver.deadline;
        let cancel = solver.cancel.as_deref();
        let nodes_before = solver.stats.nodes;
        let node_budget = solver.node_limit.saturating_sub(nodes_before);
        let mut interrupted = false;
        let mut level = self.level;
        let mut step = self.step;
        let mut updates = 0u64;
        let mut entered = 0u64;
        let mut branches = 0u64;
        let found = loop {
            match step {
                Step::Enter => {
                    entered += 1;
                    if entered > node_budget
                        || (nodes_before + entered).is_multiple_of(DEADLINE_CHECK)
                            && (cancel.is_some_and(|flag| flag.load(Ordering::Relaxed))
                                || deadline.is_some_and(|deadline| Instant::now() >= deadline))
                    {
                        // Levels 0..level stay chosen, as at a solution, so Drop unwinds them.
                        interrupted = true;
                        step = Step::Done;
                        break false;
                    }
                    if links.all_covered() {
                        step = Step::Backtrack;
                        break true;
                    }
                    let (item, len) = links.fewest_options();
                    if len == 0 {
                        step = Step::Backtrack;
                        continue;
                    }
                    branches += u64::from(len >= 2);
                    updates += links.cover(item);
                    stack[level] = links.down(item);
                    step = Step::Try;
                }
                Step::Try => {
                    let x = stack[level];
                    if x <= headers {
                        // Back at the header: every option of item `x` has been tried.
                        links.uncover(x);
                        step = Step::Backtrack;
                        continue;
                    }
                    updates += links.cover_others(x);
                    level += 1;
                    step = Step::Enter;
                }
                Step::Backtrack => {
                    if level == 0 {
                        step = Step::Done;
                        break false;
                    }
                    level -= 1;
                    let x = stack[level];
                    links.uncover_others(x);
                    stack[level] = links.down(x);
                    step = Step::Try;
                }
                Step::Done => break false,
            }
        };
        self.level = level;
        self.step = step;
        self.solver.interrupted |= interrupted;
        let stats = &mut self.solver.stats;
        stats.nodes += entered;
        stats.updates += updates;
        stats.branches += branches;
        if !found {
            return None;
        }
        stats.solutions += 1;
        Some(Solution {
            matrix: self.solver.matrix,
            chosen: &self.solver.chosen,
            stack: &self.solver.stack[..level],
        })
    }
}

impl Drop for Search<'_, '_> {
    fn drop(&mut self) {
        // Between calls the state is always "at a solution" (or not started, done, or stopped
        // at the deadline), so levels 0..level each hold one chosen option whose items are all
        // covered.
        let solver = &mut *self.solver;
        for level in (0..self.level).rev() {
            let x = solver.stack[level];
            solver.links.uncover_others(x);
            solver.links.uncover(solver.links.top(x));
        }
        self.level = 0;
        self.step = Step::Done;
    }
}

/// Every solution of a search, each as an owned list of options.
#[derive(Debug)]
pub struct Solutions<'s, 'm> {
    search: Search<'s, 'm>,
}

impl Iterator for Solutions<'_, '_> {
    type Item = Vec<OptionId>;

    fn next(&mut self) -> Option<Vec<OptionId>> {
        self.search.next_solution().map(|s| s.to_vec())
    }
}
