//! The search on the dancing links: Knuth's iterative `dlx1` state machine, choosing an item
//! and trying its options one by one, and everything a search keeps besides the links (its
//! path, subtrees given away, inference's trail). The links and the moves that change them
//! live in `dance.rs`, the crate's one module with unchecked accesses; this module and the
//! files under `links/` (Algorithm M, inference, matching, probing, sums) are safe code that
//! reads the links through checked accessors and changes them only by those moves.
//!
//! Every routine that meets colours takes a const generic `C`, so the loop of a problem
//! without them is compiled with no look at colours at all; `INFER` likewise compiles the
//! trail's bookkeeping out of the plain loop.

use super::dance::{BrokenLinks, COVERED, Dance, Unwatched};
use super::matrix::Matrix;

mod chosen;
mod conflicts;
mod inference;
mod matching;
mod multiplicity;
mod probe;
mod propagate;

pub use conflicts::Branching;
pub use inference::Inference;
pub(super) use matching::TrackedEdges;
pub(super) use propagate::{Filter, NodeSum};

/// In `unseen_from`: no inference ran on the path to the node, so the first that does
/// examines every item.
const NOT_YET: u32 = u32::MAX;

/// The index of the first smallest length in `lens`, and that length; stops at the first
/// block holding a 0 or 1, since nothing beats a dead end or a forced move. Works on blocks of
/// 16 lengths, whose minimum the compiler computes with SIMD instructions; only the winning
/// block is searched element by element.
#[inline(always)]
fn first_smallest(lens: &[u32]) -> (usize, u32) {
    const BLOCK: usize = 16;
    let block_min = |block: &[u32]| block.iter().fold(u32::MAX, |m, &len| m.min(len));
    let mut best_start = 0;
    let mut best = u32::MAX;
    let mut start = 0;
    let mut blocks = lens.chunks_exact(BLOCK);
    for block in &mut blocks {
        let min = block_min(block);
        if min < best {
            best = min;
            best_start = start;
            if min <= 1 {
                break;
            }
        }
        start += BLOCK;
    }
    if best > 1 {
        let min = block_min(blocks.remainder());
        if min < best {
            best = min;
            best_start = start;
        }
    }
    let offset = lens[best_start..]
        .iter()
        .position(|&len| len == best)
        .unwrap_or(0);
    (best_start + offset, best)
}

/// A working copy of a matrix's links that searches cover and uncover, with the state of the
/// search that does it.
#[derive(Debug, Clone)]
pub(crate) struct Links {
    /// The links, and the moves that change them.
    dance: Dance,
    /// Whether some primary item has bounds other than exactly once (Knuth's DLX3): then
    /// the search is Algorithm M (`multiplicity.rs`).
    multi: bool,
    /// With multiplicities, for each item: how many more times it may be covered.
    bound: Vec<u32>,
    /// With multiplicities, for each item: its upper bound minus its lower bound.
    slack: Vec<u32>,
    /// First nodes of the options chosen before the search, in the order chosen.
    chosen: Vec<u32>,
    /// The updates made by choosing the options in `chosen`: about the work of taking them
    /// back one by one.
    chosen_updates: u64,
    /// The choice stack: at level `l`, the node of the option being tried.
    stack: Vec<u32>,
    level: usize,
    /// The level the search ends at when it backtracks to it: 0 for a whole search; the
    /// length of the path for a search below a path ([`Links::descend`]); moved down when the
    /// untried options of a level are given away ([`Links::split_off`]).
    base: usize,
    /// The length of the path the search started below (0 for a whole search).
    root: usize,
    step: Step,
    /// How much inference searches make, as set.
    inference: Inference,
    /// How much inference this search makes: the setting resolved when it started.
    inferring: Inference,
    /// One node of each option that inference removed, in the order removed; restored in
    /// reverse when the search leaves the level that removed it.
    trail: Vec<u32>,
    /// What the search keeps at each level besides its option (`stack`): one frame per
    /// level, and one more for the node below the deepest.
    frames: Vec<Frame>,
    /// Below the nodes where the shallow setting makes inference, a node needs none of the
    /// trail's bookkeeping, and the plain loop runs the subtree (see [`Links::hands_over`]).
    /// `plain_from`: the shallowest level of the current path that the plain loop entered,
    /// whose trail mark (and those of the levels below it) was never set ([`NOT_YET`] if
    /// none); the subtree may be over and the path still hold such levels, where a split
    /// moved the base below where the plain loop began. `plain_base`: the level the subtree
    /// the plain loop runs began at, while `in_plain` (a search paused inside it).
    plain_from: u32,
    plain_base: u32,
    in_plain: bool,
    /// Scratch space of the inference rules (see `inference.rs`).
    scratch: inference::Scratch,
    /// The problem's one-to-one blocks and their filtering (see `matching.rs`).
    blocks: matching::Blocks,
    /// The problem's sums, compiled to their options' first nodes (see `propagate.rs`).
    sums: std::sync::Arc<[propagate::NodeSum]>,
    /// Whether the search filters options by the sums where it branches: the problem has
    /// sums, and neither colours nor multiplicities (whose loops keep no trail).
    propagating: bool,
    /// [`Matrix::sums_mostly_distinct`]: whether [`Inference::Auto`] probes where sums (or
    /// chains alone) filter.
    sums_mostly_distinct: bool,
    /// Scratch space of the sums' filtering.
    sum_scratch: propagate::Scratch,
    /// How searches choose their branch item, and the weights of conflict-directed
    /// branching (see `conflicts.rs`).
    branching: Branching,
    conflicts: conflicts::Conflicts,
    /// The plain loop stops at a node with at least one and at most this many primary items
    /// left, for the search to count its rest in bulk ([`Event::Rest`]); 0 where it does not.
    rest_items: u32,
    /// Whether the rest of the node the loop stopped at was declined: the node is then
    /// searched here.
    rest_declined: bool,
    /// Whether the matrix has a counter of rests that also lists solutions (see `rest.rs`).
    rests_listed: bool,
}

/// What the search keeps at one level of its path, besides the option it tries there.
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// The length of `trail` when the level was entered.
    trail_mark: u32,
    /// The first level whose choice inference has not yet seen on the path to this node
    /// (inference runs only where the search branches, so forced moves pile up); [`NOT_YET`]
    /// while no inference ran on the path (at level 0 always).
    unseen_from: u32,
    /// Whether the level tries its options bottom to top (up the column) rather than top to
    /// bottom: where the sweep of probes found the last option of a two-option item to
    /// narrow the other items less than the first (see `probe.rs`).
    reverse: bool,
    /// With multiplicities: the first option of the branch item's column when the level
    /// began tweaking it (0 when the item was covered outright).
    first_tweak: u32,
    /// The links hidden by the choices at the levels before it (a running sum along the
    /// path, leaving out the covering of the branch items): about how much work finding the
    /// items touched since an inference takes.
    hidden_before: u64,
    /// Where the sums were last filtered to a fixpoint on the path to the node (see
    /// `propagate.rs`).
    sums_seen: propagate::SumsSeen,
    /// The last level on the path to the node, this one excluded, whose node filtered the
    /// sums (its `sums_seen` says where), or [`NOT_YET`]: a node that filters the sums
    /// without inference filters only those the path changed since.
    sums_from: u32,
    /// Where the sweep of probes there found it best to branch (item, score and order; see
    /// `probe.rs`), for the nodes below it whose links it left unchanged.
    probed_best: probe::ProbedBranch,
}

