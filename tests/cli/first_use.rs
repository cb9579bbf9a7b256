//! What a first-time user runs into: box shapes read from the layout, bounded example sizes,
//! levels the generator cannot reach, byte-order marks, standard input answered line by line,
//! a puzzle or a directory where a file goes, `--limit 0`, improper puzzles and malformed
//! grids. Each answers rightly or with a clear error.

use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use crate::common;

use common::{err, out, spawn, xcover};
use xcover::sudoku::text::{self, Layout, Reader};

const POST_001_A: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The grid layout's separators give the box shape; what `generate` and `solve`
/// write reads back as the same puzzle.
#[test]
fn non_square_boxes_follow_the_separators() {
    let generated = xcover(
        &[
            "sudoku", "generate", "--box", "3x2", "--format", "grid", "--seed", "1",
        ],
        "",
    );
    assert!(generated.status.success(), "{}", err(&generated));
    let checked = xcover(&["sudoku", "check", "-"], &out(&generated));
    assert_eq!(out(&checked), "unique\n", "{}", err(&checked));
    let solved = xcover(&["sudoku", "solve", "-"], &out(&generated));
    assert!(!out(&solved).contains("no solution"), "{}", out(&solved));
    assert_eq!(
        out(&xcover(&["sudoku", "check", "-"], &out(&solved))),
        "unique\n"
    );

    for format in ["line", "grid", "numbers", "json"] {
        let written = xcover(
            &[
                "sudoku",
                "solve",
                "--format",
                format,
                "data/sudoku/6x6-3x2.txt",
            ],
            "",
        );
        let read_back = xcover(&["sudoku", "check", "-"], &out(&written));
        assert_eq!(
            out(&read_back),
            "unique\nunique\n",
            "{format}: {}",
            err(&read_back)
        );
    }
    let json = xcover(
        &[
            "sudoku", "generate", "--box", "3x2", "--format", "json", "--seed", "2", "--count", "3",
        ],
        "",
    );
    let read_back = xcover(&["sudoku", "check", "-"], &out(&json));
    assert_eq!(
        out(&read_back),
        "unique\nunique\nunique\n",
        "{}",
        err(&read_back)
    );
}

/// The project's own 3x2 file checks unique without `--box`; a 3x2 puzzle without
/// any sign of its boxes gets a note that says how to give them; a separator that disagrees
/// with `--box` is an error, not a silent choice.
#[test]
fn assumed_boxes_are_said_and_conflicts_refused() {
    let shipped = xcover(&["sudoku", "check", "data/sudoku/6x6-3x2.txt"], "");
    assert_eq!(out(&shipped), "unique\nunique\n");

    let bare = xcover(
        &["sudoku", "check", "-"],
        "1.24....3.1......6.413......5.......\n",
    );
    assert_eq!(out(&bare), "multiple\n");
    assert!(
        err(&bare).contains("boxes 2x3 were assumed"),
        "{}",
        err(&bare)
    );
    assert!(err(&bare).contains("--box 3x2"), "{}", err(&bare));

    let grid = "1 . | 2 4 | . .\n. . | 3 . | 1 .\n. . | . . | 6 .\n---+---+---\n\
                4 1 | 3 . | . .\n. . | . 5 | . .\n. . | . . | . .\n";
    let conflict = xcover(&["sudoku", "check", "--box", "2x3", "-"], grid);
    assert_eq!(conflict.status.code(), Some(1));
    assert!(
        err(&conflict).contains("disagree on the box shape"),
        "{}",
        err(&conflict)
    );
}

/// `example` sizes are bounded, and 0 is refused, with usage errors (exit 2).
#[test]
fn example_sizes_have_limits() {
    for args in [
        ["example", "queens", "0"],
        ["example", "queens", "100000"],
        ["example", "queens", "4294967296"],
        ["example", "queens", "18446744073709551615"],
        ["example", "latin", "101"],
        ["example", "langford", "0"],
        ["example", "pentominoes", "4294967296x4294967296"],
    ] {
        let run = xcover(&args, "");
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", err(&run));
        assert!(
            err(&run).contains("from 1 to"),
            "the limit is named: {}",
            err(&run)
        );
    }
    assert!(xcover(&["example", "queens", "1"], "").status.success());
}

