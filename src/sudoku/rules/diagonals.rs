//! X-Sudoku: both main diagonals hold each symbol once.

use super::Mark;
use super::{Rule, Rules, Unit, repeats};

pub(super) const NAME: &str = "diagonals";

/// Both main diagonals hold each symbol once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Diagonals;

impl Rule for Diagonals {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the diagonals"
    }

    fn units(&self, rules: &Rules) -> Vec<Unit> {
        let n = rules.size;
        vec![
            Unit {
                tag: "d1".into(),
                name: "the main diagonal".into(),
                cells: (0..n).map(|i| (i, i)).collect(),
            },
            Unit {
                tag: "d2".into(),
                name: "the anti-diagonal".into(),
                cells: (0..n).map(|i| (i, n - 1 - i)).collect(),
            },
        ]
    }

    fn marks(&self, rules: &Rules) -> Vec<Mark> {
        super::drawing::shaded_units(NAME, self.units(rules))
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        // The main diagonal runs from the top-left corner, the other from the top-right.
        if let Some(v) = repeats(grid, n, (0..n).map(|i| (i, i))) {
            return Some(format!("the main diagonal holds {v} twice"));
        }
        repeats(grid, n, (0..n).map(|i| (n - 1 - i, i)))
            .map(|v| format!("the anti-diagonal holds {v} twice"))
    }
}
