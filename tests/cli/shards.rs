//! One search on every core, in shards, from task lists, and interrupted and resumed, as a
//! user runs them: every way of cutting a count must give the published total, and `merge`
//! must refuse what does not add up. The big oracles (16 queens, the empty 6x6 grid) are
//! ignored tests: `cargo test --release --test cli shards -- --ignored`.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

use common::scratch::ScratchDir;
use common::{err, out, spawn, xcover};

/// A scratch folder for one test, emptied first and removed at its end.
fn scratch(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("shards-{name}"))
}

/// Writes `xcover example ARGS` to a file in `dir`.
fn example(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["example"];
    all.extend_from_slice(args);
    let run = xcover(&all, "");
    assert!(run.status.success(), "{}", err(&run));
    let path = dir.join(format!("{}.dlx", args.join("-")));
    fs::write(&path, &run.stdout).unwrap();
    path.to_str().unwrap().to_string()
}

/// The count `xcover ARGS` prints, checking that it succeeded.
fn count(args: &[&str]) -> u128 {
    let run = xcover(args, "");
    assert!(run.status.success(), "{args:?}: {}", err(&run));
    out(&run)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{args:?}: {}", out(&run)))
}

/// Runs every shard of `n`, JSON records into one file, and merges them.
fn merged_shards(command: &[&str], file: &str, n: usize, dir: &Path) -> u128 {
    let mut records = String::new();
    for k in 1..=n {
        let shard = format!("{k}/{n}");
        let mut args = command.to_vec();
        args.extend(["--shard", &shard, "--format", "json", file]);
        let run = xcover(&args, "");
        assert!(run.status.success(), "{args:?}: {}", err(&run));
        records.push_str(&out(&run));
    }
    let path = dir.join(format!("records-{n}.jsonl"));
    fs::write(&path, records).unwrap();
    count(&["merge", path.to_str().unwrap()])
}

/// Prints the task list of `n` parts, runs it line by line and merges the records.
fn merged_tasks(command: &[&str], file: &str, n: usize) -> u128 {
    let mut split = command[..command.len() - 1].to_vec();
    split.extend(["split", "--parts"]);
    let parts = n.to_string();
    split.extend([parts.as_str(), file]);
    let list = xcover(&split, "");
    assert!(list.status.success(), "{}", err(&list));
    let lines = out(&list);
    assert_eq!(lines.lines().count(), n);
    let mut records = String::new();
    for line in lines.lines() {
        let mut args = command.to_vec();
        args.extend(["--task", line, "--format", "json", file]);
        let run = xcover(&args, "");
        assert!(run.status.success(), "{}", err(&run));
        records.push_str(&out(&run));
    }
    let run = xcover(&["merge", "-"], &records);
    assert!(run.status.success(), "{}", err(&run));
    out(&run).trim().parse().unwrap()
}

/// Counts `file` every way: 1, 2 and 3 threads, shards 1, 2, 7 and 64 merged, a task list
/// of 5 run line by line.
fn every_way(command: &[&str], file: &str, expected: u128, dir: &Path) {
    for threads in ["1", "2", "3"] {
        let mut args = vec!["-j", threads];
        args.extend_from_slice(command);
        args.push(file);
        assert_eq!(count(&args), expected, "{args:?}");
    }
    for n in [1, 2, 7, 64] {
        assert_eq!(
            merged_shards(command, file, n, dir),
            expected,
            "{file}, {n} shards"
        );
    }
    assert_eq!(
        merged_tasks(command, file, 5),
        expected,
        "{file}, task list"
    );
}

#[test]
fn cover_counts_agree_every_way() {
    let dir = scratch("cover");
    for (args, expected) in [
        (&["queens", "12"][..], 14_200),
        // Pentominoes 6x10 (9,356) every way is among the ignored big oracles below.
        (&["pentominoes", "3x20"][..], 8),
        (&["langford", "11"][..], 35_584),
    ] {
        let file = example(&dir, args);
        every_way(&["cover", "count"], &file, expected, &dir);
    }
}