/// A level that minimal 16x16 puzzles never reach is found at once by steering
/// the clue removal; a level a shape cannot reach fails and says what was made instead.
#[test]
fn generate_finds_easy_large_puzzles_and_explains_unreachable_levels() {
    let easy = xcover(
        &[
            "sudoku",
            "generate",
            "--size",
            "16",
            "--difficulty",
            "easy",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(easy.status.success(), "{}", err(&easy));
    let rated = xcover(&["sudoku", "rate", "-"], &out(&easy));
    assert!(out(&rated).starts_with("easy "), "{}", out(&rated));
    assert_eq!(
        out(&xcover(&["sudoku", "check", "-"], &out(&easy))),
        "unique\n"
    );

    let expert = xcover(
        &[
            "sudoku",
            "generate",
            "--size",
            "4",
            "--difficulty",
            "expert",
            "--seed",
            "1",
        ],
        "",
    );
    assert_eq!(expert.status.code(), Some(1));
    assert!(err(&expert).contains("made instead"), "{}", err(&expert));
}

/// A byte-order mark is not a cell and not part of an item's name.
#[test]
fn byte_order_marks_are_skipped() {
    let with_bom = format!("\u{feff}{POST_001_A}\n{POST_001_A}\n");
    let checked = xcover(&["sudoku", "check", "-"], &with_bom);
    assert_eq!(out(&checked), "unique\nunique\n", "{}", err(&checked));
    assert!(checked.status.success());

    let knuth = "\u{feff}A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
    let counted = xcover(&["cover", "count", "-"], knuth);
    assert_eq!(out(&counted), "1\n", "{}", err(&counted));
}

/// `solve -` answers a puzzle as soon as its line is complete, while standard
/// input is still open.
#[test]
fn standard_input_is_answered_line_by_line() {
    let mut child = spawn(&["sudoku", "solve", "-"]);
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{POST_001_A}").unwrap();
    stdin.flush().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let _ = sender.send(line);
    });
    // A generous bound: this checks that the answer comes before the input ends, not speed.
    let answer = receiver.recv_timeout(Duration::from_secs(60));
    drop(stdin);
    let _ = child.wait();
    assert_eq!(
        answer.expect("an answer while stdin is still open").trim(),
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    );
}

/// A source that fails the test when read past its first line, as a terminal that waits
/// for the next line would hang.
struct FirstLineOnly {
    data: &'static [u8],
    position: usize,
}

impl std::io::Read for FirstLineOnly {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        assert!(
            self.position < self.data.len(),
            "the reader asked for more than the first line"
        );
        let n = (self.data.len() - self.position).min(buf.len());
        buf[..n].copy_from_slice(&self.data[self.position..self.position + n]);
        self.position += n;
        Ok(n)
    }
}

/// The reader hands out a one-line puzzle without reading on.
#[test]
fn the_reader_pulls_only_what_it_needs() {
    let source = FirstLineOnly {
        data:
            b"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n",
        position: 0,
    };
    let mut reader = Reader::new(BufReader::with_capacity(8, source), None);
    let first = reader.next().unwrap().unwrap();
    assert_eq!(first.grid.get(0, 0), 5);
}

/// A puzzle given where a file is expected gets a message that says what to do.
#[test]
fn a_puzzle_instead_of_a_file_name_is_explained() {
    let run = xcover(&["sudoku", "solve", POST_001_A], "");
    assert_eq!(run.status.code(), Some(1));
    assert!(err(&run).contains("looks like a puzzle"), "{}", err(&run));
    assert!(err(&run).contains("sudoku solve -"), "{}", err(&run));
}

/// A directory given as a file is refused as a file that cannot be opened, for puzzles and
/// problems alike (not as a faulty first line), and the files after it are still read.
#[test]
fn a_directory_instead_of_a_file_is_refused_by_name() {
    let dir = std::env::temp_dir();
    let dir = dir.to_str().unwrap();
    for args in [
        vec!["sudoku", "check", dir, "-"],
        vec!["sudoku", "solve", dir, "-"],
        vec!["cover", "count", dir],
    ] {
        let run = xcover(&args, POST_001_A);
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        assert!(
            err(&run).contains(&format!("{dir}: is a directory, not a file")),
            "{args:?}: {}",
            err(&run)
        );
        assert!(!out(&run).contains("invalid"), "{args:?}: {}", out(&run));
        if args[0] == "sudoku" {
            assert!(
                !out(&run).is_empty(),
                "{args:?}: the puzzle after it was not read"
            );
        }
    }
}

/// A limit of 0 is refused everywhere, as a usage error.
#[test]
fn limit_zero_is_refused() {
    for args in [
        vec!["sudoku", "solve", "--all", "--limit", "0", "-"],
        vec!["sudoku", "count", "--limit", "0", "-"],
        vec!["sudoku", "compare", "--limit", "0", "-"],
        vec!["cover", "count", "--limit", "0", "-"],
        vec!["cover", "solve", "--limit", "0", "-"],
    ] {
        let run = xcover(&args, POST_001_A);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(err(&run).contains("at least 1"), "{}", err(&run));
    }
}

/// `solve` warns when a puzzle has several solutions; `rate` tells a puzzle with
/// no solution, or several, from one that needs search.
#[test]
fn improper_puzzles_are_called_what_they_are() {
    let several = xcover(&["sudoku", "solve", "-"], "................\n");
    assert!(several.status.success());
    assert!(
        err(&several).contains("more than one solution"),
        "{}",
        err(&several)
    );
    let json = xcover(
        &["sudoku", "solve", "--format", "json", "-"],
        "................\n",
    );
    assert!(out(&json).contains("\"unique\":false"), "{}", out(&json));
    let unique = xcover(&["sudoku", "solve", "--format", "json", "-"], POST_001_A);
    assert!(out(&unique).contains("\"unique\":true"), "{}", out(&unique));

    let none = "12..\n..3.\n....\n....\n";
    assert_eq!(
        out(&xcover(&["sudoku", "rate", "-"], none)),
        "no-solution\n"
    );
    assert_eq!(out(&xcover(&["sudoku", "check", "-"], none)), "none\n");
    assert_eq!(
        out(&xcover(&["sudoku", "rate", "-"], "................\n")),
        "multiple\n"
    );
}

