//! True candidates: which options occur in at least one solution, and in how many (up to a
//! cap), without listing every solution.
//!
//! A puzzle with millions of solutions has few true candidates: each solution found marks all
//! of its options as occurring, so one search per option not yet seen in a solution decides
//! every option (the option is chosen as a clue would be, and the search asks for one
//! solution: none means the option is in no solution). On a 9x9 Sudoku that is at most a few
//! hundred short searches, however many solutions there are. Counts are one capped count per
//! occurring option, with that option chosen.
//!
//! The searches obey the solver's deadline and cancellation flag; an option whose search was
//! stopped is [`Presence::Unknown`] and the answer says it stopped. Several threads share the
//! options to decide, each with its own copy of the solver. Options chosen before (a Sudoku's
//! clues) stay chosen: the answer is about the solutions that hold them. With multiplicities,
//! where options cannot be chosen up front, each option is put into every solution by a
//! problem with one more item that only it covers ([`Problem::forcing`](super::super::Problem)).

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{ChooseError, Solver, Stop};
use crate::dlx::matrix::Matrix;
use crate::dlx::problem::OptionId;

/// How many solutions, per unit of the cap, the counts enumerate at once before counting
/// the options still short of the cap one by one (a puzzle of 15,824 solutions is counted
/// by that one enumeration for a cap of 255; the one of 3,828,403 leaves few options).
const ENUMERATED_PER_CAP: u128 = 64;

/// What is known of one option after [`Solver::candidates`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// It is in no solution.
    Never,
    /// It is in at least one solution.
    Occurs,
    /// Not decided: the search about it was stopped.
    Unknown,
}

/// Which options occur in some solution, and how often.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidates {
    /// Per option, by [`OptionId`] index.
    pub presence: Vec<Presence>,
    /// With a cap: per option, the number of solutions holding it, counted up to the cap (0
    /// for an option in none; a count the search was stopped in is the count so far).
    pub counts: Option<Vec<u128>>,
    /// With a cap: the number of solutions, counted up to the cap.
    pub solutions: Option<u128>,
    /// Why the work stopped before deciding every option (and counting each up to the cap).
    pub stopped: Option<Stop>,
    /// The searches run: one per option not seen in an earlier solution, and one count per
    /// occurring option when counting.
    pub searches: u64,
}

impl Candidates {
    /// The options that occur in some solution.
    pub fn occurring(&self) -> impl Iterator<Item = OptionId> + '_ {
        self.presence
            .iter()
            .enumerate()
            .filter(|(_, p)| **p == Presence::Occurs)
            .map(|(k, _)| OptionId(k as u32))
    }
}

/// The state the threads share: what each option is (as [`Presence`] codes), and the next
/// option a thread takes.
struct Shared {
    presence: Vec<AtomicUsize>,
    next: AtomicUsize,
    stopped: Mutex<Option<Stop>>,
    searches: AtomicUsize,
}

const NEVER: usize = 0;
const OCCURS: usize = 1;
const UNKNOWN: usize = 2;

impl Shared {
    fn mark(&self, option: OptionId, code: usize) {
        self.presence[option.0 as usize].store(code, Ordering::Relaxed);
    }

    fn code(&self, k: usize) -> usize {
        self.presence[k].load(Ordering::Relaxed)
    }

    fn stop(&self, why: Stop) {
        self.stopped.lock().unwrap().get_or_insert(why);
    }

    fn has_stopped(&self) -> bool {
        self.stopped.lock().unwrap().is_some()
    }
}

