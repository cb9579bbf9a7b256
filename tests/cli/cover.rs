//! The `xcover cover` and `xcover example` commands, run as a user runs them.

use crate::common;

use common::scratch::ScratchDir;
use common::{err, out, xcover};

#[test]
fn example_piped_into_count() {
    for (example, count) in [
        (&["example", "queens", "8"][..], "92\n"),
        (&["example", "langford", "7"][..], "52\n"),
        (&["example", "latin", "4"][..], "576\n"),
        (&["example", "pentominoes", "20x3"][..], "8\n"),
    ] {
        let problem = xcover(example, "");
        assert!(problem.status.success());
        let counted = xcover(&["cover", "count", "-"], &out(&problem));
        assert_eq!(out(&counted), count, "{example:?}");
        assert!(counted.status.success());
    }
}

#[test]
fn cells_and_bits_count_the_same_and_refuse_what_they_cannot_do() {
    for engine in ["cells", "bits"] {
        plain_engine_counts_lists_and_refuses(engine);
    }
}

/// `--engine ENGINE` (cells or bits) on small problems: the published counts, a limit, the
/// same solutions as the links, and refusals.
fn plain_engine_counts_lists_and_refuses(engine: &str) {
    for (example, count) in [
        (&["example", "queens", "8"][..], "92\n"),
        (&["example", "langford", "7"][..], "52\n"),
        (&["example", "pentominoes", "20x3"][..], "8\n"),
    ] {
        let problem = out(&xcover(example, ""));
        let counted = xcover(&["cover", "count", "--engine", engine, "-"], &problem);
        assert_eq!(out(&counted), count, "{engine} {example:?}");
        assert!(counted.status.success());
    }
    let queens = out(&xcover(&["example", "queens", "8"], ""));
    let limited = xcover(
        &[
            "cover", "count", "--engine", engine, "--limit", "10", "--stats", "-",
        ],
        &queens,
    );
    assert_eq!(out(&limited), "10\n");
    assert!(err(&limited).contains("nodes"), "{}", err(&limited));
    let sharded = xcover(
        &["cover", "count", "--engine", engine, "--shard", "1/2", "-"],
        &queens,
    );
    assert_eq!(sharded.status.code(), Some(1));
    assert!(err(&sharded).contains("--shard"), "{}", err(&sharded));
    // Listing: the same solutions as the links, each as its option lines.
    let queens6 = out(&xcover(&["example", "queens", "6"], ""));
    let solutions = |engine: &str| {
        let listed = xcover(
            &["cover", "solve", "--all", "--engine", engine, "-"],
            &queens6,
        );
        assert!(listed.status.success(), "{}", err(&listed));
        let mut blocks: Vec<Vec<String>> = out(&listed)
            .split("\n\n")
            .map(|block| {
                let mut lines: Vec<String> = block.lines().map(str::to_string).collect();
                lines.sort();
                lines
            })
            .collect();
        blocks.sort();
        blocks
    };
    let listed = solutions(engine);
    assert_eq!(listed.len(), 4);
    assert_eq!(listed, solutions("links"));
    let first = xcover(&["cover", "solve", "--engine", engine, "-"], &queens6);
    assert_eq!(out(&first).lines().count(), 6, "{}", out(&first));
    let none = xcover(&["cover", "solve", "--engine", engine, "-"], "a b\na\n");
    assert!(none.status.success());
    assert!(err(&none).contains("no solution"), "{}", err(&none));
    // Colours and multiplicities: the bit sets count them as the links do, the cells refuse.
    let words = out(&xcover(&["example", "word-squares", "3"], ""));
    let queens = out(&xcover(&["example", "partial-queens", "6", "4"], ""));
    for (problem, what) in [(&words, "colours"), (&queens, "multiplicities")] {
        let counted = xcover(&["cover", "count", "--engine", engine, "-"], problem);
        if engine == "bits" {
            let links = xcover(&["cover", "count", "--engine", "links", "-"], problem);
            assert!(counted.status.success(), "{}", err(&counted));
            assert_eq!(out(&counted), out(&links), "{what}");
        } else {
            assert_eq!(counted.status.code(), Some(1));
            assert!(err(&counted).contains(what), "{}", err(&counted));
        }
    }
}

