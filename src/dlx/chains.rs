//! Chains over choices: a constraint that reads one chosen option per term, in order, and
//! accepts the word of their values when a small machine, unrolled over the terms, has a path
//! for it. A clue read along cells (a skyscraper clue, a sandwich, a line whose segments add
//! up alike) is such a machine; stated with options alone, as one option per move, the moves
//! of a step do not see that the moves before them can no longer reach the state they leave
//! from, nor that no move reads a cell's symbol any more, until the search chooses a move.
//! Here the search filters the chain where it branches, as it filters sums: forward from the
//! start over the moves whose values the terms still allow, backward from the last layer, and
//! every value no move on a whole path reads goes (the propagation of a "regular" constraint
//! in constraint solvers, on dancing links' live options).
//!
//! A [`Chain`] is a list of terms, each a set of options with a value, and for each term the
//! moves of its step: from a state, reading a value, to a state of the next layer. States are
//! numbers, layer by layer; the machine starts in state 0 before the first term and accepts in
//! any state it reaches after the last. The machine need not be deterministic. Nothing here
//! knows what an option means.
//!
//! Filtering ([`ChainFilter::support`]) is exact on each chain alone. The check at each
//! solution ([`Chain::holds`]) follows the chosen word through sets of states and shares no
//! code with the filtering.

use std::collections::{BTreeSet, HashMap};

use super::problem::OptionId;
use super::sums::FilterTerm;

/// A move of a chain's machine: from state `from` of the layer before a term, reading the
/// term's `value`, to state `to` of the layer after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u32,
    pub value: i64,
    pub to: u32,
}

/// A chain over choices, as given to [`Problem::add_chain`](super::Problem::add_chain).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Chain {
    /// Each term: its options, each with the value it reads when chosen.
    pub terms: Vec<Vec<(OptionId, i64)>>,
    /// Per term, the moves of its step (as many lists as terms).
    pub moves: Vec<Vec<Move>>,
}

impl Chain {
    /// Whether the options of `chosen` (a solution, in any order, as `is_chosen` tells) meet
    /// the chain: one option chosen in each term, and a path of moves from state 0 that reads
    /// their values in order.
    pub fn holds(&self, is_chosen: impl Fn(OptionId) -> bool) -> bool {
        let mut states = BTreeSet::from([0u32]);
        for (term, moves) in self.terms.iter().zip(&self.moves) {
            let mut chosen = term.iter().filter(|&&(option, _)| is_chosen(option));
            let (Some(&(_, value)), None) = (chosen.next(), chosen.next()) else {
                return false;
            };
            states = moves
                .iter()
                .filter(|m| m.value == value && states.contains(&m.from))
                .map(|m| m.to)
                .collect();
            if states.is_empty() {
                return false;
            }
        }
        true
    }
}

/// A chain compiled for filtering (the options themselves are the caller's, in term order):
/// the states of each layer numbered from 0, and each step's moves with the bit of their
/// value among the term's values. Moves whose value no option of the term has are left out.
#[derive(Debug, Clone)]
pub(crate) struct ChainFilter {
    pub terms: Vec<FilterTerm>,
    /// All steps' moves, each the state it leaves (index in layer `t`) and the state it
    /// enters (in layer `t + 1`), grouped by the value they read: `runs[runs_start[t]..
    /// runs_start[t + 1]]` are term `t`'s groups, each the bit of its value and where its
    /// moves start and end. A value the term can no longer take skips its moves at once.
    moves: Vec<(u32, u32)>,
    runs: Vec<(u8, u32, u32)>,
    runs_start: Vec<u32>,
    /// Where each layer's states start in one array of all of them (`terms + 2` entries).
    layer_start: Vec<u32>,
}

/// Scratch space of the chains' filtering: a mark per state of every layer, reached from the
/// start, and (a second bit) able to reach the end.
#[derive(Debug, Clone, Default)]
pub(crate) struct ChainScratch {
    marks: Vec<u8>,
}

const REACHED: u8 = 1;
const COMPLETES: u8 = 2;

impl ChainFilter {
    /// Compiles `chain` (already checked by `Problem::add_chain`: as many move lists as
    /// terms, non-empty terms of at most [`super::MAX_TERM_VALUES`] values each).
    pub fn new(chain: &Chain) -> ChainFilter {
        let terms: Vec<FilterTerm> = chain
            .terms
            .iter()
            .map(|term| FilterTerm::plain(term.iter().map(|&(_, value)| value)))
            .collect();
        // Each layer's states as they are named, numbered in order of appearance (state 0
        // first in layer 0).
        let mut layers: Vec<HashMap<u32, u32>> = vec![HashMap::new(); terms.len() + 1];
        layers[0].insert(0, 0);
        let number = |layer: &mut HashMap<u32, u32>, state: u32| {
            let next = layer.len() as u32;
            *layer.entry(state).or_insert(next)
        };
        let (mut moves, mut runs, mut runs_start) = (Vec::new(), Vec::new(), vec![0u32]);
        for (t, (term, step)) in terms.iter().zip(&chain.moves).enumerate() {
            let mut step_moves: Vec<(u8, u32, u32)> = Vec::new();
            for m in step {
                if let Ok(bit) = term.values.binary_search(&m.value) {
                    let from = number(&mut layers[t], m.from);
                    let to = number(&mut layers[t + 1], m.to);
                    step_moves.push((bit as u8, from, to));
                }
            }
            step_moves.sort_unstable();
            step_moves.dedup();
            for run in step_moves.chunk_by(|a, b| a.0 == b.0) {
                let start = moves.len() as u32;
                moves.extend(run.iter().map(|&(_, from, to)| (from, to)));
                runs.push((run[0].0, start, moves.len() as u32));
            }
            runs_start.push(runs.len() as u32);
        }
        let mut layer_start = vec![0u32];
        for layer in &layers {
            layer_start.push(layer_start[layer_start.len() - 1] + layer.len() as u32);
        }
        ChainFilter {
            terms,
            moves,
            runs,
            runs_start,
            layer_start,
        }
    }

