//! Probing: the strongest inference of the engine, for searches that plain rules leave lost.
//!
//! At a branch point, each of the two options of every primary item with two options is
//! tried in turn: chosen, then the forced moves it leads to followed (an item left with one
//! option takes it) until none is left, and the implication rule of `inference.rs` applied
//! along the way to the items the moves leave with two options (if both hold an item `j`,
//! every other option through `j` is hidden too). An option whose moves leave some item with
//! no option is in no solution (a *failed* option, Sudoku's contradiction by singles and
//! locked candidates) and is removed; an option hidden by the moves of both options of the
//! item is in no solution either, since one of the two covers the item (Sudoku's forcing
//! chains from a bivalue cell). Removals go onto the trail of `inference.rs` and are put
//! back when the search leaves the level. After each, the implication and pair rules run at
//! once; the blocks' matching (`matching.rs`) waits for the next node's rules.
//!
//! One sweep over the items per branch point, and none where the only moves since the last
//! sweep were forced ones that hid no other option. Only items with two options are probed,
//! and exclusions found by probes are not learned: probing more cost more than it saved.
//! The sweep also chooses where the search branches: the item whose two options narrowed the
//! others most (the product of their weights, [`NARROWING`]), as look-ahead SAT solvers do,
//! trying first the option that narrowed less ([`ProbedBranch::reverse`]): it leaves the most
//! freedom, so a solution is likelier below it. A sweep skips the items whose probes are
//! least worth repeating ([`PRESELECT`]), judged on the path to the node alone, as subtrees,
//! checkpoints and parallel tasks, which enter a node down its path, require. What each choice
//! was measured against: `docs/design/probing.md`.
//!
//! A probe changes no link. It stamps the options it chooses and the options their items
//! exclude, and counts down the live options of the items it reaches in arrays that carry
//! the probe's stamp, so there is nothing to undo after it and a fresh stamp clears them all.
//! It follows forced moves without scanning every item: each primary item whose count
//! drops to one or zero is queued, and each that drops to two, if two of its options share
//! another item at all (`inference::most_shared`, from the whole problem: never a Sudoku
//! cell), for the implication rule once no move is forced. (Probing by real covers, undone
//! after each trial, cost more.) An option is probed once per sweep, even when it is met
//! again through another of its items after removals that could now make it fail: probing
//! it again cost more than it found (`docs/design/probing.md`).
//!
//! With colours, a probe's choice hides, through a coloured item, only the options that give
//! it another colour or none, and changes nothing through an item whose colour is settled
//! (whose column may still list hidden options); the implication rule inside a probe hides
//! only the options that clash with both. So a probe fails only where the options it chose
//! really leave an item without one.
//!
//! Safe code: it reads the links through the accessors of `dance.rs`.

use super::Links;

/// How a probe stamps the options its moves hid (its chosen options excepted), so that the
/// probe of an item's other option can tell which it hides too.
#[derive(Debug, Clone, Copy)]
enum Record {
    /// Stamp them with the given stamp.
    Hidden(u32),
    /// Stamp them with the second stamp, collecting into `common` those that bore the first.
    Common(u32, u32),
}

/// How much a probe narrowing a primary item to `left` options tells, by `left`
/// (`NARROWING[left]`, the last entry for every longer item): 2^20 times (5/8)^left, so an
/// item left with few options counts for much more than one that keeps many. Summed over
/// every option a probe hides and every item of it, the sum telescopes: for each item the
/// probe narrows from `n` to `m` options, (5/8)^m - (5/8)^n, times a constant. Look-ahead SAT
/// solvers weigh new short clauses alike. The ratio 5/8 made the smallest trees of those
/// tried (`docs/design/probing.md`).
const NARROWING: [u64; 32] = {
    let mut weights = [0; 32];
    let mut weight = 1 << 20;
    let mut left = 0;
    while left < weights.len() {
        weights[left] = weight;
        weight = weight * 5 / 8;
        left += 1;
    }
    weights
};

