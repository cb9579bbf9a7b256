//! The `xcover sudoku` commands, run as a user runs them: formats, record order, errors and
//! exit codes.

use crate::common;

use common::scratch::ScratchDir;
use common::{err, out, xcover};

const POST_001_A: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

#[test]
fn solve_answers_in_the_layout_of_the_puzzle() {
    let grid = xcover(&["sudoku", "solve", "data/sudoku/post000.txt"], "");
    assert!(grid.status.success());
    assert_eq!(
        out(&grid).lines().next().unwrap(),
        "4 3 5 | 2 6 9 | 7 8 1",
        "{}",
        out(&grid)
    );
    assert_eq!(out(&grid).lines().nth(3).unwrap(), "------+-------+------");

    let line = xcover(&["sudoku", "solve", "-"], POST_001_A);
    assert_eq!(
        out(&line),
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179\n"
    );
    let as_grid = xcover(&["sudoku", "solve", "--format", "grid", "-"], POST_001_A);
    assert_eq!(out(&as_grid).lines().count(), 11);
}

#[test]
fn records_keep_input_order_whatever_the_thread_count() {
    let one = xcover(
        &[
            "-j",
            "1",
            "sudoku",
            "solve",
            "data/sudoku/6x6-2x3.txt",
            "data/sudoku/12x12-3x4.txt",
        ],
        "",
    );
    let two = xcover(
        &[
            "-j",
            "2",
            "sudoku",
            "solve",
            "data/sudoku/6x6-2x3.txt",
            "data/sudoku/12x12-3x4.txt",
        ],
        "",
    );
    assert!(one.status.success());
    assert_eq!(out(&one), out(&two));
    let text = out(&one);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0].len(), 36);
    assert_eq!(lines[5].len(), 144);
}

#[test]
fn count_and_check_print_one_record_per_puzzle() {
    let puzzles = format!(
        "{POST_001_A}\n\
         ....................................................................................\n\
         ................\n\
         2957438614318659..8761925433874592166123874955492167387635341899286713541549386..\n\
         .8...9.43.5...8.1..1.......8....5......8.4......3....6.......7..3.5...8.9724...5.\n"
    );
    let counted = xcover(&["sudoku", "count", "-"], &puzzles);
    assert_eq!(out(&counted), "1\ninvalid\n288\ninvalid\n162\n");
    assert_eq!(
        counted.status.code(),
        Some(1),
        "an invalid puzzle means exit 1"
    );
    let errors = err(&counted);
    assert!(errors.contains("<stdin>:2: 84 cells"), "{errors}");
    assert!(
        errors.contains("<stdin>:4: r7c3 and r7c5 both hold 3 (same row)"),
        "{errors}"
    );

    let limited = xcover(
        &["sudoku", "count", "--limit", "100", "-"],
        "................",
    );
    assert_eq!(out(&limited), "100\n");

    let checked = xcover(&["sudoku", "check", "-"], &puzzles);
    assert_eq!(
        out(&checked),
        "unique\ninvalid\nmultiple\ninvalid\nmultiple\n"
    );
}

#[test]
fn check_json_carries_two_distinct_solutions() {
    let output = xcover(
        &["sudoku", "check", "--format", "json", "-"],
        "................",
    );
    let record: serde_json::Value = serde_json::from_str(out(&output).trim()).unwrap();
    assert_eq!(record["verdict"], "multiple");
    let solutions = record["solutions"].as_array().unwrap();
    assert_eq!(solutions.len(), 2);
    assert_ne!(solutions[0], solutions[1]);
    assert_eq!(record["line"], 1);
    assert!(record["stats"]["nodes"].as_u64().unwrap() > 0);
}

/// A file of one puzzle is checked and solved by one search on every core where the search
/// probes (large grids, or `--inference probe` here), by one thread otherwise: the verdict and
/// the grids it shows are those of one thread, in the same record, whatever `-j` says.
#[test]
fn a_lone_puzzle_is_checked_and_solved_alike_on_one_thread_and_on_several() {
    let without_stats = |text: &str| -> serde_json::Value {
        let mut record: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        record.as_object_mut().unwrap().remove("stats");
        record
    };
    let unsolvable =
        "12345678.........9...............................................................";
    let several = "1...............";
    for inference in ["auto", "probe"] {
        for (puzzle, verdict) in [
            (POST_001_A, "unique"),
            (several, "multiple"),
            (unsolvable, "none"),
        ] {
            let mut records = Vec::new();
            for jobs in ["-j1", "-j2"] {
                let run = |command: &str, json: bool| {
                    let mut args = vec![jobs, "sudoku", command, "--inference", inference];
                    if json {
                        args.extend(["--format", "json"]);
                    }
                    args.push("-");
                    let output = xcover(&args, puzzle);
                    assert!(output.status.success(), "{args:?}: {}", err(&output));
                    (out(&output), err(&output))
                };
                let record = without_stats(&run("check", true).0);
                assert_eq!(record["verdict"], verdict, "{jobs} {inference} {puzzle}");
                assert_eq!(run("check", false).0, format!("{verdict}\n"));
                let solved = without_stats(&run("solve", true).0);
                assert_eq!(solved["unique"], verdict == "unique");
                assert_eq!(solved["solution"], record["solutions"][0]);
                let (text, warning) = run("solve", false);
                records.push((record, solved, text, warning));
            }
            assert_eq!(records[0], records[1], "{inference} {puzzle}");
        }
    }
    let clash = xcover(&["-j2", "sudoku", "check", "-"], "11..............");
    assert_eq!(out(&clash), "invalid\n");
    assert_eq!(clash.status.code(), Some(1));
}

