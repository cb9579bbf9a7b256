//! Inference inside the search: proving options impossible before branching, so that one
//! wrong guess high in the tree cannot cost a huge subtree.
//!
//! Plain dancing links knows one deduction, "an item with one option left is forced". The two
//! rules here are the generic form of what a Sudoku player calls locked candidates and pairs,
//! stated for any exact-cover problem; both rest on a primary item having to be covered
//! exactly once and every item at most once:
//!
//! - *Implication.* If every remaining option of a primary item `i` contains item `j`, then
//!   whichever option covers `i` covers `j`, so every option that contains `j` but not `i` is
//!   in no solution. (Sudoku: pointing and claiming.)
//! - *Pair.* If two primary items `i1`, `i2` have two options each, neither option of one
//!   contains the other item, and each of the four contains exactly one of two items `j1`,
//!   `j2`, then the options covering `i1` and `i2` are distinct and together cover `j1` and
//!   `j2`, so every other option containing `j1` or `j2` is in no solution. (Sudoku: naked and
//!   hidden pairs.)
//! - *Exclusion.* If an option `x` shares an item with every remaining option of a primary
//!   item `i` (through any items, one for each), choosing `x` would leave `i` no option, so
//!   `x` is in no solution. This finds what the implication rule does and more: a Sudoku
//!   cell that sees every cell of a renban line where a digit the line must hold can go
//!   (through the row for some of them, the box for the others), or a symbol of one cell
//!   that a line's pairs forbid with every symbol another cell has left. Without colours it
//!   ANDs rows of bits, one per option of `i`, each marking the options that share an item
//!   with it in the whole matrix, and walks only the columns of the first option to keep
//!   the live ones; with colours it walks the columns of every option's items. Either way it
//!   reads many times what the implication rule reads, so only
//!   [`Inference::Exclusion`] runs it on every item (measured: `docs/design/inference.md`);
//!   at the other settings it examines the items a problem names for it
//!   ([`Problem::add_exclusion_items`](crate::dlx::Problem::add_exclusion_items): the
//!   symbols a renban line must hold).
//!
//! With colours (Knuth's DLX2), two options that give a secondary item the same colour may
//! both be chosen, so sharing that item is no conflict. The rules take an option to hold
//! only the items it holds without a colour: an item held so by every option of `i` is
//! claimed by whichever covers `i`, and every other option through it goes, whatever its
//! colour there; the pair rule's four options and the exclusion rule's options hold their
//! items so too. A coloured node counts for nothing, and neither is the column of an item
//! whose colour is settled ever walked: hides leave its purified nodes in place, so it may
//! still list hidden options. Probing (`probe.rs`) hides, for a coloured item, only the
//! options that give it another colour or none. Multiplicities keep the rules off: an item
//! that several chosen options may share claims nothing, and Algorithm M's levels are not
//! one option each.
//!
//! A third rule, for problems that declare one-to-one blocks, is in `matching.rs`: Hall sets
//! of any size, found by matching. It runs after these two reach their fixpoint, and they
//! again on what it removes, at the root ([`Inference::Root`]) and with probing; at every
//! node it costs more than it saves on 9x9 Sudoku (`docs/design/inference.md`).
//!
//! Removing an option is what dancing links does cheaply: its nodes are unlinked from their
//! columns and put back, newest first, when the search leaves the level (`Links::restore`).
//! The rules run where the search is about to branch (an item with one option left is
//! simply followed, as plain dancing links does, which is much cheaper), to a fixpoint over a
//! worklist: at the first inference on a path every active primary item is examined; below,
//! only the items whose options the choices since the last inference hid (every item of every
//! option through the chosen options' columns), and then the items of each option removed.
//! When the links hidden since the last inference outnumber four times the active items,
//! every active item is examined instead: walking them would cost more (measured on empty
//! 36x36 and 64x64 grids, where long runs of forced moves made that walk 97% of the time).
//! An item whose options did not change since its last examination on the path to this node
//! cannot yield anything new, so the fixpoint is the same as examining everything.
//!
//! With probing, an item that a removal leaves with one option is not left to the search's
//! forced move: the implication rule takes it as any other item (its one option holds all
//! its items), so every other option through them goes at once. A failed probe leaves its
//! item so, and each option excluded by the one left would otherwise be found later in the
//! sweep by a failed probe of its own, each followed by the rules and the blocks' matching.
//! Under the other settings it bought nothing, so they leave it to the search (measured:
//! `docs/design/inference.md`).
//!
//! Safe code: it reads the links through the accessors of `dance.rs` and removes options by
//! its moves.

use std::sync::Arc;

use super::Links;
use crate::dlx::bits::add_clashes;
use crate::dlx::dance::COVERED;
use crate::dlx::matrix::Matrix;

/// The most nodes the exclusion rule walks for one item (the columns of its options' items):
/// a 9x9 Sudoku cell's option holds four items of at most nine options each, and each pair
/// item of a line two. An item whose options reach further is left as it is, which is sound
/// (the rule only removes).
const EXCLUSION_MAX_WALK: u32 = 1024;

