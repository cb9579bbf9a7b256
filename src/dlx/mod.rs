//! The generic exact-cover engine: Knuth's Algorithm X with dancing links.
//!
//! Nothing here knows about Sudoku or any other puzzle. A [`Problem`] names items and options;
//! a [`Matrix`] compiles it into flat link arrays once; a [`Solver`] holds the mutable state of
//! searches on that matrix and answers the questions users ask: the first solution, every
//! solution (lazily), the count up to a limit, a [`Verdict`] on uniqueness, and [`Stats`].
//! [`format`](mod@format) reads and writes Knuth's text format.

pub mod bits;
pub mod cells;
mod chains;
pub mod checkpoint;
#[allow(unsafe_code)] // the one module with unchecked accesses: see its documentation
mod dance;
pub mod format;
mod links;
mod matrix;
#[cfg(feature = "parallel")]
mod parallel;
mod problem;
mod rest;
mod restart;
mod search;
mod split;
mod sums;

pub use chains::{Chain, Move};
pub use links::{Branching, Inference};
pub use matrix::{Matrix, MatrixError};
#[cfg(feature = "parallel")]
pub use parallel::{Enumeration, Monitor, Outcome, Snapshot, Visitor};
pub use problem::{BuildError, ColorId, ItemId, ItemKind, OptionId, Problem};
pub use rest::{REST_BUDGET, RestCount, RestCounter};
pub use restart::FIRST_BUDGET;
pub(crate) use search::stop_reason;
pub use search::{
    Branch, Candidates, ChooseError, PathError, Presence, Search, Solution, Solutions, Solver,
    Stats, Stop, Subtree, Verdict,
};
pub use split::{SUBTREES_PER_SHARD, SubtreeSyntaxError};
pub use sums::{MAX_DISTINCT_VALUES, MAX_TERM_VALUES, Sum};
