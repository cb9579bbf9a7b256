//! Probing: the strongest inference of the engine, for searches that plain rules leave lost.
//!
//! At a branch point, each of the two options of every primary item with two options is
//! tried in turn: chosen, then the forced moves it leads to followed (an item left with one
//! option takes it) until none is left. An option whose moves leave some item with no option
//! is in no solution (a *failed* option, Sudoku's contradiction by singles) and is removed; an
//! option hidden by the moves of both options of the item is in no solution either, since one
//! of the two covers the item (Sudoku's forcing chains from a bivalue cell). Removals go onto
//! the trail of `inference.rs` and are put back when the search leaves the level. One sweep
//! over the items per branch point: sweeping again until nothing changes found a little more
//! and cost more (measured on the sparse 25x25 puzzles of `../shared/data/large-hard`).
//!
//! The sweep also chooses where the search branches: among the items with two options, the
//! one whose two options hid the most links when tried (the product), as look-ahead SAT
//! solvers do. On those sparse puzzles this cut the branch points from over 8,000 in 20 s
//! without an answer to 648 and 2,821, uniqueness proved.
//!
//! A probe follows forced moves without scanning every item: its covers queue each primary
//! item whose length drops to one or zero. A probe's result holds until the next removal
//! (the epoch), so an option met through two of its items is tried once.
//!
//! This file is a child of `links.rs` and shares its invariant: every node index it uses is
//! a stored link or a step along an option's `right` cycle.

use super::Links;

/// What a probe records of the options its moves hid (besides its chosen options).
#[derive(Debug, Clone, Copy)]
enum Record {
    /// Stamp them with the given stamp.
    Hidden(u32),
    /// Collect into `common` those that bear the first stamp; the chosen options get the
    /// second.
    Common(u32, u32),
}

/// [`Links::probe_cover`] stamps what it hides.
const STAMP: u8 = 0;
/// [`Links::probe_cover`] collects what it hides that bears a stamp.
const COLLECT: u8 = 1;

/// Scratch arrays of probing, allocated when a search first probes.
#[derive(Debug, Clone)]
pub(crate) struct Scratch {
    /// The number of nodes: the length of the per-node arrays below, which are allocated
    /// when a search first probes.
    nodes: usize,
    /// Per node: the stamp of the last probe that recorded its option as hidden.
    stamps: Vec<u32>,
    /// The last stamp given out.
    stamp: u32,
    /// The option being probed and the forced moves it led to.
    forced: Vec<u32>,
    /// Primary items left with one option or none by the probe's moves.
    units: Vec<u32>,
    /// Options hidden by both probes of a pair, one node of each.
    common: Vec<u32>,
    /// The item with two options whose options hid the most links when probed (the
    /// product), and that product: where the search branches best.
    pub(super) best: (u32, u64),
    /// Per node: the epoch in which its option was last probed without failing.
    known: Vec<u64>,
    /// Per node: the links its option's probe hid then.
    weight: Vec<u64>,
    /// Counts removals: a probe's result holds while the epoch is the same.
    pub(super) epoch: u64,
}

impl Scratch {
    pub fn new(nodes: usize) -> Scratch {
        Scratch {
            nodes,
            stamps: Vec::new(),
            stamp: 0,
            forced: Vec::new(),
            units: Vec::new(),
            common: Vec::new(),
            best: (0, 0),
            known: Vec::new(),
            weight: Vec::new(),
            epoch: 1,
        }
    }
}

impl Links {
    /// The item with two options that the last sweep, at this node, found best to branch
    /// on, if it has two options still.
    pub(super) fn probed_branch(&self) -> Option<u32> {
        let best = self.scratch.probes.best.0;
        (best != 0 && Self::get(&self.top, best) == 2).then_some(best)
    }

    /// Whether some active primary item has no option left.
    pub(super) fn dead_end(&self) -> bool {
        self.fewest_options().1 == 0
    }

