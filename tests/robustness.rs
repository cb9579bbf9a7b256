//! Regression tests for the findings of a new-user trial (issue "every input gets a right
//! answer or a clear error"): each test names the finding it pins, and failed before the fix.

use std::io::{BufRead, BufReader, Write};
use std::process::Command;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

mod common;

use common::slow_puzzles::{SLOW_FIRST_SOLUTION_25X25, SLOW_PROOF_25X25};
use common::{err, out, spawn, xcover};
use xcover::sudoku::check::check_solution;
use xcover::sudoku::text::{self, Layout, Reader};

const POST_001_A: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// Finding 1: the grid layout's separators give the box shape; what `generate` and `solve`
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

/// Finding 1: the project's own 3x2 file checks unique without `--box`; a 3x2 puzzle without
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

/// Finding 3: `example` sizes are bounded, and 0 is refused, with usage errors (exit 2).
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

/// Finding 4: a level that minimal 16x16 puzzles never reach is found at once by steering
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

/// Finding 5: a byte-order mark is not a cell and not part of an item's name.
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

/// Finding 6: `solve -` answers a puzzle as soon as its line is complete, while standard
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

/// Finding 6, in the library: the reader hands out a one-line puzzle without reading on.
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

/// Finding 7: a puzzle given where a file is expected gets a message that says what to do.
#[test]
fn a_puzzle_instead_of_a_file_name_is_explained() {
    let run = xcover(&["sudoku", "solve", POST_001_A], "");
    assert_eq!(run.status.code(), Some(1));
    assert!(err(&run).contains("looks like a puzzle"), "{}", err(&run));
    assert!(err(&run).contains("sudoku solve -"), "{}", err(&run));
}

/// A directory given as a file is refused as a file that cannot be opened, for puzzles and
/// problems alike (before, `check` printed `invalid` for it and called it a faulty first line),
/// and the files after it are still read.
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

/// Runs `xcover args` on `input`, sends `signal` (as `kill` names it) after a second, and
/// returns what the process did.
fn interrupted_run(args: &[&str], input: &str, signal: &str) -> std::process::Output {
    // Each command given here has far more than a second's work.
    signalled_after(args, input, signal, Duration::from_millis(1000))
}

/// Runs `xcover args` on `input`, sends `signal` after `wait`, and returns what the process
/// did.
fn signalled_after(
    args: &[&str],
    input: &str,
    signal: &str,
    wait: Duration,
) -> std::process::Output {
    let mut child = spawn(args);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    thread::sleep(wait);
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // A process that keeps going after the signal is killed: no exit code, which every
    // caller's assertion on 130 or 143 refuses.
    common::ended_or_killed(child, Duration::from_secs(10))
}

/// Runs `xcover args` on `input` and sends SIGINT after `wait`.
fn interrupted_after(args: &[&str], input: &str, wait: Duration) -> std::process::Output {
    signalled_after(args, input, "-INT", wait)
}

/// Finding 7: Ctrl-C or SIGTERM during a long count prints the count so far, marked
/// partial, with exit code 130 or 143; a batch keeps the records it finished.
#[test]
fn interrupted_counts_print_partial_results() {
    let empty_6x6 = ".".repeat(36);
    for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
        // The empty 6x6 grid has 28,200,960 solutions.
        let input = format!("{POST_001_A}\n{empty_6x6}\n{POST_001_A}\n");
        let output = interrupted_run(&["sudoku", "count", "-"], &input, signal);
        assert_eq!(output.status.code(), Some(code), "{}", err(&output));
        let printed = out(&output);
        let lines: Vec<&str> = printed.lines().collect();
        assert_eq!(lines.len(), 2, "{printed}");
        assert_eq!(lines[0], "1");
        assert!(lines[1].ends_with(" (partial)"), "{printed}");
        let partial: u64 = lines[1].split(' ').next().unwrap().parse().unwrap();
        assert!(partial < 28_200_960);
        assert!(err(&output).contains("interrupted"), "{}", err(&output));
    }
}

/// A 36x36 grid with about 40% of its cells given, from a solution of the pattern
/// `(row * 6 + row / 6 + column) mod 36`, the cells kept by a fixed random stream: with no
/// inference, `check` searches it for minutes.
fn sparse_36x36() -> String {
    let mut state: u64 = 2_654_435_761;
    let mut text = String::new();
    for row in 0..36 {
        let cells: Vec<String> = (0..36)
            .map(|column| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                if (state >> 33) % 10 < 4 {
                    ((row * 6 + row / 6 + column) % 36 + 1).to_string()
                } else {
                    "0".to_string()
                }
            })
            .collect();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    text
}