impl Frame {
    const NEW: Frame = Frame {
        trail_mark: 0,
        unseen_from: NOT_YET,
        reverse: false,
        first_tweak: 0,
        hidden_before: 0,
        sums_seen: propagate::SumsSeen { trail: 0, level: 0 },
        sums_from: NOT_YET,
        probed_best: probe::ProbedBranch::NONE,
    };
}

/// Where the search loop resumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Enter a new level: stop at a solution, or choose an item and cover it.
    Enter,
    /// Try the option at `stack[level]`, or uncover the item when its options are exhausted.
    Try,
    /// Go back one level and move to the next option there.
    Backtrack,
    /// With multiplicities: restore the branch item of the current level, then go back.
    Backup,
    /// The search space is exhausted.
    Done,
}

/// Why [`Links::run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// Every primary item is covered: `chosen()` and `stack()` hold a solution.
    Solution,
    /// There are no more solutions.
    Exhausted,
    /// The node budget of the call is spent; the next call goes on from here.
    Paused,
    /// The search stands at a node (not yet counted) whose rest may be counted in bulk:
    /// `chosen()` and `stack()` hold its path. [`Links::end_rest`] says what became of it.
    Rest,
}

/// What a call to [`Links::run`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Work {
    pub nodes: u64,
    pub updates: u64,
    pub branches: u64,
    /// Options removed by inference.
    pub removals: u64,
}

impl Work {
    fn add(&mut self, other: &Work) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.branches += other.branches;
        self.removals += other.removals;
    }
}

impl Links {
    /// The links of a freshly compiled matrix, nothing covered. Panics if the arrays break
    /// the invariant of the module documentation, which [`Matrix::new`] never does.
    pub fn new(matrix: &Matrix) -> Links {
        let primary = matrix.primary_count;
        let multi = !matrix.bounds.is_empty();
        // A level chooses an option (each at most once) or, with multiplicities, lets an
        // item go (once per item).
        let levels = if multi {
            primary as usize + matrix.option_first.len() + 1
        } else {
            primary as usize + 1
        };
        let dance = match Dance::new(matrix) {
            Ok(dance) => dance,
            Err(BrokenLinks(why)) => panic!("a matrix with broken links: {why}"),
        };
        Links {
            dance,
            chosen: Vec::new(),
            chosen_updates: 0,
            stack: vec![0; levels],
            level: 0,
            base: 0,
            root: 0,
            step: Step::Enter,
            inference: Inference::default(),
            inferring: Inference::None,
            trail: Vec::new(),
            frames: vec![Frame::NEW; levels + 1],
            plain_from: NOT_YET,
            plain_base: 0,
            in_plain: false,
            multi,
            bound: matrix.bounds.iter().map(|&(_, upper)| upper).collect(),
            slack: matrix
                .bounds
                .iter()
                .map(|&(lower, upper)| upper - lower)
                .collect(),
            scratch: inference::Scratch::new(
                matrix.item_count as usize,
                matrix.nodes.len(),
                &matrix.exclusion_items,
            ),
            blocks: matching::Blocks::new(matrix),
            sums: std::sync::Arc::clone(&matrix.sums),
            propagating: !matrix.sums.is_empty() && !multi,
            sums_mostly_distinct: matrix.sums_mostly_distinct,
            sum_scratch: propagate::Scratch::default(),
            branching: Branching::default(),
            conflicts: conflicts::Conflicts::default(),
            rest_items: 0,
            rest_declined: false,
            rests_listed: matrix.rest.as_ref().is_some_and(|rest| rest.lists()),
        }
    }

    /// Makes the plain loop stop for the rest of each node with at least one and at most
    /// `items` primary items left ([`Event::Rest`]); 0 never.
    pub fn set_rest_items(&mut self, items: usize) {
        self.rest_items = u32::try_from(items).unwrap_or(u32::MAX);
    }

    /// The number of primary items not yet covered.
    pub fn active_primary(&self) -> u32 {
        self.dance.active_primary()
    }

    /// After [`Event::Rest`]: the rest was counted (the search backtracks from the node, as
    /// from a node it searched to the end) or declined (the next call searches the node).
    pub fn end_rest(&mut self, counted: bool) {
        debug_assert_eq!(self.step, Step::Enter, "the search stands at a node's rest");
        if counted {
            self.step = Step::Backtrack;
        } else {
            self.rest_declined = true;
        }
    }

    /// The first nodes of the chosen options, in the order chosen.
    pub fn chosen(&self) -> &[u32] {
        &self.chosen
    }

    /// The nodes of the options the search has chosen, one per level: at a solution, the
    /// rest of the solution.
    pub fn stack(&self) -> &[u32] {
        &self.stack[..self.level]
    }

    /// Prepares a new search from the chosen options (the previous one was unwound), on the
    /// links of `matrix` (the one they were made from); returns
    /// the options that inference at the root removed. [`Inference::Root`] runs the rules
    /// here, once, and the search then runs the plain loop (with none of the trail's
    /// bookkeeping at its nodes); the removals are put back when the search is unwound.
    pub fn restart(&mut self, matrix: &Matrix) -> u64 {
        assert_eq!(self.level, 0, "the previous search was unwound");
        assert!(self.trail.is_empty(), "the previous search was unwound");
        self.step = Step::Enter;
        self.base = 0;
        self.root = 0;
        self.plain_from = NOT_YET;
        self.in_plain = false;
        self.inferring = self.resolved_inference();
        if self.inferring != Inference::None && self.scratch.most_shared.is_empty() {
            self.scratch.most_shared = std::sync::Arc::clone(
                matrix
                    .most_shared
                    .get_or_init(|| inference::most_shared(matrix)),
            );
        }
        self.forget_conflicts();
        // The blocks' matching pays where probing does (hard 25x25 puzzles); with the rules
        // at every node it costs more than it saves (see `matching.rs`).
        self.blocks
            .enable(matches!(self.inferring, Inference::Root | Inference::Probe));
        // Tracked once a search has filtered blocks for a while, and as long as searches
        // filter blocks (see `matching.rs`).
        self.blocks.load(matrix);
        if !self.blocks.any() {
            self.track_blocks(false);
        }
        if self.inferring == Inference::Root {
            self.inferring = Inference::None;
            // Also where an item has one option left (a problem whose clues are options of
            // their own): the implication rule then follows that move, and the rules go on
            // from there. Not where an item has none: the search backtracks at once.
            let removed = if !self.all_covered() && self.fewest_options().1 >= 1 {
                self.infer(0)
            } else {
                0
            };
            // No block is filtered below the root.
            self.track_blocks(false);
            return removed;
        }
        0
    }

