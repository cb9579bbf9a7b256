//! What the page draws of each rule: every mark a rule gives lies on (or, for a clue outside
//! the grid, just beside) the grid, with the shape its kind promises, and every rule of clues
//! draws something. Run over the shipped variants and, where `../shared` is beside the
//! checkout, the 62 ISS examples, which use nearly every rule of the catalogue.

use xcover::sudoku::rules::{Constraint, Mark, Rule};
use xcover::sudoku::variant::{Puzzle, text};

type Cell = (usize, usize);

/// Why `mark` is not drawable on a grid of side `n`, if it is not.
fn fault(mark: &Mark, n: usize) -> Option<String> {
    let inside = |cells: &[Cell]| cells.iter().all(|&(r, c)| r < n && c < n);
    let touch = |a: Cell, b: Cell| a != b && a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1;
    let ok = match mark {
        Mark::Line { cells, .. } => {
            cells.len() >= 2 && inside(cells) && cells.windows(2).all(|w| touch(w[0], w[1]))
        }
        Mark::Circle { cells, .. } => {
            // One cell, or a pill of cells in one row or one column side by side.
            let mut sorted = cells.clone();
            sorted.sort_unstable();
            !cells.is_empty()
                && inside(cells)
                && sorted.windows(2).all(|w| {
                    w[0].0.abs_diff(w[1].0) + w[0].1.abs_diff(w[1].1) == 1
                        && (w[0].0 == sorted[0].0 || w[0].1 == sorted[0].1)
                })
        }
        Mark::Edge { cells: [a, b], .. } => {
            inside(&[*a, *b]) && a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1
        }
        Mark::Cage { cells, .. } | Mark::Shade { cells, .. } => !cells.is_empty() && inside(cells),
        Mark::Outside { at, toward, .. } => {
            let on = |x: isize| (0..n as isize).contains(&x);
            let step = (at.0 + toward.0, at.1 + toward.1);
            (!on(at.0) || !on(at.1))
                && (-1..=n as isize).contains(&at.0)
                && (-1..=n as isize).contains(&at.1)
                && on(step.0)
                && on(step.1)
        }
        Mark::Corner { cell, .. } => cell.0 + 1 < n && cell.1 + 1 < n,
        Mark::Note { cell, .. } => inside(&[*cell]),
    };
    (!ok).then(|| format!("{mark:?}"))
}

/// Checks every constraint of `puzzle`; returns the names of the rules that drew something.
fn check_marks(puzzle: &Puzzle) -> Vec<&'static str> {
    let rules = &puzzle.rules;
    let mut drawn = Vec::new();
    for constraint in rules.constraints() {
        let rule: &dyn Rule = constraint.rule();
        let marks = rule.marks(rules);
        for mark in &marks {
            if let Some(fault) = fault(mark, rules.size) {
                panic!("{}: {}: {fault}", puzzle.id, rule.name());
            }
        }
        // A rule of clues (its clues are lines of the block format) draws its clues; the
        // negative rules are about the clues that are not there.
        let of_clues =
            !rule.lines().is_empty() && !matches!(constraint, Constraint::NegativeClues(_));
        let has_clues = matches!(constraint, Constraint::Killer(_)) || of_clues;
        assert!(
            !has_clues || !marks.is_empty(),
            "{}: {} draws nothing",
            puzzle.id,
            rule.name()
        );
        if !marks.is_empty() {
            drawn.push(rule.name());
        }
    }
    assert_eq!(
        rules.marks().len(),
        rules
            .constraints()
            .iter()
            .map(|c| c.rule().marks(rules).len())
            .sum::<usize>()
    );
    drawn
}

#[test]
fn the_shipped_variants_are_drawn_on_their_grids() {
    let source = std::fs::read_to_string("data/sudoku/variants.txt").unwrap();
    let mut drawn: Vec<&str> = text::read(&source)
        .into_iter()
        .flat_map(|entry| check_marks(&entry.unwrap().puzzle))
        .collect();
    drawn.sort_unstable();
    drawn.dedup();
    assert_eq!(drawn, ["cages", "diagonals", "windows"]);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn every_rule_of_the_iss_examples_is_drawn_on_its_grid() {
    let source = std::fs::read_to_string("../shared/data/variants/iss-examples.txt").unwrap();
    let mut drawn = Vec::new();
    let mut read = 0;
    for line in source.lines() {
        let Some(constraints) = line.strip_prefix("constraints: ") else {
            continue;
        };
        // Puzzles with a rule this project does not know are refused; the others are drawn.
        let Some(Ok(entry)) = text::read_any(constraints).into_iter().next() else {
            continue;
        };
        // The page draws square grids of digits from 1 and refuses the others (6x9,
        // doppelganger), which the CLI solves.
        if !entry.puzzle.rules.is_square() {
            continue;
        }
        read += 1;
        drawn.extend(check_marks(&entry.puzzle));
    }
    drawn.sort_unstable();
    drawn.dedup();
    assert!(read >= 45, "{read} read");
    // Most of the catalogue's rules of clues appear among them.
    assert!(drawn.len() >= 30, "{} drawn: {drawn:?}", drawn.len());
}
