//! Clue reading: the one step the human-style solver takes for every clue read along cells
//! (arrows, sums, sandwiches, between lines, X-sums, skyscrapers...). Each clue is unrolled
//! into the states its machine can be in at each cell (see
//! [`crate::sudoku::rules::sequences`]); walking those states forward and back over the
//! cells' candidates leaves, at each cell, the symbols some filling that keeps the clue puts
//! there. The others go: "the arrow from r1c1 (r1c1 r2c2 r3c3): r1c1<>1, r1c1<>2".

use std::ops::ControlFlow;

use super::position::{Mask, Position, bit, list};
use super::{Step, Technique, Visit};

pub(super) fn clue_reading(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    for clue in &p.layout.clues {
        // A clue no filling keeps is a contradiction, which the caller reports.
        let Some(allowed) = p.clue_allows(clue) else {
            continue;
        };
        // A cell read twice keeps what both readings allow.
        let mut keep: Vec<(usize, Mask)> = Vec::new();
        for (&cell, &mask) in clue.cells.iter().zip(&allowed) {
            match keep.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, kept)) => *kept &= mask,
                None => keep.push((cell, mask)),
            }
        }
        let mut eliminations = Vec::new();
        let mut removed: Mask = 0;
        for &(cell, mask) in &keep {
            if p.values()[cell] != 0 {
                continue;
            }
            let gone = p.candidates[cell] & !mask;
            for v in (1..=p.size() as u8).filter(|&v| gone & bit(v) != 0) {
                eliminations.push((p.cell(cell), v));
            }
            removed |= gone;
        }
        if eliminations.is_empty() {
            continue;
        }
        let cells: Vec<String> = clue.cells.iter().map(|&c| p.cell(c).to_string()).collect();
        let detail = format!(
            "{} ({}) cannot be kept with {} there",
            clue.what,
            cells.join(" "),
            list(removed)
        );
        visit(Step::eliminating(
            Technique::ClueReading,
            eliminations,
            clue.cells.iter().map(|&c| p.cell(c)).collect(),
            detail,
        ))?;
    }
    ControlFlow::Continue(())
}
