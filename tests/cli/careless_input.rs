//! Inputs that scripts and careless users really feed the command line: every puzzle of a
//! file gets exactly one record, hexadecimal 16x16 grids are read as such, `compare` never
//! makes a solver look faster by dropping the puzzles it could not finish, and no input makes
//! a signal wait.

use std::io::Write;
use std::process::Command;
use std::thread;
use std::time::Duration;

use crate::common;

use common::{ended_or_killed, err, out, spawn, xcover};

/// How long a process may take to end after its input or a signal says it must, before it is
/// killed (and its missing exit code fails the test).
const GRACE: Duration = Duration::from_secs(10);

/// 15,824 solutions.
const SEVERAL: &str =
    "1..26.53...8.379.43..9......321...8.....8...................8.........2.9..7....3";

/// A one-line puzzle followed by a count or a rating is read as the puzzle, its annotation
/// ignored; unreadable lines too long to be rows each get their own record; a binary file is
/// one error.
#[test]
fn every_puzzle_line_gets_one_record() {
    for separator in [" ", "\t", "  "] {
        let input: String = ["1", "2", "0", "9.0 SE"]
            .iter()
            .map(|note| format!("{SEVERAL}{separator}{note}\n"))
            .collect();
        let counted = xcover(&["sudoku", "count", "-"], &input);
        assert_eq!(out(&counted), "15824\n".repeat(4), "{}", err(&counted));
        assert!(counted.status.success());
    }
    // Five lines of 80 cells: five invalid records, each naming its own line.
    let short: String = format!("{}\n", &SEVERAL[..80]).repeat(5);
    let counted = xcover(&["sudoku", "count", "-"], &short);
    assert_eq!(out(&counted), "invalid\n".repeat(5));
    for line in 1..=5 {
        assert!(
            err(&counted).contains(&format!("<stdin>:{line}: 80 cells")),
            "{}",
            err(&counted)
        );
    }
    // A faulty line between good ones keeps the records aligned with the input.
    let mixed = format!("{SEVERAL}\n{}\n{SEVERAL} 15824\n", &SEVERAL[..80]);
    let counted = xcover(&["sudoku", "count", "-"], &mixed);
    assert_eq!(out(&counted), "15824\ninvalid\n15824\n");
    // A row written in groups as long as a whole 4x4 puzzle (of a 32x32 grid) is not read
    // as an annotated 4x4.
    let read = xcover(
        &["sudoku", "count", "-"],
        "1............... ................\n",
    );
    assert_eq!(out(&read), "invalid\n");
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data")]
fn a_collection_with_counts_after_its_puzzles_is_read_puzzle_by_puzzle() {
    let counted = xcover(
        &["sudoku", "count", "../shared/data/multi/small-counts.txt"],
        "",
    );
    // The third puzzle's clues clash: it has no solution, which the file gives as 0.
    assert_eq!(out(&counted), "162\n2\ninvalid\n");
}

#[test]
fn a_binary_file_is_one_error() {
    let scratch = common::scratch::ScratchDir::new("binary");
    let path = scratch.join("picture.bin");
    let bytes: Vec<u8> = (0..3000u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(&path, &bytes).unwrap();
    let checked = xcover(&["sudoku", "check", path.to_str().unwrap()], "");
    assert_eq!(out(&checked), "invalid\n");
    assert!(
        err(&checked).contains("not a text file"),
        "{}",
        err(&checked)
    );
    assert_eq!(checked.status.code(), Some(1));
}

/// `/dev/zero` is refused at once, and an endless line does not make Ctrl-C wait.
#[test]
fn endless_input_never_makes_a_signal_wait() {
    let checked = ended_or_killed(spawn(&["sudoku", "check", "/dev/zero"]), GRACE);
    assert_eq!(checked.status.code(), Some(1), "{}", err(&checked));
    assert!(
        err(&checked).contains("not a text file"),
        "{}",
        err(&checked)
    );

    let mut child = spawn(&["sudoku", "count", "-"]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        let dots = [b'.'; 1 << 16];
        while stdin.write_all(&dots).is_ok() {}
    });
    thread::sleep(Duration::from_millis(1000));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // Deaf to the signal, the process would be killed: no exit code.
    let output = ended_or_killed(child, GRACE);
    assert_eq!(output.status.code(), Some(130), "{}", err(&output));
    assert!(err(&output).contains("interrupted"), "{}", err(&output));
    writer.join().unwrap();
}

/// a 16x16 written `0`-`F` with `.` blanks is read in hexadecimal and answered in
/// it; one whose `0`s can only be blanks but uses no `G` gets a note when it is not unique.
#[test]
fn hexadecimal_16x16_grids_are_read_as_such() {
    let one_based = include_str!("../../data/sudoku/16x16-4x4.txt")
        .lines()
        .find(|line| !line.starts_with('#'))
        .unwrap();
    let hex: String = one_based.replace('G', "0");
    let counted = xcover(&["sudoku", "count", "-"], &format!("{hex}\n"));
    assert_eq!(out(&counted), "1\n", "{}", err(&counted));
    let solved = xcover(&["sudoku", "solve", "-"], &format!("{hex}\n"));
    let answer = out(&solved);
    let answer = answer.trim_end();
    assert!(!answer.contains('G') && answer.contains('0'), "{answer}");
    // The same answer as the 1-G puzzle's, written in hexadecimal.
    let reference = xcover(&["sudoku", "solve", "-"], &format!("{one_based}\n"));
    assert_eq!(out(&reference).trim_end().replace('G', "0"), answer);
    // In the grid layout too.
    let rows: String = hex
        .as_bytes()
        .chunks(16)
        .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
        .collect();
    let counted = xcover(&["sudoku", "count", "-"], &rows);
    assert_eq!(out(&counted), "1\n", "{}", err(&counted));

    // 0s and no dots: read as blanks, which a puzzle with several solutions notes.
    let open = hex.replace('.', "0");
    let open = format!("{}{}\n", &"0".repeat(40), &open[40..]);
    let counted = xcover(&["sudoku", "count", "--limit", "5", "-"], &open);
    assert!(
        err(&counted).contains("the 0s of this 16x16 were read as blanks"),
        "{}",
        err(&counted)
    );
}

/// a solver that times out is not reported faster than one that finishes.
#[test]
fn compare_counts_timed_out_puzzles_as_lower_bounds() {
    // Hard for plain backtracking, easy for dancing links.
    let hard = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
    let input = format!(
        "{hard}\n{}\n",
        include_str!("../../data/sudoku/post001.txt")
    );
    let output = xcover(
        &[
            "sudoku",
            "compare",
            "--timeout-ms",
            "40",
            "--solvers",
            "dlx,naive",
            "--format",
            "json",
            "-",
        ],
        &input,
    );
    assert!(output.status.success(), "{}", err(&output));
    let report: serde_json::Value = serde_json::from_str(&out(&output)).unwrap();
    let naive = &report["solvers"][1];
    assert!(naive["timed_out"].as_u64().unwrap() >= 1, "{naive}");
    assert!(
        naive["mean_us"].as_f64().unwrap() >= 40_000.0 / 4.0,
        "{naive}"
    );
    assert_eq!(naive["vs_dlx_bound"], "at least");
    assert!(naive["vs_dlx"].as_f64().unwrap() > 1.0, "{naive}");
    assert!(
        naive["lower_bounds"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v == "max_us"),
        "{naive}"
    );
    let table = xcover(
        &[
            "sudoku",
            "compare",
            "--timeout-ms",
            "40",
            "--solvers",
            "dlx,naive",
            "-",
        ],
        &input,
    );
    let text = out(&table);
    assert!(
        text.contains(">=") && text.contains("lower bounds"),
        "{text}"
    );
}

/// `explain` and `hint` say when a puzzle has several solutions, and
/// `explain --complete` says that the grid it fills in is one of them.
#[test]
fn explain_and_hint_say_when_a_puzzle_has_several_solutions() {
    let explained = xcover(
        &["sudoku", "explain", "--complete", "-"],
        "1...............\n",
    );
    let text = out(&explained);
    assert!(
        text.contains("logic stalls after 0 steps with 15 cells empty:"),
        "{text}"
    );
    assert!(
        text.contains("the puzzle has more than one solution, so no logic can finish it"),
        "{text}"
    );
    assert!(text.contains("with one of its several solutions"), "{text}");
    let hint = xcover(&["sudoku", "hint", "-"], "1...............\n");
    assert!(
        out(&hint).starts_with(
            "no technique applies: the puzzle has more than one solution; the candidates:\n\
             1   234  234  234\n"
        ),
        "{}",
        out(&hint)
    );
    assert!(
        out(&hint).ends_with("the exact-cover engine says: one solution has 2 in r1c2\n"),
        "{}",
        out(&hint)
    );
    // A step that logic can take is still given, with a note.
    let hint = xcover(&["sudoku", "hint", "-"], &format!("{SEVERAL}\n"));
    assert_eq!(out(&hint).lines().count(), 1, "{}", out(&hint));
    assert!(
        err(&hint).contains("more than one solution"),
        "{}",
        err(&hint)
    );
    // A unique puzzle that logic finishes (Arto Inkala's, with nested forcing chains) says
    // nothing of the kind.
    let hard = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    let explained = xcover(
        &["sudoku", "explain", "--complete", "-"],
        &format!("{hard}\n"),
    );
    let text = out(&explained);
    assert!(!text.contains("more than one solution"), "{text}");
    assert!(text.contains("solved by logic in"), "{text}");
}

/// A unique puzzle that logic cannot finish (the first of the hard 25x25 puzzles, made and
/// proved unique with a SAT solver outside the project; beyond 16x16 logic stops at the
/// expert techniques) is completed "with the only solution", and nothing is said of several.
#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn explain_completes_a_unique_puzzle_where_logic_stalls() {
    let file = std::fs::read_to_string("../shared/data/large-hard/25x25-sparse.txt").unwrap();
    let first = file.split("\n\n").next().unwrap();
    let explained = xcover(&["sudoku", "explain", "--complete", "-"], first);
    let text = out(&explained);
    assert!(text.contains("logic stalls after"), "{text}");
    assert!(!text.contains("more than one solution"), "{text}");
    assert!(text.contains("with the only solution"), "{text}");
}

