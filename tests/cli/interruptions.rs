//! Ctrl-C and SIGTERM in the middle of every long command: what is done is printed (a count
//! as partial, a solution found but not proved, the puzzles finished), no half-made record, and
//! the exit code 130 or 143.

use std::io::Write;
use std::process::Command;
use std::thread;
use std::time::Duration;

use crate::common;

use common::slow_puzzles::{SLOW_FIRST_SOLUTION_25X25, SLOW_PROOF_25X25};
use common::{err, out, spawn};
use xcover::sudoku::check::check_solution;
use xcover::sudoku::text::{self};

const POST_001_A: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

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

/// Ctrl-C or SIGTERM during a long count prints the count so far, marked
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
/// prints no record for it, but its `--stats` line counts the work done on it, and gives no
/// time per puzzle when none finished.
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
/// one prints the solution with a warning that says so;
/// its JSON record says `"unique": null` and `"partial": true`. A `check` prints no verdict
/// but says on stderr what was found. Exit code
/// 130 in every case.
#[test]
fn interrupted_solves_keep_the_solution_found_and_checks_give_no_verdict() {
    let wait = Duration::from_secs(1);
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

/// The steps and the stalled grid stay printed, stderr says the engine was
/// interrupted, exit code 130.
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
/// measured before it, with exit code 130; the puzzle stopped is not counted as a time-out.
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
/// DLX, on grids and on variant puzzles, long before its time budget (here a minute) runs out.
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
/// and the puzzle it was making is not printed: it is unique but not what was asked.
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
