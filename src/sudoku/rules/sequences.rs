//! Clues read along their cells, one symbol at a time: arrows, sums, sandwiches, skyscrapers,
//! between lines, zippers, quadruples...
//!
//! Such a clue relates more than two cells, often through arithmetic, so it is neither a unit
//! nor a set of pairs. Each is described instead as a small machine that reads the cells in a
//! fixed order: it starts in a state, each symbol read moves it to the next state or rejects
//! the filling, and after the last cell it accepts or not. A sum reads partial sums; an arrow
//! reads its circle as a number, then takes each arrow symbol off it and accepts at 0.
//!
//! The machine is deterministic (one next state per symbol at most), so that a grid that
//! keeps a clue is read along one path exactly: the encoding turns each step of each path
//! into an option, and a grid must be one solution of the problem, not one per path.
//!
//! [`Sequence::layers`] unrolls a machine over its cells into the states reachable at each
//! step that can still reach acceptance, given what each cell may hold. The exact-cover
//! encoding makes one option per move; the backtracking baseline and the logic walk the
//! layers with the grid's candidates.

use std::collections::HashMap;
use std::fmt;

use super::{Cell, PairTable, RulesError};

/// A set of symbols as bits, bit V for symbol V (from 1 to 64).
pub type Symbols = u128;

/// The most moves the layers of one clue may have: each is an option of the exact-cover
/// problem, and a clue past this (a pill arrow of three digits along a long line on 16x16)
/// is refused rather than built for minutes.
pub const MAX_MOVES: usize = 400_000;

/// A state of a machine; what it means is the clue's own (a partial sum, a phase and a sum).
pub type State = u64;

/// The machine's step: at position `at` (from 0) in state `state`, reading `symbol`, the next
/// state, or `None` when the clue cannot be kept that way.
pub type Step = Box<dyn Fn(usize, State, u8) -> Option<State> + Send + Sync>;

/// One clue as a machine over its cells.
pub struct Sequence {
    /// The cells in the order they are read (not always the order they are drawn in).
    pub cells: Vec<Cell>,
    /// The clue, for messages: `the arrow from r1c1`.
    pub what: String,
    start: State,
    step: Step,
    accepts: Box<dyn Fn(State) -> bool + Send + Sync>,
}

impl fmt::Debug for Sequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sequence")
            .field("cells", &self.cells)
            .field("what", &self.what)
            .finish_non_exhaustive()
    }
}

/// A move of the unrolled machine: from state `from` of a layer, reading `symbol`, to state
/// `to` of the next (states numbered from 0 in each layer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub from: u32,
    pub symbol: u8,
    pub to: u32,
}

/// A machine unrolled over its cells: `states[i]` states before cell `i` is read (one before
/// the first, those accepted after the last), and the moves between layers `i` and `i + 1`.
/// Every state and move lies on a path from the start to acceptance.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layers {
    pub states: Vec<usize>,
    pub moves: Vec<Vec<Move>>,
}

impl Sequence {
    /// The clue `what` over `cells`, read from `start` by `step`, kept when `accepts` says so
    /// after the last cell.
    pub fn new(
        cells: Vec<Cell>,
        what: String,
        start: State,
        step: impl Fn(usize, State, u8) -> Option<State> + Send + Sync + 'static,
        accepts: impl Fn(State) -> bool + Send + Sync + 'static,
    ) -> Sequence {
        Sequence {
            cells,
            what,
            start,
            step: Box::new(step),
            accepts: Box::new(accepts),
        }
    }

    /// Whether the symbols `values` (one per cell, in reading order) keep the clue.
    pub fn keeps(&self, values: &[u8]) -> bool {
        let mut state = self.start;
        for (at, &symbol) in values.iter().enumerate() {
            match (self.step)(at, state, symbol) {
                Some(next) => state = next,
                None => return false,
            }
        }
        (self.accepts)(state)
    }