impl<'m> Solver<'m> {
    /// Which options occur in some solution (of those holding the options chosen so far),
    /// and with `cap`, how many solutions hold each, counted up to the cap; on `threads`
    /// threads (at least one), each with a copy of this solver. See the module's
    /// documentation.
    ///
    /// ```
    /// use xcover::dlx::{Matrix, OptionId, Presence, Problem};
    ///
    /// // Items a b c; options {a b}, {c}, {a}, {b}, {a c}: the solutions are {a b}+{c},
    /// // {a}+{b}+{c} and {a c}+{b}; every option occurs, {b} and {c} in two of them.
    /// let mut problem = Problem::new();
    /// let [a, b, c] = ["a", "b", "c"].map(|name| problem.add_primary(name).unwrap());
    /// for option in [&[a, b][..], &[c], &[a], &[b], &[a, c]] {
    ///     problem.add_option(option).unwrap();
    /// }
    /// let matrix = Matrix::new(problem).unwrap();
    /// let found = matrix.solver().candidates(Some(10), 1);
    /// assert!(found.presence.iter().all(|&p| p == Presence::Occurs));
    /// assert_eq!(found.counts.unwrap(), [1, 2, 1, 2, 1]);
    /// // With {a b} chosen (a clue), only {a b} and {c} are left.
    /// let mut solver = matrix.solver();
    /// solver.choose(OptionId(0)).unwrap();
    /// let found = solver.candidates(None, 2);
    /// assert_eq!(found.occurring().collect::<Vec<_>>(), [OptionId(0), OptionId(1)]);
    /// ```
    pub fn candidates(&mut self, cap: Option<u128>, threads: usize) -> Candidates {
        self.candidates_among(None, cap, threads)
    }

