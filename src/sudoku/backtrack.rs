//! Plain backtracking over the cells of a puzzle under any rules: the baseline Dancing Links
//! is compared with, and the second solver that checks the engine's answers (and the
//! generator's puzzles) without sharing its search.
//!
//! Seed posts 000, 001 and 002 all solve Sudoku the same way: take the first empty cell in
//! reading order, try the digits 1..N, keep one when no cell it must differ from holds it, go
//! on, undo on failure. Post 000 proposes the obvious improvement, filling the most
//! constrained cell first. [`Baseline::naive`] and [`Baseline::mrv`] are those two orders over
//! one [`Backtracker`], which knows every rule: what each rule asks (the units and neighbour
//! pairs its module defines, the cages, the clues read along cells) becomes the groups of
//! cells that must all differ (their symbols used kept as bit sets), the other cells each
//! cell must differ from, the neighbours it must not be consecutive with, the lines and dots
//! it shares with others, and the cages and clues it is read by, checked cell by cell as
//! symbols are placed. A classic grid is the ruleset of its shape, so classic and variant
//! puzzles take the same path; both orders stop at a deadline or when a cancellation flag
//! (Ctrl-C) is set, as the engine does.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::AnyPuzzle;
use super::exact_cover::{Run, SudokuSolver};
use super::rules::sequences::{Layers, Sequence};
use super::rules::{Neighbour, Rules};
use crate::dlx::stop_reason;

/// Which empty cell the backtracker fills next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellOrder {
    /// The one with the fewest candidates (the `mrv` baseline).
    FewestCandidates,
    /// The first in reading order (the `naive` baseline, the seed posts' method).
    FirstEmpty,
}

/// What [`Backtracker::random_solution`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fill {
    /// A solution.
    Found(Vec<u8>),
    /// None exists: every candidate of every cell was tried.
    NoSolution,
    /// The budget of placements ran out first.
    GaveUp,
}

/// How a timed count ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BacktrackRun {
    /// Solutions found (a lower bound when not finished).
    pub count: u128,
    /// Cells filled in turn (search nodes).
    pub nodes: u64,
    /// Whether the search ended before the deadline.
    pub finished: bool,
}

/// A set of symbols as bits, bit V for symbol V (from 1 to 64).
type Symbols = u128;

/// Placements between two looks at the clock and the cancellation flag, where no clue is read
/// along cells; with such clues a placement walks their machines (a full rank clue's takes
/// milliseconds), so the clock is read at every one.
const STOP_CHECK: u64 = 1024;

/// A backtracking solver for one ruleset.
#[derive(Debug, Clone)]
pub struct Backtracker {
    n: usize,
    /// The cells of the board (see [`Rules::rows`]).
    cells: usize,
    /// Every symbol, as bits.
    all: Symbols,
    /// The groups each cell is in, whose cells all differ (its units and its cage), as
    /// indices into the symbols used per group: those of cell `c` are
    /// `group_list[group_start[c]..group_start[c + 1]]`.
    group_start: Vec<u32>,
    group_list: Vec<u32>,
    /// Whether a cell is only in groups (no other rule reads it): its candidates are then
    /// the symbols its groups have not used, which the search asks most often.
    only_groups: Vec<bool>,
    /// How many groups there are.
    groups: usize,
    /// The other cells each cell must differ from outside its groups (knight or king
    /// neighbours, a difference line's pairs).
    peers: Vec<Vec<usize>>,
    /// The orthogonal neighbours whose symbols must not be consecutive (non-consecutive only).
    adjacent: Vec<Vec<usize>>,
    /// The symbols each cell's pencilmarks allow (all of them without).
    allowed: Vec<Symbols>,
    /// The other cells each cell is related to by a line or a dot: the other cell, the
    /// relation, and whether this cell is the first of the pair.
    related: Vec<Vec<(usize, Neighbour, bool)>>,
    /// The cage of each cell, as an index into `cages`.
    cage_of: Vec<Option<usize>>,
    /// Each cage's sum and cells.
    cages: Vec<(u32, Vec<usize>)>,
    /// The clues read along cells: their cells, their machine and its layers (none when it
    /// is too large to unroll: then it is only judged once its cells are filled).
    sequences: Vec<(Vec<usize>, Arc<Sequence>, Option<Layers>)>,
    /// The clues read along cells that read each cell, as indices into `sequences`.
    sequences_of: Vec<Vec<usize>>,
}

