//! The dancing links' arrays and the moves that change them: cover, hide, purify, tweak and
//! their inverses. This is the crate's one module allowed `unsafe` code, and it holds nothing
//! else: the search loop, its paths, Algorithm M, inference and probing (`links.rs` and the
//! files under `links/`) are safe code on top of it.
//!
//! Why unchecked: the moves are the innermost loop of every search. Counting the 6x10
//! pentominoes (1.25 billion updates) took 7.1 s with bounds checks, 6.5 s without; one
//! array per field rather than one array of nodes took it from 6.1 s to 5.1 s (a hide touches
//! only `up` and `down`: a smaller working set for the caches).
//!
//! Why sound, whatever safe code calls: the moves index unchecked only with an argument
//! checked on entry or with a value read from the arrays, and these invariants, checked by
//! [`Dance::new`] and kept by every write here, put such values in bounds (`L` nodes, `n`
//! items):
//!
//! 1. Every link (`up`, `down`, `right` of any node) is a node `0..L`; every item link
//!    (`prev`, `next`) an item `0..=n + 1`.
//! 2. Nodes `1..=n` are the headers; node `n + 1` and node `L - 1` are spacers (`top` 0);
//!    every other node past `n + 1` is a spacer or an option node (`top` an item `1..=n`).
//!    The moves write `top` only at headers (their lengths), so no node changes its kind.
//! 3. `up` and `down` of a header or an option node is a header or an option node: the
//!    moves write only such values, and only at such nodes.
//! 4. `right` of an option node is an option node; any other node is its own `right`, so
//!    that a move handed a header or a spacer changes nothing there. `right` never changes.
//! 5. `down` of every spacer but the last is an option node: stepping left from an option
//!    node, and on from the spacer met, stays among the nodes.
//! 6. With colours, `color` has one entry per node; the moves read it only with colours.
//!
//! So `cover` and `uncover` check that they are given an item, `uncover_others` a node past
//! the first spacer, `cover_others` and the read-only walks any node, the other moves an
//! option node (and a move with colours that the links have them). Misuse panics, or leaves
//! the links logically wrong but in bounds; logical correctness is the search's business,
//! checked by the engine's property tests and by Miri on them in CI (`.ci/miri.sh`). The
//! accessors the code outside reads by (`down`, `top`, ...) mask the index instead of
//! checking it: branch-free, and in bounds whatever it is (a wrong index reads a wrong node,
//! and panics in debug builds). Measurements in `docs/design/search.md`.
//!
//! Colours (Knuth's DLX2) add `purify`/`unpurify` and make hides skip the nodes whose colour
//! is settled; every move that meets colours takes a const generic `C`, so the moves of a
//! problem without them are compiled with no look at colours at all. Every move that hides
//! nodes reports them to a [`Watch`] (the one-to-one blocks' edges, `links/matching.rs`), or
//! to [`Unwatched`], which compiles to nothing.

use super::matrix::{ItemLink, Matrix};

/// Marks the length of a covered item. A covered item's length never changes until it is
/// uncovered (every option through it has left the other columns, so no hide reaches it), so
/// the bit can sit in the length itself and is simply cleared again by uncover.
pub(crate) const COVERED: u32 = 1 << 31;

/// The colour of a node whose option agrees with the colour already chosen for its item
/// (Knuth's -1 in DLX2): such a node is left in place by hides, and choosing its option
/// changes nothing in that item.
pub(crate) const PURIFIED: u32 = u32::MAX;

/// Told of every node a move unlinks from its column or links back.
pub(crate) trait Watch {
    fn hidden(&mut self, node: u32);
    fn shown(&mut self, node: u32);
}

/// A [`Watch`] that does nothing.
pub(crate) struct Unwatched;

impl Watch for Unwatched {
    #[inline(always)]
    fn hidden(&mut self, _: u32) {}
    #[inline(always)]
    fn shown(&mut self, _: u32) {}
}