/// The most words the exclusion rule's rows of clashes take (8 MiB: a row of bits over the
/// options per option, 8,192 options), and the most pairs of options through the items
/// (summed over the items) it reads to fill them; past either, or with colours, it walks the
/// columns instead.
const CLASH_ROWS_MAX_WORDS: usize = 1 << 20;
const CLASH_ROWS_MAX_PAIRS: usize = 1 << 24;

/// The most nodes [`most_shared`] reads through one item's options before taking all of
/// them to share an item (which only means the implication rule examines the item at any
/// length): a 9x9 Sudoku cell's options hold 36 nodes, a 64x64 one's 256; the options of a
/// clue written as its fillings can hold hundreds each (ISS's Normal Lunchbox: 936), where
/// reading every item's options whole took 17 s.
const SHARING_MAX_WALK: u32 = 1024;

/// How much inference a search makes.
///
/// Every setting finds the same solutions (so every count is the same); the work differs, and
/// so may the order in which solutions come, since removed options change which item has the
/// fewest options. The measurements behind [`Inference::Auto`] are in
/// `docs/design/inference.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Inference {
    /// Plain Algorithm X: only forced moves.
    None,
    /// The rules once, at the root of each search (after the options chosen before it),
    /// with the matching of the one-to-one blocks the problem declares
    /// ([`Problem::add_block`](crate::dlx::Problem::add_block)).
    Root,
    /// The rules at every search node, to a fixpoint (without the blocks' matching, which
    /// costs more than it saves at every node: 9x9 Sudoku twice as slow, an empty 64x64
    /// grid 0.26 s to 0.42 s).
    EveryNode,
    /// The rules at the nodes near the top of the tree, where at least
    /// [`Inference::SHALLOW_SHARE`] of the primary items are still to cover: where a wrong
    /// guess costs the largest subtree. Below, the plain loop's nodes are cheaper than the
    /// rules. At those nodes the search also branches on the item, among those with the
    /// fewest options, whose options hide the most links when chosen. Measured:
    /// `docs/design/inference.md`.
    Shallow,
    /// The rules at every search node, as [`Inference::EveryNode`], and the exclusion rule
    /// with them: an option that shares an item with every option of an item is removed.
    /// It finds more than the other rules where options exclude one another through
    /// different items (renban lines: one of ISS's hard renban puzzles 11 s to 0.2 s), and
    /// costs more everywhere (measured: `docs/design/inference.md`), so no default uses it
    /// on every item; every setting but [`Inference::None`] uses it on the items a problem
    /// names ([`Problem::add_exclusion_items`](crate::dlx::Problem::add_exclusion_items)).
    Exclusion,
    /// The rules and probing at every search node (see `probe.rs`): each option of an item
    /// with two options is tried, and removed when its forced moves (and the implication
    /// rule along them) leave an item with no option; options that both trials hide are
    /// removed; an item left with one option has the other options through its option's
    /// items removed at once; the search branches on the item whose trials narrowed the
    /// other items most, trying first the option that narrowed them less. The blocks'
    /// matching runs at every node, on the blocks changed since it last ran.
    Probe,
    /// The measured default, from the primary items a search starts with to cover:
    /// [`Inference::Shallow`] below [`Inference::AUTO_MIN_ITEMS`], where a node of plain
    /// dancing links is so cheap that the rules at every node cost more than the nodes they
    /// save (9x9 Sudoku: 1.1-4x slower with them, 16x16 puzzles 1.4x slower), but not at the
    /// top of the tree; [`Inference::Probe`] from there (a 25x25 puzzle with 40% clues:
    /// minutes without probing, about a second with it), and below it on a problem of
    /// [`Inference::AUTO_MIN_PROBLEM_ITEMS`] or more whose clues cover an eighth of them (a
    /// 16x16 puzzle, where the shallow setting infers at the root at most: a tenth of the
    /// time probing); [`Inference::EveryNode`] from [`Inference::AUTO_MAX_PROBE_ITEMS`],
    /// where a sweep of probes costs too much per node (an empty 64x64 grid: 17 s probing,
    /// 0.23 s with the rules alone). [`Inference::None`] where the matrix has a counter of
    /// rests that lists solutions ([`Matrix::set_rest_counter`](crate::dlx::Matrix::set_rest_counter):
    /// a classic 9x9 grid), which then takes the rests from the root.
    #[default]
    Auto,
}

impl Inference {
    /// Every setting, for tables and tests.
    pub const ALL: [Inference; 7] = [
        Inference::None,
        Inference::Root,
        Inference::Shallow,
        Inference::EveryNode,
        Inference::Exclusion,
        Inference::Probe,
        Inference::Auto,
    ];

    /// The share of the primary items that must be left to cover for
    /// [`Inference::Shallow`] to apply the rules at a node, as a fraction
    /// (numerator, denominator): 5/8, 203 of a 9x9 Sudoku's 324 items, so about 30 cells
    /// filled at most; the best of the shares measured on 9x9 (`docs/design/inference.md`).
    pub const SHALLOW_SHARE: (u32, u32) = (5, 8);

    /// The size of search from which [`Inference::Auto`] makes inference (probing):
    /// uncovered primary items at the root. An empty 9x9 Sudoku has 324 items, a 16x16 one
    /// 1024, a 25x25 one 2500, a 64x64 one 16384; clues cover four items each.
    pub const AUTO_MIN_ITEMS: u32 = 1100;

