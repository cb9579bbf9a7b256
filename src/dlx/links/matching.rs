//! Hall sets of any size, for the one-to-one blocks a problem declares
//! ([`Problem::add_block`](crate::dlx::Problem::add_block)): the strongest rule of the engine
//! that costs no trial moves.
//!
//! In a block, every option through one of its items holds exactly one item of each side, so
//! the live options through the block are the edges of a bipartite graph between its two
//! sides (their uncovered items), and a solution picks a perfect matching of it. An option
//! that lies in no perfect matching is in no solution. Régin's filtering finds them all at
//! once: take any perfect matching, direct its edges from the second side to the first and
//! every other edge from the first to the second; an unmatched edge lies in some perfect
//! matching exactly when its two ends are in one strongly connected component (an
//! alternating cycle through it). So `k` items of one side whose options reach only `k`
//! items of the other keep those `k` to themselves, for every `k` at once: Sudoku's naked and
//! hidden subsets of any size in rows, columns and boxes, and fish of any size between the
//! rows and columns of a digit; the pair rule of `inference.rs` is the case `k = 2`. When no
//! perfect matching exists the node is dead: the unmatched item's options are removed, so
//! the search sees an item with no option and backtracks.
//!
//! The rule runs after the other rules reach their fixpoint, on the blocks some of whose
//! items those rules examined (their options changed) since the block was last filtered, and
//! the other rules then run on what it removed, until neither finds more (a block whose only
//! change is its own filtering is not filtered again: every edge left of it lies in a
//! perfect matching still). A block is filtered only while at most [`MAX_UNCOVERED`] items
//! of a side are uncovered, so its graph is numbered afresh each time and held in bit sets
//! on the stack: augmenting paths and the components (as a transitive closure, Warshall's)
//! are a few word operations per item. Each block keeps the matching it last found as a
//! hint: most of it still holds at the next node, so few augmenting paths are searched. The
//! hint is only a hint; nothing of it needs restoring.
//!
//! Reading a block's graph from the links (each live option of a first-side item walked to
//! its second-side item) was most of the cost of filtering on large probed searches. So the
//! links can *track* the blocks' edges: per
//! first-side item a bit set of the second-side items it has a live option with, which every
//! hide, removal and their undoing keep in step ([`TrackedEdges`] says which bit each node
//! clears or sets). Filtering then reads a word per item. A search starts tracking after
//! [`TRACK_AFTER`] rounds of filtering, reading the sets from the links once, and goes on
//! tracking across searches until one filters no block or the links are copied back
//! (`chosen.rs`). Measured: `docs/design/matching.md`.
//! Which bit each node carries is worked out once per matrix, when a first search filters
//! its blocks: for an empty 49x49 grid that alone is about a tenth of its 0.2 s solve.
//!
//! Safe code: it reads the links through the accessors of `dance.rs`, and hears of the
//! nodes its moves hide and show as their [`Watch`].

use super::Links;
use crate::dlx::dance::{COVERED, Watch};
use crate::dlx::matrix::Matrix;
use std::sync::Arc;

/// No partner in a matching.
const FREE: u32 = u32::MAX;

/// A block is filtered only while at most this many items of each side are uncovered. Near
/// full, a block's graph has up to its size squared edges and hardly ever a Hall set: filtering
/// every block at every node made an empty 49x49 grid 14 times slower (0.14 s to 2.0 s) and an
/// empty 64x64 one 45 times, for the same tree; from 16 up, the trees of the hard 25x25
/// puzzles measured are as with no limit (`docs/design/matching.md`).
const MAX_UNCOVERED: usize = 16;

/// The links start tracking the blocks' edges after this many rounds of filtering
/// ([`Links::filter_blocks`]) without: tracking costs every hide a few operations, which
/// only a search that filters a lot earns back; a round comes once per search node where
/// probing runs (`docs/design/matching.md`). Debug builds start almost at once, so that the tests,
/// whose problems are small, run tracked and check every tracked graph against the links.
const TRACK_AFTER: u64 = if cfg!(debug_assertions) { 2 } else { 200 };