/// Out-of-range and contradictory flags are usage errors, exit code 2, as the README says.
#[test]
fn bad_usage_exits_with_2() {
    for args in [
        &["example", "pentominoes", "5x5"][..],
        &["sudoku", "generate", "--size", "65"],
        &[
            "sudoku",
            "encode",
            "--index",
            "0",
            "data/sudoku/post003.txt",
        ],
        &[
            "sudoku",
            "encode",
            "--index",
            "7",
            "data/sudoku/variants.txt",
        ],
        &[
            "sudoku",
            "solve",
            "--all",
            "--ordered",
            "--checkpoint",
            "x",
            "data/sudoku/post003.txt",
        ],
        &["example", "partial-queens", "8", "0"],
    ] {
        let output = xcover(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", err(&output));
        assert!(!err(&output).contains("non-zero type"), "{}", err(&output));
    }
}

/// `generate --format numbers`, the layout of 16x16 and larger, reads back as the same
/// unique puzzle.
#[test]
fn generate_writes_numbers() {
    let made = xcover(
        &[
            "sudoku", "generate", "--size", "16", "--format", "numbers", "--seed", "3",
        ],
        "",
    );
    assert!(made.status.success(), "{}", err(&made));
    assert!(out(&made).contains("16") || out(&made).contains(" 9"));
    let checked = xcover(&["sudoku", "check", "-"], &out(&made));
    assert_eq!(out(&checked), "unique\n");
}

/// Rules under which no grid exists are said to be so by one complete search, not after
/// 2,000 random fillings that each gave up (`--variant windows,non-consecutive` on 9x9 took
/// 42 s; it is too slow for a test in a debug build, the 8x8 below is the same path).
#[test]
fn generate_proves_that_no_grid_exists() {
    for (size, rules) in [("8", "anti-king,non-consecutive"), ("6", "anti-king,x")] {
        let made = xcover(
            &[
                "sudoku",
                "generate",
                "--size",
                size,
                "--variant",
                rules,
                "--seed",
                "1",
            ],
            "",
        );
        assert_eq!(made.status.code(), Some(1), "{}", err(&made));
        assert!(out(&made).is_empty());
        assert!(
            err(&made).contains("a complete search found none"),
            "{}",
            err(&made)
        );
    }
    // Where grids exist but are hard to fill at random, the search's grid stands in.
    let made = xcover(
        &[
            "sudoku",
            "generate",
            "--variant",
            "anti-knight,x",
            "--seed",
            "2",
        ],
        "",
    );
    assert!(made.status.success(), "{}", err(&made));
    let checked = xcover(&["sudoku", "check", "-"], &out(&made));
    assert_eq!(out(&checked), "unique\n", "{}", out(&made));
}

/// Messages name the bad symbol or word, in words a user reads once.
#[test]
fn messages_name_what_is_wrong() {
    let cases = [
        // 64 cells with a 9: too large for an 8x8 (it said "rows of 64 cells but only 1 rows").
        (
            format!("{}9{}\n", "1".repeat(8), ".".repeat(55)),
            "r2c1: symbol 9 is too large for an 8x8 grid",
        ),
        (
            "x234341221434321\n".to_string(),
            "r1c1: symbol 'X' (33) is too large for a 4x4 grid",
        ),
        (
            format!("99999999999999999999999 0 0 0\n{}", "0 0 0 0\n".repeat(3)),
            "a number of too many digits is too large",
        ),
        (
            format!(
                "17 {}\n{}",
                "0 ".repeat(15),
                format!("{}\n", "0 ".repeat(16)).repeat(15)
            ),
            "symbol 'H' (17) is too large for a 16x16 grid",
        ),
        (
            format!(
                "16 0 a 12 {}\n{}",
                "0 ".repeat(12),
                format!("{}\n", "0 ".repeat(16)).repeat(15)
            ),
            "column 6: 'a' is not a whole number",
        ),
        // Single digits but for one word: read as characters, it was a row of 6 cells.
        (
            "1 2 0.5 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n".to_string(),
            "column 5: '0.5' is not a whole number",
        ),
    ];
    for (input, expected) in cases {
        let checked = xcover(&["sudoku", "check", "-"], &input);
        assert_eq!(out(&checked), "invalid\n", "{input}");
        assert!(
            err(&checked).contains(expected),
            "{input}: {}",
            err(&checked)
        );
    }
    // A naked single in an empty unit no longer lists nothing ("column 5 has , box 2 has ,").
    let explained = xcover(&["sudoku", "explain", "-"], "1..............2\n");
    assert!(!out(&explained).contains("has ,"), "{}", out(&explained));
}

/// Conventions of input and output: `solve` with no file reads standard input, a `# Boxes`
/// comment is read whatever its case, and `solve --all --format json` writes JSON Lines, one
/// record per solution and one with each puzzle's count (there were blank lines between
/// puzzles, and one line held all of a puzzle's solutions, hundreds of megabytes for some).
#[test]
fn input_and_output_conventions() {
    let solved = xcover(&["sudoku", "solve"], &format!("{SEVERAL}\n"));
    assert!(solved.status.success(), "{}", err(&solved));
    assert_eq!(out(&solved).lines().count(), 1);
    let boxed = xcover(
        &["sudoku", "check"],
        "1.24....3.1......6.413......5.......  # Boxes: 3x2\n",
    );
    assert_eq!(out(&boxed), "unique\n", "{}", err(&boxed));
    let listed = xcover(
        &[
            "sudoku", "solve", "--all", "--limit", "2", "--format", "json", "-",
        ],
        &format!("{SEVERAL}\n{SEVERAL}\n"),
    );
    let text = out(&listed);
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records.len(), 6, "{text}");
    for puzzle in records.chunks(3) {
        assert!(puzzle[0]["solution"].is_array() && puzzle[1]["solution"].is_array());
        assert_eq!(puzzle[2]["count"], 2);
    }
    // In the grid layout each puzzle's solutions are headed by where the puzzle is, and the
    // whole reads back as those solutions.
    let grids = xcover(
        &[
            "sudoku", "solve", "--all", "--limit", "2", "--format", "grid", "-",
        ],
        &format!("{SEVERAL}\n{SEVERAL}\n"),
    );
    let text = out(&grids);
    assert_eq!(text.matches("# solutions of <stdin>:").count(), 2, "{text}");
    let checked = xcover(&["sudoku", "check", "-"], &text);
    assert_eq!(out(&checked), "unique\n".repeat(4));
}

