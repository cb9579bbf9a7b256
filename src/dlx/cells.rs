//! Dancing cells: searching exact covers with sparse sets instead of linked lists, the design
//! of Knuth's SSXC1 (after Christine Solnon's dancing cells), here so that the engine's
//! dancing links can be measured against it and a user can take whichever wins on a problem.
//!
//! Each item keeps the options that hold it as a set in one flat array: its first `size`
//! entries are the live ones. Taking an option out of an item's set swaps it with the last
//! live entry and shrinks `size`, and each node remembers where it sits (`loc`), so a
//! removal is a few stores and no list is ever walked to undo it. Backtracking undoes every
//! removal of a level at once: the sizes of the active items are saved on entering a level
//! and written back, and the options that went out lie just past each restored size, in some
//! order, which is all a set needs. The active items are a sparse set as well.
//!
//! Covering an item hides each of its options from every other item's set (from inactive
//! items' too: their sizes are restored with the level that covered them); choosing an
//! option takes its items out of the active set first and then covers them, and stops as
//! soon as a primary item still to cover has no option left.
//!
//! It counts ([`count`], or on every thread: `count_parallel`, which cuts the first levels
//! into parts) and lists ([`for_each_solution`]) solutions. What it does not do: colours,
//! multiplicities, sums, chains and inference; paths, shards and checkpoints. It refuses problems with the first four ([`Unsupported`]); everything
//! else stays with [`Solver`](super::Solver). On the problems of `docs/performance.md` it
//! wins where each choice removes many options (pentominoes) and loses where many items are
//! saved at every level (queens, Sudoku): the figures are in `docs/design/search.md`.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::problem::{ItemKind, OptionId, Problem};

/// How many nodes pass between two looks at the deadline and the cancellation flag.
const CHECK_EVERY: u64 = 1 << 12;

/// Why dancing cells cannot take a problem: a feature of it that they do not handle here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsupported {
    Colors,
    Multiplicities,
    Sums,
    Chains,
    /// Too large for the bit tables of [`bits`](super::bits) ([`bits::MAX_WORDS`](super::bits::MAX_WORDS)).
    TooLarge,
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self {
            Unsupported::Colors => "colours",
            Unsupported::Multiplicities => "multiplicities",
            Unsupported::Sums => "sums",
            Unsupported::Chains => "chains",
            Unsupported::TooLarge => {
                return write!(
                    f,
                    "this problem's options are too many for the search in bit sets (its \
                     tables would take over {} MiB)",
                    (super::bits::MAX_WORDS * 8) >> 20
                );
            }
        };
        write!(
            f,
            "dancing cells and bit sets search plain exact covers only; this problem has {what}"
        )
    }
}

impl std::error::Error for Unsupported {}

/// When a search by dancing cells stops early.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop at this many solutions.
    pub solutions: Option<u128>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this flag is set (Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Counts a node about to be entered, or says that the search stops before it: the
    /// budget of nodes spent, or (looked at every [`CHECK_EVERY`] nodes) the deadline passed
    /// or the cancellation flag set.
    pub(crate) fn stop_before_node(&self, nodes: &mut u64) -> bool {
        if self.nodes == Some(*nodes) {
            return true;
        }
        *nodes += 1;
        nodes.is_multiple_of(CHECK_EVERY) && stopped(self)
    }
}

/// What a search by dancing cells found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    /// Solutions found (all of them when `finished`).
    pub solutions: u128,
    /// Search-tree nodes entered: Knuth's count, one per partial solution reached, so a
    /// choice that leaves a primary item without options is not one.
    pub nodes: u64,
    /// Nodes whose item had two options or more.
    pub branches: u64,
    /// Options taken out of an item's set (Knuth's "updates").
    pub updates: u64,
    /// Whether the whole tree was searched (or the limit of solutions reached).
    pub finished: bool,
}

impl Counted {
    /// As the engine's statistics, for the reports that print them.
    pub fn stats(&self) -> super::Stats {
        super::Stats {
            nodes: self.nodes,
            branches: self.branches,
            updates: self.updates,
            solutions: self.solutions,
            removals: 0,
        }
    }
}