/// The declared blocks and the scratch arrays of their filtering.
#[derive(Debug, Clone, Default)]
pub(crate) struct Blocks {
    /// Whether the search filters the blocks ([`Blocks::enable`]).
    enabled: bool,
    /// Block `k`'s items: `items[starts[k]..starts[k + 1]]`, the first side then the second.
    items: Vec<u32>,
    starts: Vec<u32>,
    /// Per item: the blocks it belongs to, `of_item[item_starts[i]..item_starts[i + 1]]`.
    of_item: Vec<u32>,
    item_starts: Vec<u32>,
    /// Per block: whether its options changed since it was last filtered on this path (it is
    /// then in `dirty`).
    is_dirty: Vec<bool>,
    dirty: Vec<u32>,
    /// Per block item of the first side (indexed like `items`): its partner (an item of the
    /// second side) in the block's last matching, or [`FREE`].
    hint: Vec<u32>,
    /// Per item: its number among the uncovered second-side items of the block being
    /// filtered, plus one; else 0.
    slot: Vec<u32>,
    /// Per first-side item of a tracked block (indexed like `items`): the second-side items,
    /// by position in their side, that it has a live option with (neither hidden nor
    /// removed). In step with the links only while `tracking`.
    adjacency: Vec<u64>,
    /// Which blocks are tracked and their options' edges, shared by the solvers of a matrix
    /// (empty until [`Blocks::load`]).
    shared: Arc<TrackedEdges>,
    /// Whether `shared` was fetched.
    loaded: bool,
    /// Rounds of filtering while not `tracking`, towards [`TRACK_AFTER`].
    untracked_filters: u64,
    /// Whether the links keep `adjacency` up to date as options are hidden and removed.
    tracking: bool,
}

impl Blocks {
    pub fn new(matrix: &Matrix) -> Blocks {
        let items = matrix.block_items.clone();
        let starts = matrix.block_starts.clone();
        let count = starts.len().saturating_sub(1);
        let item_count = matrix.item_count as usize + 1;
        let mut per_item = vec![0u32; item_count + 1];
        for &i in &items {
            per_item[i as usize + 1] += 1;
        }
        for i in 0..item_count {
            per_item[i + 1] += per_item[i];
        }
        let mut fill = per_item.clone();
        let mut of_item = vec![0; items.len()];
        for k in 0..count {
            for &i in &items[starts[k] as usize..starts[k + 1] as usize] {
                of_item[fill[i as usize] as usize] = k as u32;
                fill[i as usize] += 1;
            }
        }
        Blocks {
            hint: vec![FREE; items.len()],
            is_dirty: vec![false; count],
            slot: if count > 0 {
                vec![0; item_count]
            } else {
                Vec::new()
            },
            items,
            starts,
            of_item,
            item_starts: per_item,
            ..Blocks::default()
        }
    }

    /// Whether the problem declared any block and the search filters them.
    #[inline(always)]
    pub fn any(&self) -> bool {
        self.enabled
    }

    /// Makes the search filter the blocks (if there are any) or not.
    pub fn enable(&mut self, on: bool) {
        self.enabled = on && !self.is_dirty.is_empty();
        self.clear();
    }

    /// Whether item `i` belongs to some block.
    #[inline(always)]
    pub fn holds(&self, i: u32) -> bool {
        self.item_starts[i as usize] != self.item_starts[i as usize + 1]
    }

    /// Marks the blocks of item `i` as changed.
    #[inline(always)]
    pub fn touch(&mut self, i: u32) {
        let range =
            self.item_starts[i as usize] as usize..self.item_starts[i as usize + 1] as usize;
        for &k in &self.of_item[range] {
            if !self.is_dirty[k as usize] {
                self.is_dirty[k as usize] = true;
                self.dirty.push(k);
            }
        }
    }

    /// Takes the edge that node `q` carries (if any) out of the tracked blocks' adjacency: its
    /// option was just hidden or removed, and every node of it comes here. Only while
    /// `tracking`.
    #[inline(always)]
    pub fn hide_edge(&mut self, q: u32) {
        let packed = self.shared.node_edge[q as usize];
        if packed != NO_EDGE {
            let (index, bit) = edge(packed);
            debug_assert!(self.adjacency[index] & bit != 0, "an edge hidden twice");
            self.adjacency[index] &= !bit;
        }
    }