/// Which items with two options a sweep probes: those that the last sweep on the path did not
/// score (it found a failure or a new item), or scored at least `1/PRESELECT` of its best
/// branch, and those near a change since it (see the module documentation). Look-ahead SAT
/// solvers also probe a chosen part of their variables. A half took 1.01 times as long as a
/// quarter on the puzzles of the module documentation (five pairs of whole runs in turn,
/// 40,773 branch points against 38,764).
const PRESELECT: u64 = 4;

/// [`Links::probe_choose`] only stamps what it hides.
const STAMP: u8 = 0;
/// [`Links::probe_choose`] also collects what it hides that bears a stamp.
const COLLECT: u8 = 1;

/// What a probe does after a move.
enum Next {
    /// Chooses the option of this node, the only one left to an item.
    Forced(u32),
    /// Applies the implication rule to this item, left with two options.
    Narrowed(u32),
    /// Stops: an item has no option left.
    Failed,
    /// Stops: no item is left with one option.
    Settled,
}

/// The primary items a probe's moves left with few options, waiting for the probe to act.
#[derive(Debug, Clone, Default)]
struct Pending {
    /// Left with one option or none: a forced move or a failure.
    units: Vec<u32>,
    /// Left with two options, which may share another item.
    pairs: Vec<u32>,
}

/// Where a sweep of probes found it best to branch: the item with two options whose options
/// narrowed the other items most when probed (the product of their weights, see
/// [`NARROWING`]), and in which order to try them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ProbedBranch {
    /// The item, or 0 for none.
    pub item: u32,
    /// The product of its options' weights.
    score: u64,
    /// Whether the item's second option (in column order) narrowed the others less than the
    /// first, so that the search tries it first: where a solution is looked for, the option
    /// that leaves the most freedom is the likelier to lead to one. (Where the whole tree is
    /// explored the order changes nothing but which solution comes first.)
    pub reverse: bool,
}

impl ProbedBranch {
    /// No branch found (no sweep, or no item with two options).
    pub const NONE: ProbedBranch = ProbedBranch {
        item: 0,
        score: 0,
        reverse: false,
    };
}

/// A node as probes see it: the stamp of the last probe that chose or hid its option (the
/// options a probe leaves unstamped are those live in its trial), next to the node's item
/// and the next node of its option, which never change (copies of the links' `top` and
/// `right`). Hiding an option in a trial then reads and writes one or two cache lines rather
/// than three (`docs/design/probing.md`). Probing reads the links' `down` and the items'
/// lengths still.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(16))]
struct TrialNode {
    stamp: u32,
    item: u32,
    right: u32,
    /// The sweep in which the node's option was last probed without failing (its weight is
    /// then in `Scratch::weight`).
    known: u32,
}

/// An item as probes see it: the stamp of the last probe that covered it or counted its
/// live options, and that count or [`TrialItem::COVERED`]. In 8 bytes, so that the items of
/// a 25x25 Sudoku take 20 KB beside what the probes walk; three fields in 16 bytes missed the
/// cache more (`docs/design/probing.md`).
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(8))]
struct TrialItem {
    stamp: u32,
    count: u32,
}

impl TrialItem {
    /// The count of an item the probe covered.
    const COVERED: u32 = u32::MAX;

    /// Whether the probe with stamp `stamp` covered the item.
    #[inline(always)]
    fn covered_in(self, stamp: u32) -> bool {
        self.stamp == stamp && self.count == Self::COVERED
    }
}