#[test]
fn sudoku_counts_agree_every_way() {
    let dir = scratch("sudoku");
    for (grid, expected) in [
        (".".repeat(16), 288),
        // 403,732 solutions.
        (
            "5................1.....2.3......3.2...1.4......5....6..3......4.7..8...96........"
                .to_string(),
            403_732,
        ),
    ] {
        let file = dir.join(format!("{expected}.txt"));
        fs::write(&file, format!("{grid}\n")).unwrap();
        every_way(&["sudoku", "count"], file.to_str().unwrap(), expected, &dir);
    }
}

/// Starts `args`, sends SIGINT after `after`, and returns what the process did.
fn interrupt(args: &[&str], after: Duration) -> std::process::Output {
    let child = spawn(args);
    thread::sleep(after);
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait_with_output().unwrap()
}

#[test]
fn a_count_interrupted_three_times_resumes_to_the_same_total() {
    let dir = scratch("resume");
    let file = example(&dir, &["pentominoes", "6x10"]);
    let checkpoint = dir.join("count.checkpoint");
    let checkpoint = checkpoint.to_str().unwrap();
    let args = [
        "-j",
        "2",
        "cover",
        "count",
        "--checkpoint",
        checkpoint,
        &file,
    ];
    let mut last_partial = 0;
    for round in 0..3 {
        let run = interrupt(&args, Duration::from_millis(600));
        assert_eq!(run.status.code(), Some(130), "round {round}: {}", err(&run));
        let printed = out(&run);
        let partial: u128 = printed
            .strip_suffix(" (partial)\n")
            .unwrap_or_else(|| panic!("round {round}: {printed}"))
            .parse()
            .unwrap();
        assert!(partial >= last_partial && partial < 9356, "{partial}");
        last_partial = partial;
        assert!(err(&run).contains("saved to"), "{}", err(&run));
        let saved = fs::read_to_string(checkpoint).unwrap();
        assert!(saved.contains(&format!("solutions {partial}\n")), "{saved}");
    }
    let rest = xcover(&args, "");
    assert!(rest.status.success(), "{}", err(&rest));
    assert_eq!(out(&rest), "9356\n");
    assert!(err(&rest).contains("resuming from"), "{}", err(&rest));
    // Run again: the checkpoint says the search is over.
    assert_eq!(out(&xcover(&args, "")), "9356\n");
}

#[test]
fn a_count_killed_without_warning_resumes_from_its_last_periodic_save() {
    let dir = scratch("killed");
    let file = example(&dir, &["pentominoes", "6x10"]);
    let checkpoint = dir.join("count.checkpoint");
    let checkpoint = checkpoint.to_str().unwrap();
    let mut child = spawn(&[
        "-j",
        "1",
        "cover",
        "count",
        "--checkpoint",
        checkpoint,
        "--checkpoint-every",
        "0.2",
        &file,
    ]);
    thread::sleep(Duration::from_millis(1200));
    // SIGKILL: no chance to save on the way out, as in a crash or a reboot.
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = fs::read_to_string(checkpoint).unwrap();
    assert!(saved.ends_with("end\n"), "{saved}");
    let resumed = xcover(&["cover", "count", "--resume", checkpoint, &file], "");
    assert!(resumed.status.success(), "{}", err(&resumed));
    assert_eq!(out(&resumed), "9356\n");
}

#[test]
fn a_checkpoint_of_another_search_is_refused() {
    let dir = scratch("other");
    let queens = example(&dir, &["queens", "8"]);
    let other = example(&dir, &["queens", "9"]);
    let checkpoint = dir.join("q8.checkpoint");
    let checkpoint = checkpoint.to_str().unwrap();
    assert_eq!(
        count(&["cover", "count", "--checkpoint", checkpoint, &queens]),
        92
    );
    let run = xcover(&["cover", "count", "--resume", checkpoint, &other], "");
    assert_eq!(run.status.code(), Some(1));
    assert!(err(&run).contains("another search"), "{}", err(&run));
    // Another inference setting searches another tree.
    let run = xcover(
        &[
            "cover",
            "count",
            "--inference",
            "every",
            "--resume",
            checkpoint,
            &queens,
        ],
        "",
    );
    assert_eq!(run.status.code(), Some(1));
    fs::write(checkpoint, "xcover checkpoint 1\nfingerprint 12\n").unwrap();
    let run = xcover(&["cover", "count", "--resume", checkpoint, &queens], "");
    assert_eq!(run.status.code(), Some(1));
    assert!(err(&run).contains(":3: "), "{}", err(&run));
}