    /// Exactly undoes [`Blocks::hide_edge`].
    #[inline(always)]
    pub fn show_edge(&mut self, q: u32) {
        let packed = self.shared.node_edge[q as usize];
        if packed != NO_EDGE {
            let (index, bit) = edge(packed);
            debug_assert!(self.adjacency[index] & bit == 0, "an edge shown twice");
            self.adjacency[index] |= bit;
        }
    }

    /// Fetches the tracked blocks' edges from `matrix` (computed there on first use), the
    /// first time a search filters blocks.
    pub fn load(&mut self, matrix: &Matrix) {
        if self.enabled && !self.loaded {
            self.shared = Arc::clone(
                matrix
                    .tracked_edges
                    .get_or_init(|| Arc::new(TrackedEdges::new(matrix))),
            );
            if self.shared.any() {
                self.adjacency = vec![0; self.items.len()];
            }
            self.loaded = true;
        }
    }

    /// Whether the links keep the tracked blocks' adjacency up to date.
    #[inline(always)]
    pub fn tracking(&self) -> bool {
        self.tracking
    }

    /// Forgets the changes of block `k`.
    fn forget(&mut self, k: u32) {
        if self.is_dirty[k as usize] {
            self.is_dirty[k as usize] = false;
            if let Some(at) = self.dirty.iter().rposition(|&d| d == k) {
                self.dirty.swap_remove(at);
            }
        }
    }

    /// Forgets every change (at a dead end, where nothing more is filtered).
    pub fn clear(&mut self) {
        while let Some(k) = self.dirty.pop() {
            self.is_dirty[k as usize] = false;
        }
    }
}

/// The blocks whose live edges the links can keep as bit sets as the search goes (a side of
/// at most 64 items, no two options with the same two items of the block), rather than read
/// them from the links each time the block is filtered, and each option's edges in them.
/// Computed once per matrix ([`Matrix`]'s `tracked_edges`) and shared by its solvers.
#[derive(Debug, Default)]
pub(crate) struct TrackedEdges {
    /// Per block: whether it is tracked.
    tracked: Vec<bool>,
    /// Per node: one edge of its option in a tracked block, `index << EDGE_SHIFT | position`
    /// (`index` that of the first-side item in `Blocks::items`, `position` that of the
    /// second-side item in its side), or [`NO_EDGE`]. An option's edges are spread over its
    /// nodes, one each, so that the walk that hides an option meets them in the nodes it
    /// reads anyway (a Sudoku option has four nodes and four edges: its row, column, box and
    /// digit's blocks); a list of edges per option was slower (`docs/design/matching.md`).
    /// Empty when
    /// no block is tracked.
    node_edge: Vec<u32>,
}

/// A node that carries no edge ([`TrackedEdges::node_edge`]).
const NO_EDGE: u32 = u32::MAX;

impl TrackedEdges {
    pub fn new(matrix: &Matrix) -> TrackedEdges {
        let (items, starts) = (&matrix.block_items, &matrix.block_starts);
        let count = starts.len().saturating_sub(1);
        let mut tracked = vec![false; count];
        if items.len() >= 1 << (32 - EDGE_SHIFT) {
            // Indices of block items that a packed edge cannot hold.
            return TrackedEdges::default();
        }
        let options = matrix.option_first.len();
        let mut edge_starts = vec![0u32; options + 1];
        let mut position = vec![u32::MAX; matrix.item_count as usize + 1];
        // Which blocks can be tracked, counting their edges by option (and taking back the
        // counts of a block found not to be).
        for (k, is_tracked) in tracked.iter_mut().enumerate() {
            *is_tracked = block_edges(matrix, k, &mut position, |option, _| {
                edge_starts[option as usize + 1] += 1;
                true
            });
            if !*is_tracked {
                // The same walk stops at the same edge: exactly the counted ones come off.
                block_edges(matrix, k, &mut position, |option, _| {
                    edge_starts[option as usize + 1] -= 1;
                    true
                });
            }
        }
        if !tracked.contains(&true) {
            return TrackedEdges {
                tracked,
                ..TrackedEdges::default()
            };
        }
        for o in 0..options {
            edge_starts[o + 1] = edge_starts[o].saturating_add(edge_starts[o + 1]);
        }
        let mut fill = edge_starts.clone();
        let mut edges = vec![0; edge_starts[options] as usize];
        for (k, _) in tracked.iter().enumerate().filter(|&(_, &t)| t) {
            block_edges(matrix, k, &mut position, |option, edge| {
                edges[fill[option as usize] as usize] = edge;
                fill[option as usize] += 1;
                true
            });
        }
        // Each option's edges onto its nodes, one per node.
        let mut node_edge = vec![NO_EDGE; matrix.nodes.len()];
        for (o, &first) in matrix.option_first.iter().enumerate() {
            let option = &edges[edge_starts[o] as usize..edge_starts[o + 1] as usize];
            for (q, &edge) in (first as usize..).zip(option) {
                if first == 0 || matrix.nodes[q].top == 0 {
                    // More edges than nodes (an option in many blocks): nothing is tracked.
                    return TrackedEdges::default();
                }
                node_edge[q] = edge;
            }
        }
        TrackedEdges { tracked, node_edge }
    }