/// A search's grid: the symbols placed (0 for empty), the symbols used in each group, and
/// the cells that were empty at the start, those filled by the search first, in the order
/// filled (the others after them, in reading order at first).
struct Board {
    grid: Vec<u8>,
    used: Vec<Symbols>,
    empties: Vec<usize>,
}

impl Backtracker {
    /// A solver for `rules`.
    pub fn new(rules: &Rules) -> Backtracker {
        let n = rules.size;
        let count = rules.cell_count();
        // Units and cages: every two of their cells differ.
        let mut groups: Vec<Vec<usize>> = rules
            .units()
            .iter()
            .map(|unit| unit.cells.iter().map(|&(r, c)| r * n + c).collect())
            .collect();
        let mut cage_of = vec![None; count];
        let mut cages = Vec::new();
        for (k, cage) in rules.cages().iter().enumerate() {
            let cells: Vec<usize> = cage.cells.iter().map(|&(r, c)| r * n + c).collect();
            for &cell in &cells {
                cage_of[cell] = Some(k);
            }
            groups.push(cells.clone());
            cages.push((cage.sum, cells));
        }
        let mut groups_of = vec![Vec::new(); count];
        for (g, group) in groups.iter().enumerate() {
            for &cell in group {
                if !groups_of[cell].contains(&g) {
                    groups_of[cell].push(g);
                }
            }
        }
        let share_a_group =
            |a: usize, b: usize| groups_of[a].iter().any(|g| groups_of[b].contains(g));
        let mut peers = vec![Vec::new(); count];
        let mut adjacent = vec![Vec::new(); count];
        let mut related = vec![Vec::new(); count];
        let marks = rules.allowed();
        let allowed = (0..count)
            .map(|cell| {
                (1..=n)
                    .filter(|v| marks[cell * n + v - 1])
                    .fold(0, |mask: Symbols, v| mask | 1 << v)
            })
            .collect();
        for ((r, c), (r2, c2), relation) in rules.neighbour_pairs() {
            let (a, b) = (r * n + c, r2 * n + c2);
            match relation {
                Neighbour::Different => {
                    if a != b && !share_a_group(a, b) && !peers[a].contains(&b) {
                        peers[a].push(b);
                        peers[b].push(a);
                    }
                }
                Neighbour::NotConsecutive => {
                    adjacent[a].push(b);
                    adjacent[b].push(a);
                }
                // Lines and dots: what each cell of the pair may not hold beside the other.
                other => {
                    related[a].push((b, other, true));
                    related[b].push((a, other, false));
                }
            }
        }
        let mut sequences_of: Vec<Vec<usize>> = vec![Vec::new(); count];
        let all: Symbols = (1 << (n + 1)) - 2;
        let sequences = rules
            .sequences()
            .into_iter()
            .enumerate()
            .map(|(k, sequence)| {
                let cells: Vec<usize> = sequence.cells.iter().map(|&(r, c)| r * n + c).collect();
                for &cell in &cells {
                    if !sequences_of[cell].contains(&k) {
                        sequences_of[cell].push(k);
                    }
                }
                let layers = sequence.layers(|_| all, &|| false).ok();
                (cells, Arc::new(sequence), layers)
            })
            .collect();
        let mut group_start = vec![0u32];
        let mut group_list = Vec::new();
        for list in &groups_of {
            group_list.extend(list.iter().map(|&g| g as u32));
            group_start.push(group_list.len() as u32);
        }
        let only_groups = (0..count)
            .map(|cell| {
                peers[cell].is_empty()
                    && adjacent[cell].is_empty()
                    && related[cell].is_empty()
                    && cage_of[cell].is_none()
                    && sequences_of[cell].is_empty()
            })
            .collect();
        Backtracker {
            n,
            cells: count,
            all,
            groups: groups.len(),
            group_start,
            group_list,
            only_groups,
            peers,
            adjacent,
            related,
            allowed,
            cage_of,
            cages,
            sequences,
            sequences_of,
        }
    }