    /// Undoes the choices of a search in progress, leaving the links as the chosen options
    /// left them, and ends that search.
    pub fn unwind(&mut self) {
        if self.multi {
            self.unwind_multi();
        } else {
            self.retreat(0);
        }
        // What inference removed at the root before the search (`restart`).
        self.restore(0);
        self.step = Step::Done;
    }

    /// Undoes the choices of the levels from `level` up, leaving the links as they were on
    /// entering that level (its inference undone too). Not with multiplicities.
    pub fn retreat(&mut self, level: usize) {
        debug_assert!(!self.multi);
        // A search paused as it entered a level again after a refutation holds that level's
        // removals (its first inference's and the refuted options) on the trail.
        if std::mem::take(&mut self.scratch.refuted) != 0 {
            self.restore(self.frames[self.level].trail_mark);
        }
        // Between calls to `run` the state is at a level boundary (a solution, a pause before
        // entering a level, or the end), so levels 0..self.level each hold one chosen option
        // whose items are all covered.
        for level in (level..self.level).rev() {
            let x = self.stack[level];
            if self.dance.colored() {
                self.uncover_others::<true, true>(x);
                self.uncover::<true, true>(self.dance.top(x));
            } else {
                self.uncover_others::<false, true>(x);
                self.uncover::<false, true>(self.dance.top(x));
            }
            // Without inference at the nodes the marks are not kept (and the trail holds at
            // most the root's removals, which `unwind` puts back); nor in the subtree the
            // plain loop runs, where nothing goes onto the trail.
            if self.trailing() && (level as u32) < self.plain_from {
                self.restore(self.frames[level].trail_mark);
            }
        }
        if level as u32 <= self.plain_from {
            self.plain_from = NOT_YET;
        }
        if level < self.level {
            self.in_plain = false;
        }
        self.level = self.level.min(level);
        self.base = self.base.min(level);
        self.root = self.root.min(level);
    }

    /// Whether the search keeps a trail of removed options: the inference rules run, or the
    /// sums filter options.
    #[inline(always)]
    fn trailing(&self) -> bool {
        self.inferring != Inference::None || self.propagating
    }

    /// Sets how much inference later searches make. Only between searches.
    pub fn set_inference(&mut self, inference: Inference) {
        assert_eq!(self.level, 0, "inference is set between searches");
        self.inference = inference;
    }

    /// How much inference searches make.
    pub fn inference(&self) -> Inference {
        self.inference
    }

    /// How much inference a search started now would make (the setting resolved).
    pub fn resolved_inference(&self) -> Inference {
        // The rules reason about items that options claim alone: with colours, those they
        // hold without a colour (`inference.rs`). An item of bounds other than one may be
        // held by several chosen options, and Algorithm M's levels are not one option each:
        // the rules stay off with multiplicities.
        if self.multi {
            return Inference::None;
        }
        if self.inference == Inference::Auto && self.rests_listed {
            // The rests go to the matrix's counter from the root: inference at the nodes
            // above them made a classic 9x9 grid's verdicts slower, not faster
            // (`docs/design/inference.md`, "9x9: no rules above the rests").
            return Inference::None;
        }
        let (left, primary) = (self.dance.active_primary(), self.dance.primary());
        let resolved = match self.inference.resolve(left) {
            // A large problem whose clues already cover an eighth of its items (a 16x16
            // puzzle): the shallow setting infers at a few nodes at most, and plain dancing
            // links wander (`docs/design/inference.md`). Near empty, they fill it at once.
            Inference::Shallow
                if self.inference == Inference::Auto
                    && primary >= Inference::AUTO_MIN_PROBLEM_ITEMS
                    && u64::from(left) * 8 < u64::from(primary) * 7 =>
            {
                Inference::Probe
            }
            resolved => resolved,
        };
        if self.propagating && self.inference == Inference::Auto {
            // Where sums filter options, mostly sums of distinct values (cages), probing
            // pays at every size: on the hard killers of tarek's collection it took about
            // half the time of the shallow setting. Where values may repeat (little
            // killers' diagonals, arrows, zipper lines), the filter at each branch point
            // alone did best below the size that probes anyway: ISS's Barbed Cross (little
            // killers) 16.9 s probing, 2.7 s so (`docs/sums.md`). Where chains alone
            // filter (no sums, so none of repeated values), it probes too: ISS's "Sum lines -
            // single line" 12 s, over 20 s with the shallow setting (`docs/sums.md`).
            return match resolved {
                _ if self.sums_mostly_distinct => Inference::Probe,
                Inference::Shallow => Inference::None,
                other => other,
            };
        }
        resolved
    }

    /// The primary item the search would branch on now (the first with the fewest options),
    /// as an index `1..=primary`, with the first nodes of its options in column order; `None`
    /// when every primary item is covered.
    pub fn branch(&self) -> Option<(u32, Vec<u32>)> {
        if self.all_covered() {
            return None;
        }
        let item = if self.multi {
            self.best_bounded().0
        } else {
            self.fewest_options().0
        };
        Some((item, self.column_options(item)))
    }

    /// The first nodes of the options in the column of item `item`, top to bottom.
    fn column_options(&self, item: u32) -> Vec<u32> {
        let mut options = Vec::new();
        let mut p = self.dance.down(item);
        while p != item {
            options.push(self.dance.first_node(p));
            p = self.dance.down(p);
        }
        options
    }

    /// The options the search branches on at the node where it stands, right after
    /// [`Links::descend`] (inference at that node included, then undone), in the order it
    /// tries them: `None` at a solution, no options at a dead end.
    pub fn children(&mut self) -> Option<Vec<u32>> {
        assert!(
            self.step == Step::Enter,
            "children are asked for before the search runs"
        );
        // A search that is not split is one part: the whole tree.
        if self.all_covered() || self.whole() {
            return None;
        }
        let level = self.level;
        let mut work = Work::default();
        let (item, len) = if !self.trailing() {
            self.branch_item::<false>(level, &mut work)
        } else {
            self.branch_item::<true>(level, &mut work)
        };
        let mut options = if len == 0 {
            Vec::new()
        } else {
            self.column_options(item)
        };
        if self.frames[level].reverse {
            options.reverse();
        }
        if self.trailing() {
            self.restore(self.frames[level].trail_mark);
        }
        Some(options)
    }

