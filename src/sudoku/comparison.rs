//! Dancing Links against simple backtracking, measured by one harness on the same puzzles.
//!
//! [`compare`] runs each chosen solver on each puzzle, on the calling thread, counting solutions
//! up to a limit within a per-puzzle time budget, and records time, nodes and count. A
//! [`Comparison`] then summarises each solver (mean, median, p99 and max time, mean nodes, time
//! as a multiple of DLX's) and lists the puzzles on which solvers that finished disagree, which
//! would mean a bug. Timed-out puzzles are counted, never dropped: each counts at the time it
//! ran (its budget), and a figure it enters is a lower bound and marked so (a slower solver
//! must never look faster by leaving out the puzzles it could not finish).
//! A cancellation flag (Ctrl-C on the command line) ends a comparison early: DLX stops at
//! once, a baseline at its next look at the clock after its time budget, and the comparison
//! then holds the puzzles that every solver had finished measuring before the flag was set
//! (so none is a time-out in disguise).
//!
//! Any puzzle is compared, whatever its rules, through [`SudokuSolver`]: [`DancingLinks`]
//! (a plain grid on the shared encoding of its shape, built before the clock starts; a
//! puzzle under other rules on an encoding of its own, whose building is timed too, as
//! `check` pays it) against the rule-aware backtracker ([`Baseline`]) filling the cell with
//! the fewest candidates (`mrv`) or the first empty one (`naive`, the seed posts' method).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::sudoku::backtrack::Baseline;
use crate::sudoku::{AnyPuzzle, DancingLinks, SudokuSolver};

/// The solvers that can be compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SolverKind {
    /// Dancing links on the exact-cover encoding.
    Dlx,
    /// Backtracking on the most constrained cell, with bit sets.
    Mrv,
    /// The seed posts' backtracking: first empty cell, digits in order, scanning checks.
    Naive,
}

impl SolverKind {
    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Dlx => "dlx",
            SolverKind::Mrv => "mrv",
            SolverKind::Naive => "naive",
        }
    }
}

impl FromStr for SolverKind {
    type Err = String;

    fn from_str(text: &str) -> Result<SolverKind, String> {
        match text.trim() {
            "dlx" => Ok(SolverKind::Dlx),
            "mrv" => Ok(SolverKind::Mrv),
            "naive" => Ok(SolverKind::Naive),
            other => Err(format!(
                "unknown solver '{other}': expected dlx, mrv or naive"
            )),
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One solver on one puzzle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measurement {
    /// Solutions found, up to the limit (a lower bound when not finished).
    pub count: u128,
    /// Wall-clock time.
    pub time: Duration,
    /// Search nodes (placements for the baselines).
    pub nodes: u64,
    /// Whether the search ended within the time budget.
    pub finished: bool,
}

/// Every measurement of a comparison: `results[puzzle][solver]`.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The solvers, in the order asked.
    pub solvers: Vec<SolverKind>,
    /// The measurements, one row per puzzle, one column per solver.
    pub results: Vec<Vec<Measurement>>,
    /// The count limit used.
    pub limit: u128,
    /// The time budget per puzzle and solver.
    pub timeout: Duration,
}

/// A figure over the puzzles, where those that timed out count at the time they ran.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure<T> {
    pub value: T,
    /// Whether a timed-out puzzle entered the figure, so that the true value is larger.
    pub at_least: bool,
}

/// How a solver's total time compares with DLX's, over every puzzle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ratio {
    /// Both finished every puzzle.
    Exact(f64),
    /// The solver timed out on some puzzles, DLX on none: it is at least this many times slower.
    AtLeast(f64),
    /// DLX timed out on some puzzles, the solver on none: at most this many times.
    AtMost(f64),
    /// Both timed out on some puzzles: the totals cannot be compared.
    Unknown,
}

/// Summary figures of one solver over all puzzles.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The solver.
    pub solver: SolverKind,
    /// Puzzles attempted.
    pub puzzles: usize,
    /// Puzzles finished within the budget.
    pub finished: usize,
    /// Mean time per puzzle.
    pub mean: Figure<Duration>,
    /// Median time per puzzle.
    pub median: Figure<Duration>,
    /// 99th percentile of the time per puzzle.
    pub p99: Figure<Duration>,
    /// Longest time of a puzzle.
    pub max: Figure<Duration>,
    /// Mean nodes per puzzle.
    pub mean_nodes: Figure<f64>,
    /// Total time over total DLX time (`None` when DLX is not among the solvers or took no
    /// time).
    pub vs_dlx: Option<Ratio>,
}

