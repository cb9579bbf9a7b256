//! The `xcover` command as a user runs it: `cover`, `example`, `sudoku` and `merge`, searches
//! cut into shards, interrupted and resumed, careless and hostile input, and the README's own
//! commands.

#[path = "../common/mod.rs"]
mod common;

mod careless_input;
mod cover;
mod first_use;
mod interruptions;
mod readme;
mod shards;
mod sudoku;