/// A `check` or `solve` stopped in the middle of a puzzle, before a solution was found,
/// prints no record for it, but its `--stats` line counts the work done on it (before, nodes
/// 0 and branch points 0), and gives no time per puzzle when none finished.
#[test]
fn interrupted_checks_count_their_work_in_the_stats() {
    for task in ["check", "solve"] {
        let args = ["sudoku", task, "--stats", "--inference", "none", "-j1", "-"];
        let output = interrupted_run(&args, &sparse_36x36(), "-TERM");
        assert_eq!(output.status.code(), Some(143), "{}", err(&output));
        assert_eq!(out(&output), "");
        assert!(err(&output).contains("<stdin>:1: interrupted before a solution was found"));
        let stats = err(&output);
        let line = stats
            .lines()
            .find(|line| line.starts_with("puzzles 0,"))
            .unwrap_or_else(|| panic!("{stats}"));
        let nodes: u64 = line
            .split(", ")
            .find_map(|part| part.strip_prefix("nodes "))
            .unwrap()
            .parse()
            .unwrap();
        assert!(nodes > 1000, "{line}");
        assert!(!line.contains("per puzzle"), "{line}");
    }
}

/// A `solve` stopped after its search found a solution but before it proved it the only
/// one prints the solution (before: nothing, the work lost) with a warning that says so;
/// its JSON record says `"unique": null` and `"partial": true`. A `check` prints no verdict
/// (before, the variant path printed `unique`) but says on stderr what was found. Exit code
/// 130 in every case.
#[test]
fn interrupted_solves_keep_the_solution_found_and_checks_give_no_verdict() {
    let wait = Duration::from_secs(2);
    let puzzle = text::parse(SLOW_PROOF_25X25, None).remove(0).unwrap().grid;
    let solved_grid = |printed: &str| {
        let line: String = printed.split_whitespace().collect();
        text::parse(&line, None).remove(0).unwrap().grid
    };
    for threads in ["-j1", "-j2"] {
        let input = format!("{SLOW_PROOF_25X25}\n");
        let solve = interrupted_after(&["sudoku", "solve", threads, "-"], &input, wait);
        assert_eq!(solve.status.code(), Some(130), "{}", err(&solve));
        let solution = solved_grid(&out(&solve));
        check_solution(&puzzle, &solution).unwrap();
        assert!(
            err(&solve).contains("<stdin>:1: interrupted: the solution printed is not yet proved"),
            "{}",
            err(&solve)
        );

        let check = interrupted_after(&["sudoku", "check", threads, "-"], &input, wait);
        assert_eq!(check.status.code(), Some(130), "{}", err(&check));
        assert_eq!(out(&check), "");
        assert!(
            err(&check).contains("<stdin>:1: interrupted: a solution was found, not yet proved"),
            "{}",
            err(&check)
        );
    }
    let json = interrupted_after(
        &["sudoku", "solve", "-j1", "--format", "json", "-"],
        SLOW_PROOF_25X25,
        wait,
    );
    assert_eq!(json.status.code(), Some(130), "{}", err(&json));
    let record: serde_json::Value = serde_json::from_str(out(&json).trim()).unwrap();
    assert_eq!(record["unique"], serde_json::Value::Null, "{record}");
    assert_eq!(record["partial"], true, "{record}");
    assert_eq!(
        record["solution"].as_array().map(Vec::len),
        Some(25),
        "{record}"
    );

    // The same puzzle in the variant format (rows, columns and boxes only).
    let variant = slow_puzzle_as_variant();
    let check = interrupted_after(&["sudoku", "check", "-j1", "-"], &variant, wait);
    assert_eq!(check.status.code(), Some(130), "{}", err(&check));
    assert_eq!(out(&check), "");
    assert!(
        err(&check).contains("puzzle slow: interrupted: a solution was found"),
        "{}",
        err(&check)
    );
    let solve = interrupted_after(&["sudoku", "solve", "-j1", "-"], &variant, wait);
    assert_eq!(solve.status.code(), Some(130), "{}", err(&solve));
    check_solution(&puzzle, &solved_grid(&out(&solve))).unwrap();
    assert!(
        err(&solve).contains("puzzle slow: interrupted: the solution printed"),
        "{}",
        err(&solve)
    );
}

/// Finding 7, for `cover count`.
#[test]
fn interrupted_cover_count_prints_partial_count() {
    let problem = out(&xcover(&["example", "queens", "18"], ""));
    let output = interrupted_run(&["cover", "count", "-"], &problem, "-INT");
    assert_eq!(output.status.code(), Some(130), "{}", err(&output));
    assert!(
        out(&output).trim_end().ends_with("(partial)"),
        "{}",
        out(&output)
    );
    assert!(err(&output).contains("partial"), "{}", err(&output));
}

/// Ctrl-C while `explain --complete` has the engine finish a grid that logic left stops the
/// engine: the steps and the stalled grid stay printed, stderr says the engine was
/// interrupted, exit code 130 (before, Ctrl-C was ignored until the engine was done).
#[test]
fn interrupted_explain_complete_stops_the_engine() {
    let input = format!("{SLOW_FIRST_SOLUTION_25X25}\n");
    let output = interrupted_after(
        &["sudoku", "explain", "--complete", "-"],
        &input,
        Duration::from_secs(1),
    );
    assert_eq!(output.status.code(), Some(130), "{}", err(&output));
    assert!(
        out(&output).contains("logic stalls after"),
        "{}",
        out(&output)
    );
    assert!(
        !out(&output).contains("engine finds no solution"),
        "{}",
        out(&output)
    );
    assert!(
        err(&output).contains("interrupted before the exact-cover engine completed the grid"),
        "{}",
        err(&output)
    );
}

