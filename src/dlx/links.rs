//! The dancing links themselves: cover and uncover on a working copy of a matrix's arrays.
//!
//! This is the innermost loop of every search (over 90% of the time in a profile of the
//! pentomino count), so it is kept apart, small, and free of bounds checks. The soundness
//! argument is one invariant, established by [`Matrix::new`] and kept by every operation here:
//! every link stored in `nodes` (`up`, `down`, `right`, and `top` of an option node) and in `items`
//! (`prev`, `next`) is an index into its own array. Cover and uncover only copy link values
//! that are already stored, and step from a node to its neighbour `q ± 1` only inside an
//! option, which has a spacer node at each end; so every index they use is in bounds.
//!
//! Measured on the 6x10 pentomino count (1.25 billion updates), with `xcover cover count
//! --stats`: bounds-checked accesses took 7.1 s, unchecked 6.5 s. The fields are kept in one
//! array each rather than one array of nodes, because the random accesses of a hide touch only
//! `up` and `down`: a smaller working set for the caches took it from 6.1 s to 5.1 s.

use super::matrix::{ItemLink, Matrix};

/// Marks the length of a covered item. A covered item's length never changes until it is
/// uncovered (every option through it has left the other columns, so no hide reaches it), so
/// the bit can sit in the length itself and is simply cleared again by uncover.
const COVERED: u32 = 1 << 31;

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

/// A working copy of a matrix's links that searches cover and uncover.
#[derive(Debug, Clone)]
pub(crate) struct Links {
    /// Number of primary items; their headers are nodes `1..=primary`.
    primary: u32,
    /// How many primary items are not covered.
    active_primary: u32,
    up: Vec<u32>,
    down: Vec<u32>,
    top: Vec<u32>,
    right: Vec<u32>,
    items: Vec<ItemLink>,
}

impl Links {
    /// The links of a freshly compiled matrix, nothing covered.
    pub fn new(matrix: &Matrix) -> Links {
        debug_assert!(matrix.nodes.iter().all(|n| {
            let len = matrix.nodes.len() as u32;
            n.up < len && n.down < len
        }));
        let primary = matrix.primary_count;
        Links {
            primary,
            active_primary: primary,
            up: matrix.nodes.iter().map(|n| n.up).collect(),
            down: matrix.nodes.iter().map(|n| n.down).collect(),
            top: matrix.nodes.iter().map(|n| n.top).collect(),
            right: matrix.nodes.iter().map(|n| n.right).collect(),
            items: matrix.items.clone(),
        }
    }