/// Variant files written one after the other are read as written (each `puzzles: K` counts
/// the puzzles up to the next; a second one was an error), and `--box` on a variant, which
/// was silently ignored, is refused.
#[test]
fn concatenated_variant_files_and_box_flags() {
    let one = |seed: &str| {
        out(&xcover(
            &["sudoku", "generate", "--variant", "x", "--seed", seed],
            "",
        ))
    };
    let both = one("1") + &one("2");
    assert_eq!(both.matches("puzzles: 1").count(), 2);
    let checked = xcover(&["sudoku", "check", "-"], &both);
    assert_eq!(out(&checked), "unique\nunique\n", "{}", err(&checked));
    assert!(checked.status.success());
    // A count that does not match is still said, for its own part of the file.
    let wrong = one("1") + &one("2").replace("puzzles: 1", "puzzles: 3");
    let checked = xcover(&["sudoku", "check", "-"], &wrong);
    assert!(err(&checked).contains("'puzzles: 3'"), "{}", err(&checked));
    let boxed = xcover(
        &[
            "sudoku",
            "check",
            "--box",
            "3x2",
            "data/sudoku/variants.txt",
        ],
        "",
    );
    assert_eq!(boxed.status.code(), Some(2));
    assert!(err(&boxed).contains("'box:' line"), "{}", err(&boxed));
}