/// How many entries the node arrays have beyond a power of two (see [`Dance::new`]).
const STAGGER: usize = 16;

/// Why a matrix's arrays cannot be danced on: a broken invariant (a bug in whoever built them).
#[derive(Debug)]
pub(crate) struct BrokenLinks(pub &'static str);

/// The links of a matrix as a search changes them.
#[derive(Debug, Clone)]
pub(crate) struct Dance {
    /// Number of primary items; their headers are nodes `1..=primary`.
    primary: u32,
    /// Number of items; headers are nodes `1..=item_count`.
    item_count: u32,
    /// How many primary items are not covered.
    active_primary: u32,
    /// Number of nodes. The node arrays are longer, padded with nodes no link reaches to
    /// more than `node_mask + 1` entries, a power of two: the accessors for the code outside
    /// read entry `x & node_mask`, in bounds whatever `x` is.
    nodes: usize,
    node_mask: u32,
    up: Vec<u32>,
    down: Vec<u32>,
    /// An option node's item (0 for a spacer); at a header, the item's length (with
    /// [`COVERED`] while it is covered).
    top: Vec<u32>,
    right: Vec<u32>,
    /// The colour of each node (0 for none, [`PURIFIED`] while its colour is settled), or
    /// empty when the problem has no colours.
    color: Vec<u32>,
    colored: bool,
    items: Vec<ItemLink>,
    /// The links as they are with nothing chosen ([`Dance::keep_unchosen`]).
    unchosen: Option<Box<Unchosen>>,
}

/// The iterator of [`Dance::active_primary_items`]: a walk of item links (invariant 1).
pub(crate) struct ActivePrimary<'a> {
    dance: &'a Dance,
    item: u32,
}

impl Iterator for ActivePrimary<'_> {
    type Item = (u32, u32);

    #[inline(always)]
    fn next(&mut self) -> Option<(u32, u32)> {
        let item = self.item;
        if item == 0 {
            return None;
        }
        self.item = self.dance.link(item).next;
        Some((item, Dance::get(&self.dance.top, item)))
    }
}

/// What choosing options changes (without colours), as it was with nothing chosen.
#[derive(Debug, Clone)]
struct Unchosen {
    up: Vec<u32>,
    down: Vec<u32>,
    /// The items' lengths: `top` of the item headers.
    lengths: Vec<u32>,
    items: Vec<ItemLink>,
    active_primary: u32,
}

impl Dance {
    /// The links of a freshly compiled matrix, nothing covered; an error if its arrays break
    /// the invariants of the module documentation, which [`Matrix::new`] never does.
    pub fn new(matrix: &Matrix) -> Result<Dance, BrokenLinks> {
        // Every node but an option node is its own right neighbour (invariant 4).
        let last_header = matrix.item_count as usize;
        let right = (matrix.nodes.iter().enumerate())
            .map(|(x, node)| {
                if x <= last_header || node.top == 0 {
                    x as u32
                } else {
                    node.right
                }
            })
            .collect();
        let mut dance = Dance {
            primary: matrix.primary_count,
            item_count: matrix.item_count,
            active_primary: matrix.primary_count,
            nodes: matrix.nodes.len(),
            node_mask: 0,
            up: matrix.nodes.iter().map(|n| n.up).collect(),
            down: matrix.nodes.iter().map(|n| n.down).collect(),
            top: matrix.nodes.iter().map(|n| n.top).collect(),
            right,
            color: matrix.colors.clone(),
            colored: !matrix.colors.is_empty(),
            items: matrix.items.clone(),
            unchosen: None,
        };
        dance.check()?;
        // Padded to a power of two and a little more: allocations of a power of two bytes
        // tend to start at the same offset in a page, so that the same node of each array
        // would compete for one set of the cache (the pentomino count took 5% longer so).
        let mask = dance.nodes.next_power_of_two() - 1;
        let arrays = [&mut dance.up, &mut dance.down, &mut dance.top];
        for array in arrays.into_iter().chain([&mut dance.right]) {
            array.resize(mask + 1 + STAGGER, 0);
        }
        dance.node_mask = mask as u32;
        Ok(dance)
    }