    /// The size of problem (primary items, its clues' included) from which
    /// [`Inference::Auto`] probes also below [`Inference::AUTO_MIN_ITEMS`] where its root
    /// leaves fewer than 7/8 of them to cover: a 16x16 puzzle (1,024 items) whose clues
    /// leave about 640, where the shallow setting infers at the root at most and plain
    /// dancing links wander. Near empty, plain dancing links fill the grid at once. Measured
    /// in `docs/design/inference.md`; 12x12 puzzles (576 items) did not gain.
    pub const AUTO_MIN_PROBLEM_ITEMS: u32 = 1000;

    /// The size of search from which [`Inference::Auto`] applies the rules without probing.
    pub const AUTO_MAX_PROBE_ITEMS: u32 = 12_000;

    /// The setting [`Inference::Auto`] stands for in a search that starts with `items`
    /// primary items to cover; other settings stand for themselves.
    pub fn resolve(self, items: u32) -> Inference {
        match self {
            Inference::Auto if items >= Self::AUTO_MAX_PROBE_ITEMS => Inference::EveryNode,
            Inference::Auto if items >= Self::AUTO_MIN_ITEMS => Inference::Probe,
            Inference::Auto => Inference::Shallow,
            setting => setting,
        }
    }

    /// The setting's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Inference::None => "none",
            Inference::Root => "root",
            Inference::Shallow => "shallow",
            Inference::EveryNode => "every",
            Inference::Exclusion => "exclusion",
            Inference::Probe => "probe",
            Inference::Auto => "auto",
        }
    }

    /// Whether a search node at `level`, with `uncovered` of the `primary` items still to
    /// cover, examines the rules; only for resolved settings.
    #[inline(always)]
    pub(crate) fn at_node(self, level: usize, uncovered: u32, primary: u32) -> bool {
        match self {
            Inference::None => false,
            Inference::Root => level == 0,
            Inference::Shallow => {
                let (share, of) = Self::SHALLOW_SHARE;
                u64::from(uncovered) * u64::from(of) >= u64::from(primary) * u64::from(share)
            }
            Inference::EveryNode | Inference::Exclusion | Inference::Probe => true,
            Inference::Auto => unreachable!("resolved when a search starts"),
        }
    }
}

impl std::fmt::Display for Inference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Inference {
    type Err = String;

    fn from_str(text: &str) -> Result<Inference, String> {
        Inference::ALL
            .into_iter()
            .find(|setting| setting.name() == text)
            .ok_or_else(|| {
                format!(
                    "'{text}' is not an inference setting (none, root, shallow, every, exclusion, probe or auto)"
                )
            })
    }
}

/// Scratch arrays of the rules, allocated once per solver.
#[derive(Debug, Clone)]
pub(crate) struct Scratch {
    /// Items waiting to be examined.
    queue: Vec<u32>,
    /// Whether each item is in `queue`.
    queued: Vec<bool>,
    /// Per item: the inference (numbered by `epoch`) that last queued it, its options
    /// having changed; a sweep of probes (`probe.rs`) also marks so the items of the options
    /// removed since the last sweep on the path.
    pub(super) changed_in: Vec<u32>,
    /// Numbers the runs of [`Links::infer`].
    pub(super) epoch: u32,
    /// Per item: in how many of the options seen so far it occurs (implication rule).
    marks: Vec<u32>,
    /// Items that the item being examined implies.
    implied: Vec<u32>,
    /// Per item: whether the exclusion rule examines it at every setting
    /// ([`Problem::add_exclusion_items`](crate::dlx::Problem::add_exclusion_items)).
    excluding: Vec<bool>,
    /// Per item: the most of its options that hold one same other item ([`most_shared`]),
    /// computed once per matrix and loaded when a search first infers; empty until then.
    pub(super) most_shared: Arc<[u32]>,
    /// The exclusion rule's arrays, allocated when it first runs: per node, the first node
    /// of its option; per option (by first node), the stamp of the examination that made it
    /// a candidate and of the last option found to share an item with it.
    first_of: Vec<u32>,
    candidate_in: Vec<u32>,
    shares_with: Vec<u32>,
    /// Without colours, for the exclusion rule: per option (numbered in node order), a row
    /// of bits over the options that share an item with it (in the matrix, whatever is
    /// hidden now), `clash_words` words each; and per node, its option's number. Empty where
    /// the rows would be too large (see [`CLASH_ROWS_MAX_WORDS`]) or the problem has
    /// colours: the rule then walks the columns.
    clash_rows: Vec<u64>,
    clash_words: usize,
    option_number: Vec<u32>,
    /// The options that share an item with every option of the item examined so far.
    clash_common: Vec<u64>,
    /// Numbers the exclusion rule's examinations and the options it compares, for the marks.
    stamp: u32,
    /// One node of each option that may share an item with every option of the item
    /// examined.
    candidates: Vec<u32>,
    /// The arrays of probing (see `probe.rs`).
    pub(super) probes: super::probe::Scratch,
    /// Whether the rules met an item with no option at this node.
    pub(super) dead: bool,
    /// A node of the option the search refuted before entering the node it is at again
    /// ([`Links::refutes`]), 0 if none: its items lost an option.
    pub(super) refuted: u32,
}

