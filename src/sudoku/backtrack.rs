//! The simple backtracking baselines that Dancing Links is compared with.
//!
//! Seed posts 000, 001 and 002 all solve Sudoku the same way: take the first empty cell in
//! reading order, try the digits 1..N, keep one when no cell of its row, column or box holds it,
//! go on, undo on failure. [`Naive`] is exactly that, with the validity check done by scanning,
//! as the posts write it. Post 000 proposes the obvious improvement, filling the most
//! constrained cell first; [`Mrv`] does that, with the digits used in each row, column and box
//! kept as bit sets. Both are iterative (an explicit stack, no recursion) and take any box
//! shape, so the comparison with [`GridSolver`](super::GridSolver) is like for like. Both
//! stop, as it does, at a deadline or when a cancellation flag (Ctrl-C) is set.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bitvec::BitArr;
use bitvec::order::Lsb0;

use super::exact_cover::{Run, SudokuSolver};
use super::model::Grid;
use crate::dlx::stop_reason;

/// Placements between two looks at the clock and the cancellation flag.
const STOP_CHECK: u64 = 4096;

/// Whether a search that has made `nodes` placements should stop: every [`STOP_CHECK`]
/// placements, whether `deadline` has passed or `cancel` is set.
fn should_stop(nodes: u64, deadline: Option<Instant>, cancel: Option<&AtomicBool>) -> bool {
    nodes.is_multiple_of(STOP_CHECK) && stop_reason(cancel, deadline).is_some()
}

/// The posts' method: first empty cell, digits in order, validity by scanning.
#[derive(Debug, Clone, Default)]
pub struct Naive {
    cancel: Option<Arc<AtomicBool>>,
}

impl Naive {
    /// Makes later searches stop, as if their deadline had passed, once `flag` is set (e.g.
    /// by a Ctrl-C handler), as [`crate::dlx::Solver::set_cancel_flag`] does.
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// Whether `value` can go at `cell`: no cell of its row, column or box holds it.
    fn is_valid(board: &Grid, row: usize, col: usize, value: u8) -> bool {
        let n = board.size();
        let shape = board.shape();
        if (0..n).any(|c| board.get(row, c) == value) || (0..n).any(|r| board.get(r, col) == value)
        {
            return false;
        }
        let top = row - row % shape.box_rows();
        let left = col - col % shape.box_cols();
        for r in top..top + shape.box_rows() {
            for c in left..left + shape.box_cols() {
                if board.get(r, c) == value {
                    return false;
                }
            }
        }
        true
    }
}

impl SudokuSolver for Naive {
    fn name(&self) -> &'static str {
        "naive"
    }

    fn search(
        &mut self,
        grid: &Grid,
        deadline: Option<Instant>,
        visit: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Run {
        let mut run = Run::default();
        if grid.clash().is_some() {
            return run;
        }
        let n = grid.size();
        let empties: Vec<(usize, usize)> = (0..n * n)
            .map(|i| (i / n, i % n))
            .filter(|&(r, c)| grid.get(r, c) == 0)
            .collect();
        let mut board = grid.clone();
        // `next` is the index in `empties` of the cell to fill; each cell keeps its current
        // digit, so moving back to it resumes with the digit after.
        let mut next = 0;
        loop {
            if next == empties.len() {
                run.stats.solutions += 1;
                if visit(&board).is_break() || next == 0 {
                    return run;
                }
                next -= 1;
            }
            let (row, col) = empties[next];
            let mut value = board.get(row, col) + 1;
            while value as usize <= n && !Self::is_valid(&board, row, col, value) {
                value += 1;
            }
            if value as usize <= n {
                board.set(row, col, value);
                run.stats.nodes += 1;
                if should_stop(run.stats.nodes, deadline, self.cancel.as_deref()) {
                    run.interrupted = true;
                    return run;
                }
                next += 1;
            } else {
                board.set(row, col, 0);
                if next == 0 {
                    return run;
                }
                next -= 1;
            }
        }
    }
}