/// Ctrl-C during `compare` stops the search in progress and prints the table of the puzzles
/// measured before it, with exit code 130 (before, the first Ctrl-C was ignored: the run went
/// on to its end, the puzzle stopped counted as a time-out, exit code 0).
#[test]
fn interrupted_compare_reports_the_puzzles_it_finished() {
    let input = format!("{POST_001_A}\n{SLOW_PROOF_25X25}\n");
    let args = ["sudoku", "compare", "--solvers", "dlx", "-"];
    let output = interrupted_after(&args, &input, Duration::from_secs(2));
    // The slow puzzle's search (14 s, its time budget 10 s) was stopped by the signal: the
    // run ends with 130, not with its table of both puzzles.
    assert_eq!(output.status.code(), Some(130), "{}", err(&output));
    assert!(out(&output).starts_with("1 puzzles,"), "{}", out(&output));
    assert!(
        err(&output).contains("interrupted; the comparison covers the first 1 of 2 puzzles"),
        "{}",
        err(&output)
    );
}

/// [`SLOW_PROOF_25X25`] in the variant format (rows, columns and boxes only), named `slow`.
fn slow_puzzle_as_variant() -> String {
    let rows: Vec<&str> = (0..25)
        .map(|r| &SLOW_PROOF_25X25[25 * r..25 * (r + 1)])
        .collect();
    format!(
        "puzzle: slow\nsize: 25\nbox: 5x5\nrules: rows columns boxes\ngrid:\n{}\nend\n",
        rows.join("\n")
    )
}

/// Ctrl-C during one of `compare`'s backtracking baselines stops it at once, as it stops
/// DLX, on grids and on variant puzzles (before, the baseline went on until its time budget,
/// here a minute, ran out).
#[test]
fn interrupted_compare_stops_the_baselines_too() {
    let grid = format!("{SLOW_PROOF_25X25}\n");
    let variant = slow_puzzle_as_variant();
    for solver in ["mrv", "naive"] {
        for input in [&grid, &variant] {
            let args = [
                "sudoku",
                "compare",
                "--solvers",
                solver,
                "--timeout-ms",
                "60000",
                "-",
            ];
            let output = interrupted_after(&args, input, Duration::from_secs(1));
            assert_eq!(output.status.code(), Some(130), "{}", err(&output));
            assert!(
                err(&output).contains("interrupted; the comparison covers the first 0 of 1"),
                "{}",
                err(&output)
            );
        }
    }
}

/// Ctrl-C or SIGTERM while `generate` removes the clues of a large puzzle stops it at once,
/// and the puzzle it was making is not printed: it is unique but not what was asked (before,
/// the pass went on through every remaining clue, each check stopped by the flag, and printed
/// the puzzle it had reached).
#[test]
fn interrupted_generate_stops_at_once_and_prints_no_half_made_puzzle() {
    for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
        // A minimal 25x25 takes from seconds to minutes (one that need not be minimal, about
        // a second: done before the signal).
        let args = [
            "-j1",
            "sudoku",
            "generate",
            "--size",
            "25",
            "--minimal",
            "--seed",
            "1",
        ];
        let output = signalled_after(&args, "", signal, Duration::from_secs(2));
        assert_eq!(output.status.code(), Some(code), "{}", err(&output));
        assert_eq!(out(&output), "");
        assert!(
            err(&output).contains("interrupted; 0 puzzles were made"),
            "{}",
            err(&output)
        );
    }
}

/// The same for variants: a Ctrl-C during the clue removal of a 16x16 windoku, whose
/// uniqueness checks take seconds each, stops it at once (it waited five minutes, until the
/// puzzle was made).
#[test]
fn interrupted_variant_generate_stops_at_once() {
    let args = [
        "-j1",
        "sudoku",
        "generate",
        "--size",
        "16",
        "--variant",
        "windows",
        "--seed",
        "1",
    ];
    let output = signalled_after(&args, "", "-INT", Duration::from_secs(3));
    assert_eq!(output.status.code(), Some(130), "{}", err(&output));
    assert_eq!(out(&output), "");
    assert!(
        err(&output).contains("interrupted; 0 puzzles were made"),
        "{}",
        err(&output)
    );
}

/// Finding 8: a limit of 0 is refused everywhere, as a usage error.
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

/// Finding 9: `solve` warns when a puzzle has several solutions; `rate` tells a puzzle with
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

/// Finding 10: malformed grids give one record per puzzle; separators people use are read.
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

/// Finding 10: an empty input is an error, `encode` does not blame an `--index` never given,
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
