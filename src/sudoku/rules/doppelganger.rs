//! Doppelganger: a grid of side N - 1 holding the digits 0 to N - 1, where every row, column
//! and box holds 0 and all but one of the other digits; no two rows (no two columns, no two
//! boxes) miss the same digit; and at each 0, the digits its row, its column and its box miss
//! are three different digits. Setters draw lines through the missing digits too, written
//! beside the grid: ISS names them `DGC1`.. (the digits the rows miss, a column to the right),
//! `DGR1`.. (the columns', a row below) and `DGB1`.. (the boxes').
//!
//! On the board (see [`Rules::rows`]) a doppelganger grid of 9x9 is a 10x10 Latin square and
//! a row beyond it, symbols 1 to 10 standing for the digits 0 to 9:
//!
//! ```text
//!   rows 1-9, columns 1-9    the grid
//!   column 10, rows 1-9      the digit each row misses        (ISS's DGC)
//!   row 10, columns 1-9      the digit each column misses     (ISS's DGR)
//!   r10c10                   0
//!   row 11, columns 1-9      the digit each box misses        (ISS's DGB)
//!   r11c10                   0
//! ```
//!
//! Each row of the grid with its missing digit holds the ten digits once; so does each
//! column, each box with its, and the row and the column of missing digits each with a 0
//! (which is why no two rows miss the same digit, and why none misses 0). The square's rows
//! and columns are the houses of the board; the boxes with their digits, and the boxes' row
//! beyond, are this rule's units. What is left, the three different digits at each 0, is a
//! clue read along four cells (the 0's cell and its row's, column's and box's missing digits):
//! each cell of the board is then fixed by the grid, so the board has as many solutions as
//! the grid.

use super::sequences::Sequence;
use super::{Cell, CellSum, Rule, Rules, RulesError, Unit, Weight};
use crate::sudoku::BoxShape;

pub(super) const NAME: &str = "doppelganger";

/// Every row, column and box of the grid misses one digit, each its own, and the three a 0
/// sees differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Doppelganger;

/// The grid's layout on the board of `rules` (see the module's table).
struct Layout {
    /// The grid's side: one less than the symbols.
    side: usize,
    boxes: BoxShape,
}

impl Layout {
    fn of(rules: &Rules) -> Option<Layout> {
        let side = rules.size.checked_sub(1)?;
        Some(Layout {
            side,
            boxes: BoxShape::for_size(side)?,
        })
    }

    /// The cell of the digit row `r` of the grid misses.
    fn row_missing(&self, r: usize) -> Cell {
        (r, self.side)
    }

    /// The cell of the digit column `c` misses.
    fn column_missing(&self, c: usize) -> Cell {
        (self.side, c)
    }

    /// The cell of the digit box `b` misses.
    fn box_missing(&self, b: usize) -> Cell {
        (self.side + 1, b)
    }

    /// The two cells fixed at 0: where the missing digits' row and column cross, and the
    /// end of the boxes' row.
    fn zeros(&self) -> [Cell; 2] {
        [(self.side, self.side), (self.side + 1, self.side)]
    }

    fn grid_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.side).flat_map(move |r| (0..self.side).map(move |c| (r, c)))
    }
}

/// Symbol 1 is the digit 0.
const ZERO: u8 = 1;