    /// [`Solver::candidates`] of the options `asked` marks (by [`OptionId`] index; every
    /// option with `None`): the others are not searched for, and stay
    /// [`Presence::Unknown`] (with a count of 0) unless a solution found holds them. A
    /// Sudoku asks about its cells' options only, not its clues' machines.
    pub fn candidates_among(
        &mut self,
        asked: Option<&[bool]>,
        cap: Option<u128>,
        threads: usize,
    ) -> Candidates {
        let options = self.matrix.problem().option_count();
        let asked = |k: usize| asked.is_none_or(|asked| asked.get(k) == Some(&true));
        let shared = Shared {
            presence: (0..options).map(|_| AtomicUsize::new(UNKNOWN)).collect(),
            next: AtomicUsize::new(0),
            stopped: Mutex::new(None),
            searches: AtomicUsize::new(0),
        };
        let chosen: Vec<OptionId> = self.chosen().collect();
        // Options chosen before are in every solution, if there is one.
        let any = self.first();
        shared.searches.fetch_add(1, Ordering::Relaxed);
        match (&any, self.stopped()) {
            (_, Some(why)) => shared.stop(why),
            (None, None) => (0..options)
                .filter(|&k| asked(k))
                .for_each(|k| shared.mark(OptionId(k as u32), NEVER)),
            (Some(solution), None) => {
                for &option in solution.iter().chain(&chosen) {
                    shared.mark(option, OCCURS);
                }
            }
        }
        if any.is_some() {
            let threads = threads.max(1);
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    let mut solver = self.clone();
                    let (shared, asked) = (&shared, &asked);
                    scope.spawn(move || solver.decide_options(shared, asked));
                }
                self.decide_options(&shared, &asked);
            });
        }
        let counted = cap.map(|cap| self.count_each(&shared, &chosen, &asked, cap, threads.max(1)));
        let (counts, solutions) = match counted {
            Some((counts, solutions)) => (Some(counts), Some(solutions)),
            None => (None, None),
        };
        let presence = (0..options)
            .map(|k| match shared.code(k) {
                NEVER => Presence::Never,
                OCCURS => Presence::Occurs,
                _ => Presence::Unknown,
            })
            .collect();
        let stopped = *shared.stopped.lock().unwrap();
        Candidates {
            presence,
            counts,
            solutions,
            stopped,
            searches: shared.searches.load(Ordering::Relaxed) as u64,
        }
    }

    /// Takes options from `shared` until none is left, deciding each asked and not decided
    /// yet.
    fn decide_options(&mut self, shared: &Shared, asked: &(dyn Fn(usize) -> bool + Sync)) {
        let options = shared.presence.len();
        loop {
            let k = shared.next.fetch_add(1, Ordering::Relaxed);
            if k >= options || shared.has_stopped() {
                return;
            }
            if shared.code(k) != UNKNOWN || !asked(k) {
                continue;
            }
            let option = OptionId(k as u32);
            shared.searches.fetch_add(1, Ordering::Relaxed);
            match self.with_option(option, |solver| solver.first()) {
                Err(_) => shared.mark(option, NEVER),
                Ok((Some(solution), _)) => {
                    for &other in &solution {
                        shared.mark(other, OCCURS);
                    }
                }
                Ok((None, None)) => shared.mark(option, NEVER),
                Ok((None, Some(why))) => shared.stop(why),
            }
        }
    }

    /// How many solutions hold each occurring option, up to `cap`, on `threads` threads (the
    /// options chosen before count every solution), and how many solutions there are, up to
    /// `cap`.
    fn count_each(
        &mut self,
        shared: &Shared,
        chosen: &[OptionId],
        asked: &(dyn Fn(usize) -> bool + Sync),
        cap: u128,
        threads: usize,
    ) -> (Vec<u128>, u128) {
        let options = shared.presence.len();
        let counts: Vec<Mutex<u128>> = (0..options).map(|_| Mutex::new(0)).collect();
        let unwrapped = |counts: Vec<Mutex<u128>>| -> Vec<u128> {
            counts
                .into_iter()
                .map(|c| c.into_inner().unwrap())
                .collect()
        };
        if shared.has_stopped() {
            return (unwrapped(counts), 0);
        }
        // One enumeration of the first solutions counts every option at once: when it sees
        // every solution, the counts are exact; else the options it saw `cap` times are done.
        // Only the others are counted one by one, each with the option chosen.
        let budget = cap.saturating_mul(ENUMERATED_PER_CAP);
        let mut seen = vec![0u128; options];
        let mut enumerated = 0u128;
        self.for_each_solution(|solution| {
            enumerated += 1;
            for option in solution.options() {
                seen[option.0 as usize] += 1;
            }
            if enumerated >= budget {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        shared.searches.fetch_add(1, Ordering::Relaxed);
        if let Some(why) = self.stopped() {
            shared.stop(why);
        }
        let complete = enumerated < budget && !shared.has_stopped();
        for option in chosen {
            seen[option.0 as usize] = enumerated;
        }
        for (count, &seen) in counts.iter().zip(&seen) {
            *count.lock().unwrap() = seen.min(cap);
        }
        let solutions = enumerated.min(cap);
        if complete {
            return (unwrapped(counts), solutions);
        }
        shared.next.store(0, Ordering::Relaxed);
        let work = |solver: &mut Solver<'m>| loop {
            let k = shared.next.fetch_add(1, Ordering::Relaxed);
            if k >= options || shared.has_stopped() {
                return;
            }
            let option = OptionId(k as u32);
            if shared.code(k) != OCCURS
                || !asked(k)
                || chosen.contains(&option)
                || *counts[k].lock().unwrap() >= cap
            {
                continue;
            }
            shared.searches.fetch_add(1, Ordering::Relaxed);
            if let Ok((count, stopped)) = solver.with_option(option, |s| s.count(Some(cap))) {
                *counts[k].lock().unwrap() = count;
                if let Some(why) = stopped {
                    shared.stop(why);
                }
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                let mut solver = self.clone();
                scope.spawn(move || work(&mut solver));
            }
            work(self);
        });
        (unwrapped(counts), solutions)
    }

    /// Runs `search` with `option` put into every solution, and says why it stopped, if it
    /// did; an error when the option cannot be in a solution with those chosen before (it
    /// clashes with one, or names only secondary items).
    fn with_option<T>(
        &mut self,
        option: OptionId,
        search: impl FnOnce(&mut Solver<'_>) -> T,
    ) -> Result<(T, Option<Stop>), ChooseError> {
        if self.matrix.option_first.get(option.0 as usize) == Some(&0) {
            return Err(ChooseError::Dropped(option));
        }
        match self.choose(option) {
            Ok(()) => {
                let found = search(self);
                let stopped = self.stopped();
                self.links.unchoose_last();
                Ok((found, stopped))
            }
            Err(ChooseError::Multiplicities(_)) => {
                // With multiplicities nothing is chosen before: a problem with the option
                // forced has exactly the solutions that hold it.
                let forced = self
                    .matrix
                    .problem()
                    .forcing(option)
                    .ok_or(ChooseError::Unknown(option))?;
                let Ok(matrix) = Matrix::new(forced) else {
                    return Err(ChooseError::Unknown(option));
                };
                let mut solver = matrix.solver();
                solver.set_inference(self.inference());
                solver.set_branching(self.branching());
                solver.set_deadline(self.deadline);
                solver.set_cancel_flag(self.cancel.clone());
                let found = search(&mut solver);
                Ok((found, solver.stopped()))
            }
            Err(error) => Err(error),
        }
    }
}