/// The default engine is the bit sets where `bits::preferred` says so (their `--stats` count
/// no updates), the links where a flag needs them or the problem is not theirs.
#[test]
fn the_default_engine_is_the_bit_sets_where_they_win_and_the_links_otherwise() {
    let updates = |args: &[&str], problem: &str| {
        let counted = xcover(args, problem);
        assert!(counted.status.success(), "{}", err(&counted));
        let stats = err(&counted);
        let after = stats.split("updates ").nth(1).expect("an updates figure");
        (out(&counted), after.split(',').next().unwrap().to_string())
    };
    let pentominoes = out(&xcover(&["example", "pentominoes", "20x3"], ""));
    let plain = ["cover", "count", "--stats", "-"];
    assert_eq!(updates(&plain, &pentominoes), ("8\n".into(), "0".into()));
    for flag in [
        &["--engine", "links"][..],
        &["--inference", "none"],
        &["--branching", "fewest"],
        &["--progress", "60"],
    ] {
        let args: Vec<&str> = ["cover", "count", "--stats"]
            .iter()
            .chain(flag)
            .chain(&["-"])
            .copied()
            .collect();
        let (count, updates) = updates(&args, &pentominoes);
        assert_eq!(count, "8\n", "{flag:?}");
        assert_ne!(updates, "0", "{flag:?}");
    }
    // A Sudoku's cover: the links win there.
    let sudoku = out(&xcover(
        &["sudoku", "encode", "data/sudoku/post003.txt"],
        "",
    ));
    let (count, updates) = updates(&plain, &sudoku);
    assert_eq!(count, "1\n");
    assert_ne!(updates, "0");
}

#[test]
fn count_respects_the_limit_and_stats_go_to_stderr() {
    let problem = out(&xcover(&["example", "queens", "8"], ""));
    let counted = xcover(
        &["cover", "count", "--limit", "10", "--stats", "-"],
        &problem,
    );
    assert_eq!(out(&counted), "10\n");
    let stats = err(&counted);
    assert!(
        stats.contains("nodes") && stats.contains("updates") && stats.contains("time"),
        "{stats}"
    );
}

#[test]
fn solve_prints_option_lines_separated_by_blank_lines() {
    let output = xcover(&["cover", "solve", "data/cover/knuth-7.dlx"], "");
    let text = out(&output);
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort();
    assert_eq!(lines, vec!["A D", "B G", "C E F"]);

    let all = xcover(&["cover", "solve", "--all", "data/cover/secondary.dlx"], "");
    let text = out(&all);
    assert_eq!(text.split("\n\n").count(), 3, "{text}");
    assert!(err(&all).contains("secondary.dlx:8: warning"));

    let limited = xcover(
        &["cover", "solve", "--limit", "2", "data/cover/secondary.dlx"],
        "",
    );
    assert_eq!(out(&limited).split("\n\n").count(), 2);
}

#[test]
fn no_solution_is_said_on_stderr() {
    let output = xcover(&["cover", "solve", "-"], "a b\na\n");
    assert!(output.status.success());
    assert_eq!(out(&output), "");
    assert!(err(&output).contains("no solution"));
}