    /// Failed options and common consequences, on every primary item `i` with two options
    /// `a` and `b`: each is tried, following the forced moves it leads to. One that leaves
    /// some item with no option is in no solution and is removed; an option that both trials
    /// hid is in no solution either (whichever of `a` and `b` covers `i` excludes it). After
    /// removals the rules run again. Sweeps until a sweep removes nothing; returns the
    /// options removed.
    pub(super) fn probe(&mut self) -> u64 {
        let nodes = self.scratch.probes.nodes;
        if self.scratch.probes.stamps.len() != nodes {
            self.scratch.probes.stamps = vec![0; nodes];
            self.scratch.probes.known = vec![0; nodes];
            self.scratch.probes.weight = vec![0; nodes];
        }
        // The links are not those of the last probes.
        self.scratch.probes.epoch += 1;
        self.scratch.probes.best = (0, 0);
        let mut removed = 0;
        let mut i = self.item(0).next;
        while i != 0 && i <= self.primary {
            if Self::get(&self.top, i) == 2 {
                let removals = self.probe_pair(i);
                removed += removals;
                if removals > 0 && self.dead_end() {
                    break;
                }
            }
            i = self.item(i).next;
        }
        removed
    }

    /// Probes the two options of item `i`; returns the options removed.
    fn probe_pair(&mut self, i: u32) -> u64 {
        let a = self.down(i);
        let b = self.down(a);
        let first = self.next_stamp();
        let fresh_a = self.scratch.probes.known[a as usize] != self.scratch.probes.epoch;
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
        let score = (weight_a + 1) * (weight_b + 1);
        if score > self.scratch.probes.best.1 {
            self.scratch.probes.best = (i, score);
        }
        let common = std::mem::take(&mut self.scratch.probes.common);
        let mut removed = common.len() as u64;
        for &r in &common {
            self.remove_and_requeue(r);
        }
        self.scratch.probes.common = common;
        self.scratch.probes.common.clear();
        if removed > 0 {
            removed += self.settle();
        }
        removed
    }

    /// The links the option of node `p` hides when probed (as noted in this epoch, else by
    /// probing it now); `Err` with the options removed when it fails (it, and what the rules
    /// then find).
    fn probe_unless_known(&mut self, p: u32, record: Record) -> Result<u64, u64> {
        if self.scratch.probes.known[p as usize] == self.scratch.probes.epoch {
            return Ok(self.scratch.probes.weight[p as usize]);
        }
        match self.probe_option(p, record) {
            Some(weight) => {
                self.note_probed(p, weight);
                Ok(weight)
            }
            None => {
                self.remove_and_requeue(p);
                Err(1 + self.settle())
            }
        }
    }

    /// Notes that the option of node `p` was probed without failing, hiding `weight` links.
    fn note_probed(&mut self, p: u32, weight: u64) {
        let mut q = p;
        loop {
            self.scratch.probes.known[q as usize] = self.scratch.probes.epoch;
            self.scratch.probes.weight[q as usize] = weight;
            q = Self::get(&self.right, q);
            if q == p {
                break;
            }
        }
    }

    /// A fresh stamp for marking options, distinct from every stamp in `scratch.stamps`.
    fn next_stamp(&mut self) -> u32 {
        if self.scratch.probes.stamp == u32::MAX {
            self.scratch.probes.stamps.fill(0);
            self.scratch.probes.stamp = 0;
        }
        self.scratch.probes.stamp += 1;
        self.scratch.probes.stamp
    }

    /// Whether choosing the option of node `p` leads, by forced moves alone, to an item with
    /// no option (`None`), else how many links those moves hid; records the options they
    /// hid as `record` says. Leaves the links as they were.
    fn probe_option(&mut self, p: u32, record: Record) -> Option<u64> {
        match record {
            Record::Hidden(_) => self.probe_option_with::<STAMP>(p, record),
            Record::Common(..) => self.probe_option_with::<COLLECT>(p, record),
        }
    }

