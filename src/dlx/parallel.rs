//! One search on every core: a search split into subtrees that threads take from each other.
//!
//! A search tree is cut along paths of choices ([`Subtree`]): each worker (a task on rayon's
//! work-stealing pool) searches the subtree below one path, or a run of sibling subtrees (the
//! path's last option and those after it at its level). Whenever a worker's own queue of
//! tasks is empty, it gives away the later half of the untried options of the shallowest
//! level of its current path, as one run, a new task that an idle thread can steal
//! ([`Search::split_off_run`](super::Search)), so the big subtrees near the root are split
//! again exactly when some thread would otherwise run out of work; the search that gave them
//! away goes on with the earlier half. Runs keep the tasks few: one task per untried option
//! made a level of 100,000 options cost 100,000 searches that each entered its item's
//! column (`-j2` took 31.6 s where `-j1` took 0.03 s). Counts are
//! exact and the same for every number of threads; without [`Enumeration::ordered`] the
//! visitor sees solutions in whatever order the threads find them.
//!
//! Ordered output: every task owns a slot in a linked list kept in search order. A task that
//! gives subtrees away inserts their slots right after its own (they come after everything
//! it still has to do and before what came after it). Solutions of the slot at the head of
//! the list go to the visitor at once; others wait in their slot's buffer until it reaches
//! the head. That is the order of a one-thread search, whatever the number of threads.
//!
//! A stop (the solver's cancellation flag or deadline) makes every task hand back what it has
//! not explored, as subtrees, so that a count can be saved and resumed exactly
//! ([`super::checkpoint`]). [`Monitor`] lets another thread watch the count, the nodes and
//! Knuth's estimate of how much of the tree is done.

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::problem::OptionId;
use super::search::{PathError, Search, Solver, Stats, Stop, Subtree};

/// Search nodes a worker explores between two looks at the shared state (stop, idle threads,
/// progress). About a tenth of a millisecond of work.
const CHUNK: u64 = 1 << 12;

/// Search nodes a search of one subtree may take on the calling thread before the pool's
/// threads join in: most searches of a puzzle's few solutions end well within it, and pay
/// nothing for threads (`sudoku solve --all` on 1,000 puzzles took 0.29 s instead of 0.19 s
/// when every one started the pool).
const ALONE: u64 = 1 << 14;

/// How many times fewer nodes both budgets above are when the search probes
/// ([`Inference::Probe`](super::Inference::Probe)): its nodes cost about a hundred times more
/// (a 25x25 Sudoku's, about 30 microseconds), so the budgets in nodes would keep the other
/// threads waiting for a tenth of a second between looks, and half a second before they
/// join (`docs/design/search.md`).
const PROBING_SCALE: u64 = 64;

/// What a parallel enumeration does with the solutions it finds.
#[derive(Debug, Clone, Copy, Default)]
pub struct Enumeration {
    /// Stop after this many solutions (the count is then exactly the limit, if the problem
    /// has that many).
    pub limit: Option<u128>,
    /// Hand solutions to the visitor in the order a one-thread search finds them. Solutions
    /// found ahead of their turn wait in memory; an ordered run that is stopped returns no
    /// remainder (what waited is dropped), so it cannot be resumed.
    pub ordered: bool,
    /// Build no remainder after a stop ([`Outcome::remainder`] stays empty): for a caller
    /// that will not resume, since the remainder of a wide stopped search can take hundreds
    /// of megabytes (an empty 64x64 count stopped after a second: 600 MB).
    pub discard_remainder: bool,
}

/// How a parallel enumeration ended.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Solutions found (given to the visitor, when there is one).
    pub solutions: u128,
    /// The work of every thread, added up.
    pub stats: Stats,
    /// Why the search stopped before the end, if it did (reaching the limit is an end).
    pub stopped: Option<Stop>,
    /// After a stop, the subtrees not yet explored, disjoint from everything counted in
    /// `solutions` (empty after an ordered run). A problem with multiplicities is searched
    /// whole, on one thread, and cannot be resumed: this is then the whole search again
    /// ([`Solver::can_split`]).
    pub remainder: Vec<Subtree>,
}