/// Solvers that finished with different counts on one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// Index of the puzzle in the input.
    pub puzzle: usize,
    /// Each finished solver with its count.
    pub counts: Vec<(SolverKind, u128)>,
}

/// Runs every solver on every puzzle, one after the other on this thread, counting up to
/// `limit` solutions within `timeout` each, until `cancel` is set. `progress` is called after
/// each puzzle.
///
/// ```
/// use std::time::Duration;
/// use xcover::sudoku::comparison::{SolverKind, compare};
/// use xcover::sudoku::{AnyPuzzle, Grid};
///
/// let grid: Grid = "1..3........34.1".parse().unwrap();
/// let kinds = [SolverKind::Dlx, SolverKind::Naive];
/// let comparison = compare(&[AnyPuzzle::Grid(grid)], &kinds, 10, Duration::from_secs(5), None, |_| {});
/// assert!(comparison.disagreements().is_empty());
/// assert_eq!(comparison.results[0][0].count, 1);
/// ```
pub fn compare(
    puzzles: &[AnyPuzzle],
    solvers: &[SolverKind],
    limit: u128,
    timeout: Duration,
    cancel: Option<Arc<AtomicBool>>,
    progress: impl FnMut(usize),
) -> Comparison {
    let mut dlx = DancingLinks::default();
    dlx.set_cancel_flag(cancel.clone());
    // The encodings of the classic shapes are built before the clock starts: batches build
    // them once too.
    for puzzle in puzzles {
        if let AnyPuzzle::Grid(grid) = puzzle {
            dlx.prepare(grid.shape());
        }
    }
    let mut mrv = Baseline::mrv();
    mrv.set_cancel_flag(cancel.clone());
    let mut naive = Baseline::naive();
    naive.set_cancel_flag(cancel.clone());
    let stopped = || {
        cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    };
    let each = |puzzle: &AnyPuzzle, kind: SolverKind| {
        let solver: &mut dyn SudokuSolver = match kind {
            SolverKind::Dlx => &mut dlx,
            SolverKind::Mrv => &mut mrv,
            SolverKind::Naive => &mut naive,
        };
        measure(solver, puzzle, limit, timeout)
    };
    compare_each(puzzles, solvers, (limit, timeout), stopped, progress, each)
}

/// The table of a comparison: `measure(puzzle, solver)` for every puzzle and solver, in
/// order, `progress` called after each puzzle, until `stopped` says so.
fn compare_each<P>(
    puzzles: &[P],
    solvers: &[SolverKind],
    (limit, timeout): (u128, Duration),
    stopped: impl Fn() -> bool,
    mut progress: impl FnMut(usize),
    mut measure: impl FnMut(&P, SolverKind) -> Measurement,
) -> Comparison {
    let mut results = Vec::with_capacity(puzzles.len());
    for (index, puzzle) in puzzles.iter().enumerate() {
        let row = solvers
            .iter()
            .map_while(|&kind| (!stopped()).then(|| measure(puzzle, kind)))
            .collect();
        if stopped() {
            // The row may hold a search cut short by the flag, not by its time budget.
            break;
        }
        results.push(row);
        progress(index + 1);
    }
    Comparison {
        solvers: solvers.to_vec(),
        results,
        limit,
        timeout,
    }
}

