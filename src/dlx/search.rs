//! Algorithm X with dancing links: searches and their budgets.
//!
//! A [`Solver`] owns a working copy of a [`Matrix`]'s links (the search loop lives in
//! `links.rs`, the dance in `dance.rs`, the one module with unchecked accesses); it is the scratch space of searches,
//! kept apart from the immutable matrix so that one matrix can feed many solvers (one per
//! thread) and one solver can run many searches without allocating. Every search puts the
//! links back exactly as it found them, whether it runs to the end, stops early or is dropped
//! half-way, so the solver is always ready for the next one.
//!
//! A [`Search`] hands out solutions one at a time and says how it ended: out of solutions, or
//! stopped by its deadline, its node budget or a cancellation flag ([`Stop`]). A stopped search
//! is not over: calling [`Search::next_solution`] again (after a new deadline or budget, or
//! with the flag cleared) resumes it exactly where it stopped. Budgets belong to one search.
//! [`Solver::branch`] tells which item the search would branch on and its options, and
//! [`Solver::choose`] starts a search from a prefix of options: the building blocks of
//! splitting one search into disjoint parts.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

mod candidates;

pub use candidates::{Candidates, Presence};

use super::links::{Branching, Event, Inference, Links};
use super::matrix::Matrix;
use super::problem::{ItemId, OptionId};
use super::rest::{Cut, REST_BUDGET};

/// Counters of the work a search did.
///
/// `nodes` and `updates` are counted as Knuth's `dlx1` counts them: a node each time the
/// search enters a level (including the levels where it finds a solution or a dead end),
/// an update each time a node is unlinked from a column while covering (choosing options
/// before the search, [`Solver::choose`], adds its updates too). On the same problem and item
/// order `dlx1` prints the same two numbers, so they compare work, not just time. A count that
/// hands rests to the matrix's counter (see [`Matrix::set_rest_counter`]) adds the counter's
/// own steps to `nodes`, and makes no updates below the nodes it handed over.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search-tree nodes entered (Knuth's "nodes").
    pub nodes: u64,
    /// Links removed from a column while covering (Knuth's "updates").
    pub updates: u64,
    /// Solutions found.
    pub solutions: u128,
    /// Search nodes where the chosen item had two or more options: the points where the
    /// search had to guess rather than follow a forced move.
    pub branches: u64,
    /// Options that inference proved to be in no solution and removed (counted each time,
    /// so an option removed on two paths counts twice); see [`Inference`].
    pub removals: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.solutions += other.solutions;
        self.branches += other.branches;
        self.removals += other.removals;
    }
}

/// How many solutions a problem has, with witnesses: the options of a solution here, a grid
/// in the Sudoku layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict<T> {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(T),
    /// At least two solutions; here are two distinct ones.
    Multiple(T, T),
}

impl<T> Verdict<T> {
    /// The same verdict with each witness mapped.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> Verdict<U> {
        match self {
            Verdict::None => Verdict::None,
            Verdict::Unique(a) => Verdict::Unique(f(a)),
            Verdict::Multiple(a, b) => {
                let a = f(a);
                Verdict::Multiple(a, f(b))
            }
        }
    }

    /// How many solutions the verdict stands for, counting "several" as 2.
    pub fn count(&self) -> u128 {
        match self {
            Verdict::None => 0,
            Verdict::Unique(_) => 1,
            Verdict::Multiple(..) => 2,
        }
    }
}

/// Why a search stopped before it had seen every solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    Deadline,
    /// The search entered as many nodes as its budget allows.
    NodeLimit,
    /// The cancellation flag was set.
    Cancelled,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stop::Deadline => "the deadline passed",
            Stop::NodeLimit => "the node budget ran out",
            Stop::Cancelled => "the search was cancelled",
        })
    }
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
    /// The problem has multiplicities, whose search does not take options chosen up front.
    Multiplicities(OptionId),
}

impl std::fmt::Display for ChooseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChooseError::Unknown(o) => write!(f, "option {} does not exist", o.0),
            ChooseError::Dropped(o) => write!(f, "option {} names only secondary items", o.0),
            ChooseError::Conflict(o) => {
                write!(f, "option {} clashes with an option already chosen", o.0)
            }
            ChooseError::Multiplicities(o) => write!(
                f,
                "option {} cannot be chosen up front: the problem has multiplicities",
                o.0
            ),
        }
    }
}

impl std::error::Error for ChooseError {}

