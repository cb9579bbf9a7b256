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
//! the other rules then run on what it removed, until neither finds more. Each block keeps
//! the matching it last found as a hint: most of it still holds at the next node, so few
//! augmenting paths are searched. The hint is only a hint; nothing of it needs restoring.
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
    /// Per block item of the first side (indexed like `items`): the index on the second side
    /// of its partner in the block's last matching, or [`FREE`].
    hint: Vec<u32>,
    /// Per item: its index on the second side of the block being filtered, plus one; else 0.
    slot: Vec<u32>,
    /// The uncovered items of the first side being filtered: their index in the block.
    left: Vec<u32>,
    /// Per uncovered first-side item `l`: its edges, `edges[edge_starts[l]..edge_starts[l + 1]]`,
    /// each the second-side index and a node of the option.
    edge_starts: Vec<u32>,
    edges: Vec<(u32, u32)>,
    /// The matching: per uncovered first-side item its second-side partner, and back.
    mate_left: Vec<u32>,
    mate_right: Vec<u32>,
    /// Per second-side index: the augmenting search that last visited it.
    visited: Vec<u32>,
    visit: u32,
    /// Tarjan's arrays, per uncovered first-side item: discovery order (0: not yet), lowest
    /// order reachable, whether on the component stack, and the component found.
    order: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    component: Vec<u32>,
    stack: Vec<u32>,
    /// The depth-first walk: an item and the next of its edges to follow.
    walk: Vec<(u32, u32)>,
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

    /// Forgets every change (at a dead end, where nothing more is filtered).
    pub fn clear(&mut self) {
        while let Some(k) = self.dirty.pop() {
            self.is_dirty[k as usize] = false;
        }
    }

    /// Finds a matching of every uncovered first-side item, from the hints and then by
    /// augmenting paths; `Err` with an item no matching covers.
    fn match_all(&mut self, hints: usize, right_len: usize) -> Result<(), u32> {
        let m = self.left.len();
        self.mate_left.clear();
        self.mate_left.resize(m, FREE);
        self.mate_right.clear();
        self.mate_right.resize(right_len, FREE);
        for l in 0..m {
            let hint = self.hint[hints + self.left[l] as usize];
            let edges = self.edge_starts[l] as usize..self.edge_starts[l + 1] as usize;
            let edges = &self.edges[edges];
            let free = |r: u32| self.mate_right[r as usize] == FREE;
            let pick = edges
                .iter()
                .map(|&(r, _)| r)
                .find(|&r| r == hint && free(r))
                .or_else(|| edges.iter().map(|&(r, _)| r).find(|&r| free(r)));
            if let Some(r) = pick {
                self.mate_left[l] = r;
                self.mate_right[r as usize] = l as u32;
            }
        }
        if self.visited.len() < right_len {
            self.visited.resize(right_len, 0);
        }
        for l in 0..m {
            if self.mate_left[l] == FREE {
                self.visit = self.visit.wrapping_add(1);
                if self.visit == 0 {
                    self.visited.fill(0);
                    self.visit = 1;
                }
                if !self.augment(l as u32) {
                    return Err(l as u32);
                }
            }
        }
        Ok(())
    }

    /// Kuhn's augmenting path from first-side item `l`: whether one was found (and applied).
    /// Depth first, on an explicit stack (a block may be large).
    fn augment(&mut self, l: u32) -> bool {
        self.walk.clear();
        self.walk.push((l, self.edge_starts[l as usize]));
        while let Some(&mut (v, ref mut next)) = self.walk.last_mut() {
            if *next == self.edge_starts[v as usize + 1] {
                self.walk.pop();
                continue;
            }
            let r = self.edges[*next as usize].0 as usize;
            *next += 1;
            if self.visited[r] == self.visit {
                continue;
            }
            self.visited[r] = self.visit;
            let owner = self.mate_right[r];
            if owner != FREE {
                self.walk.push((owner, self.edge_starts[owner as usize]));
                continue;
            }
            // A free item: flip the path. Each item on the stack takes the second-side
            // item its last followed edge leads to.
            while let Some((v, next)) = self.walk.pop() {
                let r = self.edges[next as usize - 1].0;
                self.mate_left[v as usize] = r;
                self.mate_right[r as usize] = v;
            }
            return true;
        }
        false
    }

    /// The strongly connected components of the matching's graph, contracted onto the first
    /// side: `l` leads to the partner of the second-side end of each of its unmatched edges.
    /// Iterative Tarjan; fills `component`.
    fn components(&mut self) {
        let m = self.left.len();
        for v in [&mut self.order, &mut self.low, &mut self.component] {
            v.clear();
            v.resize(m, 0);
        }
        self.on_stack.clear();
        self.on_stack.resize(m, false);
        let mut counter = 0;
        let mut found = 0;
        for root in 0..m as u32 {
            if self.order[root as usize] != 0 {
                continue;
            }
            counter += 1;
            self.discover(root, counter);
            while let Some(&mut (v, ref mut next)) = self.walk.last_mut() {
                let end = self.edge_starts[v as usize + 1];
                let mut descend = None;
                while *next < end {
                    let (r, _) = self.edges[*next as usize];
                    *next += 1;
                    if r == self.mate_left[v as usize] {
                        continue;
                    }
                    let w = self.mate_right[r as usize];
                    if self.order[w as usize] == 0 {
                        descend = Some(w);
                        break;
                    } else if self.on_stack[w as usize] {
                        self.low[v as usize] = self.low[v as usize].min(self.order[w as usize]);
                    }
                }
                if let Some(w) = descend {
                    counter += 1;
                    self.discover(w, counter);
                    continue;
                }
                self.walk.pop();
                if let Some(&(parent, _)) = self.walk.last() {
                    self.low[parent as usize] = self.low[parent as usize].min(self.low[v as usize]);
                }
                if self.low[v as usize] == self.order[v as usize] {
                    found += 1;
                    while let Some(w) = self.stack.pop() {
                        self.on_stack[w as usize] = false;
                        self.component[w as usize] = found;
                        if w == v {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Tarjan's first visit of first-side item `v`, the `order`-th: onto both stacks.
    fn discover(&mut self, v: u32, order: u32) {
        self.order[v as usize] = order;
        self.low[v as usize] = order;
        self.stack.push(v);
        self.on_stack[v as usize] = true;
        self.walk.push((v, self.edge_starts[v as usize]));
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
                removed += found + self.drain();
                if self.scratch.dead {
                    self.blocks.clear();
                    break;
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
        for r in 0..half {
            let item = self.blocks.items[start + half + r];
            self.blocks.slot[item as usize] = r as u32 + 1;
        }
        self.blocks.left.clear();
        self.blocks.edges.clear();
        self.blocks.edge_starts.clear();
        for l in 0..half {
            let a = self.blocks.items[start + l];
            if Self::get(&self.top, a) & COVERED != 0 {
                continue;
            }
            self.blocks.left.push(l as u32);
            self.blocks.edge_starts.push(self.blocks.edges.len() as u32);
            let mut p = self.down(a);
            while p != a {
                let mut q = Self::get(&self.right, p);
                while q != p {
                    let slot = self.blocks.slot[self.top(q) as usize];
                    if slot != 0 {
                        self.blocks.edges.push((slot - 1, p));
                        break;
                    }
                    q = Self::get(&self.right, q);
                }
                p = self.down(p);
            }
        }
        self.blocks.edge_starts.push(self.blocks.edges.len() as u32);
        for r in 0..half {
            let item = self.blocks.items[start + half + r];
            self.blocks.slot[item as usize] = 0;
        }
        if let Err(l) = self.blocks.match_all(start, half) {
            // No perfect matching: the node is dead. Emptying the unmatched item says so.
            let a = self.blocks.items[start + self.blocks.left[l as usize] as usize];
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
        for l in 0..self.blocks.left.len() {
            let index = start + self.blocks.left[l] as usize;
            self.blocks.hint[index] = self.blocks.mate_left[l];
        }
        self.blocks.components();
        let mut removed = 0;
        for l in 0..self.blocks.left.len() {
            let edges =
                self.blocks.edge_starts[l] as usize..self.blocks.edge_starts[l + 1] as usize;
            for e in edges {
                let (r, p) = self.blocks.edges[e];
                let partner = self.blocks.mate_right[r as usize];
                if r != self.blocks.mate_left[l]
                    && self.blocks.component[l] != self.blocks.component[partner as usize]
                {
                    self.remove_and_requeue(p);
                    removed += 1;
                }
            }
        }
        removed
    }
}