#[test]
fn merge_refuses_what_does_not_add_up() {
    let dir = scratch("merge");
    let queens = example(&dir, &["queens", "10"]);
    let other = example(&dir, &["queens", "9"]);
    let record = |file: &str, shard: &str| {
        let run = xcover(
            &["cover", "count", "--shard", shard, "--format", "json", file],
            "",
        );
        assert!(run.status.success());
        out(&run)
    };
    let shards: Vec<String> = (1..=3)
        .map(|k| record(&queens, &format!("{k}/3")))
        .collect();
    let merge = |records: String| xcover(&["merge", "-"], &records);
    let all = merge(shards.concat());
    assert!(all.status.success(), "{}", err(&all));
    assert_eq!(out(&all), "724\n");
    let missing = merge(format!("{}{}", shards[0], shards[2]));
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        err(&missing).contains("1 of 3 shards missing: 2"),
        "{}",
        err(&missing)
    );
    assert!(out(&missing).is_empty());
    let twice = merge(format!(
        "{}{}{}{}",
        shards[0], shards[1], shards[1], shards[2]
    ));
    assert_eq!(twice.status.code(), Some(1));
    assert!(err(&twice).contains("shard 2/3 again"), "{}", err(&twice));
    let foreign = merge(format!(
        "{}{}{}",
        shards[0],
        record(&other, "2/3"),
        shards[2]
    ));
    assert_eq!(foreign.status.code(), Some(1));
    assert!(
        err(&foreign).contains("another search"),
        "{}",
        err(&foreign)
    );
    let other_split = merge(format!("{}{}", shards.concat(), record(&queens, "2/4")));
    assert_eq!(other_split.status.code(), Some(1));
    // Counts past 64 bits add up exactly.
    let big = |k: u32| {
        format!(
            "{{\"fingerprint\":\"00000000000000ab\",\"shard\":\"{k}/2\",\"count\":{},\
             \"partial\":false}}\n",
            u64::MAX
        )
    };
    let sum = merge(format!("{}{}", big(1), big(2)));
    assert!(sum.status.success(), "{}", err(&sum));
    assert_eq!(out(&sum).trim(), (2 * u128::from(u64::MAX)).to_string());
    let partial = merge(big(1) + &big(2).replace("false", "true"));
    assert!(err(&partial).contains("partial"), "{}", err(&partial));
}

#[test]
fn auto_shards_read_the_batch_engines_environment() {
    let dir = scratch("auto");
    let queens = example(&dir, &["queens", "10"]);
    let run_with = |vars: &[(&str, String)]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_xcover"));
        command
            .args([
                "cover", "count", "--shard", "auto/4", "--format", "json", &queens,
            ])
            .env_remove("JOB_COMPLETION_INDEX")
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("SLURM_ARRAY_TASK_MIN")
            .env_remove("PARALLEL_SEQ")
            .stdin(Stdio::null());
        for (name, value) in vars {
            command.env(name, value);
        }
        command.output().unwrap()
    };
    let engines: [&dyn Fn(usize) -> Vec<(&'static str, String)>; 4] = [
        &|k| vec![("JOB_COMPLETION_INDEX", (k - 1).to_string())],
        &|k| vec![("SLURM_ARRAY_TASK_ID", k.to_string())],
        &|k| {
            vec![
                ("SLURM_ARRAY_TASK_ID", (k + 9).to_string()),
                ("SLURM_ARRAY_TASK_MIN", "10".to_string()),
            ]
        },
        &|k| vec![("PARALLEL_SEQ", k.to_string())],
    ];
    for engine in engines {
        let records: String = (1..=4)
            .map(|k| {
                let run = run_with(&engine(k));
                assert!(run.status.success(), "{}", err(&run));
                assert!(out(&run).contains(&format!("\"shard\":\"{k}/4\"")));
                out(&run)
            })
            .collect();
        assert_eq!(out(&xcover(&["merge", "-"], &records)), "724\n");
    }
    let none = run_with(&[]);
    assert_eq!(none.status.code(), Some(1));
    assert!(err(&none).contains("PARALLEL_SEQ"), "{}", err(&none));
    let out_of_range = run_with(&[("PARALLEL_SEQ", "5".to_string())]);
    assert_eq!(out_of_range.status.code(), Some(1));
}