/// A count's JSON records have one shape, whether the puzzle came alone (counted by one
/// search on every core) or in a batch (one thread per puzzle), and whatever `-j` says.
#[test]
fn count_json_records_have_one_shape() {
    let keys = |text: &str| -> Vec<Vec<String>> {
        text.lines()
            .map(|line| {
                let record: serde_json::Value = serde_json::from_str(line).unwrap();
                record.as_object().unwrap().keys().cloned().collect()
            })
            .collect()
    };
    let puzzle = "1...............\n";
    let batch = puzzle.repeat(40);
    let mut shapes = Vec::new();
    for jobs in ["-j1", "-j2"] {
        for input in [puzzle, batch.as_str()] {
            let args = [
                jobs, "sudoku", "count", "--limit", "5", "--format", "json", "-",
            ];
            let output = xcover(&args, input);
            assert!(output.status.success(), "{}", err(&output));
            for line in out(&output).lines() {
                let record: serde_json::Value = serde_json::from_str(line).unwrap();
                assert_eq!(record["count"], 5, "{line}");
            }
            shapes.extend(keys(&out(&output)));
        }
    }
    assert_eq!(shapes.len(), 82);
    assert!(shapes.iter().all(|shape| *shape == shapes[0]), "{shapes:?}");
    assert!(!shapes[0].contains(&"fingerprint".to_string()));
}

#[test]
fn a_lone_puzzle_reports_the_same_work_on_one_thread_and_on_two() {
    // Alone in its input, a puzzle goes through the parallel search with -j2 and the batch
    // path with -j1; both count the updates of putting its clues in (this small search
    // stays on one thread either way, so every figure is the same).
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let stats = |jobs| {
        let args = [jobs, "sudoku", "count", "--stats", "--format", "json", "-"];
        let output = xcover(&args, puzzle);
        assert!(output.status.success(), "{}", err(&output));
        let record: serde_json::Value = serde_json::from_str(out(&output).trim()).unwrap();
        assert_eq!(record["count"], 1);
        record["stats"].clone()
    };
    let one = stats("-j1");
    assert!(one["updates"].as_u64().unwrap() > 1000, "{one}");
    assert_eq!(stats("-j2"), one);
}

#[test]
fn solve_all_streams_every_solution() {
    let all = xcover(&["sudoku", "solve", "--all", "-"], "................");
    let text = out(&all);
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 288);
    lines.sort();
    lines.dedup();
    assert_eq!(lines.len(), 288, "all distinct");

    let limited = xcover(
        &["sudoku", "solve", "--limit", "3", "--format", "json", "-"],
        "................",
    );
    // JSON Lines: a record per solution, then one with the count.
    let records: Vec<serde_json::Value> = out(&limited)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records.len(), 4);
    for (index, record) in records[..3].iter().enumerate() {
        assert_eq!(record["index"], index);
        assert_eq!(record["solution"].as_array().unwrap().len(), 4);
    }
    assert_eq!(records[3]["count"], 3);

    let none = xcover(&["sudoku", "solve", "--all", "-"], "11..............");
    assert_eq!(out(&none), "invalid\n");
    assert_eq!(none.status.code(), Some(1));
}

#[test]
fn box_shape_can_be_chosen() {
    let tall = xcover(
        &["sudoku", "check", "--box", "3x2", "data/sudoku/6x6-3x2.txt"],
        "",
    );
    assert_eq!(out(&tall), "unique\nunique\n");
    let wrong = xcover(&["sudoku", "check", "--box", "2x4", "-"], POST_001_A);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(err(&wrong).contains("--box 2x4 does not fit a 9x9 grid"));
}

#[test]
fn encode_can_be_counted_by_the_generic_engine() {
    let puzzle =
        ".8...9.43.5...8.1..1.......8....5......8.4......3....6.......7..3.5...8.9724...5.";
    let encoded = xcover(&["sudoku", "encode", "-"], puzzle);
    assert!(encoded.status.success());
    let first = out(&encoded).lines().nth(1).unwrap().to_string();
    assert_eq!(first.split_whitespace().count(), 324, "324 primary items");
    let counted = xcover(&["cover", "count", "-"], &out(&encoded));
    assert_eq!(out(&counted), "162\n");
}