    /// Runs the search until it reaches a solution, runs out of them, or has entered
    /// `budget` search nodes (then the next call goes on exactly where this one stopped).
    /// This is Knuth's `dlx1` loop: enter a level, choose the item with the fewest options,
    /// cover it, try each of its options in turn, backtrack.
    pub fn run(&mut self, budget: u64) -> (Event, Work) {
        if self.multi {
            return if self.dance.colored() {
                self.run_multi::<true>(budget)
            } else {
                self.run_multi::<false>(budget)
            };
        }
        match (self.trailing(), self.dance.colored()) {
            (false, false) => self.run_loop::<false, false>(budget, self.base),
            (true, false) => self.run_inferring::<false>(budget),
            (false, true) => self.run_loop::<false, true>(budget, self.base),
            (true, true) => self.run_inferring::<true>(budget),
        }
    }

    /// [`Links::run`] where the search keeps a trail: first, where it paused inside a
    /// subtree that the plain loop runs ([`Links::hands_over`]), the rest of that subtree.
    fn run_inferring<const C: bool>(&mut self, budget: u64) -> (Event, Work) {
        let mut work = Work::default();
        if self.in_plain {
            let (event, below) = self.run_plain_below::<C>(budget);
            work = below;
            if event != Event::Exhausted {
                return (event, work);
            }
        }
        let (event, more) = self.run_loop::<true, C>(budget - work.nodes, self.base);
        work.add(&more);
        (event, work)
    }

    /// Runs the plain loop in the subtree from level `plain_base` (the search at its
    /// current step inside it), down to the search's own base if that is deeper (a split
    /// gave the levels above away). Where the subtree is done, the search is left to
    /// backtrack from there in the loop that keeps a trail.
    fn run_plain_below<const C: bool>(&mut self, budget: u64) -> (Event, Work) {
        let base = self.base.max(self.plain_base as usize);
        let (event, work) = self.run_loop::<false, C>(budget, base);
        if event == Event::Exhausted {
            self.in_plain = false;
            // The levels above `base` that the plain loop entered are still on the path
            // unless it began at `base`.
            if base as u32 <= self.plain_from {
                self.plain_from = NOT_YET;
            }
            self.step = Step::Backtrack;
        }
        (event, work)
    }

    /// Whether the search, entering `level` with inference, hands the subtree below over to
    /// the plain loop: the shallow setting makes none there, nor at any node below it (the
    /// items left to cover only decrease down a path), and without sums the nodes need
    /// none of the trail's bookkeeping. That bookkeeping made the shallow setting 4% slower
    /// than plain dancing links, measured in instructions, below the nodes where it infers.
    #[inline(always)]
    fn hands_over(&self, level: usize) -> bool {
        self.inferring == Inference::Shallow
            && !self.propagating
            && !self
                .inferring
                .at_node(level, self.dance.active_primary(), self.dance.primary())
    }

    /// [`Links::run`] down to level `base`, compiled three times: without inference or
    /// colours, the loop is exactly plain dancing links, with none of the trail's
    /// bookkeeping and no look at colours. The loop with inference hands the subtrees below
    /// the shallow setting's reach to that plain loop ([`Links::hands_over`]).
    #[inline(always)]
    fn run_loop<const INFER: bool, const C: bool>(
        &mut self,
        budget: u64,
        base: usize,
    ) -> (Event, Work) {
        let headers = self.dance.item_count();
        // `base` is the search's own (only `split_off` moves it, and never while the loop
        // runs), or deeper for the plain loop's subtree (`run_plain_below`).
        let mut level = self.level;
        let mut step = self.step;
        let mut work = Work::default();
        let event = loop {
            match step {
                Step::Enter => {
                    if INFER && !C && self.hands_over(level) {
                        self.level = level;
                        self.step = step;
                        self.plain_from = self.plain_from.min(level as u32);
                        self.plain_base = level as u32;
                        self.in_plain = true;
                        let (event, below) = self.run_plain_below::<C>(budget - work.nodes);
                        work.add(&below);
                        (level, step) = (self.level, self.step);
                        if event == Event::Exhausted {
                            continue;
                        }
                        break event;
                    }
                    if work.nodes == budget {
                        break Event::Paused;
                    }
                    if !INFER && !C && self.dance.active_primary().wrapping_sub(1) < self.rest_items
                    {
                        if !self.rest_declined {
                            break Event::Rest;
                        }
                        self.rest_declined = false;
                    }
                    work.nodes += 1;
                    if self.all_covered() {
                        step = Step::Backtrack;
                        break Event::Solution;
                    }
                    let (item, len) = self.branch_item::<INFER>(level, &mut work);
                    if len == 0 {
                        if level > 0 {
                            self.conflict_below(self.stack[level - 1]);
                        }
                        if INFER {
                            self.restore(self.frames[level].trail_mark);
                        }
                        step = Step::Backtrack;
                        continue;
                    }
                    work.branches += u64::from(len >= 2);
                    work.updates += self.cover::<C, INFER>(item);
                    self.stack[level] = self.next_in_loop::<INFER>(level, item);
                    step = Step::Try;
                }
                Step::Try => {
                    let x = self.stack[level];
                    if x <= headers {
                        // Back at the header: every option of item `x` has been tried.
                        if INFER && self.refuting(level) {
                            // Where the level refutes, this is its node entered again with
                            // no option left: a dead end, weighed as one.
                            self.conflict_at(x);
                            if level > 0 {
                                self.conflict_below(self.stack[level - 1]);
                            }
                        }
                        self.uncover::<C, INFER>(x);
                        if INFER {
                            self.restore(self.frames[level].trail_mark);
                        }
                        step = Step::Backtrack;
                        continue;
                    }
                    work.updates += self.try_option::<INFER, C>(level, x);
                    level += 1;
                    step = Step::Enter;
                }
                Step::Backtrack => {
                    if level == base {
                        step = Step::Done;
                        break Event::Exhausted;
                    }
                    level -= 1;
                    let x = self.stack[level];
                    self.uncover_others::<C, INFER>(x);
                    if INFER && self.refutes(level, x) {
                        // The option's subtree is done: the node goes on without it, its
                        // inference runs again and it chooses where to branch anew.
                        self.uncover::<C, true>(self.dance.top(x));
                        self.remove_option(x);
                        self.scratch.refuted = x;
                        step = Step::Enter;
                        continue;
                    }
                    self.stack[level] = self.next_in_loop::<INFER>(level, x);
                    step = Step::Try;
                }
                Step::Done | Step::Backup => break Event::Exhausted,
            }
        };
        self.level = level;
        self.step = step;
        (event, work)
    }

