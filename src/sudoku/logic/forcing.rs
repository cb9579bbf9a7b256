//! Forcing chains and nets: the last techniques, which follow an assumption through the
//! singles it forces.
//!
//! - A forcing chain assumes one candidate and places what follows from it, naked and hidden
//!   singles one after another; when that ends in a contradiction (a cell with no candidate,
//!   a symbol with no place in a unit), the candidate is false.
//! - A forcing net assumes, in turn, each candidate of a cell (or each place of a symbol in a
//!   unit): one of them is true, so whatever every one of them forces is true.
//!
//! What follows from an assumption is found by a small propagator of its own on flat arrays
//! of candidates, which knows peers, the non-consecutive rule and the rules between two cells
//! (the links the chains read), so the steps are sound on variants. Where the puzzle has them,
//! it also reads cages' sums, the sums the rule of 45 gives and clues read along cells, as
//! the cage and clue techniques do, so that killers without givens have a logical solution
//! too.

use std::ops::ControlFlow;

use itertools::Itertools;

use super::cages::sum_keeps;
use super::position::{Mask, Position, UnitKind, bit, symbols};
use super::{Step, Technique, Visit};
use crate::sudoku::model::symbol_name;

/// What an assumption forced, in order, or the contradiction it ran into.
struct Trial {
    placements: Vec<(usize, u8)>,
    candidates: Vec<Mask>,
    values: Vec<u8>,
    /// The contradiction reached, described, if any.
    contradiction: Option<String>,
    /// The cells changed since the rules beyond two cells last looked (sums and clues over
    /// cells that did not change have nothing new to say).
    touched: Vec<usize>,
}

impl Trial {
    /// Places `value` in `cell` of `p` and follows the singles that forces.
    fn of(p: &Position, cell: usize, value: u8) -> Trial {
        Trial::from_state(p, &p.candidates, &p.values, cell, value)
    }

    /// This trial's state with `value` placed in `cell` as well, and what follows.
    fn assume(&self, p: &Position, cell: usize, value: u8) -> Trial {
        Trial::from_state(p, &self.candidates, &self.values, cell, value)
    }

    /// `value` placed in `cell` of the state `candidates` and `values`, and what follows.
    fn from_state(
        p: &Position,
        candidates: &[Mask],
        values: &[u8],
        cell: usize,
        value: u8,
    ) -> Trial {
        let mut trial = Trial {
            placements: Vec::new(),
            candidates: candidates.to_vec(),
            values: values.to_vec(),
            contradiction: None,
            touched: Vec::new(),
        };
        trial.run(p, vec![(cell, value)]);
        trial
    }

    /// Removes a candidate, and follows the singles that forces.
    fn remove(&mut self, p: &Position, cell: usize, value: u8) {
        self.candidates[cell] &= !bit(value);
        self.touched.push(cell);
        match self.candidates[cell].count_ones() {
            0 => {
                self.contradiction = Some(format!("{} has no candidate left", p.cell(cell)));
            }
            1 => {
                let last = symbols(self.candidates[cell]).next().unwrap_or(0);
                self.run(p, vec![(cell, last)]);
            }
            _ => self.run(p, Vec::new()),
        }
    }

    /// Places the queued symbols, and the naked and hidden singles they force, until none is
    /// left or a contradiction shows.
    fn run(&mut self, p: &Position, mut queue: Vec<(usize, u8)>) {
        let layout = &*p.layout;
        let n = layout.n;
        loop {
            while let Some((cell, value)) = queue.pop() {
                if self.values[cell] == value {
                    continue;
                }
                if self.values[cell] != 0 || self.candidates[cell] & bit(value) == 0 {
                    self.contradiction = Some(format!(
                        "{} cannot hold {}",
                        p.cell(cell),
                        symbol_name(value)
                    ));
                    return;
                }
                self.values[cell] = value;
                self.candidates[cell] = 0;
                self.placements.push((cell, value));
                self.touched.push(cell);
                let touched = &mut self.touched;
                let mut remove = |other: usize, gone: Mask, candidates: &mut Vec<Mask>| {
                    if candidates[other] & gone == 0 {
                        return Ok(());
                    }
                    candidates[other] &= !gone;
                    touched.push(other);
                    match candidates[other].count_ones() {
                        0 if self.values[other] == 0 => Err(other),
                        1 => {
                            let v = symbols(candidates[other]).next().unwrap_or(0);
                            queue.push((other, v));
                            Ok(())
                        }
                        _ => Ok(()),
                    }
                };
                for (other, gone) in layout.removals(cell, value) {
                    if let Err(empty) = remove(other, gone, &mut self.candidates) {
                        self.contradiction =
                            Some(format!("{} has no candidate left", p.cell(empty)));
                        return;
                    }
                }
            }
            // Hidden singles, and symbols with no place left.
            for (u, unit) in p.units().iter().enumerate() {
                if !unit.is_complete() {
                    continue;
                }
                let placed = unit
                    .cells
                    .iter()
                    .map(|&c| self.values[c])
                    .filter(|&v| v != 0)
                    .fold(0, |m, v| m | bit(v));
                for value in (1..=n as u8).filter(|&v| placed & bit(v) == 0) {
                    let mut places = unit
                        .cells
                        .iter()
                        .filter(|&&c| self.candidates[c] & bit(value) != 0);
                    match (places.next(), places.next()) {
                        (None, _) => {
                            self.contradiction = Some(format!(
                                "{} has no place left for {}",
                                p.unit_name(u),
                                symbol_name(value)
                            ));
                            return;
                        }
                        (Some(&only), None) => queue.push((only, value)),
                        _ => {}
                    }
                }
            }
            if queue.is_empty() && !self.narrow_by_rules(p, &mut queue) {
                return;
            }
            if self.contradiction.is_some() {
                return;
            }
        }
    }