impl Scratch {
    pub fn new(items: usize, nodes: usize, exclusion_items: &[u32]) -> Scratch {
        let mut excluding = vec![false; items + 1];
        for &i in exclusion_items {
            excluding[i as usize] = true;
        }
        Scratch {
            excluding,
            probes: super::probe::Scratch::new(nodes),
            queue: Vec::new(),
            queued: vec![false; items + 1],
            changed_in: vec![0; items + 1],
            epoch: 0,
            marks: vec![0; items + 1],
            implied: Vec::new(),
            most_shared: Arc::from([]),
            first_of: Vec::new(),
            candidate_in: Vec::new(),
            shares_with: Vec::new(),
            clash_rows: Vec::new(),
            clash_words: 0,
            option_number: Vec::new(),
            clash_common: Vec::new(),
            stamp: 0,
            candidates: Vec::new(),
            refuted: 0,
            dead: false,
        }
    }

    /// The next stamp for the exclusion rule's marks, clearing them when the numbers wrap.
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.candidate_in.fill(0);
            self.shares_with.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Queues primary item `i` (of `primary`) for examination unless it is queued already.
    #[inline(always)]
    fn enqueue(&mut self, i: u32, primary: u32) {
        if i <= primary && !self.queued[i as usize] {
            self.changed_in[i as usize] = self.epoch;
            self.queued[i as usize] = true;
            self.queue.push(i);
        }
    }
}

impl Links {
    /// Applies the rules to a fixpoint at the node just entered at `level` (where the search
    /// is about to branch: forced moves are followed without inference), removing the
    /// options they prove impossible (onto the trail); returns how many. Stops early when an
    /// item is left with no option: the search then backtracks.
    pub(super) fn infer(&mut self, level: usize) -> u64 {
        self.scratch.dead = false;
        debug_assert!(
            !self.scratch.most_shared.is_empty(),
            "a search that infers loads the matrix's sharing first"
        );
        if self.scratch.epoch == u32::MAX {
            self.scratch.changed_in.fill(0);
            self.scratch.epoch = 0;
        }
        self.scratch.epoch += 1;
        let unseen = self.frames[level].unseen_from;
        // Level 0 is always `NOT_YET`: the root examines every item.
        let full = unseen == super::NOT_YET
            || self.frames[level].hidden_before - self.frames[unseen as usize].hidden_before
                > u64::from(self.dance.active_primary()) * 4;
        if full {
            let mut i = self.dance.item(0).next;
            while i != 0 {
                self.enqueue(i);
                i = self.dance.item(i).next;
            }
        } else {
            let mut changed = false;
            for k in unseen as usize..level {
                changed |= self.enqueue_touched_by(self.stack[k]);
            }
            if self.scratch.refuted != 0 {
                self.enqueue_items_of(self.scratch.refuted);
                changed = true;
            }
            if !changed {
                // Only forced moves whose options had nothing left to exclude: the links
                // are as the last inference on the path left them, at its fixpoint, and its
                // sweep's choice of branch stands. (The queue holds only the chosen options'
                // own, covered, items.)
                self.clear_queue();
                if self.inferring == Inference::Probe {
                    self.inherit_sweep(level, unseen as usize);
                }
                self.scratch.probes.best = self.frames[unseen as usize].probed_best;
                self.frames[level].probed_best = self.scratch.probes.best;
                self.frames[level].sums_seen = self.frames[unseen as usize].sums_seen;
                return 0;
            }
        }
        self.scratch.probes.best = super::probe::ProbedBranch::NONE;
        let mut removed = self.settle();
        // The sums and the rules, each on what the other removed, to a fixpoint of both.
        // The first filtering takes the sums the path changed since their last fixpoint
        // on it (every sum where the rules examine every item), the next ones those of the
        // options the rules removed since.
        let mut since = (!full).then(|| self.frames[unseen as usize].sums_seen);
        while self.propagating && !self.scratch.dead {
            let filtered = self.filter_by_sums(level, true, since);
            let seen = super::propagate::SumsSeen {
                trail: self.trail.len() as u32,
                level: level as u32,
            };
            self.frames[level].sums_seen = seen;
            since = Some(seen);
            if filtered == 0 || self.scratch.dead {
                removed += filtered;
                break;
            }
            removed += filtered + self.settle();
        }
        #[cfg(debug_assertions)]
        if self.propagating && !self.scratch.dead {
            self.assert_sums_at_fixpoint(level, true);
        }
        if self.inferring == Inference::Probe && !self.dead_end() {
            removed += self.probe(level, unseen, full);
        }
        self.frames[level].probed_best = self.scratch.probes.best;
        removed
    }

    /// Examines the queued items and then the changed one-to-one blocks (`matching.rs`) to a
    /// fixpoint of all the rules; returns the options removed.
    pub(super) fn settle(&mut self) -> u64 {
        let removed = self.drain();
        if !self.blocks.any() {
            return removed;
        }
        if self.scratch.dead {
            // The blocks the rules touched at a dead end are not worth filtering anywhere.
            self.blocks.clear();
            return removed;
        }
        removed + self.filter_blocks()
    }