/// Live figures of a running enumeration, readable from any thread while it runs (each
/// worker publishes its own every few thousand nodes).
#[derive(Debug)]
pub struct Monitor {
    threads: Vec<ThreadFigures>,
    /// The shares of the subtrees finished, as `f64` bits.
    done: AtomicU64,
}

#[derive(Debug, Default)]
struct ThreadFigures {
    solutions: AtomicU64,
    nodes: AtomicU64,
    /// The share explored of the subtree the thread is working on, as `f64` bits.
    live: AtomicU64,
}

/// What a [`Monitor`] shows at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Snapshot {
    /// Solutions found so far (in this run).
    pub solutions: u64,
    /// Search nodes entered so far (in this run).
    pub nodes: u64,
    /// Knuth's estimate of the share of the whole tree explored, from 0 to 1 (the subtrees
    /// this run started from may add up to less than 1 when it resumes another).
    pub explored: f64,
}

impl Default for Monitor {
    fn default() -> Monitor {
        Monitor::new()
    }
}

impl Monitor {
    /// A monitor for an enumeration on the current rayon pool.
    pub fn new() -> Monitor {
        Monitor {
            // One more than the pool's threads, for a caller outside the pool.
            threads: (0..=rayon::current_num_threads())
                .map(|_| ThreadFigures::default())
                .collect(),
            done: AtomicU64::new(0f64.to_bits()),
        }
    }

    /// The figures now.
    pub fn snapshot(&self) -> Snapshot {
        let mut snapshot = Snapshot {
            solutions: 0,
            nodes: 0,
            explored: f64::from_bits(self.done.load(Ordering::Relaxed)),
        };
        for thread in &self.threads {
            snapshot.solutions += thread.solutions.load(Ordering::Relaxed);
            snapshot.nodes += thread.nodes.load(Ordering::Relaxed);
            snapshot.explored += f64::from_bits(thread.live.load(Ordering::Relaxed));
        }
        snapshot.explored = snapshot.explored.min(1.0);
        snapshot
    }

    fn thread(&self) -> &ThreadFigures {
        let index = rayon::current_thread_index().unwrap_or(self.threads.len() - 1);
        &self.threads[index.min(self.threads.len() - 1)]
    }

    fn add_done(&self, share: f64) {
        let _ = self
            .done
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                Some((f64::from_bits(bits) + share).to_bits())
            });
    }
}

/// A visitor of solutions, called from any thread; `Break` ends the enumeration soon after
/// (when output is closed, say).
pub type Visitor<'v> = &'v (dyn Fn(&[OptionId]) -> ControlFlow<()> + Sync);

