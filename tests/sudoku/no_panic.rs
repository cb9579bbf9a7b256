//! Bad input never panics: arbitrary text through both readers, and arbitrary grids (clashing
//! clues included) through every solver and the logic, which must agree with each other.

use proptest::prelude::*;
use xcover::dlx::{Matrix, format};
use xcover::sudoku::backtrack::Baseline;
use xcover::sudoku::{AnyPuzzle, BoxShape, Grid, SudokuSolver, logic, text};

/// Text made of the characters both formats care about, plus a few others.
fn noisy_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('\n'),
            Just(' '),
            Just('|'),
            Just('.'),
            Just('#'),
            Just(','),
            Just(':'),
            Just('-'),
            Just('\r'),
            proptest::char::range('0', '9'),
            proptest::char::range('a', 'e'),
            proptest::char::range('A', 'Z'),
            any::<char>(),
        ],
        0..300,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn the_knuth_reader_never_panics(text in noisy_text()) {
        if let Ok(parsed) = format::read(&text) {
            // Whatever it accepts must compile and search.
            let matrix = Matrix::new(parsed.problem).unwrap();
            let _ = matrix.solver().count(Some(10));
        }
    }

    #[test]
    fn the_puzzle_reader_never_panics(text in noisy_text()) {
        for puzzle in text::parse(&text, None).into_iter().flatten() {
            let _ = puzzle.validate();
        }
    }

    #[test]
    fn random_4x4_and_6x6_grids_agree_across_solvers(
        cells in proptest::collection::vec(0u8..=6, 36),
        four in any::<bool>(),
    ) {
        let (shape, n) = if four { (BoxShape::new(2, 2).unwrap(), 4) } else { (BoxShape::new(2, 3).unwrap(), 6) };
        let cells: Vec<u8> = cells.into_iter().take(n * n).map(|v| v % (n as u8 + 1)).collect();
        let grid = Grid::from_cells(shape, cells).unwrap();
        let dlx = grid.count_solutions(Some(50));
        let puzzle = AnyPuzzle::Grid(grid.clone());
        prop_assert_eq!(Baseline::mrv().count_up_to(&puzzle, Some(50)).value, dlx);
        let solution = logic::solve(&grid);
        if grid.clash().is_none() && dlx == 1 {
            prop_assert!(solution.contradiction.is_none());
        }
        if solution.is_complete() {
            prop_assert_eq!(dlx, 1, "logic only completes a grid with one solution");
        }
    }
}

#[test]
fn logic_never_completes_a_grid_whose_clues_clash() {
    let grid = text::parse("1234123412341234", None)
        .remove(0)
        .unwrap()
        .grid;
    assert!(grid.clash().is_some());
    let solution = logic::solve(&grid);
    assert!(!solution.is_complete());
    assert!(solution.contradiction.unwrap().0.contains("both hold"));
}

/// A valid file of variant puzzles (a 4x4 killer jigsaw, a 6x6 anti-knight and a 6x6
/// non-consecutive puzzle, each with solutions) to mutate.
const VARIANT_FILE: &str = "puzzles: 3
puzzle: a
size: 4
box: none
rules: rows columns regions cages
grid:
1...
....
....
...1
regions:
AAAB
CABB
CCDB
CDDD
cages: 2
3 r1c1 r1c2
6 r3c3 r4c3
solution:
1234
2413
3142
4321
end
puzzle: b
size: 6
box: 2x3
rules: rows columns boxes anti-knight
grid:
1.....
......
..3...
......
....5.
......
end
puzzle: c
size: 6
box: 2x3
rules: rows columns boxes non-consecutive
grid:
......
......
......
......
......
......
end
";

#[test]
fn the_unmutated_variant_file_reads_whole() {
    use xcover::sudoku::variant::text;
    let entries = text::read(VARIANT_FILE);
    assert_eq!(entries.len(), 3);
    for entry in entries {
        let entry = entry.unwrap();
        let encoding = xcover::sudoku::variant::VariantEncoding::new(&entry.puzzle).unwrap();
        assert!(
            encoding.count(&entry.puzzle, Some(1)).0 == 1,
            "{}",
            entry.puzzle.id
        );
    }
}

/// One edit of a text: delete, insert or replace a character, or repeat or drop a line.
fn edit() -> impl Strategy<Value = (u8, usize, char)> {
    (
        0..5u8,
        any::<usize>(),
        prop_oneof![
            proptest::char::range('0', '9'),
            proptest::char::range('A', 'F'),
            Just('\n'),
            Just(':'),
            Just(' '),
            Just('.'),
            Just('r'),
            Just('c'),
            any::<char>(),
        ],
    )
}

fn apply(text: &str, (kind, at, ch): (u8, usize, char)) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = at % (chars.len() + 1);
    match kind {
        0 if at < chars.len() => {
            chars.remove(at);
        }
        1 => chars.insert(at, ch),
        2 if at < chars.len() => chars[at] = ch,
        3 | 4 => {
            let lines: Vec<&str> = text.lines().collect();
            let line = at % lines.len().max(1);
            let mut out: Vec<&str> = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                if i != line || kind == 3 {
                    out.push(l);
                }
                if i == line && kind == 3 {
                    out.push(l);
                }
            }
            return out.join("\n");
        }
        _ => {}
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn the_variant_readers_never_panic(edits in proptest::collection::vec(edit(), 1..6)) {
        use xcover::sudoku::backtrack::Backtracker;
        use xcover::sudoku::variant::{VariantEncoding, check, text};
        let mutated = edits.into_iter().fold(VARIANT_FILE.to_string(), |t, e| apply(&t, e));
        let mut texts = vec![mutated.clone()];
        // The same damage inside JSON strings.
        texts.push(format!(
            "{{\"puzzles\": [{{\"id\": \"j\", \"size\": 4, \"box\": null, \"rules\": \
             [\"rows\", \"columns\"], \"grid\": {:?}}}]}}",
            mutated.lines().take(4).collect::<Vec<_>>()
        ));
        for (i, text) in texts.iter().enumerate() {
            let entries = if i == 0 {
                text::read(text)
            } else {
                match text::read_json(text) {
                    Ok(entries) => entries,
                    Err(_) => continue,
                }
            };
            for entry in entries.into_iter().flatten() {
                // Whatever is accepted builds, searches, and agrees with the backtracker.
                let puzzle = &entry.puzzle;
                let encoding = VariantEncoding::new(puzzle).unwrap();
                let (count, _) = encoding.count(puzzle, Some(2));
                let backtracker = Backtracker::new(&puzzle.rules);
                prop_assert_eq!(backtracker.count(&puzzle.givens, 2), count);
                if let xcover::dlx::Verdict::Unique(grid) | xcover::dlx::Verdict::Multiple(grid, _) =
                    encoding.verdict(puzzle).0
                {
                    prop_assert_eq!(check::broken_rule(&puzzle.rules, &puzzle.givens, &grid), None);
                }
            }
        }
    }
}