/// Malformed grids give one record per puzzle; separators people use are read.
#[test]
fn malformed_grids_give_one_record_each() {
    let drawn = "╔═══════╤═══════╤═══════╗\n\
                 ║ 5 3 . │ . 7 . │ . . . ║\n║ 6 . . │ 1 9 5 │ . . . ║\n║ . 9 8 │ . . . │ . 6 . ║\n\
                 ╟───────┼───────┼───────╢\n\
                 ║ 8 . . │ . 6 . │ . . 3 ║\n║ 4 . . │ 8 . 3 │ . . 1 ║\n║ 7 . . │ . 2 . │ . . 6 ║\n\
                 ╟───────┼───────┼───────╢\n\
                 ║ . 6 . │ . . . │ 2 8 . ║\n║ . . . │ 4 1 9 │ . . 5 ║\n║ . . . │ . 8 . │ . 7 9 ║\n\
                 ╚═══════╧═══════╧═══════╝\n";
    assert_eq!(out(&xcover(&["sudoku", "check", "-"], drawn)), "unique\n");

    let semicolons: String = POST_001_A
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|&c| {
                    if c == b'.' {
                        "0".to_string()
                    } else {
                        (c as char).to_string()
                    }
                })
                .collect();
            cells.join(";") + "\n"
        })
        .collect();
    assert_eq!(
        out(&xcover(&["sudoku", "check", "-"], &semicolons)),
        "unique\n"
    );

    let spaces = "53  7    \n6  195   \n 98    6 \n8   6   3\n4  8 3  1\n7   2   6\n 6    28 \n   419  5\n    8  79\n";
    let run = xcover(&["sudoku", "check", "-"], spaces);
    assert_eq!(out(&run), "invalid\n", "one record for one puzzle");
    assert!(err(&run).contains("not as spaces"), "{}", err(&run));

    let mut rows: Vec<String> = (0..9).map(|_| ["0"; 9].join(" ")).collect();
    rows[8] = "0 0 0 0 8 0 0 300 9".to_string();
    let run = xcover(&["sudoku", "check", "-"], &(rows.join("\n") + "\n"));
    assert_eq!(out(&run), "invalid\n");
    assert!(
        err(&run).starts_with("<stdin>:9: r9c8: symbol 300"),
        "{}",
        err(&run)
    );
    rows[8] = "0 0 0 0 8 0 0 007 9".to_string();
    assert_eq!(
        out(&xcover(
            &["sudoku", "count", "--limit", "1", "-"],
            &(rows.join("\n") + "\n")
        )),
        "1\n"
    );
    rows[8] = "0 0 0 0 8 0 0 -1 9".to_string();
    let run = xcover(&["sudoku", "check", "-"], &(rows.join("\n") + "\n"));
    assert_eq!(out(&run), "invalid\n");
    assert!(err(&run).contains("negative"), "{}", err(&run));
}

/// An empty input is an error, `encode` does not blame an `--index` never given,
/// and `-j` has a limit.
#[test]
fn empty_input_and_thread_limits() {
    for command in ["solve", "count", "check", "rate"] {
        let run = xcover(&["sudoku", command, "-"], "# only a comment\n\n");
        assert_eq!(run.status.code(), Some(1), "{command}");
        assert!(
            err(&run).contains("no puzzle found"),
            "{command}: {}",
            err(&run)
        );
    }
    let encode = xcover(&["sudoku", "encode", "-"], "");
    assert_eq!(encode.status.code(), Some(1));
    assert!(err(&encode).contains("no puzzle found"), "{}", err(&encode));
    assert!(!err(&encode).contains("--index"), "{}", err(&encode));
    let threads = xcover(&["-j", "100000", "sudoku", "check", "-"], POST_001_A);
    assert_eq!(threads.status.code(), Some(2));
    assert!(err(&threads).contains("at most 256"), "{}", err(&threads));
}

/// What the library writes in every layout reads back as the same grid.
#[test]
fn written_layouts_read_back() {
    let grid = text::parse("1.24....3.1......6.413......5.......  # boxes 3x2", None)
        .remove(0)
        .unwrap()
        .grid;
    for layout in [
        Layout::Line,
        Layout::NumberLine,
        Layout::Grid,
        Layout::Numbers,
    ] {
        let written = text::write(&grid, layout);
        let again = text::parse(&written, None).remove(0).unwrap();
        assert_eq!(again.grid, grid, "{layout:?}: {written}");
    }
}