#[test]
fn unreadable_files_and_bad_usage() {
    let missing = xcover(
        &["sudoku", "count", "nope.txt", "data/sudoku/4x4-2x2.txt"],
        "",
    );
    assert_eq!(missing.status.code(), Some(1));
    assert!(err(&missing).contains("nope.txt"));
    assert_eq!(
        out(&missing).lines().count(),
        4,
        "the other file is still processed"
    );
    // No file: standard input.
    let counted = xcover(
        &["sudoku", "count"],
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n",
    );
    assert_eq!(out(&counted), "1\n");
    assert_eq!(
        xcover(&["sudoku", "solve", "--format", "xml", "-"], "")
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        xcover(&["sudoku", "solve", "--box", "3by3", "-"], "")
            .status
            .code(),
        Some(2)
    );
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn large_shared_grids_through_the_cli() {
    let solved = xcover(&["sudoku", "solve", "../shared/data/large/16x16-a.txt"], "");
    let given = std::fs::read_to_string("../shared/data/large/16x16-a.solution.txt").unwrap();
    let numbers = |text: &str| -> Vec<u32> {
        text.split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect()
    };
    assert_eq!(numbers(&out(&solved)), numbers(&given));

    let invalid = xcover(
        &[
            "sudoku",
            "check",
            "../shared/data/large/16x16-invalid-duplicate-clue.txt",
        ],
        "",
    );
    assert_eq!(invalid.status.code(), Some(1));
    assert!(
        err(&invalid).contains("16x16-invalid-duplicate-clue.txt:6: r3c11 and r6c11 both hold 7")
    );
}

#[test]
fn compare_reports_every_solver_in_json_table_and_csv() {
    let args = [
        "sudoku",
        "compare",
        "--solvers",
        "dlx,mrv,naive",
        "--timeout-ms",
        "2000",
        "--format",
        "json",
        "data/sudoku/post001.txt",
        "data/sudoku/6x6-2x3.txt",
    ];
    let output = xcover(&args, "");
    assert!(output.status.success(), "{}", err(&output));
    let report: serde_json::Value = serde_json::from_str(&out(&output)).unwrap();
    assert_eq!(report["puzzles"], 6);
    let solvers = report["solvers"].as_array().unwrap();
    let names: Vec<&str> = solvers
        .iter()
        .map(|s| s["solver"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["dlx", "mrv", "naive"]);
    for solver in solvers {
        assert_eq!(solver["finished"], 6);
        assert!(solver["mean_us"].as_f64().unwrap() > 0.0);
        assert!(solver["mean_nodes"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(solvers[0]["vs_dlx"], 1.0);
    assert!(report["disagreements"].as_array().unwrap().is_empty());

    let table = xcover(&["sudoku", "compare", "data/sudoku/4x4-2x2.txt"], "");
    let text = out(&table);
    assert!(text.contains("solver") && text.contains("naive"), "{text}");
    let csv = xcover(
        &[
            "sudoku",
            "compare",
            "--format",
            "csv",
            "--solvers",
            "dlx,mrv",
            "-",
        ],
        "................",
    );
    let text = out(&csv);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("solver,puzzles,finished,timed_out"));
}

#[test]
fn compare_counts_timeouts_and_draws_a_chart() {
    let dir = ScratchDir::new("plot");
    let chart = dir.join("chart.svg");
    // The empty 9x9 grid: naive cannot count a billion solutions in 30 ms.
    let output = xcover(
        &[
            "sudoku",
            "compare",
            "--limit",
            "1000000000",
            "--timeout-ms",
            "30",
            "--solvers",
            "naive",
            "--format",
            "json",
            "--plot",
            chart.to_str().unwrap(),
            "-",
        ],
        &".".repeat(81),
    );
    assert!(output.status.success(), "{}", err(&output));
    let report: serde_json::Value = serde_json::from_str(&out(&output)).unwrap();
    assert_eq!(report["solvers"][0]["timed_out"], 1);
    assert_eq!(report["solvers"][0]["finished"], 0);
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("naive"));
}

#[test]
fn explain_hint_and_rate() {
    let explained = xcover(&["sudoku", "explain", "data/sudoku/post003.txt"], "");
    assert!(explained.status.success());
    let text = out(&explained);
    assert!(
        text.contains(
            ". naked single: r6c2=2 (row 6 has 1 5 7 8, column 2 has 3 4 6 7 8, box 4 has 1 3 4 5 7 9)"
        ),
        "{text}"
    );
    assert!(text.starts_with("1. "));
    assert!(text.trim_end().ends_with("level easy, score 1.0"), "{text}");

    let hint = xcover(&["sudoku", "hint", "data/sudoku/post003.txt"], "");
    assert_eq!(out(&hint).lines().count(), 1);
    assert!(out(&hint).starts_with("naked single: r5c8=9"));

    // An empty 4x4 has no logical step at all: logic stalls, search completes it.
    let stalled = xcover(
        &["sudoku", "explain", "--complete", "-"],
        "................",
    );
    let text = out(&stalled);
    assert!(
        text.contains("logic stalls after 0 steps with 16 cells empty"),
        "{text}"
    );
    assert!(
        text.contains("completed by the exact-cover engine with"),
        "{text}"
    );
    assert!(
        text.contains("candidates where logic stalls:\n1234 1234 1234 1234\n"),
        "{text}"
    );
    // A hint where logic stalls: the candidates, and a cell the engine fixes.
    let hint = out(&xcover(&["sudoku", "hint", "-"], "................"));
    assert_eq!(
        hint,
        "no technique applies: the puzzle has more than one solution; the candidates:\n\
         1234 1234 1234 1234\n1234 1234 1234 1234\n1234 1234 1234 1234\n1234 1234 1234 1234\n\
         the exact-cover engine says: one solution has 1 in r1c1\n"
    );
    // --candidates: the candidate grid after every step.
    let each = out(&xcover(
        &["sudoku", "explain", "--candidates", "-"],
        "12343412214343..",
    ));
    assert_eq!(
        each,
        "1. naked single: r4c3=2 (row 4 has 3 4, column 3 has 1 3 4, box 4 has 3 4)\n\
         1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n\
         2. naked single: r4c4=1 (row 4 has 2 3 4, column 4 has 2 3 4, box 4 has 2 3 4)\n\
         1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n\
         solved by logic in 2 steps; hardest: naked single; level easy, score 1.0\n"
    );

    let rated = xcover(
        &["sudoku", "rate", "data/sudoku/post000.txt", "-"],
        "................",
    );
    assert_eq!(
        out(&rated),
        "easy 1.0\nmultiple\n",
        "45 blanks, all naked singles (1.0); an empty 4x4 has 288 solutions"
    );
    assert!(
        err(&rated)
            .contains("2 puzzles: easy 1, medium 0, hard 0, expert 0, extreme 0, forcing 0, needs-search 0, multiple 1")
    );
    let json = xcover(
        &[
            "sudoku",
            "rate",
            "--format",
            "json",
            "data/sudoku/post000.txt",
        ],
        "",
    );
    let record: serde_json::Value = serde_json::from_str(out(&json).trim()).unwrap();
    assert_eq!(record["level"], "easy");
    assert_eq!(record["hardest"], "naked single");
}

/// Boards off the square, from ISS strings: a rectangle (4x6, boxes of 2x3) and doppelganger
/// on a grid of side 4 (digits 0 to 4, the missing digits written beside it). Each is
/// counted, checked and solved, its solution written as its board (digits from 0 for
/// doppelganger), and logic refuses them with a message instead of answering wrongly.
#[test]
fn boards_off_the_square_are_solved_and_logic_says_it_does_not_read_them() {
    let rectangle = ".Shape~4x6.Thermo~R1C2~R1C3~R1C4.AntiKnight.~R1C1_3~R2C3_4~R3C5_3~R4C2_3\
                     ~R2C6_3~R3C1_2~R4C5_4~R1C4_5\n";
    let doppelganger = ".Shape~4x4~0-4.Doppelganger.Whisper~2~R3C1~R3C2~DGB3.~R1C1_0~R2C3_4\
                        ~R3C4_2~R4C2_0~R2C1_1~R3C3_0~R1C4_3~R4C4_1\n";
    for (puzzle, board) in [
        (rectangle, "312564\n564213\n246135\n135642\n"),
        (doppelganger, "04231\n13402\n41023\n20314\n32140\n21340\n"),
    ] {
        assert_eq!(out(&xcover(&["sudoku", "count", "-"], puzzle)), "1\n");
        assert_eq!(out(&xcover(&["sudoku", "check", "-"], puzzle)), "unique\n");
        let solved = xcover(&["sudoku", "solve", "-"], puzzle);
        assert_eq!(out(&solved), board, "{}", err(&solved));
        let explained = xcover(&["sudoku", "explain", "-"], puzzle);
        assert!(
            err(&explained).contains("logic reads square grids"),
            "{}",
            err(&explained)
        );
        assert!(!explained.status.success());
    }
    // Without its last given the doppelganger puzzle has two solutions.
    let open = doppelganger.replace("~R4C4_1", "");
    assert_eq!(out(&xcover(&["sudoku", "count", "-"], &open)), "2\n");
}