/// The item a search would branch on next, and its options: each option starts a disjoint
/// part of the search (choose it, then search), and together they hold every solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The primary item with the fewest remaining options (the first such).
    pub item: ItemId,
    /// Its remaining options, in the order the search tries them.
    pub options: Vec<OptionId>,
}

/// A part of a search: the subtree below a path of choices from the root of the search tree
/// (the options chosen before the search stay chosen). Subtrees are how one search is split
/// into disjoint parts, for threads ([`Solver::count_parallel`](Solver)), for machines
/// ([`Solver::subtrees`]) and for checkpoints ([`Search::remainder`]); a path is meaningful
/// only for the problem, the chosen options and the inference setting that made it (see
/// [`Solver::fingerprint`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Subtree {
    /// The options chosen on the way down, one per level of the search.
    pub path: Vec<OptionId>,
    /// Knuth's estimate of the share of the whole search tree below this path: the product,
    /// over the levels of the path, of one over the number of options there.
    pub share: f64,
}

impl Subtree {
    /// The whole search.
    pub fn root() -> Subtree {
        Subtree {
            path: Vec::new(),
            share: 1.0,
        }
    }
}

/// Why a path is not a path of a search tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathError {
    /// Where in the path the first wrong option stands.
    pub index: usize,
    /// That option.
    pub option: OptionId,
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "option {} at step {} of the path is not one the search branches on there (a path \
             of another problem or another inference setting?)",
            self.option.0,
            self.index + 1
        )
    }
}

impl std::error::Error for PathError {}

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
    pub(super) matrix: &'m Matrix,
    pub(super) links: Links,
    stats: Stats,
    /// When searches must give up; checked every [`CHECK_EVERY`] nodes.
    deadline: Option<Instant>,
    /// How many search nodes each search may enter before it stops.
    node_limit: u64,
    /// A flag that another thread (or a signal handler) sets to stop searches.
    cancel: Option<Arc<AtomicBool>>,
    /// Why the last search stopped early, if it did.
    stopped: Option<Stop>,
    /// Per option, whether the solution being checked against the problem's sums holds it
    /// (all false between checks; empty until the first).
    chosen_marks: Vec<bool>,
    /// Where counting searches hand their rests to the matrix's counter (see `rest.rs`).
    cut: Cut,
    /// The options of the path whose rest is being counted.
    rest_path: Vec<OptionId>,
    /// Solutions a rest's counter listed, not yet handed out.
    rest_shown: Vec<Vec<OptionId>>,
}

/// Search nodes between two looks at the clock and the cancellation flag.
const CHECK_EVERY: u64 = 1024;

impl<'m> Solver<'m> {
    /// A solver with nothing chosen.
    pub fn new(matrix: &'m Matrix) -> Solver<'m> {
        Solver {
            matrix,
            links: Links::new(matrix),
            stats: Stats::default(),
            deadline: None,
            node_limit: u64::MAX,
            cancel: None,
            stopped: None,
            chosen_marks: Vec::new(),
            cut: Cut::new(matrix.rest.as_ref().map_or(0, |rest| rest.items_at_most())),
            rest_path: Vec::new(),
            rest_shown: Vec::new(),
        }
    }

    /// Whether the solution the links stand at meets every sum and chain of the problem (the search
    /// filters by them only where it branches, and not at all with colours or
    /// multiplicities, so each solution is checked).
    fn meets_the_sums(&mut self) -> bool {
        let (sums, chains) = (self.matrix.problem().sums(), self.matrix.problem().chains());
        if sums.is_empty() && chains.is_empty() {
            return true;
        }
        let solution = Solution {
            matrix: self.matrix,
            chosen: self.links.chosen(),
            stack: self.links.stack(),
        };
        self.chosen_marks
            .resize(self.matrix.problem().option_count(), false);
        for option in solution.options() {
            self.chosen_marks[option.0 as usize] = true;
        }
        let marks = &self.chosen_marks;
        let holds = sums.iter().all(|sum| sum.holds(|o| marks[o.0 as usize]))
            && chains
                .iter()
                .all(|chain| chain.holds(|o| marks[o.0 as usize]));
        for option in solution.options() {
            self.chosen_marks[option.0 as usize] = false;
        }
        holds
    }

    /// The matrix this solver searches.
    pub fn matrix(&self) -> &'m Matrix {
        self.matrix
    }