    /// The board with `givens` placed, or `None` when a given breaks a rule with those
    /// before it.
    fn board(&self, givens: &[u8]) -> Option<Board> {
        let mut board = Board {
            grid: vec![0; self.cells],
            used: vec![0; self.groups],
            empties: Vec::new(),
        };
        for (cell, &value) in givens.iter().enumerate() {
            if value != 0 {
                if usize::from(value) > self.n || self.candidates(&board, cell) & (1 << value) == 0
                {
                    return None;
                }
                self.place(&mut board, cell, value);
            }
        }
        board.empties = (0..givens.len()).filter(|&c| givens[c] == 0).collect();
        Some(board)
    }

    /// The groups `cell` is in.
    fn groups_of(&self, cell: usize) -> &[u32] {
        &self.group_list[self.group_start[cell] as usize..self.group_start[cell + 1] as usize]
    }

    fn place(&self, board: &mut Board, cell: usize, value: u8) {
        board.grid[cell] = value;
        for &g in self.groups_of(cell) {
            board.used[g as usize] |= 1 << value;
        }
    }

    fn unplace(&self, board: &mut Board, cell: usize) {
        let value = std::mem::take(&mut board.grid[cell]);
        for &g in self.groups_of(cell) {
            board.used[g as usize] &= !(1 << value);
        }
    }

    /// The symbols that may go in `cell` as things stand (see [`Symbols`]).
    #[inline]
    fn candidates(&self, board: &Board, cell: usize) -> Symbols {
        let mut taken: Symbols = 0;
        for &g in self.groups_of(cell) {
            taken |= board.used[g as usize];
        }
        if self.only_groups[cell] {
            return self.all & !taken & self.allowed[cell];
        }
        self.candidates_under_other_rules(board, cell, taken)
    }

    /// [`Backtracker::candidates`] of a cell that rules other than groups read, `taken`
    /// holding the symbols its groups have used (kept out of line: most cells of most
    /// puzzles do not come here).
    #[inline(never)]
    fn candidates_under_other_rules(&self, board: &Board, cell: usize, taken: Symbols) -> Symbols {
        let grid = &board.grid;
        let mut taken = taken;
        for &p in &self.peers[cell] {
            taken |= 1 << grid[p];
        }
        for &p in &self.adjacent[cell] {
            let v = grid[p];
            if v != 0 {
                taken |= (1 << (v + 1)) | (1 << (v - 1));
            }
        }
        for &(p, relation, first) in &self.related[cell] {
            let w = grid[p];
            if w != 0 {
                for x in 1..=self.n as u8 {
                    let forbidden = if first {
                        relation.forbids(x, w)
                    } else {
                        relation.forbids(w, x)
                    };
                    if forbidden {
                        taken |= 1 << x;
                    }
                }
            }
        }
        let mut candidates = self.all & !taken & self.allowed[cell];
        if let Some(k) = self.cage_of[cell]
            && candidates != 0
        {
            candidates &= self.cage_candidates(grid, cell, k);
        }
        for &k in &self.sequences_of[cell] {
            if candidates == 0 {
                break;
            }
            candidates &= self.sequence_candidates(grid, cell, k);
        }
        candidates
    }

    /// The symbols that `cell` may take for the clue read along cells `k` to stay keepable,
    /// the other cells holding what they hold or, when empty, anything.
    fn sequence_candidates(&self, grid: &[u8], cell: usize, k: usize) -> Symbols {
        let (cells, sequence, layers) = &self.sequences[k];
        let all = self.all;
        let held = |at: usize| match grid[cells[at]] {
            _ if cells[at] == cell => all,
            0 => all,
            v => 1 << v,
        };
        match layers {
            Some(layers) if cells.iter().filter(|&&c| c == cell).count() == 1 => {
                let narrowed = layers.narrowed(held);
                cells
                    .iter()
                    .zip(narrowed)
                    .filter(|&(&c, _)| c == cell)
                    .fold(all, |bits, (_, symbols)| bits & symbols)
            }
            // A cell read twice must read the same symbol both times: each symbol is tried.
            Some(layers) => (1..=self.n as u8)
                .filter(|&v| {
                    let narrowed =
                        layers.narrowed(|at| if cells[at] == cell { 1 << v } else { held(at) });
                    narrowed.first().is_some_and(|&bits| bits != 0)
                })
                .fold(0, |bits, v| bits | 1 << v),
            // Too large to unroll: judged once every other cell is filled.
            None => {
                let open = cells.iter().filter(|&&c| c != cell && grid[c] == 0).count();
                if open > 0 {
                    return all;
                }
                (1..=self.n as u8)
                    .filter(|&v| {
                        let values: Vec<u8> = cells
                            .iter()
                            .map(|&c| if c == cell { v } else { grid[c] })
                            .collect();
                        sequence.keeps(&values)
                    })
                    .fold(0, |bits, v| bits | 1 << v)
            }
        }
    }