    #[inline(always)]
    fn get(array: &[u32], i: u32) -> u32 {
        debug_assert!((i as usize) < array.len());
        // SAFETY: `i` is a stored link or a step inside an option (see the module docs).
        unsafe { *array.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn set(array: &mut [u32], i: u32) -> &mut u32 {
        debug_assert!((i as usize) < array.len());
        // SAFETY: as in `get`.
        unsafe { array.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn item(&self, i: u32) -> &ItemLink {
        debug_assert!((i as usize) < self.items.len());
        // SAFETY: `i` is an item index stored in a link or checked by the caller.
        unsafe { self.items.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn item_mut(&mut self, i: u32) -> &mut ItemLink {
        debug_assert!((i as usize) < self.items.len());
        // SAFETY: as in `item`.
        unsafe { self.items.get_unchecked_mut(i as usize) }
    }

    /// Whether every primary item is covered: a solution.
    #[inline(always)]
    pub fn all_covered(&self) -> bool {
        self.active_primary == 0
    }

    /// Whether item `i` (checked by the caller to exist) is still active.
    pub fn is_active(&self, i: u32) -> bool {
        Self::get(&self.top, i) & COVERED == 0
    }

    /// The node below `x` in its column.
    #[inline(always)]
    pub fn down(&self, x: u32) -> u32 {
        Self::get(&self.down, x)
    }

    /// The item of option node `x`, or 0 if `x` is a spacer.
    #[inline(always)]
    pub fn top(&self, x: u32) -> u32 {
        Self::get(&self.top, x)
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
    pub fn fewest_options(&self) -> (u32, u32) {
        if self.active_primary * 16 >= self.primary {
            let (index, len) = first_smallest(&self.top[1..=self.primary as usize]);
            return (index as u32 + 1, len);
        }
        self.fewest_by_list()
    }

    /// [`Links::fewest_options`] by walking the list of active primary items.
    #[inline(always)]
    fn fewest_by_list(&self) -> (u32, u32) {
        let mut best = 0;
        let mut best_len = u32::MAX;
        let mut i = self.item(0).next;
        while i != 0 {
            let len = Self::get(&self.top, i);
            if len < best_len {
                best = i;
                best_len = len;
                if len <= 1 {
                    break;
                }
            }
            i = self.item(i).next;
        }
        (best, best_len)
    }

    /// Removes item `i` from its active list and every option containing it from the other
    /// columns; returns the number of nodes unlinked.
    #[inline(always)]
    pub fn cover(&mut self, i: u32) -> u64 {
        let mut hidden = 0;
        let mut p = Self::get(&self.down, i);
        while p != i {
            hidden += self.hide(p);
            p = Self::get(&self.down, p);
        }
        let ItemLink { prev, next } = *self.item(i);
        self.item_mut(prev).next = next;
        self.item_mut(next).prev = prev;
        *Self::set(&mut self.top, i) |= COVERED;
        if i <= self.primary {
            self.active_primary -= 1;
        }
        hidden
    }

    /// Exactly undoes [`Links::cover`].
    #[inline(always)]
    pub fn uncover(&mut self, i: u32) {
        if i <= self.primary {
            self.active_primary += 1;
        }
        *Self::set(&mut self.top, i) &= !COVERED;
        let ItemLink { prev, next } = *self.item(i);
        self.item_mut(prev).next = i;
        self.item_mut(next).prev = i;
        let mut p = Self::get(&self.up, i);
        while p != i {
            self.unhide(p);
            p = Self::get(&self.up, p);
        }
    }

    /// Covers the items of `x`'s option other than `x`'s own, left to right.
    #[inline(always)]
    pub fn cover_others(&mut self, x: u32) -> u64 {
        let mut hidden = 0;
        let mut p = Self::get(&self.right, x);
        while p != x {
            hidden += self.cover(Self::get(&self.top, p));
            p = Self::get(&self.right, p);
        }
        hidden
    }

    /// Exactly undoes [`Links::cover_others`], right to left (covers of different items do
    /// interact, so this order matters).
    #[inline(always)]
    pub fn uncover_others(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let j = Self::get(&self.top, p);
            if j == 0 {
                p = Self::get(&self.down, p);
            } else {
                self.uncover(j);
                p -= 1;
            }
        }
    }

    /// Unlinks the nodes of `p`'s option, other than `p`, from their columns.
    #[inline(always)]
    fn hide(&mut self, p: u32) -> u64 {
        let mut hidden = 0;
        let mut q = Self::get(&self.right, p);
        while q != p {
            let (up, down) = (Self::get(&self.up, q), Self::get(&self.down, q));
            *Self::set(&mut self.down, up) = down;
            *Self::set(&mut self.up, down) = up;
            let item = Self::get(&self.top, q);
            *Self::set(&mut self.top, item) -= 1;
            let right = Self::get(&self.right, q);
            hidden += 1;
            q = right;
        }
        hidden
    }

    /// Exactly undoes [`Links::hide`]. The nodes of one option lie in distinct columns, so
    /// relinking them in the same order as they were unlinked is as exact as the reverse.
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = Self::get(&self.right, p);
        while q != p {
            let (up, down) = (Self::get(&self.up, q), Self::get(&self.down, q));
            *Self::set(&mut self.down, up) = q;
            *Self::set(&mut self.up, down) = q;
            let item = Self::get(&self.top, q);
            *Self::set(&mut self.top, item) += 1;
            let right = Self::get(&self.right, q);
            q = right;
        }
    }
}