    /// Puts an option into every solution before searching, as if the search had chosen it
    /// (this is how Sudoku clues are applied without rebuilding the matrix, and how a search
    /// starts from a prefix of choices). Fails, changing nothing, if the option clashes with
    /// one chosen already.
    pub fn choose(&mut self, option: OptionId) -> Result<(), ChooseError> {
        let first = *self
            .matrix
            .option_first
            .get(option.0 as usize)
            .ok_or(ChooseError::Unknown(option))?;
        if first == 0 {
            return Err(ChooseError::Dropped(option));
        }
        if !self.matrix.bounds.is_empty() {
            return Err(ChooseError::Multiplicities(option));
        }
        let updates = self
            .links
            .choose(first)
            .ok_or(ChooseError::Conflict(option))?;
        self.stats.updates += updates;
        Ok(())
    }

    /// Takes back every option given to [`Solver::choose`], newest first.
    pub fn unchoose_all(&mut self) {
        self.links.unchoose_all();
    }

    /// The options chosen before the search.
    pub fn chosen(&self) -> impl Iterator<Item = OptionId> + '_ {
        self.links
            .chosen()
            .iter()
            .map(|&x| OptionId(self.matrix.node_option[x as usize]))
    }

    /// The item a search would branch on now, after the options chosen, with its options;
    /// `None` when the chosen options already cover every primary item. (With
    /// multiplicities an item may take several of its options or none, so its options do not
    /// split that search into disjoint parts; see [`Solver::can_split`].)
    pub fn branch(&self) -> Option<Branch> {
        let (item, firsts) = self.links.branch()?;
        Some(Branch {
            item: ItemId(self.matrix.item_of[item as usize]),
            options: firsts
                .into_iter()
                .map(|x| OptionId(self.matrix.node_option[x as usize]))
                .collect(),
        })
    }

    /// Statistics of the searches since the last [`Solver::reset_stats`].
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Sets the statistics back to zero.
    pub fn reset_stats(&mut self) {
        self.stats = Stats::default();
        self.stopped = None;
    }

    /// Sets how much inference later searches make (the default is [`Inference::Auto`]).
    /// Counts and the set of solutions are the same for every setting; nodes, time,
    /// [`Stats::removals`] and the order of solutions may differ.
    pub fn set_inference(&mut self, inference: Inference) {
        self.links.set_inference(inference);
    }

    /// Sets how later searches choose the item they branch on (the default is
    /// [`Branching::Fewest`]). Counts and the set of solutions are the same either way.
    /// With [`Branching::Conflicts`] a search is not split ([`Solver::can_split`]): it runs
    /// on one thread, and a stopped one resumes from the start.
    pub fn set_branching(&mut self, branching: Branching) {
        self.links.set_branching(branching);
    }

    /// How searches choose the item they branch on.
    pub fn branching(&self) -> Branching {
        self.links.branching()
    }

    /// How much inference searches make.
    pub fn inference(&self) -> Inference {
        self.links.inference()
    }

    /// The inference a search started now would make: the setting, with
    /// [`Inference::Auto`] resolved for the items left to cover (after the options chosen
    /// so far), and [`Inference::None`] with multiplicities.
    ///
    /// ```
    /// use xcover::dlx::{Inference, Matrix};
    /// use xcover::problems;
    ///
    /// let matrix = Matrix::new(problems::queens(8)).unwrap();
    /// let mut solver = matrix.solver();
    /// assert_eq!(solver.resolved_inference(), Inference::Shallow);
    /// solver.set_inference(Inference::Probe);
    /// assert_eq!(solver.resolved_inference(), Inference::Probe);
    /// ```
    pub fn resolved_inference(&self) -> Inference {
        self.links.resolved_inference()
    }

    /// Makes later searches stop at `deadline` (or never, with `None`); see [`Stop`].
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Makes each later search stop after entering `limit` search nodes (or never, with
    /// `None`): like a deadline, but the same on every machine, so that seeded work (such as
    /// puzzle generation) stays reproducible. The budget is per search.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit.unwrap_or(u64::MAX);
    }

    /// Whether searches have a node limit ([`Solver::set_node_limit`]).
    pub(super) fn has_node_limit(&self) -> bool {
        self.node_limit != u64::MAX
    }

    /// The deadline of later searches.
    pub(super) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The cancellation flag of later searches.
    pub(super) fn cancel_flag(&self) -> Option<Arc<AtomicBool>> {
        self.cancel.clone()
    }

    /// Adds the statistics of a search on another solver (a restart's) to this one's, and
    /// takes its reason for stopping.
    pub(super) fn absorb(&mut self, other: &Solver<'_>) {
        self.stats += other.stats;
        self.stopped = other.stopped;
    }

    /// Makes later searches stop soon after `flag` becomes true (within about a thousand
    /// search nodes): how a Ctrl-C handler or another thread stops a long count and still
    /// gets the count so far.
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// Whether the cancellation flag is set or the deadline has passed: a search started now
    /// would stop at once.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub(crate) fn stop_reason(&self) -> Option<Stop> {
        stop_reason(self.cancel.as_deref(), self.deadline)
    }

    /// Why the last search stopped before seeing every solution it was asked for, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        self.stopped
    }

    /// Whether the last search stopped at the deadline, node limit or cancellation rather
    /// than finishing.
    pub fn interrupted(&self) -> bool {
        self.stopped.is_some()
    }

    /// A search that hands out solutions one at a time without allocating.
    pub fn search(&mut self) -> Search<'_, 'm> {
        self.stopped = None;
        self.stats.removals += self.links.restart(self.matrix);
        self.started_search(1.0)
    }

    /// The search that the links, just restarted (and perhaps moved down a path), begin:
    /// below a subtree holding `share` of the whole tree.
    fn started_search(&mut self, share: f64) -> Search<'_, 'm> {
        let node_limit = self.node_limit;
        let deadline = self.deadline;
        Search {
            solver: self,
            nodes: 0,
            node_limit,
            deadline,
            next_check: CHECK_EVERY,
            exhausted: false,
            share,
            given: 0.0,
            root_share: share,
            run: None,
            run_done: 0.0,
            siblings_taken: 0,
        }
    }

    /// A search of a run of `count` sibling options: the subtree below `subtree.path` and
    /// those below the `count - 1` options that follow the path's last one at its level, in
    /// the order the search tries them (`subtree.share` is the run's). Its item's column is
    /// entered once for the whole run; a run given away whole as `count` subtrees made every
    /// one of them cover the item again, which was quadratic on a wide item. Parallel
    /// enumerations hand out runs ([`Search::split_off_run`]).
    #[cfg(feature = "parallel")]
    pub(crate) fn search_below_run(
        &mut self,
        subtree: &Subtree,
        count: u32,
    ) -> Result<Search<'_, 'm>, PathError> {
        let splittable = self.can_split();
        let mut search = self.search_below(subtree)?;
        if count > 1 && splittable && !subtree.path.is_empty() {
            let per_option = subtree.share / f64::from(count);
            search.root_share = per_option;
            search.run = Some(Run {
                level: subtree.path.len() - 1,
                left: count - 1,
                per_option,
            });
        }
        Ok(search)
    }

    /// A search of the subtree below `subtree.path` only: it follows the path from the root
    /// as [`Solver::search`] would (inference included), then hands out the solutions below
    /// it. The subtrees that [`Solver::subtrees`], [`Search::split_off`] and
    /// [`Search::remainder`] give are disjoint and together hold every solution.
    pub fn search_below(&mut self, subtree: &Subtree) -> Result<Search<'_, 'm>, PathError> {
        let firsts = self.path_nodes(&subtree.path)?;
        self.stopped = None;
        self.stats.removals += self.links.restart(self.matrix);
        let work = self.links.descend(&firsts).map_err(|index| PathError {
            index,
            option: subtree.path[index],
        })?;
        self.add_work(work);
        Ok(self.started_search(subtree.share))
    }

    /// The first nodes of the options of a path; an error names the first unknown one.
    pub(super) fn path_nodes(&self, path: &[OptionId]) -> Result<Vec<u32>, PathError> {
        path.iter()
            .enumerate()
            .map(|(index, &option)| {
                self.matrix
                    .option_first
                    .get(option.0 as usize)
                    .copied()
                    .filter(|&first| first != 0)
                    .ok_or(PathError { index, option })
            })
            .collect()
    }

    fn add_work(&mut self, work: super::links::Work) {
        self.stats.nodes += work.nodes;
        self.stats.updates += work.updates;
        self.stats.branches += work.branches;
        self.stats.removals += work.removals;
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
        self.search().first_shown(1).pop()
    }

    /// The number of solutions, stopping at `limit` if one is given. When the search is
    /// stopped early ([`Solver::stopped`]), this is the count so far.
    pub fn count(&mut self, limit: Option<u128>) -> u128 {
        self.search().count(limit)
    }

    /// None, one or several solutions: the search stops at the second.
    pub fn verdict(&mut self) -> Verdict<Vec<OptionId>> {
        self.search().verdict_shown()
    }
}