    /// The symbols that `cell` may take for its cage's sum to stay reachable.
    fn cage_candidates(&self, grid: &[u8], cell: usize, k: usize) -> Symbols {
        let (sum, cells) = &self.cages[k];
        let mut total = 0u32;
        let mut used: Symbols = 0;
        let mut open = 0usize;
        for &other in cells {
            if other == cell {
                continue;
            }
            if grid[other] == 0 {
                open += 1;
            } else {
                total += u32::from(grid[other]);
                used |= 1 << grid[other];
            }
        }
        let mut allowed = 0;
        for value in 1..=self.n as u32 {
            if used & (1 << value) != 0 {
                continue;
            }
            // The other open cells take the smallest and the largest unused symbols at best.
            let free = (1..=self.n as u32).filter(|&v| v != value && used & (1 << v) == 0);
            let least: u32 = free.clone().take(open).sum();
            let most: u32 = free.rev().take(open).sum();
            if total + value + least <= *sum && total + value + most >= *sum {
                allowed |= 1 << value;
            }
        }
        allowed
    }

    /// The number of solutions with these givens (row by row, 0 for empty), stopping at
    /// `limit`. Givens that break a rule give 0.
    pub fn count(&self, givens: &[u8], limit: u128) -> u128 {
        self.count_within(givens, limit, CellOrder::FewestCandidates, None, None)
            .count
    }

