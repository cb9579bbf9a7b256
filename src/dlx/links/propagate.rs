//! The sums and chains of a problem inside the search: where the search branches, each sum
//! reads which of its options are still possible, asks its filter (`../sums.rs`) which values
//! some way of meeting it still allows, and removes the options of the others as inference
//! removes options (on the trail, put back when the search leaves the level). A chain
//! (`../chains.rs`) is filtered alike, its filter keeping the values some whole path of its
//! machine reads; below, "sum" stands for either.
//!
//! An option is possible while it is chosen or still open. The chosen ones are those on the
//! path (marked for the filtering from the chosen options and the stack), since a chosen
//! option keeps only the node of its branch item linked, as an option that another choice
//! hid does. An open option's first item is active and its first node linked: an option hid
//! through another of its items, or removed, has its first node out of its column, and one
//! hid through its first item has that item covered. With colours a node in the column of an
//! item whose colour is settled stays linked when its option is hidden, so an option is read
//! at the node of its first primary item instead (every option the matrix keeps has one, and
//! primary items have no colours).
//!
//! Safe code: it reads the links through the accessors of `dance.rs`.

use super::super::chains::{ChainFilter, ChainScratch};
use super::super::sums::{FilterScratch, FilterTerm, SumFilter};
use super::Links;

/// What a sum or a chain keeps of its terms' values: both are filtered here alike.
#[derive(Debug, Clone)]
pub(crate) enum Filter {
    Sum(SumFilter),
    Chain(ChainFilter),
}

impl Filter {
    /// The terms, each with its values and the value of each of its options.
    fn terms(&self) -> &[FilterTerm] {
        match self {
            Filter::Sum(sum) => &sum.terms,
            Filter::Chain(chain) => &chain.terms,
        }
    }

    /// Whether one filtering leaves the constraint at its fixpoint, where no option is in two
    /// of its terms: a chain's passes keep only values on whole paths, each of which keeps
    /// every value it reads.
    fn exact_in_one_pass(&self) -> bool {
        match self {
            Filter::Sum(sum) => sum.exact_in_one_pass(),
            Filter::Chain(_) => true,
        }
    }
}

/// A sum or a chain compiled against the matrix: its filter, and for each term the first node
/// of each of its options (0 for an option the matrix dropped, which is never possible).
#[derive(Debug, Clone)]
pub(crate) struct NodeSum {
    pub filter: Filter,
    pub nodes: Vec<Vec<u32>>,
    /// The sum's excluded options: first node, and the bit of the value that excludes it.
    pub excluded: Vec<(u32, u8)>,
}

/// How many filterings each sum remembers at most.
const REMEMBERED: usize = 64;

/// The most words all sums' memories take together (32 MiB): a problem with many large sums
/// remembers fewer filterings of each, down to one.
const MAX_REMEMBERED_WORDS: usize = 1 << 22;

/// The entry, among `ways`, of [`Scratch::remembered`] for `domains`: a multiplicative hash
/// of them.
fn remembered_entry(domains: &[u64], ways: usize) -> usize {
    let mut hash = 0u64;
    for &domain in domains {
        hash = (hash ^ domain).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    (hash >> 32) as usize % ways
}

/// Scratch space of the sums' filtering, reused from node to node.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    filter: FilterScratch,
    chain: ChainScratch,
    domains: Vec<u64>,
    support: Vec<u64>,
    /// A bit per node: the first nodes of the options on the path.
    chosen: Vec<u64>,
    /// Those first nodes, marked in `chosen` while the sums are filtered.
    path: Vec<u32>,
    /// With colours: per option's first node, the node of its first primary item, which
    /// tells whether it is open (see [`Links::possible`]); else empty.
    witness: Vec<u32>,
    /// Per sum, its filterings remembered: [`REMEMBERED`] entries, each a word holding the
    /// values every way uses (bit 32 set while the entry holds something), then the domains
    /// the sum was given, then what it kept, one word a term each. A search meets the same
    /// domains again and again (the sums a choice did not touch, each pass of the fixpoint
    /// after the first, the nodes a backtrack returns to), and filtering is a function of
    /// them alone; an entry is found by a hash of the domains.
    remembered: Vec<Vec<u64>>,
    /// How many filterings each sum remembers: [`REMEMBERED`], or fewer within
    /// [`MAX_REMEMBERED_WORDS`].
    ways: usize,
    /// The sums each option's first node is a term of: `sum_list[sums_of[x]..sums_of[x + 1]]`.
    sums_of: Vec<u32>,
    sum_list: Vec<u32>,
    /// The sums to filter, and whether each is waiting.
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// The options the sum being filtered cannot keep.
    doomed: Vec<u32>,
    /// Per sum, whether its filter is exact in one pass (`SumFilter::exact_in_one_pass`) and
    /// no option is in two of its terms or among its excluded options: its filtering then
    /// leaves it at its fixpoint, and its own removals need not queue it again.
    settles_itself: Vec<bool>,
}