    /// The machine unrolled over the cells, each cell reading only the symbols
    /// `candidates(at)` allows (bit V for symbol V): the states reachable from the start that
    /// can still be accepted, and the moves between them. A clue no filling keeps has no
    /// moves at some step. Refused with the clue's cells named when it takes more than
    /// [`MAX_MOVES`] moves, or as soon as `stop` says so (asked every few thousand moves).
    pub fn layers(
        &self,
        candidates: impl Fn(usize) -> Symbols,
        stop: &dyn Fn() -> bool,
    ) -> Result<Layers, RulesError> {
        let m = self.cells.len();
        // Forward: the states each layer can reach, numbered as they are found.
        let mut numbered: Vec<HashMap<State, u32>> = vec![HashMap::new(); m + 1];
        let mut states: Vec<Vec<State>> = vec![Vec::new(); m + 1];
        numbered[0].insert(self.start, 0);
        states[0].push(self.start);
        let mut moves: Vec<Vec<Move>> = vec![Vec::new(); m];
        let mut total = 0usize;
        for at in 0..m {
            let symbols = candidates(at);
            let (this, next) = states.split_at_mut(at + 1);
            let next_numbers = &mut numbered[at + 1];
            for (from, &state) in this[at].iter().enumerate() {
                for symbol in (1..=64u8).filter(|&v| symbols & (1 << v) != 0) {
                    let Some(after) = (self.step)(at, state, symbol) else {
                        continue;
                    };
                    if at + 1 == m && !(self.accepts)(after) {
                        continue;
                    }
                    let count = next_numbers.len() as u32;
                    let to = *next_numbers.entry(after).or_insert_with(|| {
                        next[0].push(after);
                        count
                    });
                    moves[at].push(Move {
                        from: from as u32,
                        symbol,
                        to,
                    });
                    total += 1;
                    if total > MAX_MOVES {
                        return Err(self.too_large());
                    }
                    if total.is_multiple_of(4096) && stop() {
                        return Err(RulesError::Stopped);
                    }
                }
            }
        }
        // Backward: keep the states from which acceptance can be reached, renumbered.
        let mut live: Vec<Vec<Option<u32>>> = states.iter().map(|s| vec![None; s.len()]).collect();
        for (k, slot) in live[m].iter_mut().enumerate() {
            *slot = Some(k as u32);
        }
        for at in (0..m).rev() {
            let mut kept = Vec::with_capacity(moves[at].len());
            let mut count = 0u32;
            let mut renumber: Vec<Option<u32>> = vec![None; states[at].len()];
            for &mv in &moves[at] {
                if live[at + 1][mv.to as usize].is_some() && renumber[mv.from as usize].is_none() {
                    renumber[mv.from as usize] = Some(count);
                    count += 1;
                }
            }
            // Renumber in order of first appearance, then rewrite the moves.
            for mv in &moves[at] {
                if let (Some(from), Some(to)) =
                    (renumber[mv.from as usize], live[at + 1][mv.to as usize])
                {
                    kept.push(Move {
                        from,
                        symbol: mv.symbol,
                        to,
                    });
                }
            }
            moves[at] = kept;
            live[at] = renumber;
        }
        let mut counts: Vec<usize> = live
            .iter()
            .map(|layer| layer.iter().filter(|s| s.is_some()).count())
            .collect();
        if m > 0 {
            // The last layer's states were numbered before the moves into them were pruned:
            // renumber them by the moves that remain.
            let mut renumber: HashMap<u32, u32> = HashMap::new();
            for mv in &mut moves[m - 1] {
                let count = renumber.len() as u32;
                mv.to = *renumber.entry(mv.to).or_insert(count);
            }
            counts[m] = renumber.len();
            // Every state kept is entered by a kept move: it was reached going forward from a
            // state of the layer before, which its moves then keep live.
        }
        Ok(Layers {
            states: counts,
            moves,
        })
    }

    fn too_large(&self) -> RulesError {
        RulesError::Clue {
            rule: "sequence",
            index: 1,
            cells: self.cells.clone(),
            why: format!(
                "{} can be filled in too many ways to encode (more than {MAX_MOVES} steps)",
                self.what
            ),
        }
    }
}

impl Layers {
    /// The symbols some kept move reads at position `at`.
    pub fn supported(&self, at: usize) -> Symbols {
        self.moves[at]
            .iter()
            .fold(0, |bits, mv| bits | 1 << mv.symbol)
    }