#[cfg(feature = "parallel")]
impl Counted {
    /// A search of nothing, finished.
    fn nothing() -> Counted {
        Counted {
            solutions: 0,
            nodes: 0,
            branches: 0,
            updates: 0,
            finished: true,
        }
    }

    /// The work of two parts of one search together.
    fn and(self, other: Counted) -> Counted {
        Counted {
            solutions: self.solutions + other.solutions,
            nodes: self.nodes + other.nodes,
            branches: self.branches + other.branches,
            updates: self.updates + other.updates,
            finished: self.finished && other.finished,
        }
    }
}

/// Counts the exact covers of `problem` by dancing cells, one thread, within `limits`.
pub fn count(problem: &Problem, limits: &Limits) -> Result<Counted, Unsupported> {
    check_plain(problem)?;
    Ok(Cells::new(problem).search::<false>(limits, |_| ControlFlow::Continue(())))
}

/// [`count`] on every thread of rayon's pool: the first levels of the search are cut into
/// parts (at least 32 a thread where the tree is that wide, at most 8 levels down), which
/// the threads count in turn. A limit of solutions or nodes holds for each part, and the
/// total is capped at the limit of solutions.
#[cfg(feature = "parallel")]
pub fn count_parallel(problem: &Problem, limits: &Limits) -> Result<Counted, Unsupported> {
    check_plain(problem)?;
    let plain = |_: &[OptionId]| ControlFlow::Continue(());
    Ok(count_in_parts(
        limits,
        |cutoff| {
            let mut cells = Cells::new(problem);
            cells.cutoff = cutoff;
            let top = cells.search::<false>(limits, plain);
            (top, cells.paths)
        },
        |path| {
            let mut cells = Cells::new(problem);
            cells.descend(path);
            cells.search::<false>(limits, plain)
        },
    ))
}

/// A count on every thread of rayon's pool, for a plain engine: `top(depth)` counts the
/// levels above `depth` and returns the paths that reach it (each a choice per level, as the
/// engine names them); the cut goes down a level at a time until there are 32 paths a thread
/// (or 8 levels), and `part(path)` counts below each path. The total is capped at the limit
/// of solutions.
#[cfg(feature = "parallel")]
pub(crate) fn count_in_parts(
    limits: &Limits,
    top: impl Fn(usize) -> (Counted, Vec<Vec<u32>>),
    part: impl Fn(&[u32]) -> Counted + Sync,
) -> Counted {
    use rayon::prelude::*;
    let threads = rayon::current_num_threads();
    if threads <= 1 {
        return top(usize::MAX).0;
    }
    let mut depth = 1;
    let (above, paths) = loop {
        let (above, paths) = top(depth);
        let reached = limits
            .solutions
            .is_some_and(|limit| above.solutions >= limit);
        if !above.finished || reached {
            // Stopped, or the limit met above the cut (where the search stops at it):
            // nothing below it is wanted.
            return above;
        }
        if paths.len() >= 32 * threads || depth == 8 {
            break (above, paths);
        }
        depth += 1;
    };
    let parts = paths
        .par_iter()
        .map(|path| part(path))
        .reduce(Counted::nothing, Counted::and);
    let mut total = above.and(parts);
    if let Some(limit) = limits.solutions
        && total.solutions >= limit
    {
        total.solutions = limit;
        total.finished = true;
    }
    total
}

/// Hands each exact cover of `problem` (its options, in the order they were chosen) to
/// `visit`, one thread, within `limits`, until `visit` breaks (the count is then not
/// `finished`); returns what was found.
pub fn for_each_solution(
    problem: &Problem,
    limits: &Limits,
    visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
) -> Result<Counted, Unsupported> {
    check_plain(problem)?;
    Ok(Cells::new(problem).search::<true>(limits, visit))
}

/// Whether dancing cells (and bit sets, size aside) can take `problem`: a plain exact cover.
pub(crate) fn check_plain(problem: &Problem) -> Result<(), Unsupported> {
    if problem.has_colors() {
        return Err(Unsupported::Colors);
    }
    if problem.has_multiplicities() {
        return Err(Unsupported::Multiplicities);
    }
    if !problem.sums().is_empty() {
        return Err(Unsupported::Sums);
    }
    if !problem.chains().is_empty() {
        return Err(Unsupported::Chains);
    }
    Ok(())
}