/// Scratch arrays of probing, allocated when a search first probes.
#[derive(Debug, Clone)]
pub(crate) struct Scratch {
    /// The number of nodes: the length of the per-node arrays below, which are allocated
    /// when a search first probes.
    nodes: usize,
    /// Per node: its stamp and its place in the links ([`TrialNode`]).
    trial_nodes: Vec<TrialNode>,
    /// Per item: what the probes know of it ([`TrialItem`]).
    trial_items: Vec<TrialItem>,
    /// The last stamp given out.
    stamp: u32,
    /// The option being probed and the forced moves it led to.
    forced: Vec<u32>,
    /// The items the probe's moves left with few options, to act on.
    pending: Pending,
    /// Options hidden by both probes of a pair, one node of each.
    common: Vec<u32>,
    /// Where the search branches best, from the last sweep.
    pub(super) best: ProbedBranch,
    /// Per node: its option's weight when last probed without failing ([`NARROWING`]).
    weight: Vec<u64>,
    /// Counts sweeps: a probe's result holds for the rest of its sweep.
    sweep: u32,
    /// The items that the sweeps on the path to this node probed without failing (or skipped,
    /// with the score they kept), in item order, with the score of their two options
    /// ([`Links::probe_pair`]): a sweep's in `records[range.0..range.1]` for its level's
    /// `range` in `record_ranges`.
    records: Vec<(u32, u64)>,
    /// Per level: where the records of its sweep lie in `records`.
    record_ranges: Vec<(u32, u32)>,
    /// Per level: the length of the links' trail when its sweep began.
    sweep_trails: Vec<u32>,
}

impl Scratch {
    pub fn new(nodes: usize) -> Scratch {
        Scratch {
            nodes,
            trial_nodes: Vec::new(),
            trial_items: Vec::new(),
            stamp: 0,
            forced: Vec::new(),
            pending: Pending::default(),
            common: Vec::new(),
            best: ProbedBranch::NONE,
            weight: Vec::new(),
            sweep: 1,
            records: Vec::new(),
            record_ranges: Vec::new(),
            sweep_trails: Vec::new(),
        }
    }
}

impl Links {
    /// The item with two options that the last sweep, at this node, found best to branch
    /// on, if it has two options still, and whether to try its options bottom to top.
    pub(super) fn probed_branch(&self) -> Option<(u32, bool)> {
        let best = self.scratch.probes.best;
        (best.item != 0 && self.dance.top(best.item) == 2).then_some((best.item, best.reverse))
    }

    /// Failed options and common consequences, on every primary item `i` with two options
    /// `a` and `b`: each is tried, following the forced moves it leads to. One that leaves
    /// some item with no option is in no solution and is removed; an option that both trials
    /// hid is in no solution either (whichever of `a` and `b` covers `i` excludes it). After
    /// removals the rules other than matching run again. One sweep over the items (the module
    /// documentation says why), skipping those [`PRESELECT`] leaves out; returns the options
    /// removed. `level` is the node's, `unseen` the level of the last inference on its path
    /// (or [`NOT_YET`](super::NOT_YET)), whose sweep `full` (where every item was examined
    /// again) ignores.
    pub(super) fn probe(&mut self, level: usize, unseen: u32, full: bool) -> u64 {
        let nodes = self.scratch.probes.nodes;
        if self.scratch.probes.trial_nodes.len() != nodes {
            debug_assert_eq!(self.dance.node_count(), nodes, "one trial node per node");
            self.scratch.probes.trial_nodes = (0..nodes as u32)
                .map(|x| (self.dance.top(x), self.dance.right(x)))
                .map(|(item, right)| TrialNode {
                    stamp: 0,
                    item,
                    right,
                    known: 0,
                })
                .collect();
            self.scratch.probes.trial_items =
                vec![TrialItem::default(); self.dance.item_count() as usize + 1];
            self.scratch.probes.weight = vec![0; nodes];
            self.scratch.probes.record_ranges = vec![(0, 0); self.frames.len()];
            self.scratch.probes.sweep_trails = vec![0; self.frames.len()];
        }
        // The links are not those of the last probes.
        if self.scratch.probes.sweep == u32::MAX {
            let probes = &mut self.scratch.probes;
            probes.trial_nodes.iter_mut().for_each(|n| n.known = 0);
            probes.sweep = 0;
        }
        self.scratch.probes.sweep += 1;
        self.scratch.probes.best = ProbedBranch::NONE;
        // The records of the sweeps on the path stay; this sweep's follow them.
        let parent = (unseen != super::NOT_YET).then_some(unseen as usize);
        let keep = parent.map_or(0, |u| self.scratch.probes.record_ranges[u].1);
        self.scratch.probes.records.truncate(keep as usize);
        let (mut next, end, threshold) = match parent {
            Some(u) if !full => {
                self.mark_removed_since(self.scratch.probes.sweep_trails[u]);
                let (start, end) = self.scratch.probes.record_ranges[u];
                (start, end, self.frames[u].probed_best.score / PRESELECT)
            }
            _ => (0, 0, 0),
        };
        self.scratch.probes.sweep_trails[level] = self.trail.len() as u32;
        let mut removed = 0;
        let mut i = self.dance.item(0).next;
        while i != 0 && i <= self.dance.primary() {
            if self.dance.top(i) == 2 {
                // The parent sweep's score of `i`, if it has one.
                let records = &self.scratch.probes.records;
                while next < end && records[next as usize].0 < i {
                    next += 1;
                }
                let scored =
                    (next < end && records[next as usize].0 == i).then(|| records[next as usize].1);
                if let Some(score) = scored.filter(|&s| s < threshold && !self.changed_near(i)) {
                    // Skipped, it keeps its score for the sweeps below.
                    self.scratch.probes.records.push((i, score));
                } else {
                    let removals = self.probe_pair(i);
                    removed += removals;
                    if removals > 0 && self.dead_end() {
                        break;
                    }
                }
            }
            i = self.dance.item(i).next;
        }
        self.scratch.probes.record_ranges[level] = (keep, self.scratch.probes.records.len() as u32);
        removed
    }