    /// Examines the queued items to a fixpoint of the implication and pair rules (marking
    /// their blocks as changed); returns the options removed.
    pub(super) fn drain(&mut self) -> u64 {
        let mut removed = 0;
        while let Some(i) = self.scratch.queue.pop() {
            self.scratch.queued[i as usize] = false;
            if self.blocks.any() {
                self.blocks.touch(i);
            }
            let len = self.dance.top(i);
            if len & COVERED != 0 || len < 2 {
                if len == 0 {
                    self.conflict_at(i);
                    self.scratch.dead = true;
                    self.clear_queue();
                } else if len == 1 && self.inferring == Inference::Probe {
                    // Its one option excludes every other option through its items.
                    removed += self.implications(i);
                }
                continue;
            }
            // No other item holds more of `i`'s options than its `most_shared` (a row's
            // digit of a Sudoku: three, in one box).
            if len <= self.scratch.most_shared[i as usize] {
                removed += self.implications(i);
            }
            // Where blocks are matched, their Hall sets include the pairs of their items, and
            // the pair rule there only costs time.
            if self.dance.top(i) == 2 && !(self.blocks.any() && self.blocks.holds(i)) {
                removed += self.pairs(i);
            }
            if (self.inferring == Inference::Exclusion || self.scratch.excluding[i as usize])
                && self.dance.top(i) >= 2
            {
                removed += self.exclusions(i);
            }
        }
        removed
    }

    /// Whether some active primary item has no option left, as the rules found when they
    /// last ran: every removal queues its items for them, and they mark the node dead when
    /// they meet an item with none. Not [`Links::fewest_options`], which stops at the first
    /// item with one option and so misses an item with none further on, so that sweeps began
    /// at nodes already dead (`docs/design/inference.md`).
    pub(super) fn dead_end(&self) -> bool {
        debug_assert!(
            self.scratch.dead || !self.some_item_without_options(),
            "the rules met every item left without options"
        );
        self.scratch.dead
    }

    /// Whether some active primary item has no option left, by looking at every one.
    fn some_item_without_options(&self) -> bool {
        let mut i = self.dance.item(0).next;
        while i != 0 && i <= self.dance.primary() {
            if self.dance.top(i) == 0 {
                return true;
            }
            i = self.dance.item(i).next;
        }
        false
    }

    /// Queues primary item `i` for examination unless it is queued already.
    #[inline(always)]
    fn enqueue(&mut self, i: u32) {
        self.scratch.enqueue(i, self.dance.primary());
    }

    fn clear_queue(&mut self) {
        while let Some(i) = self.scratch.queue.pop() {
            self.scratch.queued[i as usize] = false;
        }
    }

    /// Queues every item whose options the choice of `x`'s option hid: the items of every
    /// option in the (now covered) columns of that option's items. Returns whether there was
    /// any such option (else the choice changed no other option).
    fn enqueue_touched_by(&mut self, x: u32) -> bool {
        let mut touched = false;
        let mut c = x;
        loop {
            let column = self.dance.top(c);
            let mut p = self.dance.down(column);
            while p != column {
                touched |= p != c;
                let mut q = self.dance.right(p);
                while q != p {
                    self.enqueue(self.dance.top(q));
                    q = self.dance.right(q);
                }
                p = self.dance.down(p);
            }
            c = self.dance.right(c);
            if c == x {
                break;
            }
        }
        touched
    }

    /// Removes the option of node `p` and queues its items, whose options changed.
    pub(super) fn remove_and_requeue(&mut self, p: u32) {
        self.remove_option(p);
        self.enqueue_items_of(p);
    }

    /// Queues the items of the option of node `p` (removed or not: its `right` cycle stays).
    fn enqueue_items_of(&mut self, p: u32) {
        let primary = self.dance.primary();
        let scratch = &mut self.scratch;
        scratch.enqueue(self.dance.top(p), primary);
        (self.dance).visit_others(p, |_, item| scratch.enqueue(item, primary));
    }

    /// The implication rule for item `i` (two or more options, or one under probing): finds
    /// the items common to all its options and removes every other option through them.
    fn implications(&mut self, i: u32) -> u64 {
        let first = self.dance.down(i);
        let (dance, marks) = (&self.dance, &mut self.scratch.marks);
        // Only the items an option claims alone (no colour there) count: another option
        // may agree with it on a coloured one.
        dance.visit_others(first, |q, j| {
            if dance.claims_alone(q) {
                marks[j as usize] = 1;
            }
        });
        // After option number `seen`, the items in all of them carry the mark `seen`.
        let mut seen = 1;
        let mut p = self.dance.down(first);
        while p != i {
            seen += 1;
            let mut survivors = false;
            let (dance, marks) = (&self.dance, &mut self.scratch.marks);
            dance.visit_others(p, |q, j| {
                let mark = &mut marks[j as usize];
                if *mark == seen - 1 && dance.claims_alone(q) {
                    *mark = seen;
                    survivors = true;
                }
            });
            if !survivors {
                break;
            }
            p = self.dance.down(p);
        }
        let all_seen = p == i;
        self.scratch.implied.clear();
        let (marks, implied) = (&mut self.scratch.marks, &mut self.scratch.implied);
        self.dance.visit_others(first, |_, j| {
            if all_seen && marks[j as usize] == seen {
                implied.push(j);
            }
            marks[j as usize] = 0;
        });
        // Each option of `i` has one node in the column of an implied item, and removals
        // there take no option of `i`: the rest of the column is what goes (none, often,
        // where `i` has one option left and its items no other).
        let options_of_i = self.dance.top(i);
        let mut removed = 0;
        for k in 0..self.scratch.implied.len() {
            let j = self.scratch.implied[k];
            let mut others = self.dance.top(j).wrapping_sub(options_of_i);
            let mut p = self.dance.down(j);
            while p != j && others != 0 {
                let next = self.dance.down(p);
                if !self.dance.option_holds(p, i) {
                    self.remove_and_requeue(p);
                    removed += 1;
                    others -= 1;
                }
                p = next;
            }
        }
        removed
    }