/// The sets of every item, the active items, and the sizes saved per level.
struct Cells {
    /// Per node: its item, or at a spacer (after each option) minus the option's length
    /// (node 0 is the spacer before the first option), and where it sits in `set` (at a
    /// spacer, the option before it).
    nodes: Vec<Node>,
    /// The items' sets of nodes, item after item: with `heads[i]` = `(base, size)`,
    /// `set[base..base + size]` are the live options of item `i`, each by its node in it.
    set: Vec<u32>,
    heads: Vec<Head>,
    /// The items, primary ones (numbered first, below `primary`) then secondary ones, each
    /// kind a sparse set of its active items: `items[..active]` the active primary items,
    /// `items[primary..primary + active_secondary]` the secondary ones; and where each item
    /// is in it. The choice of item reads the primary ones alone.
    items: Vec<u32>,
    position: Vec<u32>,
    active: usize,
    active_secondary: usize,
    primary: u32,
    /// The numbers of active primary and secondary items on entering each level.
    counts: Vec<(usize, usize)>,
    /// (item, size) of the active items on entering each level, the levels one after the
    /// other; `saved[l]..saved[l + 1]` is level `l`'s.
    sizes: Vec<(u32, u32)>,
    saved: Vec<usize>,
    /// The node chosen at each level.
    choice: Vec<u32>,
    /// The level the search starts from and ends at: 0, or the length of the path a part of
    /// a parallel count descends first ([`Cells::descend`]).
    base: usize,
    /// The level at which the search stops going down and keeps the path instead, in
    /// `paths`: how a parallel count cuts the tree into parts (`usize::MAX`: nowhere).
    cutoff: usize,
    paths: Vec<Vec<u32>>,
    updates: u64,
}

/// A node: its item (or minus its option's length at a spacer) and its place in `set`, side
/// by side since every update reads both.
#[derive(Debug, Clone, Copy)]
struct Node {
    item: i32,
    loc: u32,
}

/// An item's set: where it begins in `set` and how many of its entries are live.
#[derive(Debug, Clone, Copy)]
struct Head {
    base: u32,
    size: u32,
}

/// Where the search loop goes next (Knuth's labels).
enum Step {
    /// Enter a new level: choose an item, or count a solution.
    Forward,
    /// Try the option at `cursor` of the level's item.
    Advance,
    /// Go back up a level.
    Backup,
    /// The option tried failed: try the next one of this level, if any.
    Next,
}

impl Cells {
    fn new(problem: &Problem) -> Cells {
        let count = problem.item_count();
        // Primary items first, keeping the order of each kind.
        let mut number = vec![0u32; count];
        let mut next = 0;
        for kind in [ItemKind::Primary, ItemKind::Secondary] {
            for item in problem.items().filter(|&item| problem.kind(item) == kind) {
                number[item.0 as usize] = next;
                next += 1;
            }
        }
        let primary = problem.primary_count() as u32;
        let mut lengths = vec![0u32; count];
        let mut nodes = vec![Node { item: 0, loc: 0 }];
        for option in problem.options() {
            let items = problem.option(option);
            if items.is_empty() {
                continue;
            }
            for item in items {
                let i = number[item.0 as usize];
                lengths[i as usize] += 1;
                nodes.push(Node {
                    item: i as i32,
                    loc: 0,
                });
            }
            nodes.push(Node {
                item: -(items.len() as i32),
                loc: option.0,
            });
        }
        let mut heads = vec![Head { base: 0, size: 0 }; count];
        let mut total = 0;
        for (head, &length) in heads.iter_mut().zip(&lengths) {
            head.base = total;
            total += length;
        }
        let mut set = vec![0u32; total as usize];
        for (node, entry) in nodes.iter_mut().enumerate().skip(1) {
            if entry.item < 0 {
                continue;
            }
            let head = &mut heads[entry.item as usize];
            let at = head.base + head.size;
            entry.loc = at;
            set[at as usize] = node as u32;
            head.size += 1;
        }
        let items: Vec<u32> = (0..count as u32).collect();
        Cells {
            nodes,
            set,
            heads,
            position: items.clone(),
            items,
            active: primary as usize,
            active_secondary: count - primary as usize,
            counts: Vec::new(),
            primary,
            sizes: Vec::new(),
            saved: vec![0],
            choice: Vec::new(),
            base: 0,
            cutoff: usize::MAX,
            paths: Vec::new(),
            updates: 0,
        }
    }

