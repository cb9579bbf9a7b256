//! Every reader of puzzles (plain grids, variant blocks, their JSON form, ISS constraint
//! strings) says what is wrong in the same terms: the line, a kind from one vocabulary
//! ([`FaultKind`]) and the cells at fault, so that the command line, the API and the page
//! never read cells or kinds back out of a message.

use xcover::sudoku::text::{self, FaultKind};
use xcover::sudoku::variant::{iss, text as variant_text};

/// The first error of a variant text, as (kind, line, cells from 1).
fn variant_error(text: &str) -> (FaultKind, usize, Vec<(usize, usize)>) {
    let error = variant_text::read_any(text)
        .into_iter()
        .find_map(Result::err)
        .unwrap_or_else(|| panic!("no error in {text}"));
    let cells = error.cells.iter().map(|&(r, c)| (r + 1, c + 1)).collect();
    (error.kind, error.line, cells)
}

fn block(rules: &str, grid: &str, extra: &str) -> String {
    format!("puzzle: p\nsize: 4\nbox: 2x2\nrules: {rules}\n{extra}grid:\n{grid}end\n")
}

#[test]
fn plain_grids_name_the_kind_line_and_cells() {
    let read = |text: &str| {
        let error = text::parse(text, None)
            .into_iter()
            .find_map(|puzzle| puzzle.and_then(|p| p.validate()).err())
            .unwrap_or_else(|| panic!("no error in {text}"));
        (error.kind.fault_kind(), error.line, error.cells())
    };
    // Two 1s in the first row: a clash, at both cells.
    assert_eq!(
        read("1..1............"),
        (FaultKind::Clash, 1, vec![(0, 0), (0, 3)])
    );
    // A character that is no cell: a value that cannot be read, on its line.
    assert_eq!(read("\n1..x............").0, FaultKind::Value);
    assert_eq!(read("\n1..x............").1, 2);
    // Rows of different lengths: the layout.
    assert_eq!(read("1234\n12\n1234\n1234\n").0, FaultKind::Layout);
}

#[test]
fn variant_blocks_name_the_kind_line_and_cells() {
    // Givens that clash on a diagonal: the line of the first cell's row, both cells.
    let clash = block(
        "rows columns boxes diagonals",
        "1...\n.1..\n....\n....\n",
        "",
    );
    assert_eq!(
        variant_error(&clash),
        (FaultKind::Clash, 6, vec![(1, 1), (2, 2)])
    );
    // A symbol past the side: the cell, on the line of its row.
    let symbol = block("rows columns boxes", "....\n..7.\n....\n....\n", "");
    assert_eq!(variant_error(&symbol), (FaultKind::Value, 7, vec![(2, 3)]));
    // A thermometer whose cells are not a path: the rule, on the clue's line, its cells.
    let thermo = block(
        "rows columns boxes thermometers",
        "....\n....\n....\n....\n",
        "thermometers: 1\nr1c1 r3c3\n",
    );
    let (kind, line, cells) = variant_error(&thermo);
    assert_eq!((kind, line), (FaultKind::Rule, 6));
    assert!(
        cells.contains(&(1, 1)) || cells.contains(&(3, 3)),
        "{cells:?}"
    );
    // A block without its end: the layout.
    let open = "puzzle: p\nsize: 4\nbox: 2x2\nrules: rows columns boxes\ngrid:\n....\n....\n";
    assert_eq!(variant_error(open).0, FaultKind::Layout);
}

#[test]
fn json_puzzles_keep_the_kind_and_cells_of_their_fault() {
    let json = r#"{"format": "sudoku-variants", "puzzles": [
        {"id": "a", "size": 4, "box": "2x2", "rules": "rows columns boxes",
         "grid": ["1..1", "....", "....", "...."]}]}"#;
    let error = variant_text::read_json(json)
        .expect("a list of puzzles")
        .into_iter()
        .find_map(Result::err)
        .expect("the clash");
    assert_eq!(error.kind, FaultKind::Clash);
    assert_eq!(error.line, 1, "the puzzle's place in the list");
    assert_eq!(error.cells, vec![(0, 0), (0, 3)]);
    // A grid of too few rows (or too many) is a fault of the layout; it once panicked.
    for grid in [
        r#"["1...", "....", "...."]"#,
        r#"["....", "....", "....", "....", "...."]"#,
    ] {
        let json = format!(
            r#"{{"format": "sudoku-variants", "puzzles": [
            {{"id": "a", "size": 4, "box": "2x2", "rules": "rows columns boxes", "grid": {grid}}}]}}"#
        );
        let error = variant_text::read_json(&json)
            .expect("a list of puzzles")
            .into_iter()
            .find_map(Result::err)
            .expect("the short grid");
        assert_eq!(error.kind, FaultKind::Layout);
        assert!(error.message.contains("'grid' has"), "{}", error.message);
    }
}

#[test]
fn iss_strings_name_the_kind_and_cells() {
    let error = |text: &str| {
        iss::read(text)
            .into_iter()
            .find_map(Result::err)
            .unwrap_or_else(|| panic!("no error in {text}"))
    };
    let unsupported = error(".Regex~12~R1C1~R1C2");
    assert_eq!(unsupported.kind, FaultKind::Unsupported);
    let clash = error(".~R1C1_5~R1C2_5");
    assert_eq!(clash.kind, FaultKind::Clash);
    assert_eq!(clash.cells, vec![(0, 0), (0, 1)]);
    assert_eq!(error(".Thermo~R1C1~Z").kind, FaultKind::Value);
    assert_eq!(error("Sudoku~R1C1").kind, FaultKind::Layout);
}

#[test]
fn kinds_have_the_names_records_use() {
    let names: Vec<&str> = [
        FaultKind::Layout,
        FaultKind::Value,
        FaultKind::Rule,
        FaultKind::Clash,
        FaultKind::Unsupported,
    ]
    .iter()
    .map(|kind| kind.name())
    .collect();
    assert_eq!(names, ["layout", "value", "rule", "clash", "unsupported"]);
}