    /// Checks the invariants of the module documentation.
    fn check(&self) -> Result<(), BrokenLinks> {
        let len = self.nodes;
        let n = self.item_count as usize;
        if self.primary < 1 || self.primary > self.item_count {
            return Err(BrokenLinks("primary items out of range"));
        }
        if self.items.len() != n + 2
            || len < n + 2
            || [self.up.len(), self.down.len(), self.right.len()] != [len; 3]
        {
            return Err(BrokenLinks("array sizes"));
        }
        if self.top[n + 1] != 0 || self.top[len - 1] != 0 {
            return Err(BrokenLinks("options must be framed by spacers"));
        }
        if self.colored != (self.color.len() == len) {
            return Err(BrokenLinks("one colour per node"));
        }
        let primary = self.primary;
        if self.colored
            && (0..len).any(|x| self.color[x] != 0 && (x <= n || self.top[x] <= primary))
        {
            return Err(BrokenLinks("colours only on nodes of secondary items"));
        }
        let option_node =
            |x: u32| x as usize > n + 1 && (x as usize) < len && self.top[x as usize] != 0;
        let column_node = |x: u32| (1..=n).contains(&(x as usize)) || option_node(x);
        let linked = |x: u32| (x as usize) < len;
        for x in 0..len as u32 {
            let i = x as usize;
            if !linked(self.up[i]) || !linked(self.down[i]) || !linked(self.right[i]) {
                return Err(BrokenLinks("a link out of range"));
            }
            if x as usize > n && self.top[i] as usize > n {
                return Err(BrokenLinks("an option node's item out of range"));
            }
            if option_node(x) && !option_node(self.right[i])
                || !option_node(x) && self.right[i] != x
            {
                return Err(BrokenLinks("a right link out of its option"));
            }
            if column_node(x) && (!column_node(self.up[i]) || !column_node(self.down[i])) {
                return Err(BrokenLinks("a column link to a spacer or out of range"));
            }
        }
        for x in n + 1..len - 1 {
            if self.top[x] == 0 && !option_node(self.down[x]) {
                return Err(BrokenLinks("a spacer that does not lead into an option"));
            }
        }
        let items = self.items.len() as u32;
        if (self.items.iter()).any(|l| l.prev >= items || l.next >= items) {
            return Err(BrokenLinks("an item link out of range"));
        }
        Ok(())
    }

    /// Number of primary items.
    #[inline(always)]
    pub fn primary(&self) -> u32 {
        self.primary
    }

    /// Number of items.
    #[inline(always)]
    pub fn item_count(&self) -> u32 {
        self.item_count
    }

    /// Number of nodes.
    #[inline(always)]
    pub fn node_count(&self) -> usize {
        self.nodes
    }

    /// How many primary items are not covered.
    #[inline(always)]
    pub fn active_primary(&self) -> u32 {
        self.active_primary
    }

    /// Whether the problem has colours.
    #[inline(always)]
    pub fn colored(&self) -> bool {
        self.colored
    }

    /// Whether option node `x` claims its item alone: it has no colour (or the problem has
    /// none). Any other live option through the item conflicts with it. A coloured node
    /// agrees with the nodes of its colour, and one [`PURIFIED`] sits in the column of an
    /// item whose colour is settled, which hides leave in place: a column that may still
    /// hold hidden options, which inference must not walk.
    #[inline(always)]
    pub fn claims_alone(&self, x: u32) -> bool {
        if !self.colored {
            return true;
        }
        assert!((x as usize) < self.nodes);
        // With colours, `color` has an entry per node (invariant 6).
        Self::get(&self.color, x) == 0
    }

