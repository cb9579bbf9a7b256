//! Counting the rest of a search in bulk: a problem's own counter of the exact covers that
//! complete a partial one.
//!
//! Enumerating every solution of a problem with many spends most of its time near the leaves,
//! where each solution is a handful of forced moves after the last branch point: the Sudoku of
//! 3,828,403 solutions takes 14 nodes of dancing links a solution. Whoever built a problem may
//! know its structure well enough to count such a rest faster (a classic Sudoku's rest fits in
//! bit sets a machine word wide). A [`RestCounter`] attached to a [`Matrix`](super::Matrix) with
//! [`Matrix::set_rest_counter`](super::Matrix::set_rest_counter) does that: where a search that only counts
//! ([`Search::count`](super::Search::count), [`Search::next_count`](super::Search::next_count),
//! a parallel count without a visitor) enters a node with few primary items left, it hands the
//! counter the options chosen on its path, adds what the counter returns and backtracks. The
//! engine knows nothing of what the counter does; it only trusts it to count the exact covers
//! of the problem that hold the options given.
//!
//! Counters that can also list the solutions they find ([`RestCounter::lists`]) are handed
//! the rests of searches for a first solution or a verdict as well.
//!
//! A rest is counted within a budget of the counter's own steps, so that a search still looks
//! at its clock and cancellation flag often. A rest too big for the budget is declined: the
//! search goes on with dancing links from that node, and hands over only nodes with fewer
//! primary items left from then on ([`Cut`]); a rest counted well within the budget lets
//! nodes with one more item left be handed over.

use std::fmt::Debug;

use super::problem::OptionId;

/// A problem's own count of the exact covers that complete a partial one.
///
/// Implementations must count exactly the solutions of the matrix's problem that hold every
/// option of `chosen`: the search adds the count to its own and never looks below the node.
/// The engine calls it only for problems without colours, multiplicities, sums or chains.
pub trait RestCounter: Debug + Send + Sync {
    /// The most primary items left uncovered at a node whose rest the counter may be handed.
    fn items_at_most(&self) -> usize;

    /// Counts the solutions that hold every option of `chosen` (the options chosen before the
    /// search, then those on the search's path), stopping once there are `limit` (then any
    /// number from `limit` up may be returned) or after `budget` steps of its own (then
    /// [`RestCount::solutions`] is `None`).
    fn count(&self, chosen: &[OptionId], limit: u128, budget: u64) -> RestCount;

    /// Whether [`RestCounter::list`] lists solutions: then searches for the first solution or
    /// a verdict ([`Solver::first`](super::Solver::first),
    /// [`Solver::verdict`](super::Solver::verdict)) hand rests over too.
    fn lists(&self) -> bool {
        false
    }

    /// Like [`RestCounter::count`], but calls `visit` with each solution found (up to `limit`
    /// of them), as the options it holds beyond `chosen`. Those that take it only list as
    /// many solutions as they are asked for.
    fn list(
        &self,
        chosen: &[OptionId],
        limit: usize,
        budget: u64,
        visit: &mut dyn FnMut(&[OptionId]),
    ) -> RestCount {
        let _ = (chosen, limit, budget, visit);
        RestCount {
            solutions: None,
            nodes: 0,
        }
    }
}

/// What a [`RestCounter`] counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RestCount {
    /// The number of solutions, or `None` if the budget ran out first.
    pub solutions: Option<u128>,
    /// Steps the counter took (its search nodes): added to the search's nodes, for its
    /// statistics and for when it next looks at its clock.
    pub nodes: u64,
}

/// The counter's steps a rest may take: about a millisecond of a classic Sudoku's counter, so
/// that a search looks at its clock and flag about as often as without rests.
pub const REST_BUDGET: u64 = 1 << 12;

/// Where a search hands its rests over: at nodes with at most `items` primary items left,
/// moved by what the rests cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cut {
    /// The most primary items left at a node handed over now.
    pub items: usize,
    /// The counter's own bound ([`RestCounter::items_at_most`]).
    pub most: usize,
}

impl Cut {
    /// The cut of a counter that says it takes rests of up to `most` items.
    pub fn new(most: usize) -> Cut {
        Cut { items: most, most }
    }

    /// A rest of `left` items was too big for the budget: hand over only smaller ones.
    pub fn declined(&mut self, left: usize) {
        self.items = self.items.min(left.saturating_sub(1));
    }

    /// A rest took `nodes` of the counter's steps: far within the budget, rests of one more
    /// item may be handed over. Moving up only where a rest cost a small share of the budget
    /// keeps the declined rests few: on the Sudoku of 3,828,403 solutions, moving up under
    /// 1/8 of it declined 297 rests of 6,440 (1.60 s), under 1/128 65 of 13,053 (1.49 s),
    /// under 1/1024 38 of 16,653 (1.44 s); 1/256 lies between the last two.
    pub fn counted(&mut self, nodes: u64) {
        if nodes < REST_BUDGET / 256 && self.items < self.most {
            self.items += 1;
        }
    }
}