    /// The exclusion rule for item `i` (two options or more, none covered): removes every
    /// option that shares an item with each of them. The candidates are the options through
    /// the items of the first; each next option keeps those through its own items. Gives up
    /// (removing nothing) past [`EXCLUSION_MAX_WALK`] nodes.
    fn exclusions(&mut self, i: u32) -> u64 {
        if self.scratch.first_of.is_empty() {
            self.number_options();
        }
        if !self.scratch.clash_rows.is_empty() {
            return self.exclusions_by_rows(i);
        }
        let mut walk = EXCLUSION_MAX_WALK;
        let stamp = self.scratch.next_stamp();
        self.scratch.candidates.clear();
        let first = self.dance.down(i);
        let within = self.visit_sharing(first, &mut walk, |scratch, p, option| {
            if scratch.candidate_in[option] != stamp {
                scratch.candidate_in[option] = stamp;
                scratch.candidates.push(p);
            }
        });
        if !within {
            return 0;
        }
        let mut o = self.dance.down(first);
        while o != i && !self.scratch.candidates.is_empty() {
            let round = self.scratch.next_stamp();
            let within = self.visit_sharing(o, &mut walk, |scratch, _, option| {
                scratch.shares_with[option] = round;
            });
            if !within {
                return 0;
            }
            let Scratch {
                candidates,
                first_of,
                shares_with,
                ..
            } = &mut self.scratch;
            candidates.retain(|&x| shares_with[first_of[x as usize] as usize] == round);
            o = self.dance.down(o);
        }
        self.remove_candidates_outside(i)
    }

    /// The exclusion rule's removals: every option listed in `candidates` but `i`'s own
    /// (which share `i` with one another); returns how many.
    fn remove_candidates_outside(&mut self, i: u32) -> u64 {
        let mut removed = 0;
        for k in 0..self.scratch.candidates.len() {
            let x = self.scratch.candidates[k];
            if !self.dance.option_holds(x, i) {
                self.remove_and_requeue(x);
                removed += 1;
            }
        }
        removed
    }

    /// [`Links::exclusions`] by the rows of clashes: the options that share an item with
    /// every option of `i` are the AND of those options' rows, so the columns of only the
    /// first option are walked, to list the live ones among them in the order the walk
    /// over every column finds them (the rule's removals, and so the search, are the same).
    /// It gives up where that walk would have, past [`EXCLUSION_MAX_WALK`] nodes.
    fn exclusions_by_rows(&mut self, i: u32) -> u64 {
        let words = self.scratch.clash_words;
        let mut walk = EXCLUSION_MAX_WALK;
        let first = self.dance.down(i);
        let mut o = first;
        while o != i {
            // The nodes the walk would read through `o`'s columns but `i`'s.
            let mut cost = 0;
            let mut c = self.dance.right(o);
            while c != o {
                cost += self.dance.top(self.dance.top(c));
                c = self.dance.right(c);
            }
            let Some(left) = walk.checked_sub(cost) else {
                return 0;
            };
            walk = left;
            let number = self.scratch.option_number[o as usize] as usize;
            let Scratch {
                clash_rows,
                clash_common,
                ..
            } = &mut self.scratch;
            let row = &clash_rows[number * words..][..words];
            let mut any = 0;
            if o == first {
                clash_common.clear();
                clash_common.extend_from_slice(row);
                any = clash_common.iter().fold(0, |any, &w| any | w);
            } else {
                for (common, &bits) in clash_common.iter_mut().zip(row) {
                    *common &= bits;
                    any |= *common;
                }
            }
            if any == 0 {
                return 0;
            }
            o = self.dance.down(o);
        }
        // The live options among them, as the walk over the first option's columns meets
        // them.
        let stamp = self.scratch.next_stamp();
        self.scratch.candidates.clear();
        let mut c = self.dance.right(first);
        while c != first {
            let column = self.dance.top(c);
            let mut p = self.dance.down(column);
            while p != column {
                let Scratch {
                    option_number,
                    clash_common,
                    candidate_in,
                    first_of,
                    candidates,
                    ..
                } = &mut self.scratch;
                let number = option_number[p as usize] as usize;
                let option = first_of[p as usize] as usize;
                if clash_common[number / 64] & 1 << (number % 64) != 0
                    && candidate_in[option] != stamp
                {
                    candidate_in[option] = stamp;
                    candidates.push(p);
                }
                p = self.dance.down(p);
            }
            c = self.dance.right(c);
        }
        self.remove_candidates_outside(i)
    }