    /// Entering `level`: runs inference where the setting asks for it (only where the search
    /// would branch), then returns the primary item to branch on and its number of options;
    /// sets the order in which the level tries them (`reverse`).
    #[inline(always)]
    fn branch_item<const INFER: bool>(&mut self, level: usize, work: &mut Work) -> (u32, u32) {
        let (mut item, mut len) = self.next_branch();
        if len == 0 {
            self.conflict_at(item);
        }
        self.frames[level].reverse = false;
        if INFER {
            // A node entered again after a refutation keeps the mark of its first entry:
            // leaving the level puts back the refuted options too.
            // Its inference runs even where one option is left: the refutation's removal
            // is not at the rules' fixpoint, which the nodes below take it to be.
            let refuted = self.scratch.refuted != 0;
            if !refuted {
                self.frames[level].trail_mark = self.trail.len() as u32;
            }
            if (len >= 2 || refuted && len == 1)
                && self
                    .inferring
                    .at_node(level, self.dance.active_primary(), self.dance.primary())
            {
                work.removals += self.infer(level);
                if self.dead_end() {
                    // The rules met an item with no option left ([`Links::fewest_options`]
                    // may stop at one with one option first): no solution below.
                    return (item, 0);
                }
                (item, len) = self.next_branch();
                if self.inferring == Inference::Probe && len == 2 {
                    if let Some((probed, reverse)) = self.probed_branch() {
                        item = probed;
                        self.frames[level].reverse = reverse;
                    }
                } else if self.inferring == Inference::Shallow
                    && len >= 2
                    && self.branching == Branching::Fewest
                {
                    item = self.heaviest_of_fewest(item, len);
                }
                self.frames[level + 1].unseen_from = level as u32;
                self.frames[level + 1].sums_from = level as u32;
            } else {
                self.frames[level + 1].unseen_from = self.frames[level].unseen_from;
                self.frames[level + 1].sums_from = self.frames[level].sums_from;
                if len >= 2 && self.propagating {
                    self.scratch.dead = false;
                    let from = self.frames[level].sums_from;
                    let since = (from != NOT_YET).then(|| self.frames[from as usize].sums_seen);
                    work.removals += self.filter_by_sums(level, false, since);
                    if self.scratch.dead {
                        return (item, 0);
                    }
                    self.frames[level].sums_seen = propagate::SumsSeen {
                        trail: self.trail.len() as u32,
                        level: level as u32,
                    };
                    self.frames[level + 1].sums_from = level as u32;
                    #[cfg(debug_assertions)]
                    self.assert_sums_at_fixpoint(level, false);
                    (item, len) = self.next_branch();
                }
            }
            self.scratch.refuted = 0;
        }
        (item, len)
    }

    /// Whether the search, back at `level` from the subtree of the option of node `x`,
    /// refutes it instead of trying the next option of the level's item: removes it and
    /// enters the level again, as a node of its own whose inference propagates the removal
    /// and which chooses where to branch anew (the item may be another). Where the level
    /// [`refuting`](Links::refuting), while the item has another option.
    #[inline(always)]
    fn refutes(&self, level: usize, x: u32) -> bool {
        self.dance.top(self.dance.top(x)) & !COVERED >= 2 && self.refuting(level)
    }

    /// Whether `level` (its branch item covered) refutes the options it tried: where the
    /// search branches on its conflicts (a search not split, whose tree is its own) and the
    /// level runs inference other than probing. Probing refutes options of its own (each
    /// failed trial), and a sweep again at every refutation cost more than it saved on
    /// most killers (tarek's, ISS's little killers and extreme ones: `docs/sums.md`).
    #[inline(always)]
    fn refuting(&self, level: usize) -> bool {
        self.branching == Branching::Conflicts
            && self.inferring != Inference::Probe
            && self
                .inferring
                .at_node(level, self.dance.active_primary() + 1, self.dance.primary())
    }

    /// The primary item the search branches on now by the branching setting, with its
    /// number of options (an item with none, if there is one).
    #[inline(always)]
    fn next_branch(&self) -> (u32, u32) {
        match self.branching {
            Branching::Fewest => self.fewest_options(),
            Branching::Conflicts => self.most_conflicted(),
        }
    }

    /// The option the search tries at `level` after the one of node `x` (or first, when `x`
    /// is the header of the level's item): the next down the column, or up it where the level
    /// goes in `reverse`; the header when none is left.
    #[inline(always)]
    fn next_option(&self, level: usize, x: u32) -> u32 {
        if self.frames[level].reverse {
            self.dance.up(x)
        } else {
            self.dance.down(x)
        }
    }

    /// [`Links::next_option`] inside the loop: the plain loop (without `INFER`) reads no frame
    /// for it, since only a sweep of probes orders a level bottom to top, and the plain loop
    /// enters every level it backtracks to itself ([`Links::branch_item`] clears the order).
    #[inline(always)]
    fn next_in_loop<const INFER: bool>(&self, level: usize, x: u32) -> u32 {
        if INFER {
            self.next_option(level, x)
        } else {
            debug_assert!(!self.frames[level].reverse, "a plain level in order");
            self.dance.down(x)
        }
    }

    /// Chooses the option of node `x` at `level` (its branch item is covered): covers its
    /// other items. Returns the links hidden.
    #[inline(always)]
    fn try_option<const INFER: bool, const C: bool>(&mut self, level: usize, x: u32) -> u64 {
        let hidden = self.cover_others::<C, INFER>(x);
        if INFER {
            self.frames[level + 1].hidden_before = self.frames[level].hidden_before + hidden;
        }
        hidden
    }

    /// Starts the search below a path of the search tree instead of at its root: follows
    /// `path` (first nodes of options) from the root exactly as the search would, entering
    /// each level (inference included) and choosing the path's option there instead of the
    /// first. The search then explores the subtree below the path and ends when it has, never
    /// backtracking into the path. Only right after [`Links::restart`].
    ///
    /// Fails with the index of the first option that is not among the options of the item the
    /// search branches on at that depth (a path of another problem, another inference setting,
    /// or one that runs past a solution); the links are then unwound.
    pub fn descend(&mut self, path: &[u32]) -> Result<Work, usize> {
        assert!(
            self.level == 0 && self.step == Step::Enter,
            "descend starts a search"
        );
        let result = self.descend_further(path);
        // Algorithm M refuses any path before it starts, with nothing to unwind.
        if result.is_err() && !self.multi {
            self.unwind();
        }
        result
    }

    /// [`Links::descend`] from the current level of a search that has not run (made by
    /// `descend` and [`Links::retreat`]): the path is chosen on top of the current one, and the
    /// search then starts below it. On an error (the index in `path` of the first option
    /// the search would not choose) the links are as they were.
    pub fn descend_further(&mut self, path: &[u32]) -> Result<Work, usize> {
        assert!(self.step == Step::Enter, "descend starts a search");
        if self.whole() && !path.is_empty() {
            // Algorithm M's levels are not one option each, and a search that branches on
            // its conflicts does not go where another went: neither is split.
            return Err(0);
        }
        let start = self.level;
        let result = match (self.trailing(), self.dance.colored()) {
            (false, false) => self.descend_with::<false, false>(path),
            (true, false) => self.descend_with::<true, false>(path),
            (false, true) => self.descend_with::<false, true>(path),
            (true, true) => self.descend_with::<true, true>(path),
        };
        match result {
            Ok(work) => {
                self.base = self.level;
                self.root = self.level;
                Ok(work)
            }
            Err(index) => {
                self.retreat(start);
                Err(index)
            }
        }
    }