    /// One pass of what the rules beyond two cells say, on this trial's state: each cage's
    /// sum, each sum the rule of 45 gives, each clue read along cells. Removes what they rule
    /// out, queueing the singles that leaves; whether anything went (or a contradiction
    /// showed, which it records).
    fn narrow_by_rules(&mut self, p: &Position, queue: &mut Vec<(usize, u8)>) -> bool {
        let layout = &*p.layout;
        if !p.layout.has_sums_or_clues {
            return false;
        }
        let mut dirty = vec![false; self.candidates.len()];
        for &cell in &self.touched {
            dirty[cell] = true;
        }
        self.touched.clear();
        let touches = |cells: &[usize]| cells.iter().any(|&c| dirty[c]);
        let view = p.with_state(&self.values, &self.candidates);
        let mut keeps: Vec<(usize, Mask)> = Vec::new();
        let sums = p
            .units_of_kind(UnitKind::Cage)
            .filter_map(|u| {
                let unit = &p.units()[u];
                unit.sum.map(|sum| (&unit.cells, sum, unit.name.as_str()))
            })
            .chain(
                layout
                    .sum_regions
                    .iter()
                    .map(|region| (&region.cells, region.sum, region.why.as_str())),
            );
        for (k, (cells, sum, what)) in sums.enumerate().filter(|(_, (cells, _, _))| touches(cells))
        {
            match remembered_sum_keeps(&view, k, cells, sum) {
                Ok(found) => keeps.extend(found),
                Err(()) => {
                    self.contradiction = Some(format!("{what}: no filling makes {sum}"));
                    return true;
                }
            }
        }
        for clue in layout.clues.iter().filter(|clue| touches(&clue.cells)) {
            match view.clue_allows(clue) {
                Some(allowed) => keeps.extend(clue.cells.iter().copied().zip(allowed)),
                None => {
                    self.contradiction = Some(format!("{} cannot be kept", clue.what));
                    return true;
                }
            }
        }
        let mut changed = false;
        for (cell, keep) in keeps {
            if self.values[cell] != 0 || self.candidates[cell] & !keep == 0 {
                continue;
            }
            changed = true;
            self.candidates[cell] &= keep;
            self.touched.push(cell);
            match self.candidates[cell].count_ones() {
                0 => {
                    self.contradiction = Some(format!("{} has no candidate left", p.cell(cell)));
                    return true;
                }
                1 => queue.push((cell, symbols(self.candidates[cell]).next().unwrap_or(0))),
                _ => {}
            }
        }
        changed
    }

    /// The first placements, as `r1c2=3, r4c5=6, ...` (at most `shown`, then how many more).
    fn story(&self, p: &Position, shown: usize) -> String {
        let mut text = self.placements[1..]
            .iter()
            .take(shown)
            .map(|&(c, v)| format!("{}={}", p.cell(c), symbol_name(v)))
            .join(", ");
        let more = self.placements.len().saturating_sub(1 + shown);
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        if text.is_empty() {
            text.push_str("nothing more");
        }
        text
    }
}