    /// Calls `visit` with the scratch space, the node and the option (by first node) of every
    /// node in the columns of the items of the option of node `o` but `o`'s own column,
    /// taking their lengths off `walk`; `false`, having stopped, where `walk` runs out.
    fn visit_sharing(
        &mut self,
        o: u32,
        walk: &mut u32,
        mut visit: impl FnMut(&mut Scratch, u32, usize),
    ) -> bool {
        let mut c = self.dance.right(o);
        while c != o {
            if !self.dance.claims_alone(c) {
                // Options may agree with `o` on a coloured item; the column of an item
                // whose colour is settled may hold hidden options.
                c = self.dance.right(c);
                continue;
            }
            let column = self.dance.top(c);
            let Some(left) = walk.checked_sub(self.dance.top(column)) else {
                return false;
            };
            *walk = left;
            let mut p = self.dance.down(column);
            while p != column {
                let option = self.scratch.first_of[p as usize] as usize;
                visit(&mut self.scratch, p, option);
                p = self.dance.down(p);
            }
            c = self.dance.right(c);
        }
        true
    }

    /// Fills the exclusion rule's arrays: options are runs of nodes between spacers, and one
    /// pass gives each node its option's first.
    fn number_options(&mut self) {
        let nodes = self.dance.node_count();
        let mut first_of = vec![0u32; nodes];
        let mut x = 0u32;
        while (x as usize) < nodes {
            if !self.dance.is_option_node(x) {
                x += 1;
                continue;
            }
            let first = x;
            while (x as usize) < nodes && self.dance.is_option_node(x) {
                first_of[x as usize] = first;
                x += 1;
            }
        }
        self.scratch.candidate_in = vec![0; nodes];
        self.scratch.shares_with = vec![0; nodes];
        if !self.dance.colored() {
            self.fill_clash_rows(&first_of);
        }
        self.scratch.first_of = first_of;
    }

    /// Fills the rows of clashes of the exclusion rule (see [`Scratch::clash_rows`]) from
    /// the options' nodes, whose items never change, unless they would be too large.
    fn fill_clash_rows(&mut self, first_of: &[u32]) {
        let nodes = self.dance.node_count();
        let mut option_number = vec![u32::MAX; nodes];
        let mut options = 0u32;
        for x in 0..nodes {
            if self.dance.is_option_node(x as u32) {
                if first_of[x] == x as u32 {
                    options += 1;
                }
                option_number[x] = options - 1;
            }
        }
        let (options, words) = (options as usize, (options as usize).div_ceil(64));
        if options * words > CLASH_ROWS_MAX_WORDS {
            return;
        }
        // Each item's options, by number.
        let items = self.dance.item_count() as usize;
        let mut column_start = vec![0usize; items + 2];
        for x in 0..nodes {
            if option_number[x] != u32::MAX {
                column_start[self.dance.top(x as u32) as usize + 1] += 1;
            }
        }
        // The pairs through each item, from its count (before the counts become starts).
        let pairs: usize = column_start.iter().map(|&n| n * n).sum();
        if pairs > CLASH_ROWS_MAX_PAIRS {
            return;
        }
        for k in 1..column_start.len() {
            column_start[k] += column_start[k - 1];
        }
        let mut next = column_start.clone();
        let mut columns = vec![0u32; column_start[items + 1]];
        for (x, &number) in option_number.iter().enumerate() {
            if number != u32::MAX {
                let item = self.dance.top(x as u32) as usize;
                columns[next[item]] = number;
                next[item] += 1;
            }
        }
        let mut rows = vec![0u64; options * words];
        let (mut uncoloured, mut scratch) = (Vec::new(), Vec::new());
        for item in 1..=items {
            let column = &columns[column_start[item]..column_start[item + 1]];
            uncoloured.resize(column.len(), 0);
            add_clashes(&mut rows, words, column, &uncoloured, &mut scratch);
        }
        // An option's row holds the others alone: where the options of an item share nothing
        // else, their rows' AND is then empty and the rule stops early.
        for number in 0..options {
            rows[number * words + number / 64] &= !(1 << (number % 64));
        }
        self.scratch.clash_rows = rows;
        self.scratch.clash_words = words;
        self.scratch.option_number = option_number;
    }

    /// The pair rule for item `i1`, which has exactly two options `a` and `b`: for each item
    /// `j1` of `a` but not `b`, every other option `c` through `j1` may be a partner's (see
    /// [`Links::pairs_through`]). After a removal it queues `i1` again and returns, as the
    /// column it was walking has changed.
    fn pairs(&mut self, i1: u32) -> u64 {
        let a = self.dance.down(i1);
        let b = self.dance.down(a);
        let mut ja = self.dance.right(a);
        while ja != a {
            let j1 = self.dance.top(ja);
            if self.dance.claims_alone(ja) && !self.dance.option_holds(b, j1) {
                let mut c = self.dance.down(j1);
                while c != j1 {
                    if c != ja && self.dance.claims_alone(c) {
                        let removed = self.pairs_through(i1, a, b, j1, c);
                        if removed > 0 {
                            self.enqueue(i1);
                            return removed;
                        }
                    }
                    c = self.dance.down(c);
                }
            }
            ja = self.dance.right(ja);
        }
        0
    }