    /// The symbols each position may still hold when position `at` holds only the symbols
    /// `candidates(at)` allows: a forward and a backward walk over the moves. All empty when
    /// no filling keeps the clue.
    pub fn narrowed(&self, candidates: impl Fn(usize) -> Symbols) -> Vec<Symbols> {
        let m = self.moves.len();
        let mut forward: Vec<Vec<bool>> = self.states.iter().map(|&s| vec![false; s]).collect();
        if let Some(first) = forward.first_mut()
            && !first.is_empty()
        {
            first[0] = true;
        }
        for at in 0..m {
            let symbols = candidates(at);
            for mv in &self.moves[at] {
                if forward[at][mv.from as usize] && symbols & (1 << mv.symbol) != 0 {
                    forward[at + 1][mv.to as usize] = true;
                }
            }
        }
        let mut backward: Vec<Vec<bool>> = self.states.iter().map(|&s| vec![false; s]).collect();
        if let Some(last) = backward.last_mut() {
            last.iter_mut().for_each(|s| *s = true);
        }
        let mut narrowed = vec![0; m];
        for at in (0..m).rev() {
            let symbols = candidates(at);
            for mv in &self.moves[at] {
                if forward[at][mv.from as usize]
                    && backward[at + 1][mv.to as usize]
                    && symbols & (1 << mv.symbol) != 0
                {
                    backward[at][mv.from as usize] = true;
                    narrowed[at] |= 1 << mv.symbol;
                }
            }
        }
        if narrowed.contains(&0) {
            return vec![0; m];
        }
        narrowed
    }
}

/// The most moves a clue may have for [`Layers::pair_tables`] to look at its pairs.
pub const MAX_PAIR_MOVES: usize = 20_000;

impl Layers {
    /// For every two positions `i < j` of a clue on a grid of side `n` (at most 16), the
    /// pairs of symbols they may hold together on some filling that keeps the clue, when that
    /// rules some pair out. None for a side past 16 or a clue of more than
    /// [`MAX_PAIR_MOVES`] moves.
    pub fn pair_tables(&self, n: usize) -> Vec<(usize, usize, PairTable)> {
        let m = self.moves.len();
        let total: usize = self.moves.iter().map(Vec::len).sum();
        if n > 16 || total > MAX_PAIR_MOVES {
            return Vec::new();
        }
        let mut tables = Vec::new();
        for i in 0..m {
            let mut seen = vec![vec![0u128; n + 1]; m];
            for x in 1..=n as u8 {
                // The states after reading x at i, then forward.
                let mut reached = vec![false; self.states[i + 1]];
                let mut any = false;
                for mv in self.moves[i].iter().filter(|mv| mv.symbol == x) {
                    reached[mv.to as usize] = true;
                    any = true;
                }
                if !any {
                    continue;
                }
                for (j, row) in seen.iter_mut().enumerate().skip(i + 1) {
                    let mut next = vec![false; self.states[j + 1]];
                    for mv in &self.moves[j] {
                        if reached[mv.from as usize] {
                            row[usize::from(x)] |= 1 << mv.symbol;
                            next[mv.to as usize] = true;
                        }
                    }
                    reached = next;
                }
            }
            for (j, rows) in seen.iter().enumerate().skip(i + 1) {
                let mut table = PairTable::default();
                let mut full = true;
                for x in 1..=n as u8 {
                    for y in 1..=n as u8 {
                        if rows[usize::from(x)] & (1 << y) != 0 {
                            table.allow(x, y);
                        } else {
                            full = false;
                        }
                    }
                }
                if !full {
                    tables.push((i, j, table));
                }
            }
        }
        tables
    }
}

impl Layers {
    /// The number of fillings that keep the clue (paths from the start to acceptance),
    /// counted up to `cap` (anything more is `cap + 1`).
    pub fn fillings(&self, cap: usize) -> usize {
        let mut ways = vec![0usize; self.states.first().copied().unwrap_or(0)];
        if let Some(first) = ways.first_mut() {
            *first = 1;
        }
        for (at, moves) in self.moves.iter().enumerate() {
            let mut next = vec![0usize; self.states[at + 1]];
            for mv in moves {
                let add = ways[mv.from as usize];
                let slot = &mut next[mv.to as usize];
                *slot = slot.saturating_add(add).min(cap + 1);
            }
            ways = next;
        }
        ways.iter()
            .fold(0, |sum: usize, &w| sum.saturating_add(w))
            .min(cap + 1)
    }