    fn probe_option_with<const MODE: u8>(&mut self, p: u32, record: Record) -> Option<u64> {
        let i = self.top(p);
        let mut units = std::mem::take(&mut self.scratch.probes.units);
        let mut forced = std::mem::take(&mut self.scratch.probes.forced);
        let mut hidden = self.probe_cover::<MODE>(i, &mut units, record);
        hidden += self.probe_cover_others::<MODE>(p, &mut units, record);
        forced.push(p);
        let mut failed = false;
        while let Some(item) = units.pop() {
            let len = Self::get(&self.top, item);
            if len == 0 {
                failed = true;
                break;
            }
            if len != 1 {
                // Covered since it was queued (its length carries the covered bit).
                continue;
            }
            let x = self.down(item);
            hidden += self.probe_cover::<MODE>(item, &mut units, record);
            hidden += self.probe_cover_others::<MODE>(x, &mut units, record);
            forced.push(x);
        }
        units.clear();
        self.scratch.probes.units = units;
        // Covering hid the chosen options too: they are not excluded by this choice.
        let chosen_mark = match record {
            Record::Hidden(_) => 0,
            Record::Common(_, second) => second,
        };
        for &x in &forced {
            self.stamp_option(x, chosen_mark);
        }
        if let Record::Common(first, _) = record {
            let stamps = &self.scratch.probes.stamps;
            self.scratch
                .probes
                .common
                .retain(|&r| !failed && stamps[r as usize] == first);
        }
        while let Some(x) = forced.pop() {
            self.uncover_others::<false>(x);
            self.uncover::<false>(self.top(x));
        }
        self.scratch.probes.forced = forced;
        (!failed).then_some(hidden)
    }

    /// Gives every node of the option of node `x` the stamp `mark`.
    fn stamp_option(&mut self, x: u32, mark: u32) {
        let mut q = x;
        loop {
            self.scratch.probes.stamps[q as usize] = mark;
            q = Self::get(&self.right, q);
            if q == x {
                break;
            }
        }
    }

    /// [`Links::cover`] for a probe (no colours), queueing onto `units` every primary item
    /// left with one option or none, and recording each option it hides: with `STAMP`, every
    /// node of it gets the stamp of `record`; with `COLLECT`, it is collected into
    /// `common` if it bears the first stamp of `record`.
    fn probe_cover<const MODE: u8>(&mut self, i: u32, units: &mut Vec<u32>, record: Record) -> u64 {
        let (stamp, first) = match record {
            Record::Hidden(stamp) => (stamp, 0),
            Record::Common(first, _) => (0, first),
        };
        let mut hidden = 0;
        let mut p = self.down(i);
        while p != i {
            if MODE == STAMP {
                self.scratch.probes.stamps[p as usize] = stamp;
            } else if self.scratch.probes.stamps[p as usize] == first {
                self.scratch.probes.common.push(p);
            }
            let mut q = Self::get(&self.right, p);
            while q != p {
                if MODE == STAMP {
                    self.scratch.probes.stamps[q as usize] = stamp;
                }
                let (up, down) = (Self::get(&self.up, q), Self::get(&self.down, q));
                *Self::set(&mut self.down, up) = down;
                *Self::set(&mut self.up, down) = up;
                let item = Self::get(&self.top, q);
                let len = Self::set(&mut self.top, item);
                *len -= 1;
                if *len <= 1 && item <= self.primary {
                    units.push(item);
                }
                hidden += 1;
                q = Self::get(&self.right, q);
            }
            p = self.down(p);
        }
        self.unlink_item(i);
        hidden
    }

    /// [`Links::cover_others`] for a probe, as [`Links::probe_cover`].
    fn probe_cover_others<const MODE: u8>(
        &mut self,
        x: u32,
        units: &mut Vec<u32>,
        record: Record,
    ) -> u64 {
        let mut hidden = 0;
        let mut p = Self::get(&self.right, x);
        while p != x {
            hidden += self.probe_cover::<MODE>(self.top(p), units, record);
            p = Self::get(&self.right, p);
        }
        hidden
    }
}