/// The GNU parallel recipe of the README, run for real: every shard a job, records merged.
#[test]
fn the_gnu_parallel_recipe_counts_exactly() {
    let found = Command::new("parallel").arg("--version").output();
    if found.is_err() && std::env::var_os("CI").is_none() {
        eprintln!("GNU parallel is not installed here; .ci/run installs it");
        return;
    }
    let dir = scratch("parallel");
    let queens = example(&dir, &["queens", "12"]);
    let xcover = env!("CARGO_BIN_EXE_xcover");
    let script = format!(
        "seq 16 | parallel --will-cite -j 2 -N0 {xcover} -j 1 cover count --shard auto/16 \
         --format json {queens} > {dir}/records.jsonl && {xcover} merge {dir}/records.jsonl",
        dir = dir.display()
    );
    let run = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(run.status.success(), "{}", err(&run));
    assert_eq!(out(&run), "14200\n");
}

#[test]
fn ordered_solutions_come_in_the_one_thread_order() {
    let dir = scratch("ordered");
    let langford = example(&dir, &["langford", "8"]);
    let one = xcover(&["-j", "1", "cover", "solve", "--all", &langford], "");
    let mut sorted_one: Vec<String> = out(&one).split("\n\n").map(str::to_string).collect();
    sorted_one.sort();
    for threads in ["2", "3"] {
        let ordered = xcover(
            &[
                "-j",
                threads,
                "cover",
                "solve",
                "--all",
                "--ordered",
                &langford,
            ],
            "",
        );
        assert_eq!(out(&ordered), out(&one));
        let any = xcover(&["-j", threads, "cover", "solve", "--all", &langford], "");
        let mut sorted: Vec<String> = out(&any).split("\n\n").map(str::to_string).collect();
        sorted.sort();
        assert_eq!(sorted, sorted_one, "the same solutions, each printed whole");
    }
    let puzzle = dir.join("puzzle.txt");
    fs::write(
        &puzzle,
        "5................1.....2.3......3.2...1.4......5....6..3......4.7..8...96....1...\n",
    )
    .unwrap();
    let puzzle = puzzle.to_str().unwrap();
    let one = xcover(&["-j", "1", "sudoku", "solve", "--all", puzzle], "");
    assert!(out(&one).lines().count() > 1000);
    let ordered = xcover(
        &["-j", "2", "sudoku", "solve", "--all", "--ordered", puzzle],
        "",
    );
    assert_eq!(out(&ordered), out(&one));
}

#[test]
fn progress_lines_show_how_far_the_search_is() {
    let dir = scratch("progress");
    let file = example(&dir, &["pentominoes", "6x10"]);
    let run = xcover(
        &["-j", "2", "cover", "count", "--progress", "0.3", &file],
        "",
    );
    assert!(run.status.success());
    assert_eq!(out(&run), "9356\n");
    let stderr = err(&run);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert!(lines.len() >= 2, "{stderr}");
    assert!(
        lines[0].contains("% explored") && lines[0].contains("nodes/s"),
        "{}",
        lines[0]
    );
}

/// The big oracles of the issue, every way (minutes on two cores).
#[test]
#[ignore = "minutes: run with --ignored"]
fn big_counts_agree_every_way() {
    let dir = scratch("big");
    let queens = example(&dir, &["queens", "16"]);
    every_way(&["cover", "count"], &queens, 14_772_512, &dir);
    let pentominoes = example(&dir, &["pentominoes", "6x10"]);
    every_way(&["cover", "count"], &pentominoes, 9356, &dir);
    let empty = dir.join("empty-6x6.txt");
    fs::write(&empty, format!("{}\n", ".".repeat(36))).unwrap();
    every_way(
        &["sudoku", "count"],
        empty.to_str().unwrap(),
        28_200_960,
        &dir,
    );
}

/// The records a recipe left in `folder`, merged.
fn merge_folder(folder: &Path) -> std::process::Output {
    let mut files: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path().to_str().unwrap().to_string())
        .filter(|path| path.ends_with(".jsonl"))
        .collect();
    files.sort();
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    xcover(&args, "")
}

