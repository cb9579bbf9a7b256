//! The rest of a classic 9x9 search, counted or listed in bit sets: the [`RestCounter`] of the
//! 9x9 encoding.
//!
//! Enumerating a 9x9 puzzle's solutions with dancing links costs about 14 nodes a solution,
//! most of them forced moves after the last branch point. Here the rest of such a search (the
//! options chosen so far, clues included) is counted with the exact cover's items held as bit
//! sets of 81 bits, one set per option of an item kind, so that a test of every item of a kind
//! is a few dozen word operations:
//!
//! - cells: for each digit, the cells where it may still go;
//! - row-digits: for each column, the (row, digit) pairs it may still take;
//! - column-digits: for each row, the (column, digit) pairs it may still take.
//!
//! The item of each kind with no option left ends the branch; every item with exactly one
//! (a naked single, or a hidden single in a row or a column) is placed; otherwise the search
//! branches on an item with two options, or on a cell. Box-digit items are not tracked: a box
//! missing a digit ends in a cell with no option a few moves later, and tracking them cost more
//! than it saved (`docs/design/search.md`). A classic 9x9 grid is all this counter knows:
//! [`Encoding`](super::Encoding) gives it to the matrix of the 3x3 box shape, whose option
//! `81 r + 9 c + d` puts digit `d + 1` at row `r`, column `c`.

use std::sync::OnceLock;

use crate::dlx::{OptionId, RestCount, RestCounter};

/// A set of the 81 cells (or (row, digit), (column, digit) pairs), row by row: bits 0 to 63
/// in the first word, 64 to 80 in the second. Two plain words rather than a `u128`: the
/// compiler then never mixes 64-bit and 128-bit accesses to one set, whose stalls made the
/// whole count 1.4 times as slow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Set81(u64, u64);

impl Set81 {
    const EMPTY: Set81 = Set81(0, 0);
    const ALL: Set81 = Set81(u64::MAX, (1 << 17) - 1);

    const fn one(k: usize) -> Set81 {
        if k < 64 {
            Set81(1 << k, 0)
        } else {
            Set81(0, 1 << (k - 64))
        }
    }

    #[inline(always)]
    fn and(self, other: Set81) -> Set81 {
        Set81(self.0 & other.0, self.1 & other.1)
    }

    #[inline(always)]
    fn or(self, other: Set81) -> Set81 {
        Set81(self.0 | other.0, self.1 | other.1)
    }

    #[inline(always)]
    fn without(self, other: Set81) -> Set81 {
        Set81(self.0 & !other.0, self.1 & !other.1)
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        (self.0 | self.1) == 0
    }

    #[inline(always)]
    fn first(self) -> usize {
        if self.0 != 0 {
            self.0.trailing_zeros() as usize
        } else {
            64 + self.1.trailing_zeros() as usize
        }
    }

    /// Removes and returns the lowest member (the set is not empty).
    #[inline(always)]
    fn pop(&mut self) -> usize {
        let k = self.first();
        if self.0 != 0 {
            self.0 &= self.0 - 1;
        } else {
            self.1 &= self.1 - 1;
        }
        k
    }
}

/// The sets every count reads: single members, lines of nine, bands and peers.
struct Tables {
    /// `one[k]`: the set of `k` alone.
    one: [Set81; 81],
    /// `line[a]`: the nine members `9 a ..= 9 a + 8`.
    line: [Set81; 9],
    /// `column[b]`: the nine members `9 a + b`.
    column: [Set81; 9],
    /// `band[t][b]`: the three members `9 a + b` for `a` in band `t` (`3 t ..= 3 t + 2`).
    band: [[Set81; 9]; 3],
    /// `peers[k]`: the cells sharing a row, column or box with cell `k`, `k` included.
    peers: [Set81; 81],
}

impl Tables {
    fn new() -> Tables {
        let mut tables = Tables {
            one: [Set81::EMPTY; 81],
            line: [Set81::EMPTY; 9],
            column: [Set81::EMPTY; 9],
            band: [[Set81::EMPTY; 9]; 3],
            peers: [Set81::EMPTY; 81],
        };
        for k in 0..81 {
            tables.one[k] = Set81::one(k);
        }
        for a in 0..9 {
            for b in 0..9 {
                let member = Set81::one(9 * a + b);
                tables.line[a] = tables.line[a].or(member);
                tables.column[b] = tables.column[b].or(member);
                tables.band[a / 3][b] = tables.band[a / 3][b].or(member);
            }
        }
        for k in 0..81 {
            let (row, col) = (k / 9, k % 9);
            for other in 0..81 {
                let (r, c) = (other / 9, other % 9);
                if r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3) {
                    tables.peers[k] = tables.peers[k].or(Set81::one(other));
                }
            }
        }
        tables
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::new)
}