    /// Marks as changed (for [`Links::changed_near`]) the items of every option removed since
    /// the trail had length `mark`: removals at an earlier node of the path, after its sweep
    /// began, which the items this node's rules queued do not include.
    fn mark_removed_since(&mut self, mark: u32) {
        let epoch = self.scratch.epoch;
        for &p in &self.trail[mark as usize..] {
            let mut q = p;
            loop {
                let TrialNode { item, right, .. } = *trial(&self.scratch.probes.trial_nodes, q);
                if item <= self.dance.primary() {
                    self.scratch.changed_in[item as usize] = epoch;
                }
                q = right;
                if q == p {
                    break;
                }
            }
        }
    }

    /// A node at `level` whose links are as the sweep at level `from` left them, with no sweep
    /// of its own: its children read that sweep's records.
    pub(super) fn inherit_sweep(&mut self, level: usize, from: usize) {
        let probes = &mut self.scratch.probes;
        if let (Some(&range), Some(&trail)) = (
            probes.record_ranges.get(from),
            probes.sweep_trails.get(from),
        ) {
            probes.record_ranges[level] = range;
            probes.sweep_trails[level] = trail;
        }
    }

    /// Whether the options of item `i` or of any item of its two options changed since the
    /// last sweep on the path began (`changed_in`, marked by this node's inference and
    /// [`Links::mark_removed_since`]).
    fn changed_near(&self, i: u32) -> bool {
        let epoch = self.scratch.epoch;
        let changed = |k: u32| self.scratch.changed_in[k as usize] == epoch;
        if changed(i) {
            return true;
        }
        let a = self.dance.down(i);
        let b = self.dance.down(a);
        let nodes = &self.scratch.probes.trial_nodes;
        [a, b].into_iter().any(|p| {
            let mut q = trial(nodes, p).right;
            while q != p {
                let TrialNode { item, right, .. } = *trial(nodes, q);
                if item <= self.dance.primary() && changed(item) {
                    return true;
                }
                q = right;
            }
            false
        })
    }

