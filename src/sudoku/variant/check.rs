//! An independent judge of filled variant grids, sharing no code with the encoding: each rule
//! judges the grid by its own definition, in its module of [`crate::sudoku::rules`], so a
//! mistake in how the encoding builds units, neighbour pairs or cage options cannot hide
//! itself here.

use super::Rules;

/// The first rule a filled grid (row by row, symbols from 1) breaks, described; `None` when
/// it keeps every rule. Givens that the grid overwrote are a broken rule too.
pub fn broken_rule(rules: &Rules, givens: &[u8], grid: &[u8]) -> Option<String> {
    rules.broken_rule(givens, grid)
}