/// Where the sums were last filtered to a fixpoint on the path to a node: the length of the
/// trail then, and the level whose choice came next. A sum none of whose options was removed
/// or hidden since is at its fixpoint still.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SumsSeen {
    pub trail: u32,
    pub level: u32,
}

impl Scratch {
    /// Queues the sums the option of first node `x` is a term of, each once.
    fn queue_sums_of(&mut self, x: u32) {
        let (from, to) = (self.sums_of[x as usize], self.sums_of[x as usize + 1]);
        for &s in &self.sum_list[from as usize..to as usize] {
            if !std::mem::replace(&mut self.queued[s as usize], true) {
                self.queue.push(s);
            }
        }
    }

    /// Sizes the scratch space for `sums` over `nodes` nodes.
    fn prepare(&mut self, sums: &[NodeSum], nodes: usize) {
        let words: usize = sums.iter().map(|sum| 1 + 2 * sum.nodes.len()).sum();
        self.ways = (MAX_REMEMBERED_WORDS / words.max(1)).clamp(1, REMEMBERED);
        self.remembered = sums
            .iter()
            .map(|sum| vec![0; self.ways * (1 + 2 * sum.nodes.len())])
            .collect();
        self.chosen = vec![0; nodes.div_ceil(64)];
        self.queued = vec![false; sums.len()];
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for (s, sum) in sums.iter().enumerate() {
            for &x in sum.nodes.iter().flatten() {
                pairs.push((x, s as u32));
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        self.sums_of = vec![0; nodes + 1];
        for &(x, _) in &pairs {
            self.sums_of[x as usize + 1] += 1;
        }
        for x in 0..nodes {
            self.sums_of[x + 1] += self.sums_of[x];
        }
        self.sum_list = pairs.into_iter().map(|(_, s)| s).collect();
        self.settles_itself = sums
            .iter()
            .map(|sum| {
                let mut nodes: Vec<u32> = sum.nodes.iter().flatten().copied().collect();
                nodes.extend(sum.excluded.iter().map(|&(x, _)| x));
                nodes.retain(|&x| x != 0);
                let all = nodes.len();
                nodes.sort_unstable();
                nodes.dedup();
                nodes.len() == all && sum.filter.exact_in_one_pass()
            })
            .collect();
    }
}

impl Links {
    /// Whether the option whose first node is `x` is chosen (marked in `chosen`) or still open
    /// (module documentation; with colours, read at its node in `witness`).
    #[inline(always)]
    fn possible<const C: bool>(&self, chosen: &[u64], witness: &[u32], x: u32) -> bool {
        if x == 0 {
            return false;
        }
        if chosen[x as usize / 64] & 1 << (x % 64) != 0 {
            return true;
        }
        if C {
            // A first node in the column of an item whose colour is settled stays linked
            // when its option is hidden; a primary item's node never does.
            return self.dance.is_live(witness[x as usize]);
        }
        self.dance.is_live(x)
    }

    /// Into `domains`, each term of `sum`'s values still possible, a bit each (`C`: the
    /// problem has colours, and `witness` is [`Scratch::witness`]).
    #[inline(always)]
    fn read_domains<const C: bool>(
        &self,
        sum: &NodeSum,
        chosen: &[u64],
        witness: &[u32],
        domains: &mut Vec<u64>,
    ) {
        for (term, nodes) in sum.filter.terms().iter().zip(&sum.nodes) {
            let mut domain = 0u64;
            for (&x, &value) in nodes.iter().zip(&term.value_of) {
                if self.possible::<C>(chosen, witness, x) {
                    domain |= 1 << value;
                }
            }
            domains.push(domain);
        }
    }

    /// With colours, fills [`Scratch::witness`] for the options of the sums.
    fn find_witnesses(&self, scratch: &mut Scratch, sums: &[NodeSum]) {
        scratch.witness = vec![0; self.dance.node_count()];
        let firsts = sums.iter().flat_map(|sum| {
            sum.nodes
                .iter()
                .flatten()
                .chain(sum.excluded.iter().map(|(x, _)| x))
        });
        for &x in firsts.filter(|&&x| x != 0) {
            // Every option the matrix keeps holds a primary item.
            let mut q = x;
            while self.dance.top(q) > self.dance.primary() {
                q = self.dance.right(q);
            }
            scratch.witness[x as usize] = q;
        }
    }

    /// Filters the sums, then again each sum that an option removed belongs to, until none
    /// removes anything or one finds the node dead (`scratch.dead`). Without `since`, every
    /// sum; with it, only the sums that may have changed since they were last filtered to a
    /// fixpoint on the path to the node ([`SumsSeen`]): those of the options removed since the
    /// trail had that length, and of the options the choices from that level on hid. With
    /// `requeue` (the inference rules run here) the items of each option removed are queued
    /// for the rules. Returns the options removed.
    pub(super) fn filter_by_sums(
        &mut self,
        level: usize,
        requeue: bool,
        since: Option<SumsSeen>,
    ) -> u64 {
        let sums = std::sync::Arc::clone(&self.sums);
        let mut scratch = std::mem::take(&mut self.sum_scratch);
        if scratch.remembered.len() != sums.len() {
            scratch.prepare(&sums, self.dance.node_count());
            if self.dance.colored() {
                self.find_witnesses(&mut scratch, &sums);
            }
        }
        scratch.path.clear();
        scratch.path.extend_from_slice(&self.chosen);
        for &x in &self.stack[..level] {
            scratch.path.push(self.dance.first_node(x));
        }
        for &x in &scratch.path {
            scratch.chosen[x as usize / 64] |= 1 << (x % 64);
        }
        let mut removed = 0;
        scratch.queue.clear();
        match since {
            None => {
                scratch.queue.extend(0..sums.len() as u32);
                scratch.queued.fill(true);
            }
            Some(seen) => {
                for k in seen.trail as usize..self.trail.len() {
                    scratch.queue_sums_of(self.dance.first_node(self.trail[k]));
                }
                // A choice hides the options through its items: each item's column keeps
                // them linked while the item is covered.
                for k in seen.level as usize..level {
                    let chosen = self.stack[k];
                    let mut q = chosen;
                    loop {
                        let item = self.dance.top(q);
                        let mut x = self.dance.down(item);
                        while x != item {
                            scratch.queue_sums_of(self.dance.first_node(x));
                            x = self.dance.down(x);
                        }
                        q = self.dance.right(q);
                        if q == chosen {
                            break;
                        }
                    }
                }
            }
        }
        let mut next = 0;
        // The sum whose own removals are being made while it counts as queued.
        let mut held = None;
        'fixpoint: while next < scratch.queue.len() {
            let s = scratch.queue[next] as usize;
            next += 1;
            scratch.queued[s] = false;
            let sum = &sums[s];
            scratch.domains.clear();
            if self.dance.colored() {
                self.read_domains::<true>(
                    sum,
                    &scratch.chosen,
                    &scratch.witness,
                    &mut scratch.domains,
                );
            } else {
                self.read_domains::<false>(sum, &scratch.chosen, &[], &mut scratch.domains);
            }
            let terms = scratch.domains.len();
            let entry = remembered_entry(&scratch.domains, scratch.ways);
            let remembered = &mut scratch.remembered[s][entry * (1 + 2 * terms)..][..1 + 2 * terms];
            if remembered[0] & 1 << 32 == 0 || remembered[1..=terms] != scratch.domains[..] {
                let mut required = 0;
                match &sum.filter {
                    Filter::Sum(filter) => filter.support(
                        &scratch.domains,
                        &mut scratch.filter,
                        &mut scratch.support,
                        &mut required,
                    ),
                    Filter::Chain(filter) => {
                        filter.support(&scratch.domains, &mut scratch.chain, &mut scratch.support)
                    }
                };
                remembered[0] = 1 << 32 | u64::from(required);
                remembered[1..=terms].copy_from_slice(&scratch.domains);
                remembered[1 + terms..].copy_from_slice(&scratch.support);
            } else {
                scratch.support.clear();
                scratch.support.extend_from_slice(&remembered[1 + terms..]);
            }
            let required = remembered[0] as u32;
            if scratch.support.contains(&0) {
                self.conflict_at_sum(s);
                self.scratch.dead = true;
                break 'fixpoint;
            }
            // While its own removals are made, the sum counts as queued where they cannot
            // unsettle it. Not where the rules run too: there the order of the filterings
            // changes which sum meets a dead end first, and so the conflicts' weights; on
            // killers that cost more than the filterings saved (`docs/sums.md`).
            let holds_itself = !requeue && scratch.settles_itself[s];
            if holds_itself {
                scratch.queued[s] = true;
                held = Some(s);
            }
            scratch.doomed.clear();
            for (t, (term, nodes)) in sum.filter.terms().iter().zip(&sum.nodes).enumerate() {
                let kept = scratch.support[t];
                if scratch.domains[t] == kept {
                    continue;
                }
                for (&x, &value) in nodes.iter().zip(&term.value_of) {
                    if kept & 1 << value == 0 {
                        scratch.doomed.push(x);
                    }
                }
            }
            for &(x, bit) in &sum.excluded {
                if required & 1 << bit != 0 {
                    scratch.doomed.push(x);
                }
            }
            for d in 0..scratch.doomed.len() {
                let x = scratch.doomed[d];
                let open = if self.dance.colored() {
                    self.possible::<true>(&scratch.chosen, &scratch.witness, x)
                } else {
                    self.possible::<false>(&scratch.chosen, &[], x)
                };
                if !open {
                    continue;
                }
                if scratch.chosen[x as usize / 64] & 1 << (x % 64) != 0 {
                    // A chosen option that the sum cannot keep.
                    self.conflict_at_sum(s);
                    self.scratch.dead = true;
                    break 'fixpoint;
                }
                removed += 1;
                if requeue {
                    self.remove_and_requeue(x);
                } else {
                    self.remove_option(x);
                    if self.emptied_an_item(x) {
                        self.conflict_at_sum(s);
                        self.scratch.dead = true;
                        break 'fixpoint;
                    }
                }
                scratch.queue_sums_of(x);
            }
            if let Some(s) = held.take() {
                scratch.queued[s] = false;
            }
        }
        // A dead end leaves sums queued, and perhaps the one it met counting as queued: none
        // is waiting for the next filtering.
        for &s in &scratch.queue[next..] {
            scratch.queued[s as usize] = false;
        }
        if let Some(s) = held {
            scratch.queued[s] = false;
        }
        for &x in &scratch.path {
            scratch.chosen[x as usize / 64] = 0;
        }
        self.sum_scratch = scratch;
        removed
    }

    /// Checks that filtering only the sums the path changed reached the fixpoint of them all:
    /// filtering every sum again removes nothing (debug builds).
    #[cfg(debug_assertions)]
    pub(super) fn assert_sums_at_fixpoint(&mut self, level: usize, requeue: bool) {
        let missed = self.filter_by_sums(level, requeue, None);
        debug_assert!(
            missed == 0 && !self.scratch.dead,
            "the sums were not at their fixpoint"
        );
    }

    /// Whether removing the option of node `x` left one of its primary items without options.
    fn emptied_an_item(&self, x: u32) -> bool {
        let mut q = x;
        loop {
            let item = self.dance.top(q);
            if item <= self.dance.primary() && self.dance.top(item) == 0 {
                return true;
            }
            q = self.dance.right(q);
            if q == x {
                return false;
            }
        }
    }
}