/// A puzzle that came as a JSON record is answered as one, as every layout is answered in
/// its own (it was answered as a line).
#[test]
fn json_records_are_answered_as_json_records() {
    let made = out(&xcover(
        &[
            "sudoku", "generate", "--count", "2", "--format", "json", "--seed", "4",
        ],
        "",
    ));
    let solved = xcover(&["sudoku", "solve", "-"], &made);
    let text = out(&solved);
    assert_eq!(text.lines().count(), 2, "{text}");
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["unique"], true, "{record}");
    }
    // --format still decides.
    let lines = xcover(&["sudoku", "solve", "--format", "line", "-"], &made);
    assert!(
        out(&lines).lines().all(|l| l.len() == 81),
        "{}",
        out(&lines)
    );
}

/// Files of plain grids and of variants mixed in one command, standard input among them, are
/// each read as what they are (only the first file was looked at: the others were read as
/// whatever it was).
#[test]
fn plain_and_variant_files_mixed_in_any_order() {
    let plain = "data/sudoku/post003.txt";
    let variants = "data/sudoku/variants.txt";
    let four = "data/sudoku/4x4-2x2.txt";
    let variant_text = std::fs::read_to_string(variants).unwrap();
    let plain_text = std::fs::read_to_string(plain).unwrap();
    let alone = |file: &str| out(&xcover(&["sudoku", "check", file], ""));
    let (p, v, f) = (alone(plain), alone(variants), alone(four));
    assert_eq!(v.lines().count(), 5);
    let cases: [(&[&str], &str, String); 4] = [
        (&[plain, variants, four], "", format!("{p}{v}{f}")),
        (&[variants, plain, variants], "", format!("{v}{p}{v}")),
        (&[plain, "-"], &variant_text, format!("{p}{v}")),
        (&[variants, "-", four], &plain_text, format!("{v}{p}{f}")),
    ];
    for (files, stdin, expected) in cases {
        let mut args = vec!["sudoku", "check"];
        args.extend_from_slice(files);
        let checked = xcover(&args, stdin);
        assert_eq!(out(&checked), expected, "{files:?}: {}", err(&checked));
        assert!(checked.status.success(), "{files:?}");
    }
    // A variant alone on standard input.
    let piped = xcover(&["sudoku", "count", "-"], &variant_text);
    assert_eq!(out(&piped), "1\n".repeat(5), "{}", err(&piped));
    // An invalid file among them is said, and the others are still answered.
    let mixed = xcover(&["sudoku", "check", plain, "-", variants], "1 2 3\n");
    assert_eq!(mixed.status.code(), Some(1));
    assert!(out(&mixed).starts_with(&p) && out(&mixed).ends_with(&v));
}

