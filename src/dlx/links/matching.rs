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
//! This file is a child of `links.rs` and shares its invariant: every node index it uses is
//! a stored link (a column walk from a header, a step along an option's `right` cycle), and
//! every item index comes from the matrix's checked block list.

use super::{COVERED, Links};
use crate::dlx::matrix::Matrix;

/// No partner in a matching.
const FREE: u32 = u32::MAX;

/// A block is filtered only while at most this many items of each side are uncovered. Near
/// full, a block's graph has up to its size squared edges and hardly ever a Hall set: filtering
/// every block at every node made an empty 49x49 grid 14 times slower (0.14 s to 2.0 s) and an
/// empty 64x64 one 45 times, for the same tree. Limits of 12, 16, 24 and 32 all kept those
/// grids within 0.15 s and 0.56 s; from 16 up, the sparse 25x25 puzzles' trees are as with
/// no limit (591 and 1,885 branch points; 593 and 1,941 at 12).
const MAX_UNCOVERED: usize = 16;

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
    /// The edges of the block being filtered: per uncovered first-side item (by number), its
    /// edges `edges[edge_starts[l]..edge_starts[l + 1]]`, each the number of the second-side
    /// item and a node of the option.
    edge_starts: Vec<u32>,
    edges: Vec<(u32, u32)>,
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

/// A set of at most [`MAX_UNCOVERED`] uncovered items of one side of a block, by number.
type Set = u32;
const _: () = assert!(MAX_UNCOVERED <= Set::BITS as usize);

/// The bipartite graph of a block being filtered, on small numbers: `m` uncovered items on
/// each side, `adjacent[l]` the second-side items that first-side item `l` has an option
/// with. Small enough to live on the stack and to be walked with bit operations.
struct Graph {
    m: usize,
    adjacent: [Set; MAX_UNCOVERED],
    /// The matching: per first-side item its partner, and back ([`FREE`] if none).
    mate_left: [u32; MAX_UNCOVERED],
    mate_right: [u32; MAX_UNCOVERED],
}

impl Graph {
    /// Completes the matching (started from the hints) by augmenting paths; `Err` with a
    /// first-side item no matching covers.
    fn match_all(&mut self) -> Result<(), usize> {
        for l in 0..self.m {
            if self.mate_left[l] == FREE {
                let mut visited: Set = 0;
                if !self.augment(l, &mut visited) {
                    return Err(l);
                }
            }
        }
        Ok(())
    }

    /// Kuhn's augmenting path from first-side item `l`, avoiding the second-side items in
    /// `visited`: whether one was found (and applied). Recursion at most `m` deep.
    fn augment(&mut self, l: usize, visited: &mut Set) -> bool {
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
}

impl Links {
    /// Filters the changed blocks, and runs the other rules on what that removes, until
    /// neither finds more or an item is left with no option; returns the options removed.
    pub(super) fn filter_blocks(&mut self) -> u64 {
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
                let len = Self::get(&self.top, item);
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
        let mut graph = Graph {
            m: 0,
            adjacent: [0; MAX_UNCOVERED],
            mate_left: [FREE; MAX_UNCOVERED],
            mate_right: [FREE; MAX_UNCOVERED],
        };
        // Number the uncovered items of the second side (at most `MAX_UNCOVERED`, as the
        // pretest saw), then of the first, collecting the edges and the hinted partners.
        let mut right_items = [0u32; MAX_UNCOVERED];
        let mut right = 0;
        for &item in &self.blocks.items[start + half..start + 2 * half] {
            if Self::get(&self.top, item) & COVERED == 0 {
                right_items[right] = item;
                right += 1;
                self.blocks.slot[item as usize] = right as u32;
            }
        }
        let mut left_index = [0u32; MAX_UNCOVERED];
        self.blocks.edges.clear();
        self.blocks.edge_starts.clear();
        for index in start..start + half {
            let a = self.blocks.items[index];
            if Self::get(&self.top, a) & COVERED != 0 {
                continue;
            }
            let l = graph.m;
            graph.m += 1;
            left_index[l] = index as u32;
            self.blocks.edge_starts.push(self.blocks.edges.len() as u32);
            let mut p = self.down(a);
            while p != a {
                let mut q = Self::get(&self.right, p);
                while q != p {
                    let slot = self.blocks.slot[self.top(q) as usize];
                    if slot != 0 {
                        self.blocks.edges.push((slot - 1, p));
                        graph.adjacent[l] |= 1 << (slot - 1);
                        break;
                    }
                    q = Self::get(&self.right, q);
                }
                p = self.down(p);
            }
            let hint = self.blocks.hint[index];
            if hint != FREE {
                let r = self.blocks.slot[hint as usize];
                if r != 0
                    && graph.adjacent[l] & (1 << (r - 1)) != 0
                    && graph.mate_right[r as usize - 1] == FREE
                {
                    graph.mate_left[l] = r - 1;
                    graph.mate_right[r as usize - 1] = l as u32;
                }
            }
        }
        self.blocks.edge_starts.push(self.blocks.edges.len() as u32);
        for &item in &right_items[..right] {
            self.blocks.slot[item as usize] = 0;
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
            let mut p = self.down(a);
            while p != a {
                let next = self.down(p);
                self.remove_and_requeue(p);
                removed += 1;
                p = next;
            }
            self.scratch.dead = true;
            return removed;
        }
        for l in 0..graph.m {
            self.blocks.hint[left_index[l] as usize] = right_items[graph.mate_left[l] as usize];
        }
        let reach = graph.closure();
        let mut removed = 0;
        for l in 0..graph.m {
            let edges =
                self.blocks.edge_starts[l] as usize..self.blocks.edge_starts[l + 1] as usize;
            for e in edges {
                let (r, p) = self.blocks.edges[e];
                let partner = graph.mate_right[r as usize] as usize;
                if r != graph.mate_left[l] && reach[partner] & (1 << l) == 0 {
                    self.remove_and_requeue(p);
                    removed += 1;
                }
            }
        }
        removed
    }
}