/// `PATH` with the folder of the binary under test first, as a recipe finds `xcover`.
fn path_with_xcover() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_xcover")).parent().unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn recipe(name: &str) -> (PathBuf, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/recipes")
        .join(name);
    let text = fs::read_to_string(&path).unwrap();
    (path, text)
}

/// The Slurm job-array script, run as each array task would run it.
#[test]
fn the_slurm_recipe_counts_exactly() {
    let dir = scratch("slurm");
    let queens = example(&dir, &["queens", "10"]);
    let (script, text) = recipe("slurm-count.sh");
    let tasks: usize = text
        .lines()
        .find_map(|line| line.strip_prefix("#SBATCH --array=1-"))
        .expect("an array of tasks 1-N")
        .parse()
        .unwrap();
    for task in 1..=tasks {
        let run = Command::new("bash")
            .arg(&script)
            .current_dir(&dir)
            .env("PATH", path_with_xcover())
            .env("PROBLEM", &queens)
            .env("SLURM_ARRAY_TASK_COUNT", tasks.to_string())
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .env_remove("JOB_COMPLETION_INDEX")
            .output()
            .unwrap();
        assert!(run.status.success(), "task {task}: {}", err(&run));
    }
    let merged = merge_folder(&dir.join("records"));
    assert!(merged.status.success(), "{}", err(&merged));
    assert_eq!(out(&merged), "724\n");
}

/// The Kubernetes Indexed Job's command, run for each completion index as its pods would.
#[test]
fn the_kubernetes_recipe_counts_exactly() {
    let dir = scratch("kubernetes");
    let queens = example(&dir, &["queens", "10"]);
    let (_, manifest) = recipe("k8s-indexed-job.yaml");
    let field = |name: &str| {
        manifest
            .lines()
            .find_map(|line| line.trim().strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name}"))
            .trim()
            .to_string()
    };
    let completions: usize = field("completions:").parse().unwrap();
    assert_eq!(field("completionMode:"), "Indexed");
    let command = manifest
        .lines()
        .skip_while(|line| line.trim() != "args:")
        .nth(1)
        .and_then(|line| line.trim().strip_prefix("- "))
        .expect("the container's shell command")
        .to_string();
    assert!(
        command.contains(&format!("--shard auto/{completions} ")),
        "{command}"
    );
    let data = dir.display().to_string();
    let command = command
        .replace("/data/problem.dlx", &queens)
        .replace("/data/", &format!("{data}/"));
    for index in 0..completions {
        let run = Command::new("sh")
            .args(["-c", &command])
            .env("PATH", path_with_xcover())
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .output()
            .unwrap();
        assert!(run.status.success(), "index {index}: {}", err(&run));
    }
    let merged = merge_folder(&dir.join("results"));
    assert!(merged.status.success(), "{}", err(&merged));
    assert_eq!(out(&merged), "724\n");
}

/// Bad values of the flags of this file are refused with a message, never a panic: usage
/// errors (exit 2) for what clap checks, invalid input (exit 1) for a task line that is not
/// one.
#[test]
fn bad_values_are_refused_with_a_message() {
    let dir = scratch("bad");
    let queens = example(&dir, &["queens", "6"]);
    for (args, code) in [
        (vec!["--shard", "0/3"], 2),
        (vec!["--shard", "4/3"], 2),
        (vec!["--shard", "1/0"], 2),
        (vec!["--shard", "one/two"], 2),
        (vec!["--shard", "auto/2000000"], 2),
        (vec!["--checkpoint-every", "1e300"], 2),
        (vec!["--checkpoint-every", "-1"], 2),
        (vec!["--checkpoint-every", "NaN"], 2),
        (vec!["--progress", "0"], 2),
        (vec!["--task", "garbage"], 1),
        (vec!["--task", "xcover-task 0000000000000000 1/1 1:"], 1),
        (vec!["--shard", "1/2", "--task", "x"], 2),
    ] {
        let mut all = vec!["cover", "count"];
        all.extend_from_slice(&args);
        all.push(&queens);
        let run = xcover(&all, "");
        assert_eq!(run.status.code(), Some(code), "{args:?}: {}", err(&run));
        assert!(
            !err(&run).is_empty() && !err(&run).contains("panicked"),
            "{args:?}"
        );
    }
    let split = xcover(&["cover", "split", "--parts", "0", &queens], "");
    assert_eq!(split.status.code(), Some(2));
}