    /// Takes item `c` out of the active set.
    #[inline(always)]
    fn deactivate(&mut self, c: u32) {
        let last = if c < self.primary {
            self.active -= 1;
            self.active
        } else {
            self.active_secondary -= 1;
            self.primary as usize + self.active_secondary
        };
        let at = self.position[c as usize];
        let other = self.items[last];
        self.items[last] = c;
        self.items[at as usize] = other;
        self.position[other as usize] = at;
        self.position[c as usize] = last as u32;
    }

    /// Hides every live option of item `c` from the other items' sets. With `check`, stops
    /// (returning false) where a primary item still to cover is left with none.
    #[inline(always)]
    fn hide(&mut self, c: u32, check: bool) -> bool {
        let Head { base: from, size } = self.heads[c as usize];
        let to = from + size;
        // Counted here and added once: a field incremented in the loop is a load and a
        // store per update.
        let mut updates = 0;
        for at in from..to {
            let start = self.set[at as usize];
            let mut node = start + 1;
            while node != start {
                let item = self.nodes[node as usize].item;
                if item < 0 {
                    // The spacer after the option: back to its first node (the hot loop
                    // reads each node's item once, so it does not call `next_node`).
                    node = (node as i32 + item) as u32;
                    continue;
                }
                let item = item as usize;
                let Head { base, size } = self.heads[item];
                let left = size - 1;
                if left == 0 && check && (self.position[item] as usize) < self.active {
                    self.updates += updates;
                    return false;
                }
                let last = base + left;
                let moved = self.set[last as usize];
                let here = self.nodes[node as usize].loc;
                self.heads[item].size = left;
                self.set[last as usize] = node;
                self.set[here as usize] = moved;
                self.nodes[node as usize].loc = last;
                self.nodes[moved as usize].loc = here;
                updates += 1;
                node += 1;
            }
        }
        self.updates += updates;
        true
    }

    /// Chooses the option of node `x`: its other items leave the active set, then each is
    /// covered. False where that leaves a primary item with no option.
    fn choose(&mut self, x: u32) -> bool {
        let mut node = self.next_node(x);
        while node != x {
            self.deactivate(self.nodes[node as usize].item as u32);
            node = self.next_node(node);
        }
        let mut node = self.next_node(x);
        while node != x {
            if !self.hide(self.nodes[node as usize].item as u32, true) {
                return false;
            }
            node = self.next_node(node);
        }
        true
    }

    /// The node after `node` in its option, round from the last to the first.
    #[inline(always)]
    fn next_node(&self, node: u32) -> u32 {
        let next = node + 1;
        let item = self.nodes[next as usize].item;
        if item < 0 {
            // The spacer after the option: back by the option's length.
            (next as i32 + item) as u32
        } else {
            next
        }
    }

    /// The active primary item with the fewest live options (the first such in the active
    /// set), or `None` when every primary item is covered.
    #[inline(always)]
    fn fewest(&self) -> Option<(u32, u32)> {
        let mut best = None;
        let mut fewest = u32::MAX;
        for &i in &self.items[..self.active] {
            let size = self.heads[i as usize].size;
            if size < fewest {
                best = Some((i, size));
                fewest = size;
                if size <= 1 {
                    break;
                }
            }
        }
        best
    }

    /// Saves the active items' sizes on entering `level`.
    fn save(&mut self, level: usize) {
        let from = self.saved[level];
        self.sizes.truncate(from);
        let secondary = self.primary as usize..self.primary as usize + self.active_secondary;
        for &i in self.items[..self.active]
            .iter()
            .chain(&self.items[secondary])
        {
            self.sizes.push((i, self.heads[i as usize].size));
        }
        self.counts.truncate(level);
        self.counts.push((self.active, self.active_secondary));
        self.saved.truncate(level + 1);
        self.saved.push(self.sizes.len());
    }