/// A set of symbols 1..=64, bit `v - 1` for symbol `v`.
type Symbols = BitArr!(for 64, in u64, Lsb0);

/// Backtracking on the most constrained cell: the empty cell with the fewest candidates.
#[derive(Debug, Clone, Default)]
pub struct Mrv {
    cancel: Option<Arc<AtomicBool>>,
}

impl Mrv {
    /// Makes later searches stop once `flag` is set, as [`Naive::set_cancel_flag`].
    pub fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }
}

/// The symbols used so far in each row, column and box.
struct Used {
    rows: Vec<Symbols>,
    cols: Vec<Symbols>,
    boxes: Vec<Symbols>,
    all: Symbols,
}

impl Used {
    fn candidates(&self, row: usize, col: usize, b: usize) -> Symbols {
        !(self.rows[row] | self.cols[col] | self.boxes[b]) & self.all
    }

    fn toggle(&mut self, row: usize, col: usize, b: usize, value: u8) {
        let bit = value as usize - 1;
        for set in [&mut self.rows[row], &mut self.cols[col], &mut self.boxes[b]] {
            let old = set[bit];
            set.set(bit, !old);
        }
    }
}

impl SudokuSolver for Mrv {
    fn name(&self) -> &'static str {
        "mrv"
    }

    fn search(
        &mut self,
        grid: &Grid,
        deadline: Option<Instant>,
        visit: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Run {
        let mut run = Run::default();
        if grid.clash().is_some() {
            return run;
        }
        let n = grid.size();
        let shape = grid.shape();
        let mut all = Symbols::ZERO;
        all[..n].fill(true);
        let mut used = Used {
            rows: vec![Symbols::ZERO; n],
            cols: vec![Symbols::ZERO; n],
            boxes: vec![Symbols::ZERO; n],
            all,
        };
        let mut board = grid.clone();
        let mut empties = Vec::new();
        for row in 0..n {
            for col in 0..n {
                match grid.get(row, col) {
                    0 => empties.push((row, col, shape.box_of(row, col))),
                    v => used.toggle(row, col, shape.box_of(row, col), v),
                }
            }
        }
        // empties[..filled] are filled, in the order chosen; the stack holds, for each, the
        // candidates not yet tried.
        let mut filled = 0;
        let mut untried: Vec<Symbols> = Vec::with_capacity(empties.len());
        let mut descend = true;
        loop {
            if descend {
                if filled == empties.len() {
                    run.stats.solutions += 1;
                    if visit(&board).is_break() {
                        return run;
                    }
                } else {
                    // Choose the most constrained empty cell and move it to position `filled`.
                    let mut best = filled;
                    let mut best_count = usize::MAX;
                    for (k, &(r, c, b)) in empties.iter().enumerate().skip(filled) {
                        let count = used.candidates(r, c, b).count_ones();
                        if count < best_count {
                            best = k;
                            best_count = count;
                            if count <= 1 {
                                break;
                            }
                        }
                    }
                    empties.swap(filled, best);
                    let (r, c, b) = empties[filled];
                    untried.push(used.candidates(r, c, b));
                    filled += 1;
                    // Fall through to place the first candidate (or back up if none).
                }
            }
            // Place the next untried candidate of the most recent cell, or back up.
            let Some(candidates) = untried.last_mut() else {
                return run;
            };
            let (r, c, b) = empties[filled - 1];
            let previous = board.get(r, c);
            if previous != 0 {
                used.toggle(r, c, b, previous);
                board.set(r, c, 0);
            }
            match candidates.first_one() {
                Some(bit) => {
                    candidates.set(bit, false);
                    let value = bit as u8 + 1;
                    used.toggle(r, c, b, value);
                    board.set(r, c, value);
                    run.stats.nodes += 1;
                    if should_stop(run.stats.nodes, deadline, self.cancel.as_deref()) {
                        run.interrupted = true;
                        return run;
                    }
                    descend = true;
                }
                None => {
                    untried.pop();
                    filled -= 1;
                    descend = false;
                }
            }
        }
    }
}