    /// Whether block `k` is tracked.
    fn tracks(&self, k: usize) -> bool {
        self.tracked.get(k).copied().unwrap_or(false)
    }

    /// Whether any block is tracked.
    fn any(&self) -> bool {
        !self.node_edge.is_empty()
    }
}

/// Calls `each` with the problem option and the edge (as in [`TrackedEdges`]) of every
/// option of block `k`, from the matrix as built, while it returns true; returns whether the
/// block can be tracked (and `each` never said stop). `position` is all `u32::MAX` between
/// calls.
fn block_edges(
    matrix: &Matrix,
    k: usize,
    position: &mut [u32],
    mut each: impl FnMut(u32, u32) -> bool,
) -> bool {
    let (items, nodes) = (&matrix.block_items, &matrix.nodes);
    let (start, end) = (
        matrix.block_starts[k] as usize,
        matrix.block_starts[k + 1] as usize,
    );
    let half = (end - start) / 2;
    if half > RightSet::BITS as usize {
        return false;
    }
    for (r, &item) in items[start + half..end].iter().enumerate() {
        position[item as usize] = r as u32;
    }
    let trackable = (start..start + half).all(|index| {
        let a = items[index];
        let mut seen: RightSet = 0;
        let mut p = nodes[a as usize].down;
        while p != a {
            let mut q = nodes[p as usize].right;
            while q != p && position[nodes[q as usize].top as usize] == u32::MAX {
                q = nodes[q as usize].right;
            }
            let r = position[nodes[q as usize].top as usize];
            if r == u32::MAX || seen & (1 << r) != 0 {
                return false;
            }
            seen |= 1 << r;
            if !each(
                matrix.node_option[p as usize],
                (index as u32) << EDGE_SHIFT | r,
            ) {
                return false;
            }
            p = nodes[p as usize].down;
        }
        true
    });
    for &item in &items[start + half..end] {
        position[item as usize] = u32::MAX;
    }
    trackable
}

/// An edge of a tracked block, packed into a `u32`: the first-side item's index in
/// `Blocks::items` above this many bits, the second-side item's position below.
const EDGE_SHIFT: u32 = 6;
const POSITION: u32 = (1 << EDGE_SHIFT) - 1;
const _: () = assert!(RightSet::BITS == 1 << EDGE_SHIFT);

/// The index in `Blocks::adjacency` and the bit of a packed edge ([`EDGE_SHIFT`]).
#[inline(always)]
fn edge(packed: u32) -> (usize, RightSet) {
    ((packed >> EDGE_SHIFT) as usize, 1 << (packed & POSITION))
}

/// While tracked, the blocks hear of every node the links hide or show again.
impl Watch for Blocks {
    #[inline(always)]
    fn hidden(&mut self, node: u32) {
        self.hide_edge(node);
    }

    #[inline(always)]
    fn shown(&mut self, node: u32) {
        self.show_edge(node);
    }
}

/// A set of at most [`MAX_UNCOVERED`] uncovered items of the first side of a block, by number.
type Set = u32;
const _: () = assert!(MAX_UNCOVERED <= Set::BITS as usize);

/// A set of uncovered items of the second side of a block: by position in the side for a
/// tracked block (at most 64 items), else by number (at most [`MAX_UNCOVERED`]).
type RightSet = u64;