    /// Probes the two options of item `i`; returns the options removed.
    fn probe_pair(&mut self, i: u32) -> u64 {
        let a = self.dance.down(i);
        let b = self.dance.down(a);
        let first = self.next_stamp();
        let fresh_a = !self.known(a);
        let weight_a = match self.probe_unless_known(a, Record::Hidden(first)) {
            Ok(weight) => weight,
            Err(removed) => return removed,
        };
        let second = self.next_stamp();
        let record = if fresh_a {
            Record::Common(first, second)
        } else {
            Record::Hidden(second)
        };
        let weight_b = match self.probe_unless_known(b, record) {
            Ok(weight) => weight,
            Err(removed) => return removed,
        };
        let score = (weight_a + 1).saturating_mul(weight_b + 1);
        self.scratch.probes.records.push((i, score));
        if score > self.scratch.probes.best.score {
            self.scratch.probes.best = ProbedBranch {
                item: i,
                score,
                reverse: weight_b < weight_a,
            };
        }
        let common = std::mem::take(&mut self.scratch.probes.common);
        let mut removed = common.len() as u64;
        for &r in &common {
            self.remove_and_requeue(r);
        }
        self.scratch.probes.common = common;
        self.scratch.probes.common.clear();
        if removed > 0 {
            removed += self.drain();
        }
        removed
    }

    /// The weight of the option of node `p` when probed (as noted in this sweep, else by
    /// probing it now: how much its moves narrowed the other items, [`NARROWING`]); `Err`
    /// with the options removed when it fails (it, and what the rules then find).
    fn probe_unless_known(&mut self, p: u32, record: Record) -> Result<u64, u64> {
        if self.known(p) {
            return Ok(self.scratch.probes.weight[p as usize]);
        }
        match self.probe_option(p, record) {
            Some(weight) => {
                self.note_probed(p, weight);
                Ok(weight)
            }
            None => {
                self.remove_and_requeue(p);
                Err(1 + self.drain())
            }
        }
    }

    /// Whether the option of node `p` was probed without failing in this sweep.
    fn known(&self, p: u32) -> bool {
        trial(&self.scratch.probes.trial_nodes, p).known == self.scratch.probes.sweep
    }

    /// Notes that the option of node `p` was probed without failing, with weight `weight`.
    fn note_probed(&mut self, p: u32, weight: u64) {
        let mut q = p;
        loop {
            let node = trial_mut(&mut self.scratch.probes.trial_nodes, q);
            node.known = self.scratch.probes.sweep;
            self.scratch.probes.weight[q as usize] = weight;
            q = node.right;
            if q == p {
                break;
            }
        }
    }

    /// A fresh stamp for marking options, distinct from every stamp in the trial nodes and
    /// items.
    fn next_stamp(&mut self) -> u32 {
        if self.scratch.probes.stamp == u32::MAX {
            let probes = &mut self.scratch.probes;
            probes.trial_nodes.iter_mut().for_each(|n| n.stamp = 0);
            probes.trial_items.fill(TrialItem::default());
            probes.stamp = 0;
        }
        self.scratch.probes.stamp += 1;
        self.scratch.probes.stamp
    }

    /// Whether choosing the option of node `p` leads, by forced moves alone, to an item with
    /// no option (`None`), else how much those moves narrowed the other items (the sum of
    /// [`NARROWING`] over the options they hid and their items); records the options they
    /// hid as `record` says. Leaves the links as they were.
    fn probe_option(&mut self, p: u32, record: Record) -> Option<u64> {
        match record {
            Record::Hidden(_) => self.probe_option_with::<STAMP>(p, record),
            Record::Common(..) => self.probe_option_with::<COLLECT>(p, record),
        }
    }