#[test]
fn bad_input_names_file_line_and_column_and_exits_1() {
    let output = xcover(&["cover", "count", "-"], "a b\na c\n");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        err(&output).trim(),
        "<stdin>:2:3: unknown item 'c'; expected an item declared on the item line"
    );
    let missing = xcover(&["cover", "count", "no/such/file.dlx"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(err(&missing).contains("no/such/file.dlx"));
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(xcover(&["cover", "count"], "").status.code(), Some(2));
    assert_eq!(xcover(&["frobnicate"], "").status.code(), Some(2));
    assert_eq!(
        xcover(&["example", "pentominoes", "6by10"], "")
            .status
            .code(),
        Some(2)
    );
    // A board whose area the pentominoes cannot fill is an example size out of range.
    assert_eq!(
        xcover(&["example", "pentominoes", "7x7"], "").status.code(),
        Some(2)
    );
}

/// Colours and multiplicities through the command line: the examples count what the tests
/// of the library count, solutions print with their colours, and a search with
/// multiplicities refuses a checkpoint instead of saving one it could not resume.
#[test]
fn colours_and_multiplicities_from_the_command_line() {
    let count_example = |args: &[&str]| {
        let mut all = vec!["example"];
        all.extend_from_slice(args);
        let problem = out(&xcover(&all, ""));
        let run = xcover(&["-j", "2", "cover", "count", "-"], &problem);
        assert!(run.status.success(), "{}", err(&run));
        out(&run)
    };
    assert_eq!(count_example(&["word-squares", "3"]), "6319\n");
    assert_eq!(count_example(&["partial-queens", "8", "2"]), "1288\n");
    let dlx3 = "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
    let solved = xcover(&["cover", "solve", "-"], dlx3);
    assert!(solved.status.success(), "{}", err(&solved));
    let mut lines: Vec<&str> = std::str::from_utf8(&solved.stdout)
        .unwrap()
        .lines()
        .collect();
    lines.sort();
    assert_eq!(lines, ["A C X:1 Y:1", "B X:1", "C Y:1"]);
    let dir = ScratchDir::new("dlx3");
    let path = dir.join("dlx3.ck");
    let refused = xcover(
        &[
            "cover",
            "count",
            "--checkpoint",
            path.to_str().unwrap(),
            "-",
        ],
        dlx3,
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        err(&refused).contains("multiplicities"),
        "{}",
        err(&refused)
    );
    assert!(!path.exists());
}

/// The number after `name ` in a `--stats` line.
fn stat(stats: &str, name: &str) -> u64 {
    let line = stats.lines().find(|line| line.contains("nodes")).unwrap();
    line.split(", ")
        .find_map(|part| part.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("{line}"))
        .parse()
        .unwrap()
}

#[test]
fn blocks_written_by_sudoku_encode_are_read_and_matched() {
    // A 9x9 puzzle that needs search without the blocks' matching.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let encoded = out(&xcover(&["sudoku", "encode", "-"], puzzle));
    // 27 units against their digits, 9 digits' rows against their columns.
    assert_eq!(
        encoded
            .lines()
            .filter(|l| l.starts_with("|block: "))
            .count(),
        36
    );
    let without: String = encoded
        .lines()
        .filter(|l| !l.starts_with("|block: "))
        .map(|l| format!("{l}\n"))
        .collect();
    let args = ["cover", "count", "--limit", "2", "--stats", "--inference"];
    // Under `root`. (Under `probe` the failed probes alone, whose items' last options then
    // exclude the rest, leave this puzzle no branch and every wrong option removed either
    // way.)
    let matched = xcover(&[&args[..], &["root", "-"]].concat(), &encoded);
    let plain = xcover(&[&args[..], &["root", "-"]].concat(), &without);
    assert_eq!(out(&matched), "1\n", "{}", err(&matched));
    assert_eq!(out(&plain), "1\n", "{}", err(&plain));
    // Matching removes what the rules alone do not see.
    let (more, fewer) = (
        stat(&err(&matched), "removals"),
        stat(&err(&plain), "removals"),
    );
    assert!(more > fewer, "{more} removals with blocks, {fewer} without");
    // It runs although the clues are items with one option each: with the blocks it leaves
    // nothing to branch on.
    assert_eq!(stat(&err(&matched), "branch points"), 0);
}

#[test]
fn a_block_an_option_breaks_is_refused_at_its_line() {
    let text = "a b c\n| a comment\n|block: a / b\na b\na c\n";
    let run = xcover(&["cover", "count", "-"], text);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        err(&run).contains("<stdin>:3:1: option 2 ('a c') breaks a one-to-one block"),
        "{}",
        err(&run)
    );
}

/// `cover candidates`: the options of some solution, in the problem's order, each after its
/// count with `--cap`; an option in no solution is left out, and said on stderr.
#[test]
fn candidates_lists_the_options_of_some_solution_with_counts() {
    // Primary items a b c, secondary d.
    let problem = "a b c | d\na b\nc\na\nb\nb c\nc d\n";
    let run = xcover(&["cover", "candidates", "--cap", "2", "-"], problem);
    assert!(run.status.success(), "{}", err(&run));
    // Solutions: {a b}{c}, {a b}{c d}, {a}{b}{c}, {a}{b}{c d}, {a}{b c}: five; a b is in
    // two, c in two, a in three (capped at 2: "2+"), b in two, b c in one, c d in two.
    assert_eq!(out(&run), "2+\ta b\n2+\tc\n2+\ta\n2+\tb\n1\tb c\n2+\tc d\n");
    // {a c} leaves b to no option: it is in no solution.
    let problem = "a b c\na b\nc\na c\n";
    let run = xcover(&["cover", "candidates", "-"], problem);
    assert_eq!(out(&run), "a b\nc\n");
    assert!(err(&run).contains("2 of 3 options occur in some solution, 1 in none"));
}

/// The help for `--inference` quotes the engine's thresholds; it must say what they are.
#[test]
fn the_inference_help_quotes_the_engines_thresholds() {
    use xcover::dlx::Inference;
    let help = out(&xcover(&["cover", "count", "--help"], ""));
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let (numerator, denominator) = Inference::SHALLOW_SHARE;
    for figure in [
        format!("{numerator}/{denominator} of the items"),
        format!("below {} items", Inference::AUTO_MIN_ITEMS),
        format!(
            "a problem of {} items or more",
            Inference::AUTO_MIN_PROBLEM_ITEMS
        ),
        format!("up to {}", Inference::AUTO_MAX_PROBE_ITEMS),
    ] {
        assert!(flat.contains(&figure), "{figure:?} not in: {help}");
    }
}
