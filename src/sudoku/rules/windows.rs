//! Windoku: the windows hold each symbol once. With square boxes of side k, the windows are
//! the k x k squares whose top-left corners are one cell in from each box corner, k - 1 of
//! them across and down (on 9x9, at r2c2, r2c6, r6c2 and r6c6).

use super::Mark;
use super::{Rule, Rules, RulesError, Unit, cell_name, repeats};

pub(super) const NAME: &str = "windows";

/// The windows of Windoku hold each symbol once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Windows;

/// The side of the windows: the side of square boxes (of side 2 or more).
fn window_side(rules: &Rules) -> Option<usize> {
    let shape = rules.boxes?;
    (shape.box_rows() == shape.box_cols() && shape.box_rows() >= 2).then(|| shape.box_rows())
}

impl Rule for Windows {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the windows"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        window_side(rules)
            .map(|_| ())
            .ok_or(RulesError::WindowsNeedSquareBoxes)
    }

    fn units(&self, rules: &Rules) -> Vec<Unit> {
        let n = rules.size;
        let Some(k) = window_side(rules) else {
            return Vec::new();
        };
        let corners = || (1..n).step_by(k + 1).take(k - 1);
        corners()
            .flat_map(|top| corners().map(move |left| (top, left)))
            .enumerate()
            .map(|(w, (top, left))| Unit {
                tag: format!("w{}", w + 1),
                name: format!("the window at {}", cell_name((top, left))),
                cells: (top..top + k)
                    .flat_map(|r| (left..left + k).map(move |c| (r, c)))
                    .collect(),
            })
            .collect()
    }

    fn marks(&self, rules: &Rules) -> Vec<Mark> {
        super::drawing::shaded_units(NAME, self.units(rules))
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let k = rules.boxes.map_or(0, |shape| shape.box_rows());
        // Window i starts at row (and column) 1 + i(k + 1), from 0: 1 and 5 on 9x9.
        let starts: Vec<usize> = (0..k.saturating_sub(1)).map(|i| 1 + i * (k + 1)).collect();
        for &top in &starts {
            for &left in &starts {
                let cells = (top..top + k).flat_map(|r| (left..left + k).map(move |c| (r, c)));
                if let Some(v) = repeats(grid, n, cells) {
                    return Some(format!(
                        "the window at r{}c{} holds {v} twice",
                        top + 1,
                        left + 1
                    ));
                }
            }
        }
        None
    }
}