/// Forcing chains: a candidate whose singles run into a contradiction is false. The one with
/// the shortest run comes first.
///
/// A sweep tries every candidate, and one step removes one of those it finds false; so the
/// others found are kept (for the puzzle's layout) and tried first next time. They are still
/// false there: a position a step later has fewer candidates, from which the same assumption
/// forces at least as much. A caller that asks for every step gets the sweep as well.
pub(super) fn forcing_chain(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    thread_local! {
        static FOUND_BEFORE: std::cell::RefCell<(u64, Vec<(usize, u8)>)> =
            const { std::cell::RefCell::new((0, Vec::new())) };
    }
    let before = FOUND_BEFORE.with(|found| {
        let found = found.borrow();
        if found.0 == p.layout.id {
            found.1.clone()
        } else {
            Vec::new()
        }
    });
    let mut given = None;
    for (cell, value) in before {
        if p.candidates[cell] & bit(value) == 0 {
            continue;
        }
        let trial = Trial::of(p, cell, value);
        if trial.contradiction.is_some() {
            given = Some((cell, value));
            visit(forcing_chain_step(p, cell, value, &trial))?;
            break;
        }
    }
    let mut found: Vec<(usize, u8, Trial)> = Vec::new();
    for cell in (0..p.candidates.len()).filter(|&c| p.candidates[c] != 0) {
        if p.stopped() {
            return ControlFlow::Continue(());
        }
        for value in symbols(p.candidates[cell]) {
            let trial = Trial::of(p, cell, value);
            if trial.contradiction.is_some() {
                found.push((cell, value, trial));
            }
        }
    }
    found.sort_by_key(|(_, _, trial)| trial.placements.len());
    FOUND_BEFORE.with(|before| {
        *before.borrow_mut() = (
            p.layout.id,
            found
                .iter()
                .map(|&(cell, value, _)| (cell, value))
                .collect(),
        );
    });
    for (cell, value, trial) in found {
        if given != Some((cell, value)) {
            visit(forcing_chain_step(p, cell, value, &trial))?;
        }
    }
    ControlFlow::Continue(())
}

/// The step that removes `value` from `cell`, whose `trial` ran into a contradiction.
fn forcing_chain_step(p: &Position, cell: usize, value: u8, trial: &Trial) -> Step {
    let why = trial.contradiction.as_deref().unwrap_or_default();
    Step::eliminating(
        Technique::ForcingChain,
        vec![(p.cell(cell), value)],
        trial.placements.iter().map(|&(c, _)| p.cell(c)).collect(),
        format!(
            "if {} held {}, {} would follow ({}) and then {why}",
            p.cell(cell),
            symbol_name(value),
            what_follows(p),
            trial.story(p, 8)
        ),
    )
}

/// [`sum_keeps`] for the `k`-th sum of `p`'s puzzle, remembered by the state of its cells:
/// the trials of a sweep meet the same state of a cage again and again.
fn remembered_sum_keeps(
    p: &Position,
    k: usize,
    cells: &[usize],
    sum: u32,
) -> Result<Vec<(usize, Mask)>, ()> {
    type Key = (usize, Vec<(u8, Mask)>);
    type Memory = std::collections::HashMap<Key, Result<Vec<(usize, Mask)>, ()>>;
    /// The most states kept before the memory starts again (some 60 megabytes).
    const MAX_REMEMBERED: usize = 200_000;
    thread_local! {
        /// The states of one puzzle (its layout's number) only: another puzzle starts afresh.
        static REMEMBERED: std::cell::RefCell<(u64, Memory)> =
            std::cell::RefCell::new((0, Memory::new()));
    }
    let state: Vec<(u8, Mask)> = cells
        .iter()
        .map(|&c| (p.values[c], p.candidates[c]))
        .collect();
    let key = (k, state);
    let known = REMEMBERED.with(|memory| {
        let memory = memory.borrow();
        (memory.0 == p.layout.id)
            .then(|| memory.1.get(&key).cloned())
            .flatten()
    });
    if let Some(found) = known {
        return found;
    }
    let found = sum_keeps(p, cells, sum);
    REMEMBERED.with(|memory| {
        let mut memory = memory.borrow_mut();
        if memory.0 != p.layout.id || memory.1.len() >= MAX_REMEMBERED {
            *memory = (p.layout.id, Memory::new());
        }
        memory.1.insert(key, found.clone());
    });
    found
}

/// What a trial follows, in a step's words.
fn what_follows(p: &Position) -> &'static str {
    if p.layout.has_sums_or_clues {
        "singles and the sums and clues"
    } else {
        "singles"
    }
}