/// The item kinds tracked, in the order they are looked at.
const KINDS: usize = 3;

/// The live options of a partly filled grid, by item kind: `live[kind][plane]` holds the
/// items of that kind (as members `9 a + b`) whose option on `plane` is still live, and
/// `open[kind]` the items not yet covered. Only the members of open items are kept exact: an
/// item covered by a placement keeps its bits (clearing them from all nine sets of its kind
/// made the whole count 1.18 times as long), so every read goes through `open`.
///
/// | kind | item (member `9 a + b`) | plane |
/// |---|---|---|
/// | 0 | cell (row `a`, column `b`) | digit |
/// | 1 | row `a`, digit `b` | column |
/// | 2 | column `a`, digit `b` | row |
#[derive(Clone, Copy)]
struct Board {
    live: [[Set81; 9]; KINDS],
    open: [Set81; KINDS],
}

impl Board {
    fn empty() -> Board {
        Board {
            live: [[Set81::ALL; 9]; KINDS],
            open: [Set81::ALL; KINDS],
        }
    }

    /// Puts digit `d` (from 0) at row `r`, column `c`: covers its items and removes every
    /// option that shares one with it from the items still open.
    #[inline(always)]
    fn place(&mut self, t: &Tables, r: usize, c: usize, d: usize) {
        // Cells: the peers of this cell for `d`.
        let cell = t.one[9 * r + c];
        self.live[0][d] = self.live[0][d].without(t.peers[9 * r + c]);
        self.open[0] = self.open[0].without(cell);
        // Row-digits: `d` in the rows of the box's band for the box's columns; the whole
        // row and digit `d` of every row for column `c`.
        let pair = t.one[9 * r + d];
        let band = t.band[r / 3][d];
        for plane in &mut self.live[1][(c / 3) * 3..(c / 3) * 3 + 3] {
            *plane = plane.without(band);
        }
        self.live[1][c] = self.live[1][c].without(t.line[r].or(t.column[d]));
        self.open[1] = self.open[1].without(pair);
        // Column-digits, the same with rows and columns swapped.
        let pair = t.one[9 * c + d];
        let band = t.band[c / 3][d];
        for plane in &mut self.live[2][(r / 3) * 3..(r / 3) * 3 + 3] {
            *plane = plane.without(band);
        }
        self.live[2][r] = self.live[2][r].without(t.line[c].or(t.column[d]));
        self.open[2] = self.open[2].without(pair);
    }

    /// Whether digit `d` may still go at row `r`, column `c`.
    fn allows(&self, t: &Tables, r: usize, c: usize, d: usize) -> bool {
        !self.live[0][d]
            .and(self.open[0])
            .and(t.one[9 * r + c])
            .is_empty()
    }
}

/// The (row, column, digit) of the option on `plane` of item `member` of `kind`.
#[inline(always)]
fn option_of(kind: usize, member: usize, plane: usize) -> (usize, usize, usize) {
    let (a, b) = (member / 9, member % 9);
    match kind {
        0 => (a, b, plane),
        1 => (a, plane, b),
        _ => (plane, a, b),
    }
}

/// A count in progress: the solutions so far and the steps taken; with `LIST`, the options
/// placed on the path to the node, and what to do with each solution found.
struct Count<'v, const LIST: bool> {
    solutions: u128,
    nodes: u64,
    limit: u128,
    budget: u64,
    placed: Vec<OptionId>,
    visit: &'v mut dyn FnMut(&[OptionId]),
}