    /// Puts the active set and every size back as they were on entering `level`.
    fn restore(&mut self, level: usize) {
        let (from, to) = (self.saved[level], self.saved[level + 1]);
        (self.active, self.active_secondary) = self.counts[level];
        for &(i, size) in &self.sizes[from..to] {
            self.heads[i as usize].size = size;
        }
    }

    /// Chooses the options of `path` (nodes, each of the item the search branched on at its
    /// level, as `cutoff` kept them) level by level, as the search did; the search then
    /// explores the part below them alone.
    #[cfg(feature = "parallel")]
    fn descend(&mut self, path: &[u32]) {
        for (level, &x) in path.iter().enumerate() {
            let item = self.nodes[x as usize].item as u32;
            self.deactivate(item);
            self.hide(item, false);
            self.save(level);
            self.choice.push(x);
            let chosen = self.choose(x);
            debug_assert!(chosen, "a path the search went down");
        }
        self.base = path.len();
    }

    /// The option of node `x`: the one its spacer names.
    fn option_of(&self, x: u32) -> OptionId {
        let mut node = x as usize;
        while self.nodes[node].item >= 0 {
            node += 1;
        }
        OptionId(self.nodes[node].loc)
    }

    /// The search: with `LIST`, each solution's options go to `visit` (a count passes none).
    fn search<const LIST: bool>(
        &mut self,
        limits: &Limits,
        mut visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Counted {
        let mut solution = Vec::new();
        let mut solutions: u128 = 0;
        let mut nodes: u64 = 0;
        let mut branches: u64 = 0;
        let mut level = self.base;
        // The level's item and the place in its set of the option being tried.
        let mut item = 0u32;
        let mut cursor = 0u32;
        let mut step = Step::Forward;
        let finished = loop {
            match step {
                Step::Forward => {
                    if level == self.cutoff {
                        self.paths.push(self.choice[..level].to_vec());
                        step = Step::Backup;
                        continue;
                    }
                    if limits.stop_before_node(&mut nodes) {
                        break false;
                    }
                    match self.fewest() {
                        None => {
                            solutions += 1;
                            if LIST {
                                solution.clear();
                                for &x in &self.choice[..level] {
                                    solution.push(self.option_of(x));
                                }
                                if visit(&solution).is_break() {
                                    break false;
                                }
                            }
                            if limits.solutions.is_some_and(|limit| solutions >= limit) {
                                break true;
                            }
                            step = Step::Backup;
                        }
                        Some((_, 0)) => step = Step::Backup,
                        Some((i, size)) => {
                            branches += u64::from(size >= 2);
                            item = i;
                            self.deactivate(item);
                            self.hide(item, false);
                            self.save(level);
                            cursor = self.heads[item as usize].base;
                            step = Step::Advance;
                        }
                    }
                }
                Step::Advance => {
                    let x = self.set[cursor as usize];
                    if self.choice.len() == level {
                        self.choice.push(x);
                    } else {
                        self.choice[level] = x;
                    }
                    if self.choose(x) {
                        level += 1;
                        step = Step::Forward;
                    } else {
                        step = Step::Next;
                    }
                }
                Step::Backup => {
                    if level == self.base {
                        break true;
                    }
                    level -= 1;
                    let x = self.choice[level];
                    item = self.nodes[x as usize].item as u32;
                    cursor = self.nodes[x as usize].loc;
                    step = Step::Next;
                }
                Step::Next => {
                    // The level's item is inactive, so its set has not changed since the
                    // level began.
                    if cursor + 1 >= self.heads[item as usize].base + self.heads[item as usize].size
                    {
                        step = Step::Backup;
                    } else {
                        self.restore(level);
                        cursor += 1;
                        step = Step::Advance;
                    }
                }
            }
        };
        Counted {
            solutions,
            nodes,
            branches,
            updates: self.updates,
            finished,
        }
    }
}

/// Whether the deadline has passed or the cancellation flag is set.
fn stopped(limits: &Limits) -> bool {
    limits
        .deadline
        .is_some_and(|deadline| Instant::now() >= deadline)
        || limits
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
}