/// One search in progress on a [`Solver`]; see [`Search::next_solution`].
///
/// Dropping it before the end undoes its choices, so the solver is left as it was.
#[derive(Debug)]
pub struct Search<'s, 'm> {
    solver: &'s mut Solver<'m>,
    /// Nodes entered by this search.
    nodes: u64,
    /// The node count at which this search stops.
    node_limit: u64,
    deadline: Option<Instant>,
    /// The node count at which the clock and the flag are looked at next.
    next_check: u64,
    /// Whether the search has seen every solution.
    exhausted: bool,
    /// The estimated share of the whole search tree below this search's path.
    share: f64,
    /// The shares of the subtrees given away by [`Search::split_off`].
    given: f64,
    /// The share of the subtree below the path this search started from (its own option of
    /// a run, for a search of a run; `share` otherwise).
    root_share: f64,
    /// The options of one level that this search owns beyond the one it is below (see
    /// [`Solver::search_below_run`]).
    run: Option<Run>,
    /// The share of the options of a run started from that are done.
    run_done: f64,
    /// The sibling options of runs this search moved to.
    siblings_taken: u64,
}

/// Sibling options at one level of a search's path that the search tries after the current
/// one, in order: the part of a level that it owns (the rest was given away, or is another
/// search's).
#[derive(Debug, Clone, Copy)]
struct Run {
    level: usize,
    /// How many options after the current one.
    left: u32,
    /// The estimated share of the tree below each option of the level.
    per_option: f64,
}