impl<'m> Solver<'m> {
    /// Searches `subtrees` (all of [`Solver::subtrees`], one part of them, or a checkpoint's
    /// remainder) on every thread of the current rayon pool, calling `visit` on each
    /// solution if given. Each thread works on its own copy of this solver (options chosen,
    /// inference setting, cancellation flag and deadline included).
    ///
    /// ```
    /// use xcover::dlx::{Enumeration, Matrix, Monitor, Subtree};
    /// use xcover::problems;
    ///
    /// let matrix = Matrix::new(problems::queens(10)).unwrap();
    /// let solver = matrix.solver();
    /// let monitor = Monitor::new();
    /// let outcome =
    ///     solver.enumerate_parallel(vec![Subtree::root()], &Enumeration::default(), None, &monitor);
    /// assert_eq!(outcome.unwrap().solutions, 724);
    /// ```
    ///
    /// Fails if a subtree's path is not a path of this search (see [`Solver::search_below`]);
    /// the other subtrees are still searched.
    pub fn enumerate_parallel(
        &self,
        subtrees: Vec<Subtree>,
        settings: &Enumeration,
        visit: Option<Visitor<'_>>,
        monitor: &Monitor,
    ) -> Result<Outcome, PathError> {
        let probes = self.resolved_inference() == super::Inference::Probe;
        let scale = if probes { PROBING_SCALE } else { 1 };
        let shared = Shared {
            template: self,
            solvers: Mutex::new(Vec::new()),
            settings,
            visit,
            monitor,
            chunk: CHUNK / scale,
            limit_reached: AtomicBool::new(false),
            claimed: AtomicU64::new(0),
            totals: Mutex::new(Totals::default()),
            order: Mutex::new(Order::default()),
        };
        let tasks: Vec<(Subtree, usize)> = {
            let mut order = lock(&shared.order);
            subtrees
                .into_iter()
                .map(|subtree| {
                    let slot = order.append();
                    (subtree, slot)
                })
                .collect()
        };
        // Each given subtree is a run of one option.
        // A single subtree is searched on this thread first, and goes on in the pool only if
        // it is not over after `ALONE` nodes (a search with multiplicities cannot be cut so).
        let tasks = match <[_; 1]>::try_from(tasks) {
            Ok([(subtree, slot)]) if self.can_split() => {
                shared.explore(None, (subtree, 1), slot, ALONE / scale);
                Vec::new()
            }
            Ok(one) => one.into(),
            Err(tasks) => tasks,
        };
        if !tasks.is_empty() {
            rayon::scope(|scope| {
                // A thread takes the newest task of its own queue first (others steal the
                // oldest): spawned last to first, the subtrees are searched in search
                // order, which is what ordered output needs to stream rather than wait.
                for (subtree, slot) in tasks.into_iter().rev() {
                    let shared = &shared;
                    scope.spawn(move |scope| {
                        shared.explore(Some(scope), (subtree, 1), slot, u64::MAX);
                    });
                }
            });
        }
        let totals = shared
            .totals
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        let order = shared.order.into_inner().unwrap_or_else(|e| e.into_inner());
        let solutions = if settings.ordered {
            order.emitted
        } else {
            totals.solutions
        };
        let mut remainder = totals.remainder;
        if settings.ordered {
            remainder.clear();
        }
        // Subtrees handed back by different threads: put them in search order, which is the
        // order of their tasks' slots, then each task's own order.
        let position = order.positions();
        remainder.sort_by_key(|&(slot, index, _)| (position[slot], index));
        let remainder = remainder
            .into_iter()
            .map(|(_, _, subtree)| subtree)
            .collect();
        if let Some(error) = totals.invalid {
            return Err(error);
        }
        Ok(Outcome {
            solutions,
            stats: totals.stats,
            stopped: totals.stopped,
            remainder,
        })
    }
}

/// What the workers of one enumeration share.
struct Shared<'a, 'm> {
    template: &'a Solver<'m>,
    /// Solvers not in use, so that a task reuses one rather than copying the template.
    solvers: Mutex<Vec<Solver<'m>>>,
    settings: &'a Enumeration,
    visit: Option<Visitor<'a>>,
    monitor: &'a Monitor,
    /// Search nodes between two looks at the shared state ([`CHUNK`], or less when probing).
    chunk: u64,
    /// Set when the limit is reached or the visitor breaks: the workers wind down.
    limit_reached: AtomicBool,
    /// Solutions claimed against the limit (unordered runs with a limit only).
    claimed: AtomicU64,
    totals: Mutex<Totals>,
    order: Mutex<Order>,
}

#[derive(Default)]
struct Totals {
    solutions: u128,
    stats: Stats,
    stopped: Option<Stop>,
    /// What stopped tasks left, each subtree with its task's slot and its place in the
    /// task's own remainder.
    remainder: Vec<(usize, usize, Subtree)>,
    /// The first path found not to belong to the search.
    invalid: Option<PathError>,
}

/// The slots of ordered output, linked in search order (see the module documentation).
#[derive(Default)]
struct Order {
    slots: Vec<Slot>,
    /// The first slot whose solutions have not all been handed out; `END` when done.
    head: usize,
    /// The last slot of the list.
    tail: usize,
    /// Solutions handed to the visitor.
    emitted: u128,
}

const END: usize = usize::MAX;

struct Slot {
    next: usize,
    done: bool,
    waiting: Vec<Vec<OptionId>>,
}

/// One task's running figures: its slot, the share of the tree it still owns, the solutions
/// it found, and the figures of its thread's [`Monitor`] entry when it began.
struct Task<'a> {
    slot: usize,
    share: f64,
    found: u128,
    /// Room for a solution's options on their way to the visitor.
    buffer: Vec<OptionId>,
    figures: &'a ThreadFigures,
    prior_solutions: u64,
    prior_nodes: u64,
}