    fn descend_with<const INFER: bool, const C: bool>(
        &mut self,
        path: &[u32],
    ) -> Result<Work, usize> {
        let mut work = Work::default();
        for (index, &first) in path.iter().enumerate() {
            let level = self.level;
            work.nodes += 1;
            if self.all_covered() {
                return Err(index);
            }
            let (item, len) = self.branch_item::<INFER>(level, &mut work);
            let node = self.node_in_column(first, item);
            let Some(x) = node.filter(|_| len > 0) else {
                if INFER {
                    self.restore(self.frames[level].trail_mark);
                }
                return Err(index);
            };
            work.branches += u64::from(len >= 2);
            work.updates += self.cover::<C, true>(item);
            self.stack[level] = x;
            work.updates += self.try_option::<INFER, C>(level, x);
            self.level += 1;
        }
        Ok(work)
    }

    /// The node of the option starting at node `first` in the column of active item `item`,
    /// if that option is one of the column's options now.
    fn node_in_column(&self, first: u32, item: u32) -> Option<u32> {
        if !self.is_first_node(first) {
            return None;
        }
        let mut q = first;
        while self.dance.top(q) != item {
            if self.dance.top(q) == 0 {
                return None;
            }
            q += 1;
        }
        self.in_column(q, item).then_some(q)
    }

    /// Whether node `q` is linked in the column of `item` now.
    fn in_column(&self, q: u32, item: u32) -> bool {
        let mut p = self.dance.down(item);
        while p != item {
            if p == q {
                return true;
            }
            p = self.dance.down(p);
        }
        false
    }

    /// Whether `x` is the first node of an option.
    fn is_first_node(&self, x: u32) -> bool {
        self.dance.is_option_node(x) && self.dance.top(x - 1) == 0
    }

    /// Whether the search is between two calls to [`Links::run`] in the middle of its tree
    /// (so `stack()` holds its path and the levels above hold untried options).
    fn in_progress(&self) -> bool {
        matches!(self.step, Step::Enter | Step::Backtrack)
    }

    /// The length of the path the search started below.
    pub fn root_level(&self) -> usize {
        self.root
    }

    /// How many options the item chosen at level `l` of the current path had.
    pub fn options_at(&self, l: usize) -> u32 {
        self.position(l).1
    }

    /// At level `l` of the current path: the position of its option among its item's options
    /// (0 for the first) and their number.
    fn position(&self, l: usize) -> (u32, u32) {
        let x = self.stack[l];
        let item = self.dance.top(x);
        let mut index = 0;
        let mut p = self.next_option(l, item);
        while p != x {
            index += 1;
            p = self.next_option(l, p);
        }
        (index, self.dance.top(item) & !COVERED)
    }

    /// The untried options at level `l` of the current path (first nodes, in the order the
    /// search would try them).
    fn untried(&self, l: usize) -> Vec<u32> {
        let headers = self.dance.item_count();
        let mut options = Vec::new();
        let mut p = self.next_option(l, self.stack[l]);
        while p > headers {
            options.push(self.dance.first_node(p));
            p = self.next_option(l, p);
        }
        options
    }

    /// Gives away the untried options of the shallowest level that has some, so another
    /// search can explore them: returns that level and those options (first nodes), and this
    /// search will not try them (it ends when it backtracks to that level). `None` when no
    /// level has untried options. Only between calls to [`Links::run`].
    pub fn split_off(&mut self) -> Option<(usize, Vec<u32>)> {
        if !self.in_progress() || self.whole() {
            return None;
        }
        let level = (self.base..self.level)
            .find(|&l| self.next_option(l, self.stack[l]) > self.dance.item_count())?;
        let options = self.untried(level);
        self.base = level + 1;
        Some((level, options))
    }

    /// The untried options at `level` of the current path (a level at or below the base):
    /// how many there are after the current one, and how many options the level's item had.
    #[cfg(feature = "parallel")]
    pub fn untried_at(&self, level: usize) -> (u32, u32) {
        let mut count = 0;
        let mut p = self.next_option(level, self.stack[level]);
        while p > self.dance.item_count() {
            count += 1;
            p = self.next_option(level, p);
        }
        (
            count,
            self.dance.top(self.dance.top(self.stack[level])) & !COVERED,
        )
    }

    /// The levels of the current path at or below the base, shallowest first; those whose
    /// untried options can be given away. Empty unless between calls to [`Links::run`].
    #[cfg(feature = "parallel")]
    pub fn open_levels(&self) -> std::ops::Range<usize> {
        if !self.in_progress() || self.whole() {
            return 0..0;
        }
        self.base..self.level
    }

    /// This search will not backtrack into `level` (one of [`Links::open_levels`]) or
    /// above: it ends, or moves to a sibling ([`Links::next_sibling`]), where the subtree
    /// below the level's current option is done.
    #[cfg(feature = "parallel")]
    pub fn give_away_below(&mut self, level: usize) {
        debug_assert!(level >= self.base && level < self.level);
        self.base = level + 1;
    }

    /// The first node of the option `steps` options after the current one at `level` of the
    /// path, in the order the search tries them; `None` past the last.
    #[cfg(feature = "parallel")]
    pub fn sibling(&self, level: usize, steps: u32) -> Option<u32> {
        let mut p = self.stack[level];
        for _ in 0..steps {
            p = self.next_option(level, p);
            if p <= self.dance.item_count() {
                return None;
            }
        }
        Some(self.dance.first_node(p))
    }

    /// The first nodes of the `count` options after the current one at `level`, in the order
    /// the search tries them (fewer where the level has fewer): one walk down the column.
    pub fn siblings(&self, level: usize, count: u32) -> Vec<u32> {
        let mut firsts = Vec::with_capacity(count as usize);
        let mut p = self.stack[level];
        for _ in 0..count {
            p = self.next_option(level, p);
            if p <= self.dance.item_count() {
                break;
            }
            firsts.push(self.dance.first_node(p));
        }
        firsts
    }