/// The bipartite graph of a block being filtered: `m` uncovered items on the first side,
/// numbered, and `adjacent[l]` the second-side items that first-side item `l` has an option
/// with. Small enough to live on the stack and to be walked with bit operations.
struct Graph {
    m: usize,
    adjacent: [RightSet; MAX_UNCOVERED],
    /// The matching: per first-side item its partner, and back ([`FREE`] if none).
    mate_left: [u32; MAX_UNCOVERED],
    mate_right: [u32; RightSet::BITS as usize],
}

impl Graph {
    const EMPTY: Graph = Graph {
        m: 0,
        adjacent: [0; MAX_UNCOVERED],
        mate_left: [FREE; MAX_UNCOVERED],
        mate_right: [FREE; RightSet::BITS as usize],
    };

    /// Completes the matching (started from the hints) by augmenting paths; `Err` with a
    /// first-side item no matching covers.
    fn match_all(&mut self) -> Result<(), usize> {
        for l in 0..self.m {
            if self.mate_left[l] == FREE {
                let mut visited: RightSet = 0;
                if !self.augment(l, &mut visited) {
                    return Err(l);
                }
            }
        }
        Ok(())
    }

    /// Kuhn's augmenting path from first-side item `l`, avoiding the second-side items in
    /// `visited`: whether one was found (and applied). Recursion at most `m` deep.
    fn augment(&mut self, l: usize, visited: &mut RightSet) -> bool {
        let mut candidates = self.adjacent[l] & !*visited;
        while candidates != 0 {
            let r = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if *visited & (1 << r) != 0 {
                // Visited by a deeper call since `candidates` was read.
                continue;
            }
            *visited |= 1 << r;
            let owner = self.mate_right[r];
            if owner == FREE || self.augment(owner as usize, visited) {
                self.mate_left[l] = r as u32;
                self.mate_right[r] = l as u32;
                return true;
            }
        }
        false
    }

    /// Per first-side item: the first-side items it reaches in the matching's graph
    /// contracted onto the first side (`u` leads to the partner of each second-side item it
    /// has an unmatched edge with), by Warshall's closure on bit sets. An unmatched edge from
    /// `l` to `r` lies on an alternating cycle exactly when the partner of `r` reaches `l`.
    fn closure(&self) -> [Set; MAX_UNCOVERED] {
        let mut reach = [0 as Set; MAX_UNCOVERED];
        for (l, leads) in reach.iter_mut().enumerate().take(self.m) {
            let mut unmatched = self.adjacent[l] & !(1 << self.mate_left[l]);
            while unmatched != 0 {
                let r = unmatched.trailing_zeros() as usize;
                unmatched &= unmatched - 1;
                *leads |= 1 << self.mate_right[r];
            }
        }
        for v in 0..self.m {
            let through = reach[v];
            // Over all the slots, without a branch: the compiler makes it a few vector
            // operations (the slots past `m` are empty and stay so).
            for leads in reach.iter_mut() {
                *leads |= through & ((*leads >> v) & 1).wrapping_neg();
            }
        }
        reach
    }

    /// Per first-side item: the second-side items of its edges that lie in no perfect
    /// matching (unmatched, on no alternating cycle), given the matching's `reach`.
    fn removable(&self, l: usize, reach: &[Set; MAX_UNCOVERED]) -> RightSet {
        let mut removable = 0;
        let mut unmatched = self.adjacent[l] & !(1 << self.mate_left[l]);
        while unmatched != 0 {
            let r = unmatched.trailing_zeros();
            unmatched &= unmatched - 1;
            if reach[self.mate_right[r as usize] as usize] & (1 << l) == 0 {
                removable |= 1 << r;
            }
        }
        removable
    }
}