/// Forcing nets: every candidate of a cell, or every place of a symbol in a unit, forces the
/// same placement or removes the same candidate; so that happens.
pub(super) fn forcing_net(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    // Each source: what it is, and its alternatives (cell, value), one of which is true.
    let mut sources: Vec<(String, Vec<(usize, u8)>)> = Vec::new();
    for cell in (0..p.candidates.len()).filter(|&c| p.candidates[c] != 0) {
        sources.push((
            format!("{} holds one of its candidates", p.cell(cell)),
            symbols(p.candidates[cell]).map(|v| (cell, v)).collect(),
        ));
    }
    for (u, unit) in p.units().iter().enumerate() {
        if !unit.is_complete() {
            continue;
        }
        let placed = p.placed(u);
        for value in (1..=p.size() as u8).filter(|&v| placed & bit(v) == 0) {
            sources.push((
                format!("{} needs {} somewhere", p.unit_name(u), symbol_name(value)),
                p.places(u, value).into_iter().map(|c| (c, value)).collect(),
            ));
        }
    }
    sources.sort_by_key(|(_, alternatives)| alternatives.len());
    for (what, alternatives) in sources {
        if p.stopped() {
            return ControlFlow::Continue(());
        }
        if alternatives.len() < 2 {
            continue;
        }
        let trials: Vec<Trial> = alternatives
            .iter()
            .map(|&(cell, value)| Trial::of(p, cell, value))
            .collect();
        // A branch that runs into a contradiction is not the true one: what the others force
        // is enough (the forcing chains found any single such candidate before).
        let live: Vec<&Trial> = trials
            .iter()
            .filter(|t| t.contradiction.is_none())
            .collect();
        let Some(first) = live.first() else {
            continue;
        };
        let placements: Vec<(usize, u8)> = (0..p.candidates.len())
            .filter(|&c| p.values[c] == 0 && first.values[c] != 0)
            .map(|c| (c, first.values[c]))
            .filter(|&(c, v)| live.iter().all(|t| t.values[c] == v))
            .collect();
        let eliminations: Vec<(usize, u8)> = (0..p.candidates.len())
            .filter(|&c| p.values[c] == 0)
            .flat_map(|c| symbols(p.candidates[c]).map(move |v| (c, v)))
            .filter(|&(c, v)| {
                live.iter()
                    .all(|t| t.candidates[c] & bit(v) == 0 && t.values[c] != v)
            })
            .filter(|&(c, _)| !placements.iter().any(|&(pc, _)| pc == c))
            .collect();
        if placements.is_empty() && eliminations.is_empty() {
            continue;
        }
        let branches = alternatives
            .iter()
            .zip(&trials)
            .map(|(&(cell, value), trial)| match &trial.contradiction {
                Some(why) => format!("{}={} fails ({why})", p.cell(cell), symbol_name(value)),
                None => format!(
                    "{}={} forces {}",
                    p.cell(cell),
                    symbol_name(value),
                    trial.story(p, 4)
                ),
            })
            .join("; ");
        visit(Step {
            technique: Technique::ForcingNet,
            placements: placements.iter().map(|&(c, v)| (p.cell(c), v)).collect(),
            eliminations: eliminations.iter().map(|&(c, v)| (p.cell(c), v)).collect(),
            reasons: alternatives.iter().map(|&(c, _)| p.cell(c)).collect(),
            detail: format!("{what}: {branches}"),
            links: Vec::new(),
        })?;
    }
    ControlFlow::Continue(())
}

/// Nested forcing chains: a candidate whose consequences, singles and forcing chains among
/// them (each assumption inside followed by singles to a contradiction removes its
/// candidate), run into a contradiction is false. What the hardest puzzles need.
pub(super) fn nested_forcing_chain(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    // Each trial is dear: cells of fewest candidates first, each step given as soon as found.
    let cells = (0..p.candidates.len())
        .filter(|&c| p.candidates[c] != 0)
        .sorted_by_key(|&c| p.candidates[c].count_ones());
    for cell in cells {
        for value in symbols(p.candidates[cell]) {
            if p.stopped() {
                return ControlFlow::Continue(());
            }
            let (trial, inner) = nested_trial(p, cell, value);
            let Some(why) = &trial.contradiction else {
                continue;
            };
            visit(Step::eliminating(
                Technique::NestedForcingChain,
                vec![(p.cell(cell), value)],
                trial.placements.iter().map(|&(c, _)| p.cell(c)).collect(),
                format!(
                    "if {} held {}, singles and {inner} forcing chains inside would follow ({}) \
                     and then {why}",
                    p.cell(cell),
                    symbol_name(value),
                    trial.story(p, 8)
                ),
            ))?;
        }
    }
    ControlFlow::Continue(())
}

/// The trial of `value` in `cell` with forcing chains inside: after the singles, every
/// candidate left whose own singles fail is removed, until nothing changes. Also how many
/// were removed so.
fn nested_trial(p: &Position, cell: usize, value: u8) -> (Trial, usize) {
    let mut trial = Trial::of(p, cell, value);
    let mut inner = 0;
    loop {
        let mut changed = false;
        if p.stopped() {
            return (trial, inner);
        }
        for c in 0..trial.candidates.len() {
            for v in symbols(trial.candidates[c]) {
                if trial.contradiction.is_some() {
                    return (trial, inner);
                }
                if trial.values[c] == 0
                    && trial.candidates[c] & bit(v) != 0
                    && trial.assume(p, c, v).contradiction.is_some()
                {
                    trial.remove(p, c, v);
                    inner += 1;
                    changed = true;
                }
            }
        }
        if !changed || trial.contradiction.is_some() {
            return (trial, inner);
        }
    }
}