impl Rule for Doppelganger {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "the doppelganger rule"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        match Layout::of(rules) {
            Some(_) if rules.boxes.is_none() => Ok(()),
            _ => Err(RulesError::BadSize(format!(
                "doppelganger needs a grid with boxes of its own, and the board's boxes off \
                 (symbols {}, side {})",
                rules.size,
                rules.size.saturating_sub(1)
            ))),
        }
    }

    fn units(&self, rules: &Rules) -> Vec<Unit> {
        let Some(layout) = Layout::of(rules) else {
            return Vec::new();
        };
        let mut units: Vec<Unit> = (0..layout.side)
            .map(|b| {
                let mut cells: Vec<Cell> = layout
                    .grid_cells()
                    .filter(|&(r, c)| layout.boxes.box_of(r, c) == b)
                    .collect();
                cells.push(layout.box_missing(b));
                Unit {
                    tag: format!("b{}", b + 1),
                    name: format!("box {} with the digit it misses", b + 1),
                    cells,
                }
            })
            .collect();
        let mut missing: Vec<Cell> = (0..layout.side).map(|b| layout.box_missing(b)).collect();
        missing.push(layout.zeros()[1]);
        units.push(Unit {
            tag: "m".into(),
            name: "the digits the boxes miss".into(),
            cells: missing,
        });
        units
    }

    fn excluded(&self, rules: &Rules) -> Vec<(Cell, u8)> {
        let Some(layout) = Layout::of(rules) else {
            return Vec::new();
        };
        let n = rules.size as u8;
        let mut excluded = Vec::new();
        // The two zeros hold 0 and nothing else; a missing digit is never 0 (the units
        // say so too, through the zeros).
        for cell in layout.zeros() {
            excluded.extend((ZERO + 1..=n).map(|v| (cell, v)));
        }
        let missing = (0..layout.side).flat_map(|i| {
            [
                layout.row_missing(i),
                layout.column_missing(i),
                layout.box_missing(i),
            ]
        });
        excluded.extend(missing.map(|cell| (cell, ZERO)));
        excluded
    }

    fn sequences(&self, rules: &Rules) -> Vec<Sequence> {
        let Some(layout) = Layout::of(rules) else {
            return Vec::new();
        };
        // State 0: the cell is not 0, anything goes; otherwise bit 0 and a bit per missing
        // digit read so far, none twice.
        const FREE: u64 = 0;
        layout
            .grid_cells()
            .map(|(r, c)| {
                let cells = vec![
                    (r, c),
                    layout.row_missing(r),
                    layout.column_missing(c),
                    layout.box_missing(layout.boxes.box_of(r, c)),
                ];
                Sequence::new(
                    cells,
                    format!("the digits missed around {}", super::cell_name((r, c))),
                    FREE,
                    |at, state, symbol| match (at, state) {
                        (0, _) => Some(if symbol == ZERO { 1 } else { FREE }),
                        (_, FREE) => Some(FREE),
                        (_, seen) if seen & 1 << symbol != 0 => None,
                        (_, seen) => Some(seen | 1 << symbol),
                    },
                    |_| true,
                )
            })
            .collect()
    }

    /// The same as sums the search weighs without unrolling 81 machines: for each cell and
    /// each digit d from 1, twice "the cell holds 0" and once each missing digit equal to d
    /// add up to 3 at most, so that a 0 sees d missed once at most.
    fn sums(&self, rules: &Rules) -> Vec<CellSum> {
        let Some(layout) = Layout::of(rules) else {
            return Vec::new();
        };
        let n = rules.size;
        let zero: Vec<i64> = (1..=n).map(|v| if v == 1 { 2 } else { 0 }).collect();
        let mut sums = Vec::new();
        for (r, c) in layout.grid_cells() {
            let seen = [
                layout.row_missing(r),
                layout.column_missing(c),
                layout.box_missing(layout.boxes.box_of(r, c)),
            ];
            for d in 2..=n {
                let is_d: Vec<i64> = (1..=n).map(|v| i64::from(v == d)).collect();
                let mut terms = vec![((r, c), Weight::Values(zero.clone()))];
                terms.extend(
                    seen.iter()
                        .map(|&cell| (cell, Weight::Values(is_d.clone()))),
                );
                sums.push(CellSum {
                    terms,
                    switches: Vec::new(),
                    min: 0,
                    max: 3,
                });
            }
        }
        sums
    }

    fn stated_by_sums(&self, _rules: &Rules) -> bool {
        true
    }

    /// Measured on the Dutch-pelgänger (ISS's example): weighing the 729 sums at every
    /// branch point took 18 s to prove it unique, checking them in solutions 1.9 s.
    fn sums_checked_at_solutions(&self, _rules: &Rules) -> bool {
        true
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        let side = n - 1;
        let boxes = BoxShape::for_size(side)?;
        let at = |(r, c): Cell| grid[r * n + c];
        // Each row, column and box of the grid: no digit twice, a 0, and the one digit of 1
        // to N - 1 it lacks.
        let lacks = |cells: Vec<Cell>| -> Result<u8, String> {
            let mut seen = vec![false; n + 1];
            for &cell in &cells {
                if std::mem::replace(&mut seen[usize::from(at(cell))], true) {
                    return Err(format!("holds {} twice", at(cell) - 1));
                }
            }
            if !seen[1] {
                return Err("holds no 0".into());
            }
            Ok((2..=n)
                .find(|&v| !seen[v])
                .expect("n - 1 cells miss a symbol") as u8)
        };
        let row = |r: usize| (0..side).map(|c| (r, c)).collect::<Vec<_>>();
        let column = |c: usize| (0..side).map(|r| (r, c)).collect::<Vec<_>>();
        let in_box = |b: usize| {
            (0..side * side)
                .map(|i| (i / side, i % side))
                .filter(|&(r, c)| boxes.box_of(r, c) == b)
                .collect::<Vec<_>>()
        };
        // The digit each row, column and box misses, in order.
        let mut missed: [Vec<u8>; 3] = Default::default();
        for i in 0..side {
            for (kind, (name, cells, written)) in [
                ("row", row(i), (i, side)),
                ("column", column(i), (side, i)),
                ("box", in_box(i), (side + 1, i)),
            ]
            .into_iter()
            .enumerate()
            {
                let lacked = lacks(cells).map_err(|why| format!("{name} {} {why}", i + 1));
                match lacked {
                    Err(why) => return Some(why),
                    Ok(digit) if at(written) != digit => {
                        return Some(format!(
                            "{name} {} misses {}, but {} holds {}",
                            i + 1,
                            digit - 1,
                            super::cell_name(written),
                            at(written) - 1
                        ));
                    }
                    Ok(digit) => missed[kind].push(digit),
                }
            }
        }
        for (kind, name) in ["rows", "columns", "boxes"].into_iter().enumerate() {
            let mut sorted = missed[kind].clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|pair| pair[0] == pair[1]) {
                return Some(format!("two {name} miss the same digit"));
            }
        }
        if at((side, side)) != 1 || at((side + 1, side)) != 1 {
            return Some("the cells that stand for 0 beyond the grid do not hold 0".into());
        }
        for r in 0..side {
            for c in (0..side).filter(|&c| at((r, c)) == 1) {
                let (a, b, d) = (missed[0][r], missed[1][c], missed[2][boxes.box_of(r, c)]);
                if a == b || a == d || b == d {
                    return Some(format!(
                        "the digits missed by the row, the column and the box of the 0 at {} \
                         are not three different digits",
                        super::cell_name((r, c))
                    ));
                }
            }
        }
        None
    }
}