impl Links {
    /// Filters the changed blocks, and runs the other rules on what that removes, until
    /// neither finds more or an item is left with no option; returns the options removed.
    pub(super) fn filter_blocks(&mut self) -> u64 {
        if !self.blocks.tracking && self.blocks.shared.any() {
            self.blocks.untracked_filters += 1;
            if self.blocks.untracked_filters >= TRACK_AFTER {
                self.blocks.untracked_filters = 0;
                self.track_blocks(true);
            }
        }
        let mut removed = 0;
        while let Some(k) = self.blocks.dirty.pop() {
            self.blocks.is_dirty[k as usize] = false;
            let found = self.filter_block(k as usize);
            if found > 0 {
                let more = self.drain();
                removed += found + more;
                if self.scratch.dead {
                    self.blocks.clear();
                    break;
                }
                if more == 0 {
                    // Only this filtering changed the block, which leaves it as filtered:
                    // what remains of its graph has the same perfect matchings.
                    self.blocks.forget(k);
                }
            }
        }
        removed
    }

    /// Whether block `k` may hold a Hall set that filtering would use: a set of `j` of its
    /// uncovered items on one side, fewer than all, whose options reach only `j` items of the
    /// other; each of them then has at most `j` options. Checked on both sides from the
    /// lengths alone (a set of one side exists exactly when one of the other does, so both
    /// must pass). False as well for a block with more than [`MAX_UNCOVERED`] items left,
    /// found without reading the rest: on empty grids almost every block fails here, and
    /// reading all its items' lengths (a histogram as long as the block) made checking an
    /// empty 49x49 grid twice as slow as without blocks, where it is now 1.2 times.
    fn may_hold_hall_set(&self, start: usize, half: usize) -> bool {
        for side in [start, start + half] {
            // Per length: how many uncovered items of this side have it (a length is at
            // most the number of uncovered items of the other side, as many as of this).
            let mut counts = [0u32; MAX_UNCOVERED + 1];
            let mut uncovered = 0;
            for &item in &self.blocks.items[side..side + half] {
                let len = self.dance.top(item);
                if len & COVERED == 0 {
                    uncovered += 1;
                    if uncovered > MAX_UNCOVERED {
                        return false;
                    }
                    counts[(len as usize).min(MAX_UNCOVERED)] += 1;
                }
            }
            let mut at_most = 0;
            let tight = (0..uncovered).any(|j| {
                at_most += counts[j];
                at_most >= j as u32 && at_most > 0
            });
            if !tight {
                return false;
            }
        }
        true
    }

    /// Régin's filtering of block `k` (module documentation); returns the options removed.
    fn filter_block(&mut self, k: usize) -> u64 {
        let start = self.blocks.starts[k] as usize;
        let half = (self.blocks.starts[k + 1] as usize - start) / 2;
        if !self.may_hold_hall_set(start, half) {
            return 0;
        }
        let second = start + half;
        let tracked = self.blocks.tracking && self.blocks.shared.tracks(k);
        // The uncovered items of the second side: as positions in `uncovered` for a tracked
        // block, else numbered (at most `MAX_UNCOVERED`, as the pretest saw) in `slot`, with
        // their positions in `positions`.
        let mut uncovered: RightSet = 0;
        let mut numbered = [0u32; MAX_UNCOVERED];
        let mut positions = [0u32; MAX_UNCOVERED];
        let mut right = 0;
        for (position, &item) in self.blocks.items[second..second + half].iter().enumerate() {
            if self.dance.top(item) & COVERED == 0 {
                if tracked {
                    uncovered |= 1 << position;
                } else {
                    numbered[right] = item;
                    positions[right] = position as u32;
                    self.blocks.slot[item as usize] = right as u32 + 1;
                }
                right += 1;
            }
        }
        let removed = self.filter_graph(k, tracked, uncovered, &positions, right);
        for &item in &numbered[..if tracked { 0 } else { right }] {
            self.blocks.slot[item as usize] = 0;
        }
        removed
    }