/// JSON records of plain grids and of variants have the same fields, command by command
/// (variants lacked `boxes` and `removals`, plain grids `id`; a variant's `solve --all` was
/// one record holding every solution, not JSON Lines).
#[test]
fn plain_and_variant_records_have_the_same_fields() {
    let fields = |args: &[&str], file: &str| -> Vec<Vec<String>> {
        let mut args = args.to_vec();
        args.extend(["--format", "json", file]);
        let run = xcover(&args, "");
        assert!(run.status.success(), "{args:?}: {}", err(&run));
        let records: Vec<serde_json::Value> = out(&run)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        // The first puzzle's records: each record's fields, and its stats' fields.
        let first = (&records[0]["file"], &records[0]["line"]);
        records
            .iter()
            .take_while(|record| (&record["file"], &record["line"]) == first)
            .map(|record| {
                let object = record.as_object().unwrap();
                let mut names: Vec<String> = object.keys().cloned().collect();
                names.retain(|name| name != "file");
                if let Some(stats) = object.get("stats").and_then(|s| s.as_object()) {
                    names.extend(stats.keys().map(|k| format!("stats.{k}")));
                }
                names.sort();
                names
            })
            .collect()
    };
    let commands: [&[&str]; 5] = [
        &["sudoku", "check"],
        &["sudoku", "count"],
        &["sudoku", "solve"],
        &["sudoku", "solve", "--all"],
        &["sudoku", "solve", "--limit", "1", "--shard", "1/1"],
    ];
    // A shard is of one puzzle: the first of each file, alone.
    let dir = common::scratch::ScratchDir::new("records");
    let variants = std::fs::read_to_string("data/sudoku/variants.txt").unwrap();
    let first_variant =
        variants[..variants.find("end\n").unwrap() + 4].replace("puzzles: 5", "puzzles: 1");
    let lone_variant = dir.join("variant.txt");
    std::fs::write(&lone_variant, first_variant).unwrap();
    let lone_plain = dir.join("plain.txt");
    std::fs::write(&lone_plain, "....\n.4..\n..1.\n....\n").unwrap();
    for (index, args) in commands.into_iter().enumerate() {
        let (plain, variant) = match index {
            4 => (lone_plain.to_str().unwrap(), lone_variant.to_str().unwrap()),
            _ => ("data/sudoku/4x4-2x2.txt", "data/sudoku/variants.txt"),
        };
        assert_eq!(fields(args, plain), fields(args, variant), "{args:?}");
    }
}