impl<const LIST: bool> Count<'_, LIST> {
    /// Puts digit `d` at row `r`, column `c` of `board`, noting it when listing.
    #[inline(always)]
    fn place(&mut self, t: &Tables, board: &mut Board, (r, c, d): (usize, usize, usize)) {
        board.place(t, r, c, d);
        if LIST {
            self.placed.push(OptionId((81 * r + 9 * c + d) as u32));
        }
    }

    /// Counts the solutions of `board` (a node of the search).
    fn node(&mut self, t: &Tables, board: Board) {
        let mark = self.placed.len();
        self.search(t, board);
        if LIST {
            self.placed.truncate(mark);
        }
    }

    /// Whether the count is over: the limit reached or the budget spent.
    fn over(&self) -> bool {
        self.solutions >= self.limit || self.nodes >= self.budget
    }

    /// [`Count::node`] but for taking back the options it places.
    fn search(&mut self, t: &Tables, mut board: Board) {
        self.nodes += 1;
        loop {
            if board.open[0].is_empty() {
                self.solutions += 1;
                if LIST {
                    (self.visit)(&self.placed);
                }
                return;
            }
            // Items with one option are placed, kind by kind; an item with none ends the
            // branch. Otherwise the first item with exactly two options (cells first) is
            // branched on.
            let mut placed = false;
            let mut pair = None;
            for kind in 0..KINDS {
                let (mut ones, mut twos, mut threes) = (Set81::EMPTY, Set81::EMPTY, Set81::EMPTY);
                for &plane in &board.live[kind] {
                    threes = threes.or(twos.and(plane));
                    twos = twos.or(ones.and(plane));
                    ones = ones.or(plane);
                }
                if !board.open[kind].without(ones).is_empty() {
                    return;
                }
                let mut singles = ones.without(twos).and(board.open[kind]);
                if !singles.is_empty() {
                    placed = true;
                    while !singles.is_empty() {
                        let member = singles.pop();
                        let one = t.one[member];
                        if board.open[kind].and(one).is_empty() {
                            continue;
                        }
                        let Some(plane) =
                            (0..9).find(|&p| !board.live[kind][p].and(one).is_empty())
                        else {
                            // Its one option went with a single placed just before.
                            return;
                        };
                        self.place(t, &mut board, option_of(kind, member, plane));
                    }
                } else if !placed && pair.is_none() {
                    let two = twos.without(threes).and(board.open[kind]);
                    if !two.is_empty() {
                        pair = Some((kind, two.first()));
                    }
                }
            }
            if placed {
                continue;
            }
            if self.over() {
                return;
            }
            let (kind, member) = pair.unwrap_or((0, board.open[0].first()));
            let one = t.one[member];
            let mut planes = [0u8; 9];
            let mut options = 0;
            for (p, plane) in board.live[kind].iter().enumerate() {
                if !plane.and(one).is_empty() {
                    planes[options] = p as u8;
                    options += 1;
                }
            }
            if options == 0 {
                return;
            }
            // Every option but the last on a copy; the last on this board, in this loop.
            for &p in &planes[..options - 1] {
                let mark = self.placed.len();
                let mut child = board;
                self.place(t, &mut child, option_of(kind, member, p as usize));
                self.node(t, child);
                if LIST {
                    self.placed.truncate(mark);
                }
                if self.over() {
                    return;
                }
            }
            let plane = planes[options - 1] as usize;
            self.place(t, &mut board, option_of(kind, member, plane));
            self.nodes += 1;
        }
    }
}

/// The [`RestCounter`] of the classic 9x9 encoding.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClassicRest;

impl ClassicRest {
    /// Counts (listing with `LIST`) the solutions that hold `chosen`.
    fn run<const LIST: bool>(
        chosen: &[OptionId],
        limit: u128,
        budget: u64,
        visit: &mut dyn FnMut(&[OptionId]),
    ) -> RestCount {
        let t = tables();
        let mut board = Board::empty();
        for option in chosen {
            let k = option.0 as usize;
            let (r, c, d) = (k / 81, k / 9 % 9, k % 9);
            if k >= 729 || !board.allows(t, r, c, d) {
                // Options that clash (or are not this encoding's) hold in no solution.
                return RestCount {
                    solutions: Some(0),
                    nodes: 0,
                };
            }
            board.place(t, r, c, d);
        }
        let mut count = Count::<LIST> {
            solutions: 0,
            nodes: 0,
            limit,
            budget,
            placed: Vec::new(),
            visit,
        };
        count.node(t, board);
        let finished = count.solutions >= limit || count.nodes < budget;
        RestCount {
            solutions: finished.then_some(count.solutions),
            nodes: count.nodes,
        }
    }
}

impl RestCounter for ClassicRest {
    fn items_at_most(&self) -> usize {
        4 * 81
    }

    fn count(&self, chosen: &[OptionId], limit: u128, budget: u64) -> RestCount {
        ClassicRest::run::<false>(chosen, limit, budget, &mut |_| {})
    }

    fn lists(&self) -> bool {
        true
    }

    fn list(
        &self,
        chosen: &[OptionId],
        limit: usize,
        budget: u64,
        visit: &mut dyn FnMut(&[OptionId]),
    ) -> RestCount {
        ClassicRest::run::<true>(chosen, limit as u128, budget, visit)
    }
}
