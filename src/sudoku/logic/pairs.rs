//! Related cells: the one step the human-style solver takes for every rule that relates two
//! cells (thermometers, kropki dots, XV, whispers, renban, greater-than signs, the
//! non-consecutive rule...). A candidate of one cell goes when no candidate of the other cell
//! (or the symbol placed there) keeps the relation with it: "a thermometer says r1c2 is at
//! least 1 more than r1c1
//! ...; nothing in r1c2 goes with 9 in r1c1", which removes 9 from the bulb.. That is the whole of what one pair says on its own, so
//! the deduction is sound; what several pairs say together is left to the other techniques.

use std::ops::ControlFlow;

use super::position::{Mask, Position, bit, forbidden_beside, list, symbols};
use super::{Step, Technique, Visit};

pub(super) fn related_cells(p: &Position, visit: Visit<'_>) -> ControlFlow<()> {
    let n = p.size();
    for pair in &p.layout.related_pairs {
        let [a, b] = pair.cells;
        for (this, other, first) in [(a, b, true), (b, a, false)] {
            if p.values()[this] != 0 {
                continue;
            }
            let others: Mask = match p.values()[other] {
                0 => p.candidates[other],
                placed => bit(placed),
            };
            let gone: Mask = symbols(p.candidates[this])
                .filter(|&v| others & !forbidden_beside(pair.relation, first, v, n) == 0)
                .fold(0, |mask, v| mask | bit(v));
            if gone == 0 {
                continue;
            }
            let eliminations = symbols(gone).map(|v| (p.cell(this), v)).collect();
            let said = pair
                .relation
                .describe(&p.cell(a).to_string(), &p.cell(b).to_string());
            let detail = format!(
                "{}: {said}; nothing in {} goes with {} in {}",
                pair.rule,
                p.cell(other),
                list(gone),
                p.cell(this)
            );
            visit(Step::eliminating(
                Technique::RelatedCells,
                eliminations,
                vec![p.cell(this), p.cell(other)],
                detail,
            ))?;
        }
    }
    ControlFlow::Continue(())
}