/// A puzzle that cannot be read gets the same JSON record whatever its kind of file: where
/// it is, the message, and the kind of fault from the one vocabulary of every reader.
#[test]
fn unreadable_plain_and_variant_puzzles_get_the_same_record() {
    let plain = "1..1............\n";
    let variant = "puzzle: v\nsize: 4\nbox: 2x2\nrules: rows columns boxes\ngrid:\n1..1\n....\n....\n....\nend\n";
    for stdin in [plain, variant] {
        let run = xcover(&["sudoku", "check", "--format", "json", "-"], stdin);
        assert_eq!(run.status.code(), Some(1), "{}", err(&run));
        let record: serde_json::Value = serde_json::from_str(out(&run).trim()).unwrap();
        let mut names: Vec<&String> = record.as_object().unwrap().keys().collect();
        names.sort();
        assert_eq!(names, ["error", "file", "kind", "line"], "{record}");
        assert_eq!(record["kind"], "clash", "{record}");
    }
}

/// A variant whose rules cannot be encoded (a pill arrow of three symbols on 16x16, whose
/// number is not a weighted sum of its symbols, along three rows: too many ways to read it)
/// gets its `invalid` record and one error naming its file and line, once; the puzzles after
/// it are still solved, by `check` and by `solve --all` alike.
#[test]
fn an_unencodable_variant_does_not_stop_the_run() {
    let row = |r: usize, backwards: bool| -> String {
        let mut cells: Vec<String> = (1..=16).map(|c| format!("r{r}c{c}")).collect();
        if backwards {
            cells.reverse();
        }
        cells.join(" ")
    };
    let big = format!(
        "puzzle: big\nsize: 16\nbox: 4x4\nrules: rows columns boxes arrows\ngrid:\n{}\
         arrows: 1\nr1c1 r1c2 r1c3 > {} {} {}\nend\n",
        format!("{}\n", ".".repeat(16)).repeat(16),
        row(2, false),
        row(3, true),
        row(4, false)
    );
    let dir = common::scratch::ScratchDir::new("unencodable");
    let file = dir.join("big.txt");
    std::fs::write(&file, big).unwrap();
    let file = file.to_str().unwrap();
    for args in [
        &["sudoku", "check", file, "data/sudoku/4x4-2x2.txt"][..],
        &[
            "sudoku",
            "solve",
            "--all",
            "--format",
            "line",
            file,
            "data/sudoku/4x4-2x2.txt",
        ][..],
    ] {
        let run = xcover(args, "");
        assert_eq!(run.status.code(), Some(1), "{args:?}: {}", err(&run));
        let records = out(&run);
        assert!(records.starts_with("invalid\n"), "{records}");
        assert!(
            records.lines().count() > 2,
            "the 4x4 puzzles were solved too: {records}"
        );
        let said = err(&run);
        assert_eq!(said.matches("too many ways to encode").count(), 1, "{said}");
        assert_eq!(said.matches(&format!("{file}:1:")).count(), 1, "{said}");
    }
}
