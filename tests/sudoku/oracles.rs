//! Sudoku through the library: the source posts' boards, published counts, every puzzle of the
//! shared large grids, and odd box shapes. Every solution is checked by the independent
//! checker. Tests that read `../shared/data` are ignored when it is absent.

use std::path::Path;

use xcover::sudoku::check::check_solution;
use xcover::sudoku::text::{self, Puzzle};
use xcover::sudoku::{BoxShape, Encoding, Grid, Verdict};

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn puzzles(path: &str) -> Vec<Puzzle> {
    text::parse(&read(path), None)
        .into_iter()
        .map(|p| p.unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

/// A file of the shared data folder. The tests that call this are ignored when the folder is
/// absent (see `build.rs`), and `shared_data_is_present_in_ci` fails CI without it.
fn shared(relative: &str) -> Option<String> {
    let path = format!("../shared/data/{relative}");
    assert!(
        Path::new(&path).exists(),
        "{path} is missing from ../shared/data"
    );
    Some(path)
}

fn unique_solution(puzzle: &Grid) -> Grid {
    match puzzle.verdict() {
        Verdict::Unique(solution) => {
            check_solution(puzzle, &solution).unwrap();
            solution
        }
        other => panic!("expected a unique solution, got {other:?}"),
    }
}

#[test]
fn post_000_board_gives_the_printed_solution() {
    let puzzle = &puzzles("data/sudoku/post000.txt")[0];
    let printed = &puzzles("data/sudoku/post000.solution.txt")[0];
    assert_eq!(unique_solution(&puzzle.grid), printed.grid);
}

#[test]
fn post_001_and_003_boards_are_proper() {
    let boards = puzzles("data/sudoku/post001.txt");
    assert_eq!(boards.len(), 2);
    assert_eq!(boards[1].line, 16);
    let wikipedia = unique_solution(&boards[0].grid);
    assert_eq!(
        text::write(&wikipedia, text::Layout::Line),
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    );
    unique_solution(&boards[1].grid);
    let post003 = unique_solution(&puzzles("data/sudoku/post003.txt")[0].grid);
    // The post's worked examples (0-based there): row 5 col 1 is 2, row 4 col 6 is 3.
    assert_eq!(post003.get(5, 1), 2);
    assert_eq!(post003.get(4, 6), 3);
}

#[test]
fn empty_grids_have_their_published_counts() {
    let four = Grid::empty(BoxShape::new(2, 2).unwrap());
    assert_eq!(four.count_solutions(None), 288);
    let encoding = Encoding::new(four.shape());
    let mut solver = encoding.solver();
    let mut seen = std::collections::HashSet::new();
    for solution in solver.solutions(&four) {
        check_solution(&four, &solution).unwrap();
        assert!(seen.insert(solution), "a solution was found twice");
    }
    assert_eq!(seen.len(), 288);
    assert_eq!(solver.count(&four, Some(100)).value, 100);
}

#[test]
fn project_puzzle_files_of_every_shape_are_proper() {
    for (file, shape) in [
        ("data/sudoku/4x4-2x2.txt", "2x2"),
        ("data/sudoku/6x6-2x3.txt", "2x3"),
        ("data/sudoku/8x8-2x4.txt", "2x4"),
        ("data/sudoku/12x12-3x4.txt", "3x4"),
    ] {
        for puzzle in puzzles(file) {
            assert_eq!(puzzle.grid.shape().to_string(), shape, "{file}");
            unique_solution(&puzzle.grid);
        }
    }
    // 3x2 boxes must be asked for; with the default 2x3 boxes the same cells mean another
    // puzzle.
    let text = read("data/sudoku/6x6-3x2.txt");
    for parsed in text::parse(&text, "3x2".parse().ok()) {
        let puzzle = parsed.unwrap();
        assert_eq!(puzzle.grid.shape().to_string(), "3x2");
        unique_solution(&puzzle.grid);
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn small_counts_give_162_2_and_0() {
    let Some(path) = shared("multi/small-counts.txt") else {
        return;
    };
    let mut counts = Vec::new();
    for line in read(&path).lines().filter(|l| !l.starts_with('#')) {
        let (puzzle, expected) = line.split_once(' ').unwrap();
        let parsed = text::parse(puzzle, None).remove(0).unwrap();
        let count = parsed.grid.count_solutions(None);
        assert_eq!(count.to_string(), expected.trim(), "{puzzle}");
        if count == 0 {
            let error = parsed.validate().unwrap_err();
            assert_eq!(
                error.kind.to_string(),
                "r7c3 and r7c5 both hold 3 (same row)"
            );
        }
        counts.push(count);
    }
    assert_eq!(counts, vec![162, 2, 0]);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn every_large_shared_grid_solves() {
    let Some(dir) = shared("large") else {
        return;
    };
    for (name, size) in [
        ("16x16-a", 16),
        ("16x16-b", 16),
        ("25x25-a", 25),
        ("25x25-b", 25),
        ("36x36-a", 36),
    ] {
        let puzzle = &puzzles(&format!("{dir}/{name}.txt"))[0];
        assert_eq!(puzzle.grid.size(), size, "{name}");
        puzzle.validate().unwrap();
        let solution = unique_solution(&puzzle.grid);
        let given = format!("{dir}/{name}.solution.txt");
        if Path::new(&given).exists() {
            assert_eq!(solution, puzzles(&given)[0].grid, "{name}");
        }
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn the_invalid_large_grid_names_both_cells() {
    let Some(path) = shared("large/16x16-invalid-duplicate-clue.txt") else {
        return;
    };
    let puzzle = &puzzles(&path)[0];
    let error = puzzle.validate().unwrap_err();
    assert_eq!(error.line, 6);
    assert_eq!(
        error.kind.to_string(),
        "r3c11 and r6c11 both hold 7 (same column)"
    );
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn nine_by_nine_collections_solve_and_check() {
    // A sample of each shared set: every puzzle unique (or, for serg, several), every
    // solution checked independently.
    for (file, take, unique) in [
        ("sudoku9/top95.txt", 95, true),
        ("sudoku9/hard20.txt", 20, true),
        ("sudoku9/norvig-hardest.txt", 11, true),
        ("sudoku9/17-clue.txt", 300, true),
        ("sudoku9/forum-hardest-1106.txt", 60, true),
        ("sudoku9/serg-multi-10000.txt", 300, false),
    ] {
        let Some(path) = shared(file) else {
            return;
        };
        let all = puzzles(&path);
        let encoding = Encoding::new(all[0].grid.shape());
        let mut solver = encoding.solver();
        for puzzle in all.iter().take(take) {
            match solver.verdict(&puzzle.grid).value {
                Verdict::Unique(s) if unique => check_solution(&puzzle.grid, &s).unwrap(),
                Verdict::Multiple(a, b) if !unique => {
                    check_solution(&puzzle.grid, &a).unwrap();
                    check_solution(&puzzle.grid, &b).unwrap();
                    assert_ne!(a, b);
                }
                other => panic!("{file} line {}: {other:?}", puzzle.line),
            }
        }
    }
}

#[test]
fn the_knuth_encoding_counts_the_same_as_the_grid_solver() {
    // Cross-check the encoding: write the puzzle as a plain exact-cover problem, count it with
    // the generic engine, compare with the Sudoku solver's count.
    use xcover::dlx::{Matrix, format};
    for line in [
        ".8...9.43.5...8.1..1.......8....5......8.4......3....6.......7..3.5...8.9724...5.",
        "9.6.7.4.3...4..2...7..23.1.5.....1...4.2.8.6...3.....5.3.7...5...7..5...4.5.1.7.8",
        "1..3........34.1",
    ] {
        let puzzle = text::parse(line, None).remove(0).unwrap();
        let encoding = Encoding::new(puzzle.grid.shape());
        let mut written = Vec::new();
        format::write(&encoding.puzzle_problem(&puzzle.grid), &mut written).unwrap();
        let problem = format::read(std::str::from_utf8(&written).unwrap())
            .unwrap()
            .problem;
        let through_text = Matrix::new(problem).unwrap().solver().count(None);
        assert_eq!(through_text, puzzle.grid.count_solutions(None), "{line}");
    }
}

/// In CI the shared collections must be there: a missing folder fails the run instead of
/// quietly ignoring the tests that need it.
#[test]
fn shared_data_is_present_in_ci() {
    if std::env::var("CI").is_ok_and(|ci| ci == "true") {
        assert!(
            Path::new("../shared/data").is_dir(),
            "CI=true but ../shared/data is missing beside the checkout"
        );
        // Built without it, the tests that need it were compiled as ignored.
        let built_with_it = cfg!(shared_data);
        assert!(
            built_with_it,
            "built before ../shared/data appeared: `touch build.rs` and rebuild"
        );
    }
}