    /// The pairs of `i1` (options `a`, `b`) whose partner `i2` has option `c` (through
    /// `j1`, an item of `a` only): `i2` has two options, `c` and `d`, neither `a` nor `b`
    /// holds it, `d` does not hold `j1`, and `j2` is any item in both `b` and `d` but in
    /// neither `a` nor `c`. Removes the other options through `j1` and `j2` of the first
    /// such pair that has any; returns how many.
    fn pairs_through(&mut self, i1: u32, a: u32, b: u32, j1: u32, c: u32) -> u64 {
        let mut q = self.dance.right(c);
        while q != c {
            let node = q;
            let i2 = self.dance.top(node);
            q = self.dance.right(q);
            if i2 > self.dance.primary()
                || self.dance.top(i2) != 2
                || self.dance.option_holds(a, i2)
                || self.dance.option_holds(b, i2)
            {
                continue;
            }
            let first = self.dance.down(i2);
            let d = if node == first {
                self.dance.down(first)
            } else {
                first
            };
            if self.dance.option_holds(d, j1) {
                continue;
            }
            let mut jb = self.dance.right(b);
            while jb != b {
                let j2 = self.dance.top(jb);
                jb = self.dance.right(jb);
                let useful = self.dance.top(j1) + self.dance.top(j2) > 4;
                if useful
                    && self.dance.claims_alone(jb)
                    && self.holds_alone(d, j2)
                    && !self.dance.option_holds(a, j2)
                    && !self.dance.option_holds(c, j2)
                {
                    let mut removed = 0;
                    for column in [j1, j2] {
                        let mut p = self.dance.down(column);
                        while p != column {
                            let next = self.dance.down(p);
                            if !self.dance.option_holds(p, i1) && !self.dance.option_holds(p, i2) {
                                self.remove_and_requeue(p);
                                removed += 1;
                            }
                            p = next;
                        }
                    }
                    return removed;
                }
            }
        }
        0
    }

    /// Whether the option of node `p` holds `item` with no colour there (so that it
    /// conflicts with every other option through `item`).
    fn holds_alone(&self, p: u32, item: u32) -> bool {
        let mut q = p;
        loop {
            if self.dance.top(q) == item {
                return self.dance.claims_alone(q);
            }
            q = self.dance.right(q);
            if q == p {
                return false;
            }
        }
    }
}

/// Per item of `matrix`: the most of its options that hold one same other item (0 where its
/// options hold no other item, 1 where no two of them share one: a Sudoku cell, whose
/// options hold different digits). The implication rule finds nothing on an item
/// with more options left than that, and probing looks at no item where it is below 2. An
/// item whose options hold more than [`SHARING_MAX_WALK`] nodes in all counts as
/// `u32::MAX`, without reading further.
pub(crate) fn most_shared(matrix: &Matrix) -> Arc<[u32]> {
    let items = matrix.item_count as usize;
    let nodes = &matrix.nodes;
    let mut most_shared = vec![0; items + 1];
    let mut seen_with = vec![0u32; items + 1];
    let mut count = vec![0u32; items + 1];
    for k in 1..=items {
        let mut walk = SHARING_MAX_WALK;
        let mut most = 0;
        let mut p = nodes[k].down as usize;
        'options: while p != k {
            let mut q = nodes[p].right as usize;
            while q != p {
                let j = nodes[q].top as usize;
                walk -= 1;
                if walk == 0 {
                    most = u32::MAX;
                    break 'options;
                }
                if seen_with[j] != k as u32 {
                    seen_with[j] = k as u32;
                    count[j] = 0;
                }
                count[j] += 1;
                most = most.max(count[j]);
                q = nodes[q].right as usize;
            }
            p = nodes[p].down as usize;
        }
        most_shared[k] = most;
    }
    most_shared.into()
}

#[cfg(test)]
mod tests {
    use super::most_shared;
    use crate::dlx::{Matrix, Problem};

    /// [`most_shared`] against a count over the problem's own option lists, on random
    /// problems (options of 1 to 4 distinct items out of 8, some items in none).
    #[test]
    fn most_shared_is_the_largest_count_of_options_holding_one_other_item() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        for _ in 0..300 {
            let mut problem = Problem::new();
            let items: Vec<_> = (0..8)
                .map(|k| problem.add_primary(&format!("i{k}")).unwrap())
                .collect();
            for _ in 0..next(12) {
                let mut option: Vec<_> =
                    (0..1 + next(4)).map(|_| items[next(8) as usize]).collect();
                option.sort();
                option.dedup();
                problem.add_option(&option).unwrap();
            }
            let Ok(matrix) = Matrix::new(problem.clone()) else {
                continue;
            };
            let computed = most_shared(&matrix);
            for &i in &items {
                let holding: Vec<_> = problem
                    .options()
                    .map(|o| problem.option(o))
                    .filter(|option| option.contains(&i))
                    .collect();
                let expected = items
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|j| holding.iter().filter(|option| option.contains(j)).count())
                    .max()
                    .unwrap_or(0);
                let index = matrix.item_index[i.0 as usize] as usize;
                assert_eq!(
                    computed[index] as usize, expected,
                    "item {i:?} of {problem:?}"
                );
            }
        }
    }
}
