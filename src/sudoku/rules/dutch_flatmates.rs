//! Dutch flatmates: every middle symbol (5 on 9x9) has a 1 right above it or the largest
//! symbol (9) right below it, or both.
//!
//! Each column is read from the top by a machine (see [`super::sequences`]) whose state is
//! the symbol above and whether a middle symbol still waits for its largest below.

use super::sequences::{Sequence, State};
use super::{Rule, Rules, RulesError, cell_name};

pub(super) const NAME: &str = "dutch-flatmates";

/// The Dutch flatmates rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DutchFlatmates;

impl Rule for DutchFlatmates {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the Dutch flatmates rule"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        if rules.size.is_multiple_of(2) {
            return Err(RulesError::BadSize(format!(
                "Dutch flatmates need an odd side (a middle symbol), not {}",
                rules.size
            )));
        }
        Ok(())
    }

    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let n = rules.size;
        let (middle, high) = (State::from((n as u8).div_ceil(2)), n as State);
        (0..n)
            .map(|c| {
                // The state: the symbol above (its low byte) and 256 when the middle symbol
                // above waits for the largest one below.
                Sequence::new(
                    (0..n).map(|r| (r, c)).collect(),
                    format!("column {}", c + 1),
                    0,
                    move |_, state: State, symbol| {
                        let symbol = State::from(symbol);
                        let (above, waiting) = (state & 0xff, state & 256 != 0);
                        if waiting && symbol != high {
                            return None;
                        }
                        let waits = symbol == middle && above != 1;
                        Some(symbol | if waits { 256 } else { 0 })
                    },
                    |state| state & 256 == 0,
                )
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let middle = (n as u8).div_ceil(2);
        for r in 0..n {
            for c in 0..n {
                if grid[r * n + c] != middle {
                    continue;
                }
                let above = r > 0 && grid[(r - 1) * n + c] == 1;
                let below = r + 1 < n && usize::from(grid[(r + 1) * n + c]) == n;
                if !above && !below {
                    return Some(format!(
                        "the {middle} at {} has neither 1 above nor {n} below",
                        cell_name((r, c))
                    ));
                }
            }
        }
        None
    }
}
