//! Sudoku variants: the same grid with more rules, solved by the same engine.
//!
//! A variant is a [`Puzzle`]: [`Rules`] on an N x N grid and givens. The rules live in
//! [`crate::sudoku::rules`], one module each: rows and columns always; boxes of any shape, or
//! irregular regions (jigsaw); the two main diagonals (X); the windows of Windoku; cells a
//! knight's move or a king's diagonal step apart that differ (anti-knight, anti-king);
//! orthogonal neighbours that never differ by one (non-consecutive); and killer cages whose
//! digits differ and add up to a sum. Rules combine freely (an X-jigsaw, a killer with
//! anti-knight); a classic grid is the same model with rows, columns and boxes only.
//!
//! This module holds the puzzle and the clashes of its givens ([`Puzzle::clashes`]); [`text`]
//! reads and writes the files people write by hand, [`iss`] the constraint strings of the
//! Interactive Sudoku Solver, `fpuzzles` (feature `fpuzzles`) the puzzles and links of
//! f-puzzles; [`VariantEncoding`] (in the exact-cover
//! bridge, which builds every ruleset's problem, the classic one included) turns a puzzle
//! into exact cover and back; [`check`] judges a filled grid by each rule's own judge, sharing
//! no code with the encoding; [`crate::sudoku::backtrack`] is a second solver, plain
//! backtracking over any rules, that checks the engine's answers. New puzzles under any rules come from
//! [`crate::sudoku::generate`] (feature `generate`).

pub mod check;
#[cfg(feature = "fpuzzles")]
pub mod fpuzzles;
pub mod iss;
pub mod text;

use std::fmt;

pub use super::exact_cover::VariantEncoding;

pub use crate::sudoku::rules::{
    CATALOGUE as RULE_NAMES, Cage, Cell, Constraint, MAX_RULES_SIZE as MAX_VARIANT_SIZE, Neighbour,
    Rules, RulesError, Unit, cell_name, region_letter, region_name,
};

/// A variant puzzle: its rules and its givens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// A name for messages and records (a file's `puzzle:` id).
    pub id: String,
    pub rules: Rules,
    /// The givens, row by row: 0 for an empty cell, else the symbol.
    pub givens: Vec<u8>,
}

/// Two givens that break a rule together (or one that breaks a cage alone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clash {
    pub cells: Vec<Cell>,
    pub rule: String,
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells: Vec<String> = self.cells.iter().map(|&cell| cell_name(cell)).collect();
        write!(
            f,
            "the givens at {} break {}",
            cells.join(" and "),
            self.rule
        )
    }
}

/// What is wrong with a puzzle read from a one-line format (ISS strings, f-puzzles): its
/// kind, what it is, and the cells it is about.
pub(crate) type Fault = (crate::sudoku::text::FaultKind, String, Vec<Cell>);

impl Puzzle {
    /// The puzzle named `id` of `rules` and `givens`, once the rules' structure is valid and
    /// no two givens clash: the last step of the readers of one-line formats.
    pub(crate) fn checked(id: &str, rules: Rules, givens: Vec<u8>) -> Result<Puzzle, Fault> {
        use crate::sudoku::text::FaultKind;
        rules
            .validate()
            .map_err(|error| (FaultKind::Rule, error.to_string(), error.cells()))?;
        let puzzle = Puzzle {
            id: id.to_string(),
            rules,
            givens,
        };
        match puzzle.clashes().into_iter().next() {
            Some(clash) => Err((FaultKind::Clash, clash.to_string(), clash.cells)),
            None => Ok(puzzle),
        }
    }

    /// The symbol given at a cell, 0 if none.
    pub fn given(&self, (row, col): Cell) -> u8 {
        self.givens[row * self.rules.size + col]
    }

    /// The givens that break a rule among themselves: the same symbol twice in a unit, two
    /// neighbours the neighbour rules forbid, a cage whose givens repeat or overshoot its sum.
    /// (No clash does not mean a solution exists.)
    pub fn clashes(&self) -> Vec<Clash> {
        let mut clashes = Vec::new();
        for unit in self.rules.units() {
            for (i, &a) in unit.cells.iter().enumerate() {
                for &b in &unit.cells[i + 1..] {
                    if self.given(a) != 0 && self.given(a) == self.given(b) {
                        clashes.push(Clash {
                            cells: vec![a, b],
                            rule: unit.name.clone(),
                        });
                    }
                }
            }
        }
        for constraint in self.rules.constraints() {
            let rule = constraint.rule();
            let n = self.rules.size;
            for (cell, value) in rule.excluded(&self.rules) {
                if cell.0 < n && cell.1 < n && self.given(cell) == value {
                    clashes.push(Clash {
                        cells: vec![cell],
                        rule: rule.title().into(),
                    });
                }
            }
            for (a, b, relation) in rule.pairs(&self.rules) {
                let (x, y) = (self.given(a), self.given(b));
                if x != 0 && y != 0 && relation.forbids(x, y) {
                    clashes.push(Clash {
                        cells: vec![a, b],
                        rule: rule.title().into(),
                    });
                }
            }
        }
        for (k, cage) in self.rules.cages().iter().enumerate() {
            let given: Vec<Cell> = cage
                .cells
                .iter()
                .copied()
                .filter(|&c| self.given(c) != 0)
                .collect();
            for (i, &a) in given.iter().enumerate() {
                for &b in &given[i + 1..] {
                    if self.given(a) == self.given(b) {
                        clashes.push(Clash {
                            cells: vec![a, b],
                            rule: format!("cage {} (no symbol twice in a cage)", k + 1),
                        });
                    }
                }
            }
            let sum: u32 = given.iter().map(|&c| u32::from(self.given(c))).sum();
            let open = cage.cells.len() - given.len();
            // The open cells add at least 1 + 2 + ... + open.
            if sum + (open * (open + 1) / 2) as u32 > cage.sum || (open == 0 && sum != cage.sum) {
                clashes.push(Clash {
                    cells: given,
                    rule: format!("the sum {} of cage {}", cage.sum, k + 1),
                });
            }
        }
        clashes
    }

    /// The same puzzle under the rules every Sudoku of its shape shares: rows, columns and
    /// boxes (a jigsaw keeps rows and columns only; a rectangle its rows; doppelganger's
    /// board its rule, which is its shape), to show that the variant's own rules matter.
    pub fn without_extra_rules(&self) -> Puzzle {
        let mut rules = Rules::latin(self.rules.size)
            .with_rows(self.rules.rows())
            .with_boxes(self.rules.boxes);
        if self.rules.digits_from_zero() {
            rules = rules
                .with_symbols_from_zero()
                .with(Constraint::Doppelganger(crate::sudoku::rules::Doppelganger));
        }
        Puzzle {
            rules,
            ..self.clone()
        }
    }
}