    /// [`Backtracker::count`] filling cells in `order`, giving up at `deadline` or once
    /// `cancel` is set (e.g. by a Ctrl-C handler).
    pub fn count_within(
        &self,
        givens: &[u8],
        limit: u128,
        order: CellOrder,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
    ) -> BacktrackRun {
        let mut count = 0;
        let run = self.each_solution(givens, order, deadline, cancel, &mut |_| {
            count += 1;
            if count < limit {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        });
        BacktrackRun {
            count,
            nodes: run.stats.nodes,
            finished: !run.interrupted,
        }
    }

    /// Calls `visit` with each solution with these givens, filling cells in `order`, until
    /// it breaks, the solutions run out, `deadline` passes or `cancel` is set. Givens that
    /// break a rule have no solution.
    pub fn each_solution(
        &self,
        givens: &[u8],
        order: CellOrder,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
        visit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> Run {
        let mut run = Run::default();
        let Some(mut board) = self.board(givens) else {
            return run;
        };
        let mut solutions = 0;
        let mut nodes = 0u64;
        let mut late = false;
        let check_every = if self.sequences.is_empty() {
            STOP_CHECK
        } else {
            1
        };
        self.search(
            &mut board,
            0,
            order,
            &mut |solution| {
                solutions += 1;
                visit(solution).is_continue()
            },
            &mut |_| {
                nodes += 1;
                // The clock and the flag are read every `check_every` placements.
                if nodes.is_multiple_of(check_every) && stop_reason(cancel, deadline).is_some() {
                    late = true;
                    return usize::MAX;
                }
                0
            },
        );
        run.stats.nodes = nodes;
        run.stats.solutions = solutions;
        run.interrupted = late;
        run
    }

    /// A solution with these givens, trying candidates in the order `pick` shuffles them
    /// (`pick(k)` returns an index below `k`), giving up after `budget` placements; or the
    /// proof that there is none, when the search ends within the budget.
    pub fn random_solution(
        &self,
        givens: &[u8],
        pick: &mut dyn FnMut(usize) -> usize,
        budget: u64,
    ) -> Fill {
        let Some(mut board) = self.board(givens) else {
            return Fill::NoSolution;
        };
        let mut found = None;
        let mut placements = 0u64;
        let exhausted = self.search(
            &mut board,
            0,
            CellOrder::FewestCandidates,
            &mut |solution| {
                found = Some(solution.to_vec());
                false
            },
            &mut |k| {
                placements += 1;
                if placements > budget {
                    usize::MAX
                } else {
                    pick(k)
                }
            },
        );
        match found {
            Some(solution) => Fill::Found(solution),
            None if exhausted => Fill::NoSolution,
            None => Fill::GaveUp,
        }
    }

    /// Fills the empty cell `order` names among those not filled yet (`board.empties` from
    /// `depth` on), with each of its candidates in turn (rotated by `pick`, asked once per
    /// cell filled with the number of candidates; a pick of `usize::MAX` abandons the
    /// search), and calls `found` at each solution until it returns false. Returns false
    /// when the search was ended.
    fn search(
        &self,
        board: &mut Board,
        depth: usize,
        order: CellOrder,
        found: &mut dyn FnMut(&[u8]) -> bool,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> bool {
        if depth == board.empties.len() {
            return found(&board.grid);
        }
        let mut best = depth;
        let mut bits = 0;
        let mut fewest = u32::MAX;
        for k in depth..board.empties.len() {
            let candidates = self.candidates(board, board.empties[k]);
            if candidates.count_ones() < fewest {
                (best, bits, fewest) = (k, candidates, candidates.count_ones());
                // A cell with one candidate is filled at once, as a person would.
                if fewest <= 1 || order == CellOrder::FirstEmpty {
                    break;
                }
            }
        }
        // The cell chosen moves to position `depth`; the one there takes its place.
        board.empties.swap(depth, best);
        let cell = board.empties[depth];
        if bits == 0 {
            return true;
        }
        // The candidates in increasing order, on the stack: nothing is allocated per node.
        let mut candidates = [0u8; 64];
        let mut len = 0;
        let mut rest = bits;
        while rest != 0 {
            candidates[len] = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            len += 1;
        }
        let shift = pick(len);
        if shift == usize::MAX {
            return false;
        }
        let candidates = &mut candidates[..len];
        candidates.rotate_left(shift % len);
        for &value in candidates.iter() {
            self.place(board, cell, value);
            let go_on = self.search(board, depth + 1, order, found, pick);
            self.unplace(board, cell);
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// The backtracking baseline behind [`SudokuSolver`]: one [`Backtracker`] for the rules of
/// the puzzle at hand (kept while the next puzzle has the same rules), filling cells in one
/// order.
#[derive(Debug, Clone)]
pub struct Baseline {
    order: CellOrder,
    cancel: Option<Arc<AtomicBool>>,
    tables: Option<(Rules, Backtracker)>,
}

impl Baseline {
    /// The most constrained cell first: the empty cell with the fewest candidates.
    pub fn mrv() -> Baseline {
        Baseline::with_order(CellOrder::FewestCandidates)
    }

    /// The seed posts' method: the first empty cell in reading order, symbols in order.
    pub fn naive() -> Baseline {
        Baseline::with_order(CellOrder::FirstEmpty)
    }

    fn with_order(order: CellOrder) -> Baseline {
        Baseline {
            order,
            cancel: None,
            tables: None,
        }
    }

    /// Makes later searches stop, as if their deadline had passed, once `flag` is set (e.g.
    /// by a Ctrl-C handler), as [`crate::dlx::Solver::set_cancel_flag`] does.
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// The backtracker of `rules`, built unless the last puzzle had the same rules.
    fn backtracker(&mut self, rules: Rules) -> &Backtracker {
        if self.tables.as_ref().is_none_or(|(kept, _)| *kept != rules) {
            let backtracker = Backtracker::new(&rules);
            self.tables = Some((rules, backtracker));
        }
        &self.tables.as_ref().expect("built above").1
    }
}

impl SudokuSolver for Baseline {
    fn name(&self) -> &'static str {
        match self.order {
            CellOrder::FewestCandidates => "mrv",
            CellOrder::FirstEmpty => "naive",
        }
    }

    fn search(
        &mut self,
        puzzle: &AnyPuzzle,
        deadline: Option<Instant>,
        visit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> Run {
        let (order, cancel) = (self.order, self.cancel.clone());
        let backtracker = self.backtracker(puzzle.rules());
        backtracker.each_solution(puzzle.givens(), order, deadline, cancel.as_deref(), visit)
    }
}