    /// Whether the options of nodes `x` and `y`, through one item, cannot both be chosen:
    /// one of them has no colour there, or they have different ones. Neither may be
    /// [`PURIFIED`].
    #[inline(always)]
    pub fn clash(&self, x: u32, y: u32) -> bool {
        if !self.colored {
            return true;
        }
        assert!((x as usize) < self.nodes && (y as usize) < self.nodes);
        let (a, b) = (Self::get(&self.color, x), Self::get(&self.color, y));
        debug_assert!(a != PURIFIED && b != PURIFIED, "a settled colour");
        a == 0 || b == 0 || a != b
    }

    /// Whether option node `x` lies in the column of an item whose colour is settled.
    #[inline(always)]
    pub fn purified(&self, x: u32) -> bool {
        if !self.colored {
            return false;
        }
        assert!((x as usize) < self.nodes);
        Self::get(&self.color, x) == PURIFIED
    }

    /// The node above `x` in its column.
    #[inline(always)]
    pub fn up(&self, x: u32) -> u32 {
        self.read(&self.up, x)
    }

    /// The node below `x` in its column.
    #[inline(always)]
    pub fn down(&self, x: u32) -> u32 {
        self.read(&self.down, x)
    }

    /// The item of option node `x` (0 for a spacer), or the length of header `x`.
    #[inline(always)]
    pub fn top(&self, x: u32) -> u32 {
        self.read(&self.top, x)
    }

    /// The next node of `x`'s option, round to its first.
    #[inline(always)]
    pub fn right(&self, x: u32) -> u32 {
        self.read(&self.right, x)
    }

    /// The links of item `i` in its list of active items.
    #[inline(always)]
    pub fn item(&self, i: u32) -> ItemLink {
        debug_assert!(i <= self.item_count + 1, "{i} is not an item");
        // SAFETY: `items` has `item_count + 2` entries (checked by `new`).
        unsafe {
            *self
                .items
                .get_unchecked(i.min(self.item_count + 1) as usize)
        }
    }

    /// The lengths of the primary items, from item 1 on.
    #[inline(always)]
    pub fn primary_lengths(&self) -> &[u32] {
        &self.top[1..=self.primary as usize]
    }