/// One solver on one puzzle: its count up to `limit` within `timeout`, timed.
fn measure(
    solver: &mut dyn SudokuSolver,
    puzzle: &AnyPuzzle,
    limit: u128,
    timeout: Duration,
) -> Measurement {
    let started = Instant::now();
    let mut count = 0;
    let run = solver.search(puzzle, Some(started + timeout), &mut |_| {
        count += 1;
        if count >= limit {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    Measurement {
        count,
        time: started.elapsed(),
        nodes: run.stats.nodes,
        finished: !run.interrupted,
    }
}

impl Comparison {
    /// Puzzles where solvers that finished report different counts.
    pub fn disagreements(&self) -> Vec<Disagreement> {
        let mut found = Vec::new();
        for (puzzle, row) in self.results.iter().enumerate() {
            let counts: Vec<(SolverKind, u128)> = self
                .solvers
                .iter()
                .zip(row)
                .filter(|(_, m)| m.finished)
                .map(|(&kind, m)| (kind, m.count))
                .collect();
            if counts.iter().any(|&(_, c)| c != counts[0].1) {
                found.push(Disagreement { puzzle, counts });
            }
        }
        found
    }

    /// The summary of each solver, in the order asked.
    pub fn summaries(&self) -> Vec<Summary> {
        let dlx = self.solvers.iter().position(|&k| k == SolverKind::Dlx);
        (0..self.solvers.len())
            .map(|column| self.summary(column, dlx))
            .collect()
    }

    fn summary(&self, column: usize, dlx: Option<usize>) -> Summary {
        let runs: Vec<&Measurement> = self.results.iter().map(|row| &row[column]).collect();
        let finished = runs.iter().filter(|m| m.finished).count();
        let timed_out = finished < runs.len();
        // Sorted by time, and a puzzle that timed out ran at least its budget, longer than
        // any finished one: a quantile that falls on a finished puzzle is exact.
        let mut times: Vec<(Duration, bool)> = runs.iter().map(|m| (m.time, m.finished)).collect();
        times.sort_unstable_by_key(|&(time, _)| time);
        let at = |q: f64| -> Figure<Duration> {
            match times.get(((times.len().max(1) - 1) as f64 * q).round() as usize) {
                Some(&(value, finished)) => Figure {
                    value,
                    at_least: !finished,
                },
                None => Figure {
                    value: Duration::ZERO,
                    at_least: false,
                },
            }
        };
        let total: Duration = times.iter().map(|&(time, _)| time).sum();
        let n = times.len().max(1) as u32;
        let vs_dlx = dlx.and_then(|d| {
            let column_total = |c: usize| -> (f64, bool) {
                self.results.iter().fold((0.0, false), |(sum, out), row| {
                    (sum + row[c].time.as_secs_f64(), out || !row[c].finished)
                })
            };
            let ((mine, mine_out), (theirs, theirs_out)) = (column_total(column), column_total(d));
            (theirs > 0.0).then(|| {
                let r = mine / theirs;
                match (mine_out, theirs_out) {
                    (false, false) => Ratio::Exact(r),
                    (true, false) => Ratio::AtLeast(r),
                    (false, true) => Ratio::AtMost(r),
                    (true, true) if column == d => Ratio::Exact(r),
                    (true, true) => Ratio::Unknown,
                }
            })
        });
        Summary {
            solver: self.solvers[column],
            puzzles: self.results.len(),
            finished,
            mean: Figure {
                value: total / n,
                at_least: timed_out,
            },
            median: at(0.5),
            p99: at(0.99),
            max: at(1.0),
            // A fold from +0.0: an empty f64 sum is -0.0.
            mean_nodes: Figure {
                value: runs.iter().fold(0.0, |sum, m| sum + m.nodes as f64)
                    / runs.len().max(1) as f64,
                at_least: timed_out,
            },
            vs_dlx,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_names_round_trip() {
        for kind in [SolverKind::Dlx, SolverKind::Mrv, SolverKind::Naive] {
            assert_eq!(kind.name().parse::<SolverKind>(), Ok(kind));
        }
        assert!("dancing".parse::<SolverKind>().is_err());
    }

    #[test]
    fn summaries_and_disagreements() {
        let m = |count, micros, finished| Measurement {
            count,
            time: Duration::from_micros(micros),
            nodes: micros,
            finished,
        };
        let comparison = Comparison {
            solvers: vec![SolverKind::Dlx, SolverKind::Naive],
            results: vec![
                vec![m(1, 10, true), m(1, 100, true)],
                vec![m(1, 20, true), m(0, 5000, false)],
                vec![m(2, 30, true), m(1, 300, true)],
            ],
            limit: 2,
            timeout: Duration::from_millis(5),
        };
        let summaries = comparison.summaries();
        assert_eq!(summaries[1].finished, 2);
        // The timed-out puzzle counts at its 5,000 us: (100 + 5000 + 300) / 3.
        assert_eq!(summaries[1].mean.value, Duration::from_micros(1800));
        assert!(summaries[1].mean.at_least);
        assert_eq!(summaries[1].median.value, Duration::from_micros(300));
        assert!(
            !summaries[1].median.at_least,
            "the median is a finished puzzle"
        );
        assert_eq!(summaries[1].max.value, Duration::from_micros(5000));
        assert!(summaries[1].max.at_least);
        assert_eq!(summaries[0].median.value, Duration::from_micros(20));
        assert_eq!(summaries[0].max.value, Duration::from_micros(30));
        assert_eq!(summaries[0].vs_dlx, Some(Ratio::Exact(1.0)));
        // naive 5,400 us against dlx 60 us, at least, since naive timed out once
        match summaries[1].vs_dlx {
            Some(Ratio::AtLeast(r)) => assert!((r - 90.0).abs() < 1e-9, "{r}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            comparison.disagreements(),
            vec![Disagreement {
                puzzle: 2,
                counts: vec![(SolverKind::Dlx, 2), (SolverKind::Naive, 1)]
            }]
        );
    }
}