/// What a search is run for.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// Each solution in turn, on the links.
    Each,
    /// A count (up to about the number given): rests may be counted in bulk.
    Count(u128),
    /// The first solutions (up to the number given): rests may be listed.
    Show(usize),
}

/// What a search found next.
enum Found {
    /// A solution, which the links stand at.
    One,
    /// Solutions below a node, counted in bulk.
    Many(u128),
    /// Solutions below a node, listed in the solver's `rest_shown`.
    Shown,
    /// No more solutions, or the search was stopped.
    Nothing,
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
        // With multiplicities, a level may choose no option (an item header on the stack).
        let headers = self.matrix.item_count;
        self.chosen
            .iter()
            .chain(self.stack)
            .filter(move |&&x| x > headers)
            .map(|&x| OptionId(self.matrix.node_option[x as usize]))
    }

    /// The options as a vector.
    pub fn to_vec(&self) -> Vec<OptionId> {
        self.options().collect()
    }

    /// How many options the solution has.
    pub fn len(&self) -> usize {
        self.options().count()
    }

    /// Whether the solution has no option (only when there is nothing left to cover).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<'m> Search<'_, 'm> {
    /// The next solution, or `None` when there are no more or the search was stopped
    /// ([`Search::stopped`] tells which). A stopped search resumes where it stopped on the
    /// next call, once its deadline or budget allows (see [`Search::set_deadline`],
    /// [`Search::set_node_limit`]) or its cancellation flag is cleared.
    pub fn next_solution(&mut self) -> Option<Solution<'_>> {
        match self.advance(Want::Each) {
            Found::One => Some(self.current()),
            Found::Many(_) | Found::Shown => {
                unreachable!("a search that lists hands no rest over")
            }
            Found::Nothing => None,
        }
    }

    /// The solution the links stand at.
    fn current(&self) -> Solution<'_> {
        let solver = &*self.solver;
        Solution {
            matrix: solver.matrix,
            chosen: solver.links.chosen(),
            stack: solver.links.stack(),
        }
    }

    /// How many solutions the search found next: one, or where the matrix has a counter of
    /// rests ([`Matrix::set_rest_counter`]) the solutions below a node counted in bulk (at
    /// most about `limit`); `None` when there are no more or the search was stopped, as
    /// with [`Search::next_solution`]. For counting: no solution is shown.
    pub fn next_count(&mut self, limit: u128) -> Option<u128> {
        match self.advance(Want::Count(limit)) {
            Found::One => Some(1),
            Found::Many(count) => Some(count),
            Found::Shown | Found::Nothing => None,
        }
    }

    /// The first `wanted` solutions (fewer if there are not so many), each as its options,
    /// with rests handed to the matrix's counter where it lists them. For a search that ends
    /// there: a rest listed up to `wanted` may hold more solutions that the search will not
    /// come back to.
    fn first_shown(&mut self, wanted: usize) -> Vec<Vec<OptionId>> {
        self.solver.rest_shown.clear();
        let mut found: Vec<Vec<OptionId>> = Vec::new();
        while found.len() < wanted {
            match self.advance(Want::Show(wanted - found.len())) {
                Found::One => found.push(self.current().to_vec()),
                Found::Shown => found.append(&mut self.solver.rest_shown),
                Found::Many(_) | Found::Nothing => break,
            }
        }
        found.truncate(wanted);
        found
    }

    /// Runs the search to its next solution, or to its next solutions counted in bulk or
    /// shown, as `want` says.
    fn advance(&mut self, want: Want) -> Found {
        self.solver.stopped = None;
        if self.exhausted {
            return Found::Nothing;
        }
        let rests = match (want, self.solver.matrix.rest.as_ref()) {
            (Want::Each, _) | (_, None) => false,
            (Want::Count(_), Some(_)) => true,
            (Want::Show(_), Some(counter)) => counter.lists(),
        };
        let items = if rests { self.solver.cut.items } else { 0 };
        self.solver.links.set_rest_items(items);
        loop {
            if self.nodes >= self.node_limit {
                self.solver.stopped = Some(Stop::NodeLimit);
                return Found::Nothing;
            }
            if self.nodes >= self.next_check {
                self.next_check = self.nodes + CHECK_EVERY;
                if let Some(stop) = self.should_stop() {
                    self.solver.stopped = Some(stop);
                    return Found::Nothing;
                }
            }
            let budget = (self.node_limit - self.nodes).min(self.next_check - self.nodes);
            let (event, work) = self.solver.links.run(budget);
            self.nodes += work.nodes;
            self.solver.add_work(work);
            match event {
                Event::Solution => {
                    // The search filters by the sums only where it branches (and not at all
                    // with colours or multiplicities): each solution is checked here.
                    if !self.solver.meets_the_sums() {
                        continue;
                    }
                    self.solver.stats.solutions += 1;
                    return Found::One;
                }
                Event::Rest => {
                    if let Some(count) = self.hand_rest(want)
                        && count > 0
                    {
                        self.solver.stats.solutions += count;
                        return match want {
                            Want::Show(_) => Found::Shown,
                            _ => Found::Many(count),
                        };
                    }
                }
                Event::Exhausted => {
                    if let Some(run) = self.run.as_mut().filter(|run| run.left > 0)
                        && let Some(work) = self.solver.links.next_sibling()
                    {
                        run.left -= 1;
                        self.siblings_taken += 1;
                        if run.level < self.solver.links.root_level() {
                            self.run_done += run.per_option;
                        }
                        self.solver.add_work(work);
                        continue;
                    }
                    self.exhausted = true;
                    return Found::Nothing;
                }
                Event::Paused => {}
            }
        }
    }

    /// The number of solutions still to come, stopping at `limit` if one is given (the
    /// count so far when the search is stopped early).
    pub fn count(&mut self, limit: Option<u128>) -> u128 {
        let limit = limit.unwrap_or(u128::MAX);
        let mut count = 0;
        while count < limit {
            match self.next_count(limit - count) {
                Some(found) => count += found.min(limit - count),
                None => break,
            }
        }
        count
    }

    /// At [`Event::Rest`]: hands the rest of the node the links stand at to the matrix's
    /// counter, within its budget (and the search's node budget), to count or (`Want::Show`)
    /// list into `rest_shown`; `None` if it declined.
    fn hand_rest(&mut self, want: Want) -> Option<u128> {
        let solver = &mut *self.solver;
        let matrix = solver.matrix;
        let counter = matrix.rest.as_ref().expect("rests only with a counter");
        let mut path = std::mem::take(&mut solver.rest_path);
        path.clear();
        let headers = matrix.item_count;
        path.extend(
            solver
                .links
                .chosen()
                .iter()
                .chain(solver.links.stack())
                .filter(|&&x| x > headers)
                .map(|&x| OptionId(matrix.node_option[x as usize])),
        );
        let budget = REST_BUDGET.min(self.node_limit - self.nodes).max(1);
        let shown = solver.rest_shown.len();
        let rest = match want {
            Want::Count(limit) => counter.count(&path, limit.max(1), budget),
            Want::Show(wanted) => {
                let listed = &mut solver.rest_shown;
                let mut visit = |rest: &[OptionId]| {
                    listed.push(path.iter().chain(rest).copied().collect());
                };
                counter.list(&path, wanted.max(1), budget, &mut visit)
            }
            Want::Each => unreachable!("a search that lists hands no rest over"),
        };
        if rest.solutions.is_none() {
            solver.rest_shown.truncate(shown);
        }
        solver.rest_path = path;
        self.nodes += rest.nodes;
        solver.stats.nodes += rest.nodes;
        match rest.solutions {
            Some(count) => {
                // The node itself, which the links did not count.
                self.nodes += 1;
                solver.stats.nodes += 1;
                solver.cut.counted(rest.nodes);
                solver.links.set_rest_items(solver.cut.items);
                solver.links.end_rest(true);
                Some(count)
            }
            None => {
                // Only a rest too big for the whole budget says where to cut (the search's
                // own node limit may have left it less).
                if budget == REST_BUDGET {
                    solver.cut.declined(solver.links.active_primary() as usize);
                }
                solver.links.set_rest_items(solver.cut.items);
                solver.links.end_rest(false);
                None
            }
        }
    }

    /// [`Search::verdict`] for a search that ends there: where the matrix's counter of rests
    /// lists solutions, rests are handed to it (and one listed up to the second solution is
    /// not come back to).
    pub(crate) fn verdict_shown(&mut self) -> Verdict<Vec<OptionId>> {
        let mut found = self.first_shown(2).into_iter();
        match (found.next(), found.next()) {
            (None, _) => Verdict::None,
            (Some(first), None) => Verdict::Unique(first),
            (Some(first), Some(second)) => Verdict::Multiple(first, second),
        }
    }

    /// None, one or several of the solutions still to come: stops at the second.
    pub fn verdict(&mut self) -> Verdict<Vec<OptionId>> {
        let Some(first) = self.next_solution().map(|s| s.to_vec()) else {
            return Verdict::None;
        };
        match self.next_solution() {
            None => Verdict::Unique(first),
            Some(second) => Verdict::Multiple(first, second.to_vec()),
        }
    }

    /// Ends the search and takes back every option chosen before it, as dropping it and then
    /// calling [`Solver::unchoose_all`] does. Faster where those options are taken back by
    /// copying the links as they were with nothing chosen (a Sudoku's clues): the search's
    /// own choices are then not undone one by one first.
    pub fn end_unchoosing_all(self) {
        self.solver.links.unwind_unchoosing_all();
        // Dropping `self` now finds nothing to undo.
    }

    /// Whether the deadline has passed or the flag is set.
    fn should_stop(&self) -> Option<Stop> {
        stop_reason(self.solver.cancel.as_deref(), self.deadline)
    }

    /// Why the last call to [`Search::next_solution`] returned `None` early, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        self.solver.stopped
    }

    /// Sets this search's deadline (or none), for example to resume it after
    /// [`Stop::Deadline`].
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Lets this search enter `limit` more search nodes from now (or any number, with
    /// `None`), for example to resume it after [`Stop::NodeLimit`].
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit.map_or(u64::MAX, |limit| self.nodes.saturating_add(limit));
    }

    /// Branch points of the solver's searches so far (this one's included).
    pub(super) fn branches(&self) -> u64 {
        self.solver.stats.branches
    }

    /// Search nodes entered by this search so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Gives away the untried options of the shallowest level of the current path that has
    /// some, as subtrees for other searches (another thread, say); this search will not visit
    /// them. Empty when nothing is left to give. Between two solutions, or after a stop.
    pub fn split_off(&mut self) -> Vec<Subtree> {
        let (level, options, share) = match self.run.as_mut().filter(|run| run.left > 0) {
            // The run's level is the shallowest with untried options.
            Some(run) => {
                let (level, left, share) = (run.level, run.left, run.per_option);
                run.left = 0;
                (level, self.solver.links.siblings(level, left), share)
            }
            None => {
                let Some((level, options)) = self.solver.links.split_off() else {
                    return Vec::new();
                };
                (level, options, self.share_at(level))
            }
        };
        self.given += share * options.len() as f64;
        options
            .into_iter()
            .map(|first| self.subtree_at(level, first, share))
            .collect()
    }

    /// The estimated share of the tree below one option at `level` of the current path.
    fn share_at(&self, level: usize) -> f64 {
        let links = &self.solver.links;
        (links.root_level()..=level).fold(self.root_share, |share, l| {
            share / f64::from(links.options_at(l).max(1))
        })
    }

    /// The subtree below the current path's options above `level` and the option of first
    /// node `first` at `level`, with `share`.
    fn subtree_at(&self, level: usize, first: u32, share: f64) -> Subtree {
        let node_option = &self.solver.matrix.node_option;
        let mut path: Vec<OptionId> = self.solver.links.stack()[..level]
            .iter()
            .map(|&x| OptionId(node_option[x as usize]))
            .collect();
        path.push(OptionId(node_option[first as usize]));
        Subtree { path, share }
    }

    /// Gives away the later half of the untried options of the shallowest level that has
    /// some, as one run (a subtree and the number of sibling options it starts: for
    /// [`Solver::search_below_run`]); this search keeps the earlier half. `None` when nothing
    /// is left to give. Halving keeps the parts few: giving every option away as a subtree of
    /// its own made a wide level cost as many searches as it has options.
    #[cfg(feature = "parallel")]
    pub(crate) fn split_off_run(&mut self) -> Option<(Subtree, u32)> {
        // A part is worth giving only if the work below its options is large beside the work
        // of entering it: the search that takes it covers the level's item, whose column
        // holds `options` options, again. The work below an option is estimated by this
        // search's nodes per option it took. Halving a wide level of one-node options down
        // to single options made as many entries as halvings, each a walk down the whole
        // column (a count of 100,000 options took 1.3 times as long on two threads).
        let per_option_nodes = (self.nodes / (1 + self.siblings_taken)).max(1);
        let worth = |untried: u32, options: u32| {
            u64::from(untried.div_ceil(2)) * per_option_nodes >= u64::from(options)
        };
        let links = &self.solver.links;
        let (level, untried, per_option) = match self.run.filter(|run| run.left > 0) {
            // The run's level is the shallowest with untried options; a search gives from no
            // other level while it has some (it owns one run at a time).
            Some(run) => {
                if !worth(run.left, links.untried_at(run.level).1) {
                    return None;
                }
                (run.level, run.left, run.per_option)
            }
            None => {
                let (level, untried) = links
                    .open_levels()
                    .find_map(|level| {
                        let (untried, options) = links.untried_at(level);
                        (untried > 0).then_some((level, untried, options))
                    })
                    .filter(|&(_, untried, options)| worth(untried, options))
                    .map(|(level, untried, _)| (level, untried))?;
                let per_option = self.share_at(level);
                self.solver.links.give_away_below(level);
                (level, untried, per_option)
            }
        };
        let give = untried.div_ceil(2);
        let keep = untried - give;
        let first = self
            .solver
            .links
            .sibling(level, keep + 1)
            .expect("the level has that many untried options");
        self.run = Some(Run {
            level,
            left: keep,
            per_option,
        });
        let share = per_option * f64::from(give);
        self.given += share;
        Some((self.subtree_at(level, first, share), give))
    }

    /// What this search has not explored yet, as disjoint subtrees in the order it would
    /// visit them: after a stop (Ctrl-C, a deadline), these are what a checkpoint saves and
    /// a later [`Solver::search_below`] each resumes. Empty once the search is over. On a
    /// problem with multiplicities (see [`Solver::can_split`]) it is the whole search.
    pub fn remainder(&self) -> Vec<Subtree> {
        if self.exhausted {
            return Vec::new();
        }
        let node_option = &self.solver.matrix.node_option;
        let mut parts: Vec<Subtree> = self
            .solver
            .links
            .remainder()
            .into_iter()
            .map(|(path, share)| Subtree {
                path: path
                    .iter()
                    .map(|&first| OptionId(node_option[first as usize]))
                    .collect(),
                share: share * self.root_share,
            })
            .collect();
        // The rest of a run comes after everything below its current option.
        if let Some(run) = self.run.filter(|run| run.left > 0) {
            parts.extend(
                self.solver
                    .links
                    .siblings(run.level, run.left)
                    .into_iter()
                    .map(|first| self.subtree_at(run.level, first, run.per_option)),
            );
        }
        parts
    }

    /// Knuth's estimate of the share of the whole search tree this search has explored (of
    /// its own subtree, times that subtree's share): from the positions of the current
    /// choices among their items' options. Parts given away are not explored here.
    pub fn progress(&self) -> f64 {
        if self.exhausted {
            return self.share - self.given;
        }
        self.run_done + self.solver.links.progress() * self.root_share
    }
}

impl Drop for Search<'_, '_> {
    fn drop(&mut self) {
        self.solver.links.unwind();
    }
}

/// Why a search must stop now: its cancellation flag is set, or its deadline has passed.
/// The Sudoku baselines, which have no links, stop by the same test.
pub(crate) fn stop_reason(cancel: Option<&AtomicBool>, deadline: Option<Instant>) -> Option<Stop> {
    if cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
        return Some(Stop::Cancelled);
    }
    if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
        return Some(Stop::Deadline);
    }
    None
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