    /// Filters block `k` once its second side is numbered (see [`Links::filter_block`]).
    fn filter_graph(
        &mut self,
        k: usize,
        tracked: bool,
        uncovered: RightSet,
        positions: &[u32; MAX_UNCOVERED],
        right: usize,
    ) -> u64 {
        let start = self.blocks.starts[k] as usize;
        let half = (self.blocks.starts[k + 1] as usize - start) / 2;
        let mut graph = Graph::EMPTY;
        let mut left_index = [0u32; MAX_UNCOVERED];
        for index in start..start + half {
            let a = self.blocks.items[index];
            if self.dance.top(a) & COVERED != 0 {
                continue;
            }
            let l = graph.m;
            graph.m += 1;
            left_index[l] = index as u32;
            graph.adjacent[l] = if tracked {
                debug_assert_eq!(
                    self.blocks.adjacency[index],
                    self.column_edges(true, index),
                    "tracked edges of block {k} out of step with the links"
                );
                self.blocks.adjacency[index] & uncovered
            } else {
                self.column_edges(false, index)
            };
            // The hint is a position on the second side.
            let hint = self.blocks.hint[index];
            if hint != FREE {
                let r = if tracked {
                    hint
                } else {
                    let item = self.blocks.items[start + half + hint as usize];
                    self.blocks.slot[item as usize].wrapping_sub(1)
                };
                if r < RightSet::BITS
                    && graph.adjacent[l] & (1 << r) != 0
                    && graph.mate_right[r as usize] == FREE
                {
                    graph.mate_left[l] = r;
                    graph.mate_right[r as usize] = l as u32;
                }
            }
        }
        if graph.m != right {
            // Not a state the block's invariant allows (every chosen option covers one item
            // of each side); nothing is concluded from it.
            return 0;
        }
        if let Err(l) = graph.match_all() {
            // No perfect matching: the node is dead. Emptying the unmatched item says so.
            let a = self.blocks.items[left_index[l] as usize];
            let mut removed = 0;
            let mut p = self.dance.down(a);
            while p != a {
                let next = self.dance.down(p);
                self.remove_and_requeue(p);
                removed += 1;
                p = next;
            }
            self.conflict_at(a);
            self.scratch.dead = true;
            return removed;
        }
        let left_index = &left_index[..graph.m];
        for (&index, &r) in left_index.iter().zip(&graph.mate_left) {
            self.blocks.hint[index as usize] = if tracked { r } else { positions[r as usize] };
        }
        let reach = graph.closure();
        let mut removed = 0;
        for (l, &index) in left_index.iter().enumerate() {
            let removable = graph.removable(l, &reach);
            if removable == 0 {
                continue;
            }
            let a = self.blocks.items[index as usize];
            let mut p = self.dance.down(a);
            while p != a {
                let next = self.dance.down(p);
                if self
                    .partner(tracked, index as usize, p)
                    .is_some_and(|r| removable & (1 << r) != 0)
                {
                    self.remove_and_requeue(p);
                    removed += 1;
                }
                p = next;
            }
        }
        removed
    }

    /// The second-side item of the live option of node `p`, through the first-side item of
    /// block index `index`: its position for a tracked block, else its number (`None` if it
    /// is covered, or has none).
    #[inline(always)]
    fn partner(&self, tracked: bool, index: usize, p: u32) -> Option<u32> {
        if tracked {
            let mut q = p;
            loop {
                let packed = self.blocks.shared.node_edge[q as usize];
                if packed != NO_EDGE && (packed >> EDGE_SHIFT) as usize == index {
                    return Some(packed & POSITION);
                }
                q = self.dance.right(q);
                if q == p {
                    return None;
                }
            }
        } else {
            let mut q = self.dance.right(p);
            while q != p {
                let slot = self.blocks.slot[self.dance.top(q) as usize];
                if slot != 0 {
                    return Some(slot - 1);
                }
                q = self.dance.right(q);
            }
            None
        }
    }

    /// The second-side items that the first-side item at block index `index` has a live
    /// option with, read from the links (empty if the item is covered), as [`Links::partner`]
    /// names them: for a tracked block, what `adjacency` holds for it while the links track.
    fn column_edges(&self, tracked: bool, index: usize) -> RightSet {
        let a = self.blocks.items[index];
        let mut edges = 0;
        if self.dance.top(a) & COVERED == 0 {
            let mut p = self.dance.down(a);
            while p != a {
                edges |= self.partner(tracked, index, p).map_or(0, |r| 1 << r);
                p = self.dance.down(p);
            }
        }
        edges
    }