    /// Calls `visit` with each filling that keeps the clue (one symbol per position).
    pub fn each_filling(&self, visit: &mut dyn FnMut(&[u8])) {
        fn walk(
            layers: &Layers,
            at: usize,
            state: u32,
            written: &mut Vec<u8>,
            visit: &mut dyn FnMut(&[u8]),
        ) {
            if at == layers.moves.len() {
                visit(written);
                return;
            }
            for mv in layers.moves[at].iter().filter(|mv| mv.from == state) {
                written.push(mv.symbol);
                walk(layers, at + 1, mv.to, written, visit);
                written.pop();
            }
        }
        if self.states.first().is_some_and(|&s| s > 0) {
            walk(self, 0, 0, &mut Vec::new(), visit);
        }
    }
}

/// A machine over sets of cells read one after the other (`ends[at]`: position `at` is the
/// last of its set) that accepts when every set adds up to the same sum. Its state is the
/// common sum plus one (above bit 20; 0 until the first set is read) and the current set's
/// sum so far.
pub fn equal_sums_machine(cells: Vec<Cell>, ends: Vec<bool>, what: String) -> Sequence {
    Sequence::new(
        cells,
        what,
        0,
        move |at, state, symbol| {
            let (target, so_far) = (state >> 20, state & 0xfffff);
            let so_far = so_far + State::from(symbol);
            if target != 0 && so_far > target - 1 {
                return None;
            }
            if !ends[at] {
                return Some(target << 20 | so_far);
            }
            match target {
                0 => Some((so_far + 1) << 20),
                _ => (so_far == target - 1).then_some(target << 20),
            }
        },
        |_| true,
    )
}

/// A machine that adds up the symbols it reads and accepts `total`.
pub fn sum_machine(cells: Vec<Cell>, what: String, total: u32) -> Sequence {
    let total = State::from(total);
    Sequence::new(
        cells,
        what,
        0,
        move |_, sum, symbol| Some(sum + State::from(symbol)).filter(|&sum| sum <= total),
        move |sum| sum == total,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(n: u8) -> impl Fn(usize) -> Symbols {
        move |_| (1u128 << (n + 1)) - 2
    }

    /// The layers of a sum hold exactly the fillings that make it, as brute force finds them:
    /// three cells of 1 to 4 adding up to 10.
    #[test]
    fn the_layers_of_a_sum_hold_its_fillings() {
        let sum = sum_machine(vec![(0, 0), (0, 1), (0, 2)], "a sum".into(), 10);
        let layers = sum.layers(all(4), &|| false).unwrap();
        let mut paths = 0;
        let mut brute = 0;
        for a in 1..=4u8 {
            for b in 1..=4u8 {
                for c in 1..=4u8 {
                    if a + b + c == 10 {
                        brute += 1;
                        assert!(sum.keeps(&[a, b, c]));
                    }
                }
            }
        }
        // Paths through the layers, counted forward.
        let mut ways = vec![1usize];
        for at in 0..3 {
            let mut next = vec![0; layers.states[at + 1]];
            for mv in &layers.moves[at] {
                next[mv.to as usize] += ways[mv.from as usize];
            }
            ways = next;
        }
        paths += ways.iter().sum::<usize>();
        assert_eq!(paths, brute);
        // The first cell holds 2 to 4 (1 + 4 + 4 is 9).
        assert_eq!(layers.supported(0), 0b11100);
        // With the second cell a 2, the others are 4 and 4.
        let narrowed = layers.narrowed(|at| if at == 1 { 1 << 2 } else { 0b11110 });
        assert_eq!(narrowed, vec![1 << 4, 1 << 2, 1 << 4]);
        // With the second cell a 1, nothing is left.
        assert_eq!(
            layers.narrowed(|at| if at == 1 { 1 << 1 } else { 0b11110 })[0],
            0
        );
    }

    /// A sum no filling makes has no moves.
    #[test]
    fn an_impossible_sum_has_no_moves() {
        let sum = sum_machine(vec![(0, 0), (0, 1)], "a sum".into(), 9);
        let layers = sum.layers(all(4), &|| false).unwrap();
        assert!(layers.moves.iter().all(Vec::is_empty));
    }
}
