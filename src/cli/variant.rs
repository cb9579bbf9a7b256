//! `xcover sudoku solve|count|check|encode` on files of variant puzzles (the plain `key:
//! value` blocks of [`xcover::sudoku::variant::text`], or their JSON form).
//!
//! The sudoku commands send a file here when its first meaningful line is a `puzzle:` or
//! `puzzles:` key, or when it is JSON of the `sudoku-variants` format. Each puzzle gets one
//! record, in input order, as for plain grids; a block that cannot be read gets an `invalid`
//! record and its error (file, line, cell) on stderr, and the rest of the file is still
//! solved. Every solution printed has been checked by the independent judge
//! ([`variant::check`]), and a file's stated solution is compared with the one found.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;
use serde_json::{Value, json};

use super::sudoku::stats_json;
use super::{Outcome, enumerate, finish, print_stats, signals, stdout};
use xcover::dlx::{self, Inference, OptionId, Stats, Verdict};
use xcover::sudoku::variant::text::{self, Entry, ReadError};
use xcover::sudoku::variant::{Puzzle, VariantEncoding, check};

/// What to do with each variant puzzle.
#[derive(Debug, Clone, Copy)]
pub enum VariantTask {
    /// The first solution (with a warning when there are more), or up to `limit` solutions.
    Solve {
        limit: Option<u128>,
        layout: Layout,
    },
    Count {
        limit: Option<u128>,
        json: bool,
    },
    Check {
        json: bool,
    },
}

/// How solutions are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// N lines of N symbols, as the files write grids.
    Grid,
    /// One line of N * N symbols.
    Line,
    /// N lines of numbers separated by spaces.
    Numbers,
    /// One JSON object per puzzle.
    Json,
}

/// Whether the first of `files` holds variant puzzles. Standard input (`-`) is looked at
/// without being consumed (its first buffer, up to 8 KiB, is peeked at), so plain grids
/// are then still read from it in full.
pub fn is_variant_input(files: &[String]) -> bool {
    files.first().is_some_and(|first| is_variant_file(first))
}

/// Whether the file (standard input for `-`, looked at without being consumed) holds
/// variant puzzles, by its first 4 KiB.
pub fn is_variant_file(path: &str) -> bool {
    if path == "-" {
        let mut stdin = io::stdin().lock();
        let head = io::BufRead::fill_buf(&mut stdin).unwrap_or_default();
        return text::is_variant_text(&String::from_utf8_lossy(head));
    }
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = vec![0; 4096];
    let read = io::Read::read(&mut file, &mut head).unwrap_or(0);
    head.truncate(read);
    text::is_variant_text(&String::from_utf8_lossy(&head))
}

/// The puzzles of one input, in order: each read or why it cannot be.
pub type Entries = Vec<Result<Entry, ReadError>>;

/// The puzzles of one file (standard input for `-`), with the name to use in messages; a
/// file that cannot be read at all is one error.
pub fn entries(path: &str) -> Result<(Arc<str>, Entries), String> {
    let (name, text) = super::input::read_text(path)?;
    let entries = if text.trim_start().starts_with(['{', '[']) {
        text::read_json(&text).map_err(|error| format!("{name}: {error}"))?
    } else if xcover::sudoku::variant::iss::is_iss_text(&text) {
        xcover::sudoku::variant::iss::read(&text)
    } else {
        text::read(&text)
    };
    Ok((name, entries))
}

/// The one variant puzzle of the input, with the name of its file, for the flags that split,
/// save or resume a single search; an error message says why there is not exactly one.
fn single_entry(files: &[String]) -> Result<(Arc<str>, Entry), String> {
    let mut found = Vec::new();
    for path in files {
        let (name, entries) = entries(path)?;
        for entry in entries {
            let entry =
                entry.map_err(|error| format!("{name}:{}: {}", error.line, error.message))?;
            found.push((name.clone(), entry));
        }
    }
    match <[_; 1]>::try_from(found) {
        Ok([one]) => Ok(one),
        Err(found) => Err(format!(
            "--shard, --task, --checkpoint, --resume and split work on one puzzle; the input \
             holds {}",
            found.len()
        )),
    }
}