impl Task<'_> {
    /// Shows the task's figures in its thread's [`Monitor`] entry: its solutions, the `nodes`
    /// it has searched, and the share `live` of its subtree explored.
    fn publish(&self, nodes: u64, live: f64) {
        let figures = self.figures;
        figures
            .solutions
            .store(self.prior_solutions + self.found as u64, Ordering::Relaxed);
        figures
            .nodes
            .store(self.prior_nodes + nodes, Ordering::Relaxed);
        figures.live.store(live.to_bits(), Ordering::Relaxed);
    }
}

/// Why [`Shared::drive`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// The search is over, or stopped for this reason.
    Over(Option<Stop>),
    /// The search took its budget of nodes outside the pool.
    Alone,
}

impl Order {
    /// A new slot at the end of the list.
    fn append(&mut self) -> usize {
        let slot = self.new_slot(END);
        if self.slots.len() == 1 {
            self.head = slot;
        } else {
            self.slots[self.tail].next = slot;
        }
        self.tail = slot;
        slot
    }

    fn new_slot(&mut self, next: usize) -> usize {
        self.slots.push(Slot {
            next,
            done: false,
            waiting: Vec::new(),
        });
        self.slots.len() - 1
    }

    /// A new slot right after `after`.
    fn insert_after(&mut self, after: usize) -> usize {
        let slot = self.new_slot(self.slots[after].next);
        self.slots[after].next = slot;
        if self.tail == after {
            self.tail = slot;
        }
        slot
    }

    /// Per slot: its place in the list (slot 0, the first appended, is first for good:
    /// slots are only inserted after others).
    fn positions(&self) -> Vec<usize> {
        let mut position = vec![0; self.slots.len()];
        let mut slot = if self.slots.is_empty() { END } else { 0 };
        let mut place = 0;
        while slot != END {
            position[slot] = place;
            place += 1;
            slot = self.slots[slot].next;
        }
        position
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A worker that panicked leaves the data as consistent as it was: keep going.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl<'m> Shared<'_, 'm> {
    fn limit(&self) -> u128 {
        self.settings.limit.unwrap_or(u128::MAX)
    }

    /// Searches one subtree (or a run of them: the subtree and the number of options of the
    /// run it starts), giving parts of it away when this thread has no other task waiting;
    /// runs on a pool thread.
    ///
    /// Outside the pool (no `scope`), the search runs alone for `budget` nodes; if it is not
    /// over by then, it goes on in the pool, whose other threads join in by taking the
    /// untried options of its shallowest levels while this search keeps its deep ones.
    fn explore<'s>(
        &'s self,
        scope: Option<&rayon::Scope<'s>>,
        (subtree, run): (Subtree, u32),
        slot: usize,
        budget: u64,
    ) {
        let mut solver = lock(&self.solvers)
            .pop()
            .unwrap_or_else(|| self.template.clone());
        solver.reset_stats();
        if self.limit_reached.load(Ordering::Relaxed) {
            // Enough solutions: what is left is not wanted (and not handed back).
            self.finish(slot, Stats::default(), 0, None, Vec::new());
            lock(&self.solvers).push(solver);
            return;
        }
        if let Some(stop) = solver.stop_reason() {
            // Handed back as it came (a run, as the subtrees of its options).
            let left = match solver.search_below_run(&subtree, run) {
                _ if self.settings.discard_remainder => Vec::new(),
                Ok(search) => search.remainder(),
                Err(_) => vec![subtree],
            };
            self.finish(slot, Stats::default(), 0, Some(stop), left);
            lock(&self.solvers).push(solver);
            return;
        }
        let figures = self.monitor.thread();
        let mut task = Task {
            slot,
            share: subtree.share,
            found: 0,
            buffer: Vec::new(),
            figures,
            prior_solutions: figures.solutions.load(Ordering::Relaxed),
            prior_nodes: figures.nodes.load(Ordering::Relaxed),
        };
        let (stopped, remainder) = match solver.search_below_run(&subtree, run) {
            Err(error) => {
                lock(&self.totals).invalid.get_or_insert(error);
                (None, Vec::new())
            }
            Ok(mut search) => {
                search.set_node_limit(Some(self.chunk));
                let mut end = self.drive(scope, &mut search, &mut task, budget);
                if end == End::Alone {
                    // Too big to finish alone. Handing its whole remainder to the pool instead
                    // made a task of every untried option of every level, each entered again
                    // down its whole path on a solver of its own: an empty 64x64 grid's count
                    // to two, thousands of levels deep, took 0.84 s and 411 MB on two threads
                    // (now 0.51 s and 130 MB; one thread, 0.31 s).
                    end = rayon::scope(|scope| {
                        self.drive(Some(scope), &mut search, &mut task, u64::MAX)
                    });
                }
                let End::Over(stopped) = end else {
                    unreachable!("a search in the pool has no budget")
                };
                let remainder = match stopped {
                    Some(_) if !self.settings.discard_remainder => search.remainder(),
                    _ => Vec::new(),
                };
                (stopped, remainder)
            }
        };
        let stats = solver.stats();
        task.publish(stats.nodes, 0.0);
        if stopped.is_none() {
            self.monitor.add_done(task.share);
        } else {
            self.monitor
                .add_done(task.share - remainder.iter().map(|s| s.share).sum::<f64>());
        }
        self.finish(slot, stats, task.found, stopped, remainder);
        lock(&self.solvers).push(solver);
    }