    /// From the values each term may still take (`domains[t]`, bits over
    /// `terms[t].values`), the values each reads on some path from the start through the
    /// last layer, into `support`; `false` when there is none.
    pub fn support(
        &self,
        domains: &[u64],
        scratch: &mut ChainScratch,
        support: &mut Vec<u64>,
    ) -> bool {
        let m = self.terms.len();
        support.clear();
        support.resize(m, 0);
        let marks = &mut scratch.marks;
        marks.clear();
        marks.resize(self.layer_start[m + 1] as usize, 0);
        marks[0] = REACHED;
        for (t, &domain) in domains.iter().enumerate().take(m) {
            let (here, next) = (self.layer_start[t], self.layer_start[t + 1]);
            let mut any = false;
            for &(bit, start, end) in self.runs_of(t) {
                if domain & 1 << bit == 0 {
                    continue;
                }
                for &(from, to) in &self.moves[start as usize..end as usize] {
                    if marks[(here + from) as usize] & REACHED != 0 {
                        marks[(next + to) as usize] |= REACHED;
                        any = true;
                    }
                }
            }
            if !any {
                return false;
            }
        }
        let (last, end) = (self.layer_start[m], self.layer_start[m + 1]);
        for mark in &mut marks[last as usize..end as usize] {
            if *mark & REACHED != 0 {
                *mark |= COMPLETES;
            }
        }
        for t in (0..m).rev() {
            let (here, next) = (self.layer_start[t], self.layer_start[t + 1]);
            for &(bit, start, end) in self.runs_of(t) {
                if domains[t] & 1 << bit == 0 {
                    continue;
                }
                for &(from, to) in &self.moves[start as usize..end as usize] {
                    if marks[(here + from) as usize] & REACHED != 0
                        && marks[(next + to) as usize] & COMPLETES != 0
                    {
                        marks[(here + from) as usize] |= COMPLETES;
                        support[t] |= 1 << bit;
                    }
                }
            }
        }
        true
    }

    /// Term `t`'s groups of moves by value: the value's bit, where its moves start and end.
    fn runs_of(&self, t: usize) -> &[(u8, u32, u32)] {
        &self.runs[self.runs_start[t] as usize..self.runs_start[t + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain of `terms` terms over values 1 to 3 (option `3 t + v - 1` reads `v` in term
    /// `t`) whose machine counts the 3s read and accepts exactly `threes` of them.
    fn threes(terms: usize, threes: u32) -> Chain {
        let moves = (0..terms)
            .map(|t| {
                let mut step = Vec::new();
                for count in 0..=t as u32 {
                    for value in 1..=3 {
                        let to = count + u32::from(value == 3);
                        if t + 1 < terms || to == threes {
                            step.push(Move {
                                from: count,
                                value,
                                to,
                            });
                        }
                    }
                }
                step
            })
            .collect();
        Chain {
            terms: (0..terms)
                .map(|t| {
                    (1..=3)
                        .map(|v| (OptionId((3 * t) as u32 + v as u32 - 1), v))
                        .collect()
                })
                .collect(),
            moves,
        }
    }

    #[test]
    fn support_keeps_exactly_the_values_on_whole_paths() {
        let chain = threes(3, 2);
        let filter = ChainFilter::new(&chain);
        let mut scratch = ChainScratch::default();
        let mut support = Vec::new();
        // Every value open: each term may read anything, two of three are 3s.
        assert!(filter.support(&[0b111; 3], &mut scratch, &mut support));
        assert_eq!(support, vec![0b111; 3]);
        // The first term cannot read 3: the other two must.
        assert!(filter.support(&[0b011, 0b111, 0b111], &mut scratch, &mut support));
        assert_eq!(support, vec![0b011, 0b100, 0b100]);
        // No term can read 3: no path.
        assert!(!filter.support(&[0b011; 3], &mut scratch, &mut support));
    }

    #[test]
    fn holds_follows_the_chosen_word() {
        let chain = threes(3, 2);
        let word = |values: [i64; 3]| {
            move |option: OptionId| {
                let (t, v) = (option.0 as usize / 3, option.0 as i64 % 3 + 1);
                values[t] == v
            }
        };
        assert!(chain.holds(word([3, 1, 3])));
        assert!(!chain.holds(word([3, 3, 3])));
        assert!(!chain.holds(word([1, 2, 3])));
        // Two options of one term chosen.
        assert!(!chain.holds(|option: OptionId| option.0 < 6 || option.0 == 8));
    }
}