    fn probe_option_with<const MODE: u8>(&mut self, p: u32, record: Record) -> Option<u64> {
        // This probe's stamp marks the options it chose or hid, and its items' counts.
        let (stamp, first) = match record {
            Record::Hidden(stamp) => (stamp, 0),
            Record::Common(first, second) => (second, first),
        };
        let mut pending = std::mem::take(&mut self.scratch.probes.pending);
        let mut forced = std::mem::take(&mut self.scratch.probes.forced);
        forced.push(p);
        let mut narrowed = self.probe_choose::<MODE>(p, stamp, first, &mut pending);
        let failed = loop {
            match self.next_move(stamp, &mut pending) {
                Next::Forced(x) => {
                    forced.push(x);
                    narrowed += self.probe_choose::<MODE>(x, stamp, first, &mut pending);
                }
                Next::Narrowed(k) => {
                    narrowed += self.probe_imply::<MODE>(k, stamp, first, &mut pending);
                }
                Next::Failed => break true,
                Next::Settled => break false,
            }
        };
        pending.units.clear();
        pending.pairs.clear();
        self.scratch.probes.pending = pending;
        // The chosen options are not excluded by this choice.
        let chosen_mark = match record {
            Record::Hidden(_) => 0,
            Record::Common(_, second) => second,
        };
        for &x in &forced {
            self.stamp_option(x, chosen_mark);
        }
        forced.clear();
        self.scratch.probes.forced = forced;
        if failed {
            self.scratch.probes.common.clear();
        }
        (!failed).then_some(narrowed)
    }

    /// The next move of a probe with stamp `stamp`, from the items it queued on `pending`:
    /// forced moves first, then the implication rule on the items left with two options.
    fn next_move(&self, stamp: u32, pending: &mut Pending) -> Next {
        let probes = &self.scratch.probes;
        while let Some(k) = pending.units.pop() {
            // The probe counted `k` (it queued it), so the count is this probe's.
            let item = trial(&probes.trial_items, k);
            if item.count == TrialItem::COVERED {
                continue;
            }
            if item.count == 0 {
                return Next::Failed;
            }
            // One option of `k` is not stamped: the probe's move.
            let mut r = self.dance.down(k);
            while trial(&probes.trial_nodes, r).stamp == stamp {
                r = self.dance.down(r);
            }
            return Next::Forced(r);
        }
        while let Some(k) = pending.pairs.pop() {
            if trial(&probes.trial_items, k).count == 2 {
                return Next::Narrowed(k);
            }
        }
        Next::Settled
    }

    /// Chooses the option of node `x` in a probe with stamp `stamp`, without touching the
    /// links: its items are marked covered and every other live option through them is
    /// hidden ([`Links::probe_hide`]). Returns how much that narrowed the other items.
    fn probe_choose<const MODE: u8>(
        &mut self,
        x: u32,
        stamp: u32,
        first: u32,
        pending: &mut Pending,
    ) -> u64 {
        self.stamp_option(x, stamp);
        let mut narrowed = 0;
        let mut c = x;
        loop {
            let TrialNode { item: j, right, .. } = *trial(&self.scratch.probes.trial_nodes, c);
            // A colour: only the options that give the item another colour, or none, go
            // (the item stays open to the options of the same colour). An item whose colour
            // is settled changes nothing.
            let alone = self.dance.claims_alone(c);
            if alone {
                *trial_mut(&mut self.scratch.probes.trial_items, j) = TrialItem {
                    stamp,
                    count: TrialItem::COVERED,
                };
            }
            if alone || !self.dance.purified(c) {
                let mut r = self.dance.down(j);
                while r != j {
                    if trial(&self.scratch.probes.trial_nodes, r).stamp != stamp
                        && (alone || self.dance.clash(c, r))
                    {
                        narrowed += self.probe_hide::<MODE>(r, stamp, first, pending);
                    }
                    r = self.dance.down(r);
                }
            }
            c = right;
            if c == x {
                break;
            }
        }
        narrowed
    }