    /// The active primary items, in list order, with their numbers of options.
    #[inline(always)]
    pub fn active_primary_items(&self) -> ActivePrimary<'_> {
        ActivePrimary {
            dance: self,
            item: self.link(0).next,
        }
    }

    /// Whether `x` is an option node (not a header or a spacer).
    #[inline(always)]
    pub fn is_option_node(&self, x: u32) -> bool {
        x > self.item_count + 1 && (x as usize) < self.nodes && self.top[x as usize] != 0
    }

    /// Calls `visit(node, item)` for every node of the option of node `p` but `p`, from the
    /// one right of `p` round.
    #[inline(always)]
    pub fn visit_others(&self, p: u32, mut visit: impl FnMut(u32, u32)) {
        assert!((p as usize) < self.nodes);
        let mut q = Self::get(&self.right, p);
        while q != p {
            visit(q, Self::get(&self.top, q));
            q = Self::get(&self.right, q);
        }
    }

    /// Whether the option of node `p` holds `item`.
    #[inline(always)]
    pub fn option_holds(&self, p: u32, item: u32) -> bool {
        assert!((p as usize) < self.nodes);
        let mut q = p;
        loop {
            if Self::get(&self.top, q) == item {
                return true;
            }
            q = Self::get(&self.right, q);
            if q == p {
                return false;
            }
        }
    }

    /// The first node of the option of option node `x`.
    #[inline(always)]
    pub fn first_node(&self, x: u32) -> u32 {
        assert!(self.is_option_node(x));
        // Node `n + 1` is a spacer: the steps stop there at the latest.
        let mut first = x;
        while Self::get(&self.top, first - 1) != 0 {
            first -= 1;
        }
        first
    }

    /// Whether node `x` is linked in its column (its option not hidden) and its item not
    /// covered.
    #[inline(always)]
    pub fn is_live(&self, x: u32) -> bool {
        assert!((x as usize) < self.nodes);
        let item = Self::get(&self.top, x);
        // An option node's `top` is an item, a header's its length: in bounds or not.
        self.read(&self.top, item) & COVERED == 0
            && Self::get(&self.down, Self::get(&self.up, x)) == x
    }

    /// Panics unless `i` is an item.
    #[inline(always)]
    fn check_item(&self, i: u32) {
        assert!(i.wrapping_sub(1) < self.item_count, "{i} is not an item");
    }

    /// Panics unless `x` is an option node and the links have colours if the move has.
    #[inline(always)]
    fn check_option_node<const C: bool>(&self, x: u32) {
        assert!(self.is_option_node(x), "{x} is not an option node");
        self.check_colors::<C>();
    }

    /// Panics if the move has colours and the links have not (invariant 6).
    #[inline(always)]
    fn check_colors<const C: bool>(&self) {
        assert!(
            !C || self.colored,
            "a move with colours on links without them"
        );
    }

    /// Entry `x` of a node array, for the code outside: an index out of range (a bug there)
    /// reads another node's entry (in debug builds it panics), never memory outside.
    #[inline(always)]
    fn read(&self, array: &[u32], x: u32) -> u32 {
        debug_assert!((x as usize) < self.nodes);
        // SAFETY: every node array has more than `node_mask` entries.
        unsafe { *array.get_unchecked((x & self.node_mask) as usize) }
    }

    #[inline(always)]
    fn get(array: &[u32], i: u32) -> u32 {
        debug_assert!((i as usize) < array.len());
        // SAFETY: `i` is checked on entry or read from the arrays, and in bounds by the
        // invariants of the module documentation.
        unsafe { *array.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn set(array: &mut [u32], i: u32) -> &mut u32 {
        debug_assert!((i as usize) < array.len());
        // SAFETY: as in `get`.
        unsafe { array.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn link(&self, i: u32) -> ItemLink {
        debug_assert!((i as usize) < self.items.len());
        // SAFETY: `i` is an item checked on entry or read from the item links (invariant 1).
        unsafe { *self.items.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn link_mut(&mut self, i: u32) -> &mut ItemLink {
        debug_assert!((i as usize) < self.items.len());
        // SAFETY: as in `link`.
        unsafe { self.items.get_unchecked_mut(i as usize) }
    }

    /// Removes item `i` from its active list and every option containing it from the other
    /// columns; returns the number of nodes unlinked.
    #[inline(always)]
    pub fn cover<const C: bool, W: Watch>(&mut self, i: u32, watch: &mut W) -> u64 {
        self.check_item(i);
        self.check_colors::<C>();
        self.cover_item::<C, W>(i, watch)
    }

    #[inline(always)]
    fn cover_item<const C: bool, W: Watch>(&mut self, i: u32, watch: &mut W) -> u64 {
        let mut hidden = 0;
        let mut p = Self::get(&self.down, i);
        while p != i {
            hidden += self.hide::<C, W>(p, watch);
            p = Self::get(&self.down, p);
        }
        self.unlink_item(i);
        hidden
    }

    /// The last step of covering item `i`: out of the list of active items, marked covered.
    #[inline(always)]
    fn unlink_item(&mut self, i: u32) {
        let ItemLink { prev, next } = self.link(i);
        self.link_mut(prev).next = next;
        self.link_mut(next).prev = prev;
        *Self::set(&mut self.top, i) |= COVERED;
        if i <= self.primary {
            self.active_primary -= 1;
        }
    }

    /// Exactly undoes [`Dance::cover`].
    #[inline(always)]
    pub fn uncover<const C: bool, W: Watch>(&mut self, i: u32, watch: &mut W) {
        self.check_item(i);
        self.check_colors::<C>();
        self.uncover_item::<C, W>(i, watch);
    }

    #[inline(always)]
    fn uncover_item<const C: bool, W: Watch>(&mut self, i: u32, watch: &mut W) {
        if i <= self.primary {
            self.active_primary += 1;
        }
        *Self::set(&mut self.top, i) &= !COVERED;
        let ItemLink { prev, next } = self.link(i);
        self.link_mut(prev).next = i;
        self.link_mut(next).prev = i;
        let mut p = Self::get(&self.up, i);
        while p != i {
            self.unhide::<C, W>(p, watch);
            p = Self::get(&self.up, p);
        }
    }

    /// Covers the items of option node `x`'s option other than `x`'s own, left to right (with
    /// colours, a coloured item is purified instead: Knuth's `commit`).
    #[inline(always)]
    pub fn cover_others<const C: bool, W: Watch>(&mut self, x: u32, watch: &mut W) -> u64 {
        // Any node will do: every node but an option node is its own right neighbour.
        assert!((x as usize) < self.nodes);
        self.check_colors::<C>();
        let mut hidden = 0;
        let mut p = Self::get(&self.right, x);
        while p != x {
            hidden += self.commit_node::<C, W>(p, watch);
            p = Self::get(&self.right, p);
        }
        hidden
    }

    /// Exactly undoes [`Dance::cover_others`], right to left (covers of different items do
    /// interact, so this order matters).
    #[inline(always)]
    pub fn uncover_others<const C: bool, W: Watch>(&mut self, x: u32, watch: &mut W) {
        // Past the first spacer will do: from another spacer, the steps go once round the
        // option before it.
        assert!(x > self.item_count + 1 && (x as usize) < self.nodes);
        self.check_colors::<C>();
        // Left from an option node: its option's nodes, then the spacer before it, whose
        // `down` is the option's last node (invariant 5 keeps the steps among nodes).
        let mut p = x - 1;
        let mut spacers = 0;
        while p != x {
            if Self::get(&self.top, p) == 0 {
                // A second spacer: `x` was one too, and the option before it is done.
                spacers += 1;
                if spacers == 2 {
                    break;
                }
                p = Self::get(&self.down, p);
            } else {
                self.uncommit_node::<C, W>(p, watch);
                p -= 1;
            }
        }
    }

    /// Takes the item of option node `p` (of an option being chosen) out of play: covers it,
    /// or, for a coloured node, purifies it (nothing to do when its colour is already
    /// settled).
    #[inline(always)]
    pub fn commit<const C: bool, W: Watch>(&mut self, p: u32, watch: &mut W) -> u64 {
        self.check_option_node::<C>(p);
        self.commit_node::<C, W>(p, watch)
    }

    #[inline(always)]
    fn commit_node<const C: bool, W: Watch>(&mut self, p: u32, watch: &mut W) -> u64 {
        if C {
            match Self::get(&self.color, p) {
                0 => {}
                PURIFIED => return 0,
                _ => return self.purify(p),
            }
        }
        self.cover_item::<C, W>(Self::get(&self.top, p), watch)
    }

    /// Exactly undoes [`Dance::commit`].
    #[inline(always)]
    pub fn uncommit<const C: bool, W: Watch>(&mut self, p: u32, watch: &mut W) {
        self.check_option_node::<C>(p);
        self.uncommit_node::<C, W>(p, watch);
    }

    #[inline(always)]
    fn uncommit_node<const C: bool, W: Watch>(&mut self, p: u32, watch: &mut W) {
        if C {
            match Self::get(&self.color, p) {
                0 => {}
                PURIFIED => return,
                _ => return self.unpurify(p),
            }
        }
        self.uncover_item::<C, W>(Self::get(&self.top, p), watch);
    }

    /// Settles the colour of coloured node `p`'s item: hides every option that gives the
    /// item another colour (or none), and marks the nodes that agree [`PURIFIED`] so that
    /// hides leave them in place. Returns the links hidden. Knuth's `purify` in DLX2.
    fn purify(&mut self, p: u32) -> u64 {
        let (item, color) = (Self::get(&self.top, p), Self::get(&self.color, p));
        let mut hidden = 0;
        let mut q = Self::get(&self.down, item);
        while q != item {
            if Self::get(&self.color, q) != color {
                hidden += self.hide::<true, _>(q, &mut Unwatched);
            } else if q != p {
                *Self::set(&mut self.color, q) = PURIFIED;
            }
            q = Self::get(&self.down, q);
        }
        hidden
    }

    /// Exactly undoes [`Dance::purify`], bottom to top.
    fn unpurify(&mut self, p: u32) {
        let (item, color) = (Self::get(&self.top, p), Self::get(&self.color, p));
        let mut q = Self::get(&self.up, item);
        while q != item {
            if Self::get(&self.color, q) == PURIFIED {
                *Self::set(&mut self.color, q) = color;
            } else if q != p {
                self.unhide::<true, _>(q, &mut Unwatched);
            }
            q = Self::get(&self.up, q);
        }
    }

    /// Unlinks the nodes of `p`'s option, other than `p`, from their columns (with colours,
    /// except the [`PURIFIED`] ones, which agree with their item's settled colour), and tells
    /// `watch` of them and of `p`. `p` is a header or an option node (invariant 3), and
    /// hiding a header changes nothing (invariant 4).
    #[inline(always)]
    fn hide<const C: bool, W: Watch>(&mut self, p: u32, watch: &mut W) -> u64 {
        watch.hidden(p);
        let mut hidden = 0;
        let mut q = Self::get(&self.right, p);
        while q != p {
            if C && Self::get(&self.color, q) == PURIFIED {
                q = Self::get(&self.right, q);
                continue;
            }
            self.unlink(q);
            watch.hidden(q);
            hidden += 1;
            q = Self::get(&self.right, q);
        }
        hidden
    }

    /// Exactly undoes [`Dance::hide`]. The nodes of one option lie in distinct columns, so
    /// relinking them in the same order as they were unlinked is as exact as the reverse.
    #[inline(always)]
    fn unhide<const C: bool, W: Watch>(&mut self, p: u32, watch: &mut W) {
        let mut q = Self::get(&self.right, p);
        while q != p {
            if C && Self::get(&self.color, q) == PURIFIED {
                q = Self::get(&self.right, q);
                continue;
            }
            self.relink(q);
            watch.shown(q);
            q = Self::get(&self.right, q);
        }
        watch.shown(p);
    }

    /// Takes the option of node `p` out of the problem for now, as inference does when it
    /// proves that the option is in no solution: unlinks all its nodes (`p`'s too) from
    /// their columns. `p` must lie in an active column, so that every node of its option is
    /// linked. Returns the option's size.
    #[inline(always)]
    pub fn remove_option<W: Watch>(&mut self, p: u32, watch: &mut W) -> u32 {
        self.check_option_node::<false>(p);
        let mut size = 0;
        let mut q = p;
        loop {
            self.unlink(q);
            watch.hidden(q);
            size += 1;
            q = Self::get(&self.right, q);
            if q == p {
                break;
            }
        }
        size
    }

    /// Exactly undoes [`Dance::remove_option`] (the removals after it undone first).
    pub fn restore_option<W: Watch>(&mut self, p: u32, watch: &mut W) {
        self.check_option_node::<false>(p);
        // The option's nodes lie in distinct columns, so relinking them in the order they
        // were unlinked is exact (as for `unhide`).
        let mut q = p;
        loop {
            self.relink(q);
            watch.shown(q);
            q = Self::get(&self.right, q);
            if q == p {
                break;
            }
        }
    }

    /// Takes the option of node `x`, the topmost of its column, out of the problem: hides its
    /// other nodes and unlinks `x` from the column too (Knuth's `tweak`, Algorithm M).
    /// Returns the links removed.
    pub fn tweak<const C: bool>(&mut self, x: u32) -> u64 {
        self.check_option_node::<C>(x);
        let hidden = self.hide::<C, _>(x, &mut Unwatched);
        self.unlink_from_column(x);
        hidden + 1
    }

    /// Unlinks option node `x` from its column only (Knuth's `tweak'`, when the item's cover
    /// has already hidden the rest of its option).
    pub fn unlink_from_column(&mut self, x: u32) {
        self.check_option_node::<false>(x);
        self.unlink(x);
    }

    /// Unlinks option node `q` from its column: one fewer option for its item.
    #[inline(always)]
    fn unlink(&mut self, q: u32) {
        let (up, down) = (Self::get(&self.up, q), Self::get(&self.down, q));
        *Self::set(&mut self.down, up) = down;
        *Self::set(&mut self.up, down) = up;
        let item = Self::get(&self.top, q);
        *Self::set(&mut self.top, item) -= 1;
    }

    /// Exactly undoes [`Dance::unlink`]: `q` still points at its neighbours.
    #[inline(always)]
    fn relink(&mut self, q: u32) {
        let (up, down) = (Self::get(&self.up, q), Self::get(&self.down, q));
        *Self::set(&mut self.down, up) = q;
        *Self::set(&mut self.up, down) = q;
        let item = Self::get(&self.top, q);
        *Self::set(&mut self.top, item) += 1;
    }

    /// Undoes every tweak of `item`'s column since its top was `first` (Knuth's `untweak`):
    /// each tweaked node still points down to the node below it, so the column is relinked
    /// from `first` down to its present top, and, when `options` (not for `tweak'`), each
    /// option is put back in its other columns.
    pub fn untweak<const C: bool>(&mut self, item: u32, first: u32, options: bool) {
        self.check_item(item);
        let column_node = first.wrapping_sub(1) < self.item_count || self.is_option_node(first);
        assert!(column_node, "{first} is not in a column");
        self.check_colors::<C>();
        let top = Self::get(&self.down, item);
        *Self::set(&mut self.down, item) = first;
        let mut above = item;
        let mut node = first;
        let mut restored = 0;
        while node != top {
            *Self::set(&mut self.up, node) = above;
            restored += 1;
            if options {
                self.unhide::<C, _>(node, &mut Unwatched);
            }
            above = node;
            node = Self::get(&self.down, node);
        }
        *Self::set(&mut self.up, top) = above;
        *Self::set(&mut self.top, item) += restored;
    }

    /// Takes active item `i` off the active list without touching its options.
    pub fn deactivate(&mut self, i: u32) {
        self.check_item(i);
        let link = self.link(i);
        self.link_mut(link.prev).next = link.next;
        self.link_mut(link.next).prev = link.prev;
        self.active_primary -= 1;
    }

    /// Exactly undoes [`Dance::deactivate`].
    pub fn reactivate(&mut self, i: u32) {
        self.check_item(i);
        let link = self.link(i);
        self.link_mut(link.prev).next = i;
        self.link_mut(link.next).prev = i;
        self.active_primary += 1;
    }

    /// Keeps the links as they are now, once (without colours: purifying changes colours,
    /// which the copy does not hold), for [`Dance::copy_unchosen`]: taken before the first
    /// option is chosen.
    pub fn keep_unchosen(&mut self) {
        if !self.colored && self.unchosen.is_none() {
            let headers = self.item_count as usize + 1;
            self.unchosen = Some(Box::new(Unchosen {
                up: self.up[..self.nodes].to_vec(),
                down: self.down[..self.nodes].to_vec(),
                lengths: self.top[..headers].to_vec(),
                items: self.items.clone(),
                active_primary: self.active_primary,
            }));
        }
    }

    /// Copies back the links kept by [`Dance::keep_unchosen`]; returns whether it had them.
    /// (Values of these very arrays, so the invariants hold after it.)
    pub fn copy_unchosen(&mut self) -> bool {
        let Some(unchosen) = &self.unchosen else {
            return false;
        };
        self.up[..self.nodes].copy_from_slice(&unchosen.up);
        self.down[..self.nodes].copy_from_slice(&unchosen.down);
        self.top[..unchosen.lengths.len()].copy_from_slice(&unchosen.lengths);
        self.items.copy_from_slice(&unchosen.items);
        self.active_primary = unchosen.active_primary;
        true
    }
}