    /// Makes the links keep the tracked blocks' `adjacency` up to date from now on (or stop
    /// doing so), reading it from the links as they are unless they kept it all along.
    pub(super) fn track_blocks(&mut self, on: bool) {
        // Purifying a coloured item hides options unwatched: with colours the blocks' edges
        // are read from the links each time.
        let on = on && !self.dance.colored() && self.blocks.any() && self.blocks.shared.any();
        if on && self.blocks.tracking {
            // Tracked since they were last read: in step with the links still.
            return;
        }
        self.blocks.tracking = on;
        if !on {
            return;
        }
        // Block by block, from the links: each second-side item numbered by its position
        // (plus one) in `slot`, each option of an uncovered first-side item finds its
        // partner along its own nodes, which lie side by side in memory (looking each option
        // up in the edges instead was slower: scattered reads).
        for k in 0..self.blocks.shared.tracked.len() {
            if !self.blocks.shared.tracks(k) {
                continue;
            }
            let start = self.blocks.starts[k] as usize;
            let half = (self.blocks.starts[k + 1] as usize - start) / 2;
            let second = start + half..start + 2 * half;
            for (position, index) in second.clone().enumerate() {
                let item = self.blocks.items[index];
                self.blocks.slot[item as usize] = position as u32 + 1;
            }
            for index in start..start + half {
                self.blocks.adjacency[index] = self.column_edges(false, index);
            }
            for index in second {
                let item = self.blocks.items[index];
                self.blocks.slot[item as usize] = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small random stream, so the test needs no crate.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Brute force: per first-side item, the second-side items it meets in some perfect
    /// matching; `None` when there is none.
    fn brute_force(adjacent: &[RightSet]) -> Option<Vec<RightSet>> {
        let m = adjacent.len();
        let mut keep = vec![0 as RightSet; m];
        let mut mates = vec![0usize; m];
        let mut any = false;
        fn walk(
            adjacent: &[RightSet],
            l: usize,
            used: RightSet,
            mates: &mut Vec<usize>,
            keep: &mut [RightSet],
            any: &mut bool,
        ) {
            if l == adjacent.len() {
                *any = true;
                for (l, &r) in mates.iter().enumerate() {
                    keep[l] |= 1 << r;
                }
                return;
            }
            let mut free = adjacent[l] & !used;
            while free != 0 {
                let r = free.trailing_zeros() as usize;
                free &= free - 1;
                mates[l] = r;
                walk(adjacent, l + 1, used | 1 << r, mates, keep, any);
            }
        }
        walk(adjacent, 0, 0, &mut mates, &mut keep, &mut any);
        any.then_some(keep)
    }

    /// Régin's filtering on random square bipartite graphs of up to 7 items a side: a
    /// matching is found exactly when one exists, and the edges it calls removable are those
    /// in no perfect matching.
    #[test]
    fn filtering_keeps_exactly_the_edges_of_some_perfect_matching() {
        let mut state = 0x9E37_79B9_7F4A_7C15;
        let mut with_matching = 0;
        for _ in 0..20_000 {
            let m = 1 + (next(&mut state) % 7) as usize;
            let density = next(&mut state) % 100;
            let mut graph = Graph::EMPTY;
            graph.m = m;
            for l in 0..m {
                for r in 0..m {
                    if next(&mut state) % 100 < density {
                        graph.adjacent[l] |= 1 << r;
                    }
                }
            }
            let adjacent: Vec<RightSet> = graph.adjacent[..m].to_vec();
            let expected = brute_force(&adjacent);
            let found = graph.match_all();
            assert_eq!(found.is_ok(), expected.is_some(), "{adjacent:?}");
            let Some(keep) = expected else { continue };
            with_matching += 1;
            let reach = graph.closure();
            for l in 0..m {
                let removable = graph.removable(l, &reach);
                assert_eq!(removable, adjacent[l] & !keep[l], "{adjacent:?}, item {l}");
            }
        }
        assert!(with_matching > 5_000, "{with_matching}");
    }

    /// The matching is completed from the hints left by the last filtering: an augmenting
    /// path moves a hinted partner when it must.
    #[test]
    fn matching_starts_from_its_hints() {
        let mut graph = Graph::EMPTY;
        graph.m = 2;
        graph.adjacent[0] = 0b11;
        graph.adjacent[1] = 0b01;
        graph.mate_left[0] = 0;
        graph.mate_right[0] = 0;
        assert_eq!(graph.match_all(), Ok(()));
        assert_eq!((graph.mate_left[0], graph.mate_left[1]), (1, 0));
    }
}