    /// The implication rule inside a probe with stamp `stamp`, for item `k` left with two
    /// live options: every other live option through an item of both is hidden (Sudoku:
    /// locked candidates found along the probe's chain). Returns how much that narrowed the
    /// other items. Probes that follow forced moves alone miss these, and the rule pays for
    /// itself; taking items left with three options as well did not (`docs/design/probing.md`).
    fn probe_imply<const MODE: u8>(
        &mut self,
        k: u32,
        stamp: u32,
        first: u32,
        pending: &mut Pending,
    ) -> u64 {
        let stamped =
            |links: &Links, x: u32| trial(&links.scratch.probes.trial_nodes, x).stamp == stamp;
        let mut a = self.dance.down(k);
        while stamped(self, a) {
            a = self.dance.down(a);
        }
        let mut b = self.dance.down(a);
        while stamped(self, b) {
            b = self.dance.down(b);
        }
        let mut narrowed = 0;
        let mut in_a = trial(&self.scratch.probes.trial_nodes, a).right;
        while in_a != a {
            let nodes = &self.scratch.probes.trial_nodes;
            let TrialNode { item: j, right, .. } = *trial(nodes, in_a);
            let mut in_b = trial(nodes, b).right;
            while in_b != b && trial(nodes, in_b).item != j {
                in_b = trial(nodes, in_b).right;
            }
            if in_b != b && !self.dance.purified(in_a) {
                // Whichever of the two covers `k` covers `j` (or gives it its colour).
                let mut r = self.dance.down(j);
                while r != j {
                    if r != in_a
                        && r != in_b
                        && !stamped(self, r)
                        && self.dance.clash(in_a, r)
                        && self.dance.clash(in_b, r)
                    {
                        narrowed += self.probe_hide::<MODE>(r, stamp, first, pending);
                    }
                    r = self.dance.down(r);
                }
            }
            in_a = right;
        }
        narrowed
    }

    /// Hides the live option of node `r` in a probe with stamp `stamp`, without touching the
    /// links: stamps its nodes (collecting it into `common` with `COLLECT` if it bears
    /// `first`) and lowers the counts of its uncovered items, queueing each primary item left
    /// with two options or fewer. Returns the sum of [`NARROWING`] over the primary items it
    /// lowered, by what each has left.
    #[inline(always)]
    fn probe_hide<const MODE: u8>(
        &mut self,
        r: u32,
        stamp: u32,
        first: u32,
        pending: &mut Pending,
    ) -> u64 {
        let most_shared = &self.scratch.most_shared;
        let probes = &mut self.scratch.probes;
        if MODE == COLLECT && trial(&probes.trial_nodes, r).stamp == first {
            probes.common.push(r);
        }
        // Every node of the option, `r`'s own item too when it is not covered.
        let mut narrowed = 0;
        let mut s = r;
        loop {
            let node = trial_mut(&mut probes.trial_nodes, s);
            node.stamp = stamp;
            let TrialNode { item: k, right, .. } = *node;
            let item = trial_mut(&mut probes.trial_items, k);
            if !item.covered_in(stamp) {
                let left = if item.stamp == stamp {
                    item.count
                } else {
                    item.stamp = stamp;
                    self.dance.top(k)
                } - 1;
                item.count = left;
                if k <= self.dance.primary() {
                    narrowed += NARROWING[(left as usize).min(NARROWING.len() - 1)];
                    if left <= 1 {
                        pending.units.push(k);
                    } else if left == 2 && most_shared[k as usize] >= 2 {
                        pending.pairs.push(k);
                    }
                }
            }
            s = right;
            if s == r {
                break;
            }
        }
        narrowed
    }

    /// Gives every node of the option of node `x` the stamp `mark`.
    fn stamp_option(&mut self, x: u32, mark: u32) {
        let mut q = x;
        loop {
            let node = trial_mut(&mut self.scratch.probes.trial_nodes, q);
            node.stamp = mark;
            q = node.right;
            if q == x {
                break;
            }
        }
    }
}

/// The trial node or item at index `i`, a node or item index of the links. Bounds-checked:
/// the trial arrays are sized when a sweep first runs, apart from the links whose invariant
/// `Links::new` checks, and the checks cost nothing measurable (`docs/design/probing.md`).
#[inline(always)]
fn trial<T>(array: &[T], i: u32) -> &T {
    &array[i as usize]
}

/// [`trial`], to change.
#[inline(always)]
fn trial_mut<T>(array: &mut [T], i: u32) -> &mut T {
    &mut array[i as usize]
}