    /// Once the search below the current option of the level above the base is over (the
    /// search is `Done`), takes that option back and chooses the next one of the level
    /// instead, so that the search goes on below it: a search can so own a run of sibling
    /// options (a part of a level given to it whole) and enter the level's item's column
    /// once rather than once per option. `None`, with nothing changed, when the level has no
    /// next option. Not with multiplicities.
    pub fn next_sibling(&mut self) -> Option<Work> {
        debug_assert!(!self.multi && self.base >= 1);
        debug_assert!(self.step == Step::Done && self.level == self.base);
        let level = self.base - 1;
        let x = self.stack[level];
        let next = self.next_option(level, x);
        if next <= self.dance.item_count() {
            return None;
        }
        let inferring = self.trailing();
        let updates = match (inferring, self.dance.colored()) {
            (false, false) => {
                self.uncover_others::<false, true>(x);
                self.try_option::<false, false>(level, next)
            }
            (true, false) => {
                self.uncover_others::<false, true>(x);
                self.try_option::<true, false>(level, next)
            }
            (false, true) => {
                self.uncover_others::<true, true>(x);
                self.try_option::<false, true>(level, next)
            }
            (true, true) => {
                self.uncover_others::<true, true>(x);
                self.try_option::<true, true>(level, next)
            }
        };
        self.stack[level] = next;
        self.step = Step::Enter;
        Some(Work {
            updates,
            ..Work::default()
        })
    }

    /// What this search has not explored yet, as paths (first nodes; each path's subtree is
    /// the rest of the work) in the order the search would reach them, each with its estimated
    /// share of the subtree below the root path. Only between calls to [`Links::run`].
    pub fn remainder(&self) -> Vec<(Vec<u32>, f64)> {
        let mut parts = Vec::new();
        if !self.in_progress() {
            return parts;
        }
        if self.whole() {
            // Not split: what is left is the whole search, to be run again.
            parts.push((Vec::new(), 1.0));
            return parts;
        }
        let path: Vec<u32> = self.stack[..self.level]
            .iter()
            .map(|&x| self.dance.first_node(x))
            .collect();
        let mut shares = vec![1.0; self.level + 1];
        for l in self.root..self.level {
            shares[l + 1] = shares[l] / f64::from(self.position(l).1.max(1));
        }
        if self.step == Step::Enter {
            parts.push((path.clone(), shares[self.level]));
        }
        for l in (self.base..self.level).rev() {
            for option in self.untried(l) {
                let mut prefix = path[..l].to_vec();
                prefix.push(option);
                parts.push((prefix, shares[l + 1]));
            }
        }
        parts
    }

    /// Knuth's estimate of the share of the subtree below the root path that the search has
    /// explored: at each level, the options before the current one count as done, each
    /// weighing the share of its level divided by the number of options there.
    pub fn progress(&self) -> f64 {
        match self.step {
            Step::Done => return 1.0,
            Step::Try => return 0.0,
            Step::Enter | Step::Backtrack => {}
            Step::Backup => return 0.0,
        }
        if self.multi {
            return 0.0;
        }
        let mut done = 0.0;
        let mut share = 1.0;
        for l in self.root..self.level {
            let (index, count) = self.position(l);
            let count = f64::from(count.max(1));
            done += share * f64::from(index) / count;
            share /= count;
        }
        if self.step == Step::Backtrack {
            done += share;
        }
        done.min(1.0)
    }

    /// Whether every primary item is covered: a solution.
    #[inline(always)]
    fn all_covered(&self) -> bool {
        self.dance.active_primary() == 0
    }

    /// Whether item `i` (checked by the caller to exist) is still active.
    fn is_active(&self, i: u32) -> bool {
        self.dance.top(i) & COVERED == 0
    }

    /// The active primary item with the fewest options (the first such in item order), and
    /// that number.
    ///
    /// Profiling the hardest Sudoku showed this choice, not covering, is where most time goes
    /// when many items are active: walking the linked list of active items is a chain of
    /// dependent loads. So while at least a sixteenth of the primary items are active, it
    /// instead scans the contiguous lengths of all primary headers in SIMD-sized blocks
    /// (covered items carry the [`COVERED`] bit, so they never win); deeper down, the list
    /// walk is cheaper. Both stop at the first item with 0 or 1 options.
    #[inline(always)]
    fn fewest_options(&self) -> (u32, u32) {
        if self.dance.active_primary() * 16 >= self.dance.primary() {
            let (index, len) = first_smallest(self.dance.primary_lengths());
            return (index as u32 + 1, len);
        }
        self.fewest_by_list()
    }

    /// Among the primary items with `len` options, from `first` (the first of them) on, the
    /// one whose options hide the most links when chosen (over its options, the other options
    /// through their other items): for [`Inference::Shallow`], at the top of the tree, where
    /// a branch that settles more leaves a smaller subtree. Lower in the tree it costs more
    /// than it saves; probing makes its own choice (`docs/design/search.md`).
    fn heaviest_of_fewest(&self, first: u32, len: u32) -> u32 {
        let mut best = (first, 0u64);
        for i in first..=self.dance.primary() {
            if self.dance.top(i) != len {
                continue;
            }
            let mut weight: u64 = 0;
            let mut p = self.dance.down(i);
            while p != i {
                let mut q = self.dance.right(p);
                while q != p {
                    weight += u64::from(self.dance.top(self.dance.top(q)) - 1);
                    q = self.dance.right(q);
                }
                p = self.dance.down(p);
            }
            if weight > best.1 {
                best = (i, weight);
            }
        }
        best.0
    }

    /// [`Links::fewest_options`] by walking the list of active primary items.
    #[inline(always)]
    fn fewest_by_list(&self) -> (u32, u32) {
        let mut best = 0;
        let mut best_len = u32::MAX;
        for (i, len) in self.dance.active_primary_items() {
            if len < best_len {
                best = i;
                best_len = len;
                if len <= 1 {
                    break;
                }
            }
        }
        (best, best_len)
    }

    /// Covers item `i` ([`Dance::cover`]), keeping the tracked blocks' edges in step (never
    /// with colours). Without `TRACK` (the plain loop, which runs only where no block is
    /// matched: searches without inference and the shallow setting's subtrees) the blocks
    /// are not looked at; so for the three moves below.
    #[inline(always)]
    fn cover<const C: bool, const TRACK: bool>(&mut self, i: u32) -> u64 {
        debug_assert!(
            TRACK || !self.blocks.tracking(),
            "blocks tracked in a plain loop"
        );
        if TRACK && !C && self.blocks.tracking() {
            self.dance.cover::<C, _>(i, &mut self.blocks)
        } else {
            self.dance.cover::<C, _>(i, &mut Unwatched)
        }
    }

    /// Exactly undoes [`Links::cover`].
    #[inline(always)]
    fn uncover<const C: bool, const TRACK: bool>(&mut self, i: u32) {
        if TRACK && !C && self.blocks.tracking() {
            self.dance.uncover::<C, _>(i, &mut self.blocks);
        } else {
            self.dance.uncover::<C, _>(i, &mut Unwatched);
        }
    }

