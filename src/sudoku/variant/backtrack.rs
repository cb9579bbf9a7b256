//! Plain backtracking over the cells of a variant puzzle: the second solver, that checks the
//! exact-cover engine's answers (and the generator's puzzles) without sharing its search.
//! What each rule asks (the units and neighbour pairs its module defines, the cages) becomes
//! the cells each cell must differ from, the orthogonal neighbours it must not be consecutive
//! with and its cage, checked cell by cell as symbols are placed;
//! the cell with the fewest candidates is filled next (or, for the `naive` baseline of
//! `sudoku compare`, the first empty cell).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{Neighbour, Rules};
use crate::dlx::stop_reason;
use crate::sudoku::rules::sequences::{Layers, Sequence};

/// Which empty cell the backtracker fills next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellOrder {
    /// The one with the fewest candidates (the `mrv` baseline).
    FewestCandidates,
    /// The first in reading order (the `naive` baseline).
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

/// A backtracking solver for one variant's rules.
#[derive(Debug, Clone)]
pub struct Backtracker {
    n: usize,
    /// The cells each cell must differ from (its units, knight or king neighbours, its cage).
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

impl Backtracker {
    /// A solver for `rules`.
    pub fn new(rules: &Rules) -> Backtracker {
        let n = rules.size;
        let mut peers = vec![Vec::new(); n * n];
        let link = |a: usize, b: usize, peers: &mut Vec<Vec<usize>>| {
            if a != b && !peers[a].contains(&b) {
                peers[a].push(b);
                peers[b].push(a);
            }
        };
        // Units and cages: every two of their cells differ.
        let mut groups: Vec<Vec<usize>> = rules
            .units()
            .iter()
            .map(|unit| unit.cells.iter().map(|&(r, c)| r * n + c).collect())
            .collect();
        let mut cage_of = vec![None; n * n];
        let mut cages = Vec::new();
        for (k, cage) in rules.cages().iter().enumerate() {
            let cells: Vec<usize> = cage.cells.iter().map(|&(r, c)| r * n + c).collect();
            for &cell in &cells {
                cage_of[cell] = Some(k);
            }
            groups.push(cells.clone());
            cages.push((cage.sum, cells));
        }
        for group in &groups {
            for &a in group {
                for &b in group {
                    link(a, b, &mut peers);
                }
            }
        }
        let mut adjacent = vec![Vec::new(); n * n];
        let mut related = vec![Vec::new(); n * n];
        let marks = rules.allowed();
        let allowed = (0..n * n)
            .map(|cell| {
                (1..=n)
                    .filter(|v| marks[cell * n + v - 1])
                    .fold(0, |mask: Symbols, v| mask | 1 << v)
            })
            .collect();
        for ((r, c), (r2, c2), relation) in rules.neighbour_pairs() {
            let (a, b) = (r * n + c, r2 * n + c2);
            match relation {
                Neighbour::Different => link(a, b, &mut peers),
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
        let mut sequences_of = vec![Vec::new(); n * n];
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
                let all = (1 << (n + 1)) - 2;
                let layers = sequence.layers(|_| all, &|| false).ok();
                (cells, Arc::new(sequence), layers)
            })
            .collect();
        Backtracker {
            n,
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

    /// Whether `value` may go in `cell` of `grid` (0 for empty cells) as things stand.
    fn allowed(&self, grid: &[u8], cell: usize, value: u8) -> bool {
        self.candidates(grid, cell) & (1 << value) != 0
    }

    /// The symbols that may go in `cell` as things stand (see [`Symbols`]).
    fn candidates(&self, grid: &[u8], cell: usize) -> Symbols {
        let all = (1 << (self.n + 1)) - 2;
        let mut taken: Symbols = 0;
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
        let mut candidates = all & !taken & self.allowed[cell];
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
        let all: Symbols = (1 << (self.n + 1)) - 2;
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
        let mut run = BacktrackRun {
            count: 0,
            nodes: 0,
            finished: true,
        };
        let mut grid = vec![0; self.n * self.n];
        for (cell, &value) in givens.iter().enumerate() {
            if value != 0 {
                if !self.allowed(&grid, cell, value) {
                    return run;
                }
                grid[cell] = value;
            }
        }
        let mut count = 0;
        let mut nodes = 0u64;
        let mut late = false;
        self.search(
            &mut grid,
            order,
            &mut |_| {
                count += 1;
                count < limit
            },
            &mut |_| {
                nodes += 1;
                // The clock and the flag are read every 1,024 nodes.
                if nodes.is_multiple_of(1024) && stop_reason(cancel, deadline).is_some() {
                    late = true;
                    return usize::MAX;
                }
                0
            },
        );
        run.count = count;
        run.nodes = nodes;
        run.finished = !late;
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
        let mut grid = givens.to_vec();
        let mut found = None;
        let mut placements = 0u64;
        let exhausted = self.search(
            &mut grid,
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

    /// Fills the empty cell with the fewest candidates, each in turn (rotated by `pick`; a
    /// pick of `usize::MAX` abandons the search), and calls `found` at each solution until
    /// it returns false. Returns false when the search was ended.
    fn search(
        &self,
        grid: &mut [u8],
        order: CellOrder,
        found: &mut dyn FnMut(&[u8]) -> bool,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> bool {
        let mut best: Option<(usize, Vec<u8>)> = None;
        let mut fewest = u32::MAX;
        for cell in (0..grid.len()).filter(|&cell| grid[cell] == 0) {
            let bits = self.candidates(grid, cell);
            if bits.count_ones() < fewest || order == CellOrder::FirstEmpty {
                fewest = bits.count_ones();
                let symbols = (1..=self.n as u8)
                    .filter(|&v| bits & (1 << v) != 0)
                    .collect();
                best = Some((cell, symbols));
                if fewest == 0 || order == CellOrder::FirstEmpty {
                    break;
                }
            }
        }
        let Some((cell, mut candidates)) = best else {
            return found(grid);
        };
        if !candidates.is_empty() {
            let shift = pick(candidates.len());
            if shift == usize::MAX {
                return false;
            }
            let len = candidates.len();
            candidates.rotate_left(shift % len);
        }
        for value in candidates {
            grid[cell] = value;
            let go_on = self.search(grid, order, found, pick);
            grid[cell] = 0;
            if !go_on {
                return false;
            }
        }
        true
    }
}