/// Runs `work` on the solver of the input's one puzzle (its givens chosen, `inference` set,
/// Ctrl-C wired), with the name of its file, the puzzle and its encoding; `None` as the
/// solver when the givens exclude each other. An error message names the file and line.
fn with_single_solver<T>(
    files: &[String],
    inference: Inference,
    work: impl FnOnce(&str, &Entry, &VariantEncoding, Option<&mut dlx::Solver<'_>>) -> Result<T, String>,
) -> Result<T, String> {
    let (name, entry) = single_entry(files)?;
    let encoding = VariantEncoding::new(&entry.puzzle)
        .map_err(|error| format!("{name}:{}: {error}", entry.line))?;
    let mut solver = encoding.solver(&entry.puzzle);
    if let Some(solver) = &mut solver {
        solver.set_cancel_flag(Some(signals::flag()));
        solver.set_inference(inference);
    }
    work(&name, &entry, &encoding, solver.as_mut())
}

/// `count` of one variant puzzle with --shard, --task, --checkpoint or --resume: the part of
/// its search the flags name, on every core, as for plain grids (the JSON record is the one
/// `merge` adds up).
pub fn count_one(
    files: &[String],
    limit: Option<u128>,
    json: bool,
    search: &enumerate::SearchArgs,
    inference: Inference,
    stats: bool,
) -> io::Result<Outcome> {
    let started = Instant::now();
    let counted = with_single_solver(files, inference, |file, entry, _, solver| {
        let Some(solver) = solver else {
            // The givens exclude each other: no search, no solution.
            return Ok((file.to_string(), entry.clone(), None));
        };
        let place = format!("{file}:{}", entry.line);
        let wanted = enumerate::Wanted {
            limit,
            ordered: false,
            visit: None,
        };
        let finished = enumerate::run(solver, search, &wanted, &place)?;
        Ok((file.to_string(), entry.clone(), Some(finished)))
    });
    let (file, entry, finished) = match counted {
        Ok(counted) => counted,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let (solutions, work, interrupted) =
        finished.as_ref().map_or((0, Stats::default(), false), |f| {
            (f.solutions, f.stats, f.interrupted)
        });
    let mut out = stdout();
    match (&finished, json) {
        (Some(finished), true) => {
            let mut record = finished.record();
            if let Value::Object(fields) = &mut record {
                fields.insert("file".into(), json!(file));
                fields.insert("line".into(), json!(entry.line));
                fields.insert("id".into(), json!(entry.puzzle.id));
                fields.insert("boxes".into(), json!(boxes_name(&entry.puzzle)));
                fields.insert("limit".into(), json!(limit));
                fields.insert("stats".into(), stats_json(work));
            }
            writeln!(out, "{record}")?;
        }
        (None, true) => writeln!(
            out,
            "{}",
            json!({
                "file": file,
                "line": entry.line,
                "id": entry.puzzle.id,
                "boxes": boxes_name(&entry.puzzle),
                "count": 0,
                "limit": limit,
                "partial": false,
                "stats": stats_json(Stats::default()),
            })
        )?,
        (_, false) if interrupted => writeln!(out, "{solutions} (partial)")?,
        (_, false) => writeln!(out, "{solutions}")?,
    }
    if stats {
        print_one_stats(solutions, work, started);
    }
    finish(out, Outcome::finished(interrupted))
}

/// `solve --all` (or `--limit`) of one variant puzzle with --shard, --task, --checkpoint or
/// --resume: the solutions of the part of its search the flags name, on every core, each
/// written as it is found (and judged by the rules directly), as for plain grids.
pub fn solve_one(
    files: &[String],
    (limit, layout): (u128, Layout),
    search: &enumerate::SearchArgs,
    inference: Inference,
    stats: bool,
) -> io::Result<Outcome> {
    let started = Instant::now();
    let json = layout == Layout::Json;
    let out = io::BufWriter::with_capacity(1 << 16, io::stdout());
    let solved = with_single_solver(files, inference, |file, entry, encoding, solver| {
        let out = out;
        let place = format!("{file}:{}", entry.line);
        let puzzle = &entry.puzzle;
        let n = puzzle.rules.size;
        // JSON Lines, as for plain grids: a record per solution, then one with the count.
        let head = format!(
            r#""file":{},"line":{},"id":{},"boxes":{}"#,
            json!(file),
            entry.line,
            json!(puzzle.id),
            json!(boxes_name(puzzle))
        );
        let Some(solver) = solver else {
            // The givens exclude each other: no search, no solution.
            return Ok((out, 0, None, None, head));
        };
        let broken = Mutex::new(None);
        let write = |out: &mut io::BufWriter<io::Stdout>, options: &[OptionId], index: u128| {
            let grid = encoding.grid_of(options.iter().copied());
            if let Some(message) = broken_rule_message(&place, puzzle, &grid) {
                let mut broken = broken.lock().unwrap_or_else(|e| e.into_inner());
                broken.get_or_insert(message);
            }
            if json {
                let solution = grid_json(n, &grid);
                return writeln!(out, r#"{{{head},"index":{index},"solution":{solution}}}"#);
            }
            if index > 0 && layout != Layout::Line {
                writeln!(out)?;
            }
            write!(out, "{}", write_grid(n, &grid, layout))?;
            if layout == Layout::Line {
                writeln!(out)?;
            }
            Ok(())
        };
        let (out, written, result) =
            enumerate::run_writing(solver, search, (Some(limit), false), &place, out, write);
        let finished = result.map_err(|error| error.to_string())??;
        let broken = broken.into_inner().unwrap_or_else(|e| e.into_inner());
        Ok((out, written, Some(finished), broken, head))
    });
    let (mut out, written, finished, broken, head) = match solved {
        Ok(solved) => solved,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let interrupted = finished.as_ref().is_some_and(|f| f.interrupted);
    if json {
        writeln!(
            out,
            r#"{{{head},"count":{written}{}}}"#,
            if interrupted {
                r#","partial":true"#
            } else {
                ""
            }
        )?;
    } else if written == 0 && !interrupted && search.resume.is_none() {
        writeln!(out, "no solution")?;
    }
    if stats {
        let work = finished.as_ref().map_or(Stats::default(), |f| f.stats);
        print_one_stats(written, work, started);
    }
    let outcome = if let Some(message) = broken {
        eprintln!("xcover: {message}");
        Outcome::InvalidInput
    } else {
        Outcome::finished(interrupted)
    };
    finish(out, outcome)
}

/// The `--stats` line of a search of one puzzle.
fn print_one_stats(solutions: u128, work: Stats, started: Instant) {
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "puzzles 1, solutions {solutions}, nodes {}, branch points {}, removals {}, updates {}, \
         time {seconds:.3} s",
        work.nodes, work.branches, work.removals, work.updates
    );
}

/// The error for a solution of `puzzle` (at `place`) that breaks one of its rules, as the
/// independent judge sees it; `None` when it keeps them all.
fn broken_rule_message(place: &str, puzzle: &Puzzle, grid: &[u8]) -> Option<String> {
    let broken = check::broken_rule(&puzzle.rules, &puzzle.givens, grid)?;
    Some(format!(
        "{place}: internal error: a solution of puzzle {} breaks a rule ({broken}); please \
         report it",
        puzzle.id
    ))
}

/// `split` of one variant puzzle: the task list of its search (see `enumerate::print_tasks`).
pub fn split(files: &[String], parts: usize, inference: Inference) -> io::Result<Outcome> {
    let mut out = stdout();
    let split = with_single_solver(files, inference, |_, _, _, solver| {
        let solver = solver.ok_or_else(|| {
            "the givens exclude each other: the puzzle has no solution and nothing to split"
                .to_string()
        })?;
        enumerate::print_tasks(solver, parts, &mut out).map_err(|error| error.to_string())
    });
    if let Err(message) = split {
        eprintln!("xcover: {message}");
        return Ok(Outcome::InvalidInput);
    }
    finish(out, Outcome::Success)
}

/// One puzzle's record: its text, the work done, whether the search finished, and a message
/// for stderr.
struct Record {
    text: String,
    stats: Stats,
    finished: bool,
    message: Option<String>,
    /// The message is an error (a stated solution that differs, a broken rule).
    failed: bool,
}

/// Runs `task` on every puzzle of every file, printing one record per puzzle in input order.
pub fn run(
    task: VariantTask,
    files: &[String],
    inference: Inference,
    stats: bool,
) -> io::Result<Outcome> {
    let started = Instant::now();
    let mut out = stdout();
    let mut outcome = Outcome::Success;
    let mut total = Stats::default();
    let mut puzzles = 0usize;
    // Records of several lines are set apart by a blank line.
    let multiline = matches!(
        task,
        VariantTask::Solve {
            layout: Layout::Grid | Layout::Numbers,
            ..
        }
    );
    for path in files {
        let (name, entries) = match entries(path) {
            Ok(read) => read,
            Err(message) => {
                eprintln!("xcover: {message}");
                outcome = Outcome::InvalidInput;
                continue;
            }
        };
        let path = &*name;
        let records: Vec<Record> = entries
            .par_iter()
            .map(|entry| match entry {
                Ok(entry) => solve_entry(task, inference, path, entry),
                Err(error) => Record {
                    text: invalid_text(task, path, error),
                    stats: Stats::default(),
                    finished: true,
                    message: Some(format!("{path}:{}: {}", error.line, error.message)),
                    failed: true,
                },
            })
            .collect();
        for record in records {
            if let Some(message) = &record.message {
                eprintln!("{message}");
            }
            if record.failed {
                outcome = Outcome::InvalidInput;
            }
            if !record.finished {
                // A partial count or a solution not yet proved the only one; never a verdict
                // that the search did not reach (an empty record).
                if !record.text.is_empty() {
                    writeln!(out, "{}", record.text)?;
                }
                finish(&mut out, Outcome::Interrupted)?;
                eprintln!(
                    "xcover: interrupted; the records of {puzzles} puzzles were printed in full"
                );
                if stats {
                    total += record.stats;
                    print_stats(puzzles, total, started);
                }
                return Ok(Outcome::Interrupted);
            }
            if multiline && puzzles > 0 {
                writeln!(out)?;
            }
            writeln!(out, "{}", record.text.trim_end_matches('\n'))?;
            puzzles += 1;
            total += record.stats;
        }
        out.flush()?;
    }
    if stats {
        print_stats(puzzles, total, started);
    }
    finish(out, outcome)
}

fn invalid_text(task: VariantTask, path: &str, error: &ReadError) -> String {
    let json = match task {
        VariantTask::Solve { layout, .. } => layout == Layout::Json,
        VariantTask::Count { json, .. } | VariantTask::Check { json } => json,
    };
    if json {
        json!({"file": path, "line": error.line, "error": error.message}).to_string()
    } else {
        "invalid".to_string()
    }
}

/// A grid (symbols from 1, row by row) as JSON: a list of rows of numbers.
fn grid_json(n: usize, grid: &[u8]) -> Value {
    Value::from(
        grid.chunks(n)
            .map(|row| Value::from(row.to_vec()))
            .collect::<Vec<_>>(),
    )
}

fn write_grid(n: usize, grid: &[u8], layout: Layout) -> String {
    match layout {
        Layout::Line => text::grid_line(grid),
        Layout::Numbers => grid
            .chunks(n)
            .map(|row| {
                let row: Vec<String> = row.iter().map(u8::to_string).collect();
                row.join(" ") + "\n"
            })
            .collect(),
        Layout::Grid | Layout::Json => text::grid_lines(n, grid),
    }
}

fn solve_entry(task: VariantTask, inference: Inference, path: &str, entry: &Entry) -> Record {
    let puzzle = &entry.puzzle;
    let n = puzzle.rules.size;
    let place = format!("{path}:{}", entry.line);
    let base = |extra: Value| {
        let mut object = json!({
            "file": path,
            "line": entry.line,
            "id": puzzle.id,
            "boxes": boxes_name(puzzle),
        });
        if let (Some(object), Value::Object(extra)) = (object.as_object_mut(), extra) {
            object.extend(extra);
        }
        object.to_string()
    };
    let encoding = match VariantEncoding::new(puzzle) {
        Ok(encoding) => encoding,
        Err(error) => {
            let error = ReadError {
                cells: Vec::new(),
                line: entry.line,
                message: error.to_string(),
            };
            return Record {
                text: invalid_text(task, path, &error),
                stats: Stats::default(),
                finished: true,
                message: Some(format!("{place}: {}", error.message)),
                failed: true,
            };
        }
    };
    let mut solver = match encoding.solver(puzzle) {
        Some(solver) => solver,
        None => {
            // Givens that exclude each other (the reader reports the plain clashes first).
            let text = match task {
                VariantTask::Solve {
                    layout: Layout::Json,
                    ..
                } => base(json!({"solution": null, "unique": false})),
                VariantTask::Solve { .. } => "no solution".into(),
                VariantTask::Count { json: true, .. } => base(json!({"count": 0})),
                VariantTask::Count { .. } => "0".into(),
                VariantTask::Check { json: true } => base(json!({"verdict": "none"})),
                VariantTask::Check { .. } => "none".into(),
            };
            return Record {
                text,
                stats: Stats::default(),
                finished: true,
                message: None,
                failed: false,
            };
        }
    };
    solver.set_cancel_flag(Some(signals::flag()));
    // Colours and multiplicities are searched without inference (the engine's rule).
    solver.set_inference(inference);
    // Every solution shown is judged by the rules directly, and compared with the file's.
    let judge = |grid: &[u8]| broken_rule_message(&place, puzzle, grid);
    let differs = |grid: &[u8]| {
        entry
            .solution
            .as_ref()
            .filter(|stated| stated.as_slice() != grid)
            .map(|_| {
                format!(
                    "{place}: puzzle {}: the solution found differs from the one the file states",
                    puzzle.id
                )
            })
    };
    match task {
        VariantTask::Solve {
            limit: Some(limit),
            layout,
        } => {
            let mut text = String::new();
            let mut found = 0u128;
            let mut message = None;
            solver.for_each_solution(|solution| {
                let grid = encoding.grid_of(solution.options());
                if message.is_none() {
                    message = judge(&grid);
                }
                found += 1;
                if layout == Layout::Json {
                    // JSON Lines, as for plain grids: a record per solution, then the count.
                    text.push_str(&base(
                        json!({"index": found - 1, "solution": grid_json(n, &grid)}),
                    ));
                    text.push('\n');
                } else {
                    // One solution a line, or grids with a blank line between them.
                    if found > 1 {
                        text.push('\n');
                    }
                    text.push_str(&write_grid(n, &grid, layout));
                }
                if found >= limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            let finished = !solver.interrupted();
            if layout == Layout::Json {
                let mut count = json!({"count": found});
                if !finished {
                    count["partial"] = json!(true);
                }
                text.push_str(&base(count));
            } else if found == 0 && finished {
                text = "no solution".into();
            }
            Record {
                text,
                stats: solver.stats(),
                finished,
                failed: message.is_some(),
                message,
            }
        }
        VariantTask::Solve {
            limit: None,
            layout,
        } => {
            let verdict = solver.verdict();
            let verdict = verdict.map(|options| encoding.grid_of(options));
            let (solution, several) = match &verdict {
                Verdict::None => (None, false),
                Verdict::Unique(a) => (Some(a), false),
                Verdict::Multiple(a, _) => (Some(a), true),
            };
            // Two solutions settle the answer, stopped or not.
            let finished = !solver.interrupted() || several;
            // A broken rule, or a unique solution that differs from the file's, fails the
            // run; more than one solution is only a warning.
            let mut message = solution.and_then(|grid| {
                judge(grid).or_else(|| {
                    if several || !finished {
                        None
                    } else {
                        differs(grid)
                    }
                })
            });
            let failed = message.is_some();
            if message.is_none() && several {
                message = Some(format!(
                    "{place}: warning: puzzle {} has more than one solution; the one printed is \
                     the first found",
                    puzzle.id
                ));
            }
            if message.is_none() && !finished {
                let said = signals::stopped_verdict(solution.is_some(), true);
                message = Some(format!("{place}: puzzle {}: {said}", puzzle.id));
            }
            let text = match (layout, solution) {
                (_, None) if !finished => String::new(),
                (Layout::Json, solution) => base(json!({
                    "solution": solution.map(|grid| grid_json(n, grid)),
                    // Unknown (null) for a solution found before the search was stopped.
                    "unique": finished.then_some(solution.is_some() && !several),
                    "partial": !finished,
                    "stats": stats_json(solver.stats()),
                })),
                (layout, Some(grid)) => write_grid(n, grid, layout),
                (_, None) => "no solution".into(),
            };
            Record {
                text,
                stats: solver.stats(),
                finished,
                failed,
                message,
            }
        }
        VariantTask::Count { limit, json } => {
            let count = solver.count(limit);
            let finished = !solver.interrupted();
            let text = match (json, finished) {
                (true, _) => base(json!({
                    "count": count,
                    "limit": limit,
                    "partial": !finished,
                    "stats": stats_json(solver.stats()),
                })),
                (false, true) => count.to_string(),
                (false, false) => format!("{count} (partial)"),
            };
            Record {
                text,
                stats: solver.stats(),
                finished,
                failed: false,
                message: None,
            }
        }
        VariantTask::Check { json } => {
            let verdict = solver.verdict().map(|options| encoding.grid_of(options));
            let (word, grids): (&str, Vec<&Vec<u8>>) = match &verdict {
                Verdict::None => ("none", vec![]),
                Verdict::Unique(a) => ("unique", vec![a]),
                Verdict::Multiple(a, b) => ("multiple", vec![a, b]),
            };
            // Two solutions settle the verdict, stopped or not; else a stopped search gives
            // none (an empty record), only what it found, on stderr.
            let finished = !solver.interrupted() || grids.len() == 2;
            let mut message = grids.iter().find_map(|grid| judge(grid));
            if let (None, Verdict::Unique(grid), true) = (&message, &verdict, finished) {
                message = differs(grid);
            }
            let failed = message.is_some();
            if message.is_none() && !finished {
                let said = signals::stopped_verdict(!grids.is_empty(), false);
                message = Some(format!("{place}: puzzle {}: {said}", puzzle.id));
            }
            let text = if !finished {
                String::new()
            } else if json {
                base(json!({
                    "verdict": word,
                    "solutions": grids.iter().map(|grid| grid_json(n, grid)).collect::<Vec<_>>(),
                    "stats": stats_json(solver.stats()),
                }))
            } else {
                word.to_string()
            };
            Record {
                text,
                stats: solver.stats(),
                finished,
                // A broken rule or a stated solution that differs.
                failed,
                message,
            }
        }
    }
}

/// The name of a variant's boxes in records, as for plain grids (`3x3`), or `none` (a
/// jigsaw's regions, or a Latin square).
fn boxes_name(puzzle: &Puzzle) -> String {
    puzzle
        .rules
        .boxes
        .map_or_else(|| "none".to_string(), |shape| shape.to_string())
}

/// `sudoku encode` for a variant puzzle: its exact-cover problem in Knuth's format (with
/// its one-to-one blocks, which Knuth's programs read as comments).
pub fn encode(index: Option<usize>, path: &str) -> io::Result<Outcome> {
    let (name, entries) = match entries(path) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let path = &*name;
    let wanted = index.unwrap_or(1);
    let Some(entry) = wanted.checked_sub(1).and_then(|i| entries.get(i)) else {
        eprintln!(
            "xcover: {path}: --index {wanted} is out of range: the file holds {} puzzle{} \
             (numbered from 1)",
            entries.len(),
            if entries.len() == 1 { "" } else { "s" }
        );
        return Ok(Outcome::BadUsage);
    };
    let entry = match entry {
        Ok(entry) => entry,
        Err(error) => {
            eprintln!("{path}:{}: {}", error.line, error.message);
            return Ok(Outcome::InvalidInput);
        }
    };
    let puzzle = &entry.puzzle;
    let encoding = match VariantEncoding::new(puzzle) {
        Ok(encoding) => encoding,
        Err(error) => {
            eprintln!("{path}:{}: {error}", entry.line);
            return Ok(Outcome::InvalidInput);
        }
    };
    let mut out = stdout();
    writeln!(
        out,
        "| Sudoku variant {} ({}x{}, rules: {}) from {path} line {}. Items: rIcJ (cell); TAGvV \
         (unit TAG has symbol V: rI row, cJ column, bK box, gX region, d1 d2 diagonals, wK \
         window) primary; pP_X_Y (neighbour pair P may not hold X and Y) secondary. One \
         option per cell and symbol, one per way to fill each killer cage (the items of all \
         its cells). Without cages, |block: lines match each unit's cells with its symbols.",
        puzzle.id,
        puzzle.rules.size,
        puzzle.rules.size,
        puzzle.rules.names().join(" "),
        entry.line
    )?;
    dlx::format::write(&encoding.puzzle_problem(puzzle), &mut out)?;
    finish(out, Outcome::Success)
}