    /// Covers the other items of option node `x`'s option ([`Dance::cover_others`]).
    #[inline(always)]
    fn cover_others<const C: bool, const TRACK: bool>(&mut self, x: u32) -> u64 {
        if TRACK && !C && self.blocks.tracking() {
            self.dance.cover_others::<C, _>(x, &mut self.blocks)
        } else {
            self.dance.cover_others::<C, _>(x, &mut Unwatched)
        }
    }

    /// Exactly undoes [`Links::cover_others`].
    #[inline(always)]
    fn uncover_others<const C: bool, const TRACK: bool>(&mut self, x: u32) {
        if TRACK && !C && self.blocks.tracking() {
            self.dance.uncover_others::<C, _>(x, &mut self.blocks);
        } else {
            self.dance.uncover_others::<C, _>(x, &mut Unwatched);
        }
    }

    /// Takes the item of option node `p` out of play ([`Dance::commit`]).
    #[inline(always)]
    fn commit<const C: bool>(&mut self, p: u32) -> u64 {
        if !C && self.blocks.tracking() {
            self.dance.commit::<C, _>(p, &mut self.blocks)
        } else {
            self.dance.commit::<C, _>(p, &mut Unwatched)
        }
    }

    /// Exactly undoes [`Links::commit`].
    #[inline(always)]
    fn uncommit<const C: bool>(&mut self, p: u32) {
        if !C && self.blocks.tracking() {
            self.dance.uncommit::<C, _>(p, &mut self.blocks);
        } else {
            self.dance.uncommit::<C, _>(p, &mut Unwatched);
        }
    }

    /// Takes the option of node `p` out of the problem for now, as inference does when it
    /// proves that the option is in no solution, and remembers it on the trail. `p` must lie
    /// in an active column ([`Dance::remove_option`]). Returns the option's size.
    #[inline(always)]
    fn remove_option(&mut self, p: u32) -> u32 {
        let size = if self.blocks.tracking() {
            self.dance.remove_option(p, &mut self.blocks)
        } else {
            self.dance.remove_option(p, &mut Unwatched)
        };
        self.trail.push(p);
        size
    }

    /// Puts back every option removed since the trail had length `mark`, newest first.
    fn restore(&mut self, mark: u32) {
        while self.trail.len() > mark as usize {
            let Some(p) = self.trail.pop() else { break };
            if self.blocks.tracking() {
                self.dance.restore_option(p, &mut self.blocks);
            } else {
                self.dance.restore_option(p, &mut Unwatched);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_smallest;

    /// The contract, element by element: the first smallest length, except that the search
    /// stops after the first block of 16 that holds a 0 or a 1.
    fn expected(lens: &[u32]) -> (usize, u32) {
        let end = lens
            .iter()
            .position(|&len| len <= 1)
            .map_or(lens.len(), |at| (at / 16 + 1) * 16)
            .min(lens.len());
        let best = lens[..end].iter().copied().min().unwrap_or(u32::MAX);
        let at = lens[..end].iter().position(|&len| len == best).unwrap_or(0);
        (at, best)
    }

    #[test]
    fn first_smallest_finds_the_first_smallest_length() {
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..20_000 {
            let draw = next();
            let n = (draw % 70) as usize;
            let floor = (draw >> 8) % 4;
            let lens: Vec<u32> = (0..n)
                .map(|_| (floor + (next() >> 32) % 9) as u32)
                .collect();
            assert_eq!(
                first_smallest(&lens),
                expected(&lens),
                "round {round}: {lens:?}"
            );
        }
        assert_eq!(first_smallest(&[]), (0, u32::MAX));
    }

    /// The dance's safe interface misused, as `dance.rs` promises: a move given what it must
    /// not be panics, or changes nothing (`cover_others` on a header or a spacer), or at
    /// least ends (`uncover_others` on a spacer). Under Miri (`.ci/miri.sh`) this also shows
    /// that none of it reads or writes outside the arrays.
    #[test]
    fn misused_moves_panic_or_change_nothing() {
        use super::{Dance, Links, Unwatched};
        use crate::dlx::{Matrix, format};
        use std::panic::{AssertUnwindSafe, catch_unwind};

        let text = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
        let matrix = Matrix::new(format::read(text).unwrap().problem).unwrap();
        let dance = Links::new(&matrix).dance;
        let (n, nodes) = (dance.item_count(), dance.node_count() as u32);
        let spacers: Vec<u32> = (n + 1..nodes).filter(|&x| dance.top(x) == 0).collect();
        let panics = |name: &str, x: u32, step: &dyn Fn(&mut Dance)| {
            let mut copy = dance.clone();
            let result = catch_unwind(AssertUnwindSafe(|| step(&mut copy)));
            assert!(result.is_err(), "{name}({x}) did not panic");
        };
        for i in [0, n + 1, nodes, u32::MAX] {
            panics("cover", i, &|d| _ = d.cover::<false, _>(i, &mut Unwatched));
            panics("uncover", i, &|d| d.uncover::<false, _>(i, &mut Unwatched));
        }
        for x in (0..=n + 1).chain([nodes, u32::MAX]) {
            panics("uncover_others", x, &|d| {
                d.uncover_others::<false, _>(x, &mut Unwatched)
            });
        }
        let not_options = (0..=n)
            .chain(spacers.iter().copied())
            .chain([nodes, u32::MAX]);
        for x in not_options {
            panics("commit", x, &|d| {
                _ = d.commit::<false, _>(x, &mut Unwatched)
            });
            panics("uncommit", x, &|d| {
                d.uncommit::<false, _>(x, &mut Unwatched)
            });
            panics("remove_option", x, &|d| {
                _ = d.remove_option(x, &mut Unwatched)
            });
            panics("restore_option", x, &|d| {
                d.restore_option(x, &mut Unwatched)
            });
            panics("tweak", x, &|d| _ = d.tweak::<false>(x));
            panics("unlink_from_column", x, &|d| d.unlink_from_column(x));
            panics("first_node", x, &|d| _ = d.first_node(x));
        }
        let option = n + 2;
        panics("cover::<true>", 1, &|d| {
            _ = d.cover::<true, _>(1, &mut Unwatched)
        });
        panics("commit::<true>", option, &|d| {
            _ = d.commit::<true, _>(option, &mut Unwatched)
        });
        panics("untweak", option, &|d| d.untweak::<false>(0, option, true));
        for x in (0..=n).chain(spacers.iter().copied()) {
            let mut copy = dance.clone();
            assert_eq!(copy.cover_others::<false, _>(x, &mut Unwatched), 0);
            assert_eq!(
                format!("{copy:?}"),
                format!("{dance:?}"),
                "cover_others({x})"
            );
        }
        for &spacer in &spacers[1..] {
            dance
                .clone()
                .uncover_others::<false, _>(spacer, &mut Unwatched);
        }
    }
}
