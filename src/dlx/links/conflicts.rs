//! Conflict-directed branching: where the search fails teaches it where to branch next.
//!
//! Knuth's rule branches on the item with the fewest options. On problems whose hard part
//! is arithmetic (sums over many options, as killer cages are), the item with the fewest
//! options is often one that no sum is short of, and the search wanders: the same sums fail
//! again and again, deep in subtrees that branched elsewhere. Here each primary item keeps
//! a weight, raised each time the search meets a dead end through it (the item is left
//! without options, or a sum with an option of it in every term cannot be met), halved now
//! and then so that old failures fade; the search branches on the item with the most weight
//! per option (the "domain over weighted degree" of constraint solvers; the Interactive
//! Sudoku Solver picks its cells so). With no weight anywhere it is Knuth's rule. A dead end
//! also weighs the item of the choice right above it, as ISS weighs the cell it guessed.
//!
//! Such a search also refutes ([`Links::refutes`]): where a level runs inference other than
//! probing (whose failed trials refute options of their own) and an option's subtree is
//! done, the option is removed (onto the trail, put back when the search leaves the level)
//! and the level entered again as a node of its own. Its inference propagates the removal
//! and it chooses where to branch anew, perhaps on another item: the "x = v, else x ≠ v"
//! branching of constraint solvers, where dancing links would try the item's next option
//! with nothing learnt. A level whose item runs out of options so is a dead end of that
//! node, weighed as any other. Measured in `docs/sums.md`.
//!
//! The tree then depends on the order the search went, not only on the problem: a path
//! recorded by one search does not lead another to the same node. A search that branches
//! so is not split ([`Links::whole`]): it runs on one thread, and a stopped one resumes
//! from the start, as Algorithm M's searches do.
//!
//! Safe code: it reads the links through the accessors of `dance.rs`.

use super::Links;

/// How a search chooses the item it branches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Branching {
    /// The first primary item with the fewest options (Knuth's rule, and the blocks' and
    /// probing's refinements of it): the tree is a function of the problem alone, so that
    /// searches can be split into parts, run on several threads, stopped and resumed.
    #[default]
    Fewest,
    /// The primary item with the most recent dead ends per option, each option whose
    /// subtree is done taken out before choosing again where inference runs (module
    /// documentation). The search is not split.
    Conflicts,
}

/// After this many dead ends every weight is halved.
const HALVE_EVERY: u32 = 1 << 14;

/// The weights of conflict-directed branching.
#[derive(Debug, Clone, Default)]
pub(crate) struct Conflicts {
    /// Per primary item (index `1..=primary`), its weight.
    weight: Vec<u32>,
    /// Dead ends until the next halving.
    until_halving: u32,
    /// Per sum, the primary items its options begin with (filled at the first dead end).
    sum_items: Vec<Vec<u32>>,
}

impl Links {
    /// How searches choose their branch item.
    pub fn branching(&self) -> Branching {
        self.branching
    }

    /// Sets how later searches choose their branch item. Only between searches.
    pub fn set_branching(&mut self, branching: Branching) {
        assert_eq!(self.level, 0, "branching is set between searches");
        self.branching = branching;
    }

    /// Whether a search is one part that is not split: Algorithm M's, and one that branches
    /// on its conflicts.
    pub(crate) fn whole(&self) -> bool {
        self.multi || self.branching == Branching::Conflicts
    }

    /// Forgets the weights: each search starts with none.
    pub(super) fn forget_conflicts(&mut self) {
        let conflicts = &mut self.conflicts;
        conflicts.weight.clear();
        if self.branching == Branching::Conflicts {
            conflicts
                .weight
                .resize(self.dance.primary() as usize + 1, 0);
        }
        conflicts.until_halving = HALVE_EVERY;
    }

    /// A dead end through primary item `item`.
    pub(super) fn conflict_at(&mut self, item: u32) {
        let conflicts = &mut self.conflicts;
        let Some(weight) = conflicts.weight.get_mut(item as usize) else {
            return;
        };
        *weight += 1;
        conflicts.until_halving -= 1;
        if conflicts.until_halving == 0 {
            conflicts.until_halving = HALVE_EVERY;
            for weight in &mut conflicts.weight {
                *weight >>= 1;
            }
        }
    }

    /// A dead end right below the choice of node `x`'s option: its item is weighed too, so
    /// that the search branches again where its choices fail (the Interactive Sudoku Solver
    /// weighs the cell it guessed so; measured in `docs/sums.md`).
    pub(super) fn conflict_below(&mut self, x: u32) {
        if !self.conflicts.weight.is_empty() {
            self.conflict_at(self.dance.top(x));
        }
    }

    /// A dead end at sum `s`: through each primary item its options begin with.
    pub(super) fn conflict_at_sum(&mut self, s: usize) {
        if self.conflicts.weight.is_empty() {
            return;
        }
        if self.conflicts.sum_items.len() != self.sums.len() {
            let sums = std::sync::Arc::clone(&self.sums);
            self.conflicts.sum_items = sums
                .iter()
                .map(|sum| {
                    let mut items: Vec<u32> = (sum.nodes.iter().flatten())
                        .filter(|&&x| x != 0)
                        .map(|&x| self.dance.top(x))
                        .filter(|&item| item <= self.dance.primary())
                        .collect();
                    items.sort_unstable();
                    items.dedup();
                    items
                })
                .collect();
        }
        for k in 0..self.conflicts.sum_items[s].len() {
            let item = self.conflicts.sum_items[s][k];
            self.conflict_at(item);
        }
    }

    /// The active primary item to branch on by the weights: the first with at most one
    /// option if any, else the one with the most weight per option (the first of equals, so
    /// with no weight the first with the fewest options), with its number of options.
    pub(super) fn most_conflicted(&self) -> (u32, u32) {
        let weight = &self.conflicts.weight;
        // Compared as (weight + 1) / len, by cross-multiplying.
        let mut best = (0, u32::MAX, 0u64);
        let mut i = self.dance.item(0).next;
        while i != 0 && i <= self.dance.primary() {
            let len = self.dance.top(i);
            if len <= 1 {
                return (i, len);
            }
            let score = u64::from(weight[i as usize]) + 1;
            if best.0 == 0 || score * u64::from(best.1) > best.2 * u64::from(len) {
                best = (i, len, score);
            }
            i = self.dance.item(i).next;
        }
        (best.0, best.1)
    }
}