    /// Runs `search` chunk by chunk until it is over or stopped, or until it has taken
    /// `budget` nodes outside the pool; in the pool, gives parts of it away whenever this
    /// thread has no other task waiting.
    fn drive<'s>(
        &'s self,
        scope: Option<&rayon::Scope<'s>>,
        search: &mut Search<'_, 'm>,
        task: &mut Task<'_>,
        budget: u64,
    ) -> End {
        // A count that shows no solution may count rests in bulk (`rest.rs`).
        let counting = self.visit.is_none() && !self.settings.ordered;
        loop {
            if counting {
                let wanted = self.limit().saturating_sub(self.claimed());
                if let Some(found) = search.next_count(wanted) {
                    task.found += self.take_count(found);
                    if self.limit_reached.load(Ordering::Relaxed) {
                        return End::Over(None);
                    }
                    continue;
                }
            } else if let Some(solution) = search.next_solution() {
                if self.take(task.slot, &solution, &mut task.buffer) {
                    task.found += 1;
                }
                if self.limit_reached.load(Ordering::Relaxed) {
                    // Not to the end of the chunk: past the limit is waste.
                    return End::Over(None);
                }
                continue;
            }
            match search.stopped() {
                None => return End::Over(None),
                Some(Stop::NodeLimit) => {}
                Some(stop) => return End::Over(Some(stop)),
            }
            if self.limit_reached.load(Ordering::Relaxed) {
                return End::Over(None);
            }
            if search.nodes() >= budget {
                return End::Alone;
            }
            if let Some(scope) = scope
                && rayon::current_num_threads() > 1
                && rayon_core::current_thread_has_pending_tasks() == Some(false)
            {
                task.share -= self.give_away(scope, search, task.slot);
            }
            task.publish(search.nodes(), search.progress());
            search.set_node_limit(Some(self.chunk));
        }
    }

    /// Slots for `parts`, in order right after `slot` (they come after everything its
    /// search still does, and before what came after it).
    fn place_after(&self, slot: usize, parts: Vec<Subtree>) -> Vec<(Subtree, usize)> {
        let mut order = lock(&self.order);
        let mut after = slot;
        parts
            .into_iter()
            .map(|part| {
                after = order.insert_after(after);
                (part, after)
            })
            .collect()
    }

    /// Hands a solution to the visitor (or to its slot's waiting list); whether it counts
    /// (not past the limit).
    fn take(
        &self,
        slot: usize,
        solution: &super::Solution<'_>,
        buffer: &mut Vec<OptionId>,
    ) -> bool {
        if self.settings.ordered {
            let mut order = lock(&self.order);
            if order.emitted >= self.limit() {
                self.limit_reached.store(true, Ordering::Relaxed);
                return false;
            }
            if order.head == slot {
                order.emitted += 1;
                if let Some(visit) = self.visit {
                    buffer.clear();
                    buffer.extend(solution.options());
                    self.call(visit, buffer);
                }
                if order.emitted >= self.limit() {
                    self.limit_reached.store(true, Ordering::Relaxed);
                }
            } else {
                order.slots[slot].waiting.push(solution.to_vec());
            }
            return true;
        }
        if self.settings.limit.is_some() {
            let claimed = u128::from(self.claimed.fetch_add(1, Ordering::Relaxed));
            if claimed >= self.limit() {
                self.limit_reached.store(true, Ordering::Relaxed);
                return false;
            }
            if claimed + 1 >= self.limit() {
                self.limit_reached.store(true, Ordering::Relaxed);
            }
        }
        if let Some(visit) = self.visit {
            buffer.clear();
            buffer.extend(solution.options());
            self.call(visit, buffer);
        }
        true
    }

    /// Solutions claimed against the limit so far (0 without a limit).
    fn claimed(&self) -> u128 {
        u128::from(self.claimed.load(Ordering::Relaxed))
    }

    /// Counts `found` solutions of an unordered run without a visitor; how many of them
    /// count (not past the limit).
    fn take_count(&self, found: u128) -> u128 {
        if self.settings.limit.is_none() {
            return found;
        }
        let step = u64::try_from(found).unwrap_or(u64::MAX);
        let claimed = self
            .claimed
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| {
                Some(c.saturating_add(step))
            })
            .unwrap_or_else(|c| c);
        let claimed = u128::from(claimed);
        let counted = found.min(self.limit().saturating_sub(claimed));
        if claimed.saturating_add(found) >= self.limit() {
            self.limit_reached.store(true, Ordering::Relaxed);
        }
        counted
    }

    /// Calls the visitor; a `Break` stops the enumeration.
    fn call(&self, visit: Visitor<'_>, solution: &[OptionId]) {
        if visit(solution).is_break() {
            self.limit_reached.store(true, Ordering::Relaxed);
        }
    }

    /// Splits the running search and spawns the parts; returns the share given away.
    fn give_away<'s>(
        &'s self,
        scope: &rayon::Scope<'s>,
        search: &mut Search<'_, 'm>,
        slot: usize,
    ) -> f64 {
        let Some((part, run)) = search.split_off_run() else {
            return 0.0;
        };
        let given = part.share;
        for (part, slot) in self.place_after(slot, vec![part]) {
            scope.spawn(move |scope| {
                self.explore(Some(scope), (part, run), slot, u64::MAX);
            });
        }
        given
    }

    /// Adds a finished task's figures to the totals and, in order, hands out the solutions
    /// that waited for it.
    fn finish(
        &self,
        slot: usize,
        stats: Stats,
        found: u128,
        stopped: Option<Stop>,
        remainder: Vec<Subtree>,
    ) {
        {
            let mut totals = lock(&self.totals);
            totals.solutions += found;
            totals.stats += stats;
            totals.stopped = totals.stopped.or(stopped);
            let parts = remainder.into_iter().enumerate();
            totals
                .remainder
                .extend(parts.map(|(index, subtree)| (slot, index, subtree)));
        }
        if !self.settings.ordered {
            return;
        }
        let mut order = lock(&self.order);
        order.slots[slot].done = true;
        if stopped.is_some() {
            // The solutions after this slot can no longer be handed out in order.
            self.limit_reached.store(true, Ordering::Relaxed);
            order.head = END;
            return;
        }
        while order.head != END && order.slots[order.head].done {
            let next = order.slots[order.head].next;
            order.head = next;
            if next == END {
                break;
            }
            let waiting = std::mem::take(&mut order.slots[next].waiting);
            for solution in waiting {
                if order.emitted >= self.limit() {
                    self.limit_reached.store(true, Ordering::Relaxed);
                    break;
                }
                order.emitted += 1;
                if let Some(visit) = self.visit {
                    self.call(visit, &solution);
                }
            }
        }
    }
}
