//! `xcover sudoku`: solve, count, check and encode files of puzzles.
//!
//! Batches are streamed: puzzles are read on their own thread, solved in parallel chunks (one
//! solver per thread and box shape, each reusing its matrix), and written in input order, one
//! record per puzzle, as soon as a chunk is done. A puzzle that cannot be read still gets a
//! record (`invalid`), so output lines stay aligned with input puzzles; its error goes to
//! stderr as `file:line: message`. On Ctrl-C the records finished in input order are printed,
//! and a count in progress is printed as partial.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};

use super::enumerate::{self, SearchArgs, Wanted, count_json};
use super::input::{self, Item, Job, grid_of};
use super::progress::Progress;
use super::{Outcome, finish, grid_json, parse_limit, print_stats, signals, stdout};
use xcover::dlx::{self, Enumeration, Inference, Monitor, Stats, Subtree};
use xcover::sudoku::batch::Batch;
use xcover::sudoku::text::{self, Layout, Puzzle, Reader, Symbols};
use xcover::sudoku::{BoxShape, Encoding, GridSolver, Verdict};

#[derive(Debug, Clone, Subcommand)]
pub enum SudokuCommand {
    /// Solve puzzles: the solution in the layout each puzzle came in (or --format).
    Solve {
        /// Print every solution, not only the first.
        #[arg(long)]
        all: bool,
        /// Print at most N solutions per puzzle (implies --all).
        #[arg(long, value_name = "N", value_parser = parse_limit)]
        limit: Option<u128>,
        /// Output layout; default: the layout of each puzzle.
        #[arg(long, value_enum)]
        format: Option<SolveFormat>,
        /// With --all: print solutions in the order a one-thread search finds them, whatever
        /// -j (by default each puzzle's search runs on every core and solutions come in the
        /// order threads find them).
        #[arg(long)]
        ordered: bool,
        #[command(flatten)]
        restarts: RestartArgs,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        input: PuzzleArgs,
    },
    /// Count solutions, one number per line. A file of many puzzles is spread over the cores
    /// (-j); a single puzzle's search runs on every core.
    Count {
        /// Stop counting at N.
        #[arg(long, value_name = "N", value_parser = parse_limit)]
        limit: Option<u128>,
        /// text: one count per line; json: one record per puzzle (with --shard, --task or a
        /// single puzzle, the record `xcover merge` adds up).
        #[arg(long, value_enum, default_value = "text")]
        format: ReportFormat,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        input: PuzzleArgs,
    },
    /// Print one puzzle's search split into N parts as a task list: one line per part, each
    /// run on its own with `sudoku count --task LINE FILE` (or `solve --all --task`).
    Split {
        /// How many parts.
        #[arg(long, value_name = "N", value_parser = super::cover::parse_parts)]
        parts: usize,
        #[command(flatten)]
        input: PuzzleArgs,
    },
    /// Say whether each puzzle has one solution: unique, none or multiple.
    Check {
        #[arg(long, value_enum, default_value = "text")]
        format: ReportFormat,
        #[command(flatten)]
        input: PuzzleArgs,
    },
    /// Explain a solution step by step, as a person would reason.
    Explain(super::logic::ExplainArgs),
    /// Show the next logical step only.
    Hint(super::logic::HintArgs),
    /// Rate difficulty from the hardest technique needed: one line per puzzle.
    Rate(super::logic::RateArgs),
    /// Make new puzzles with exactly one solution.
    Generate(super::generate::GenerateArgs),
    /// Compare Dancing Links with simple backtracking on the same puzzles.
    Compare(super::compare::CompareArgs),
    /// Print a puzzle's exact-cover problem in Knuth's DLX1 format.
    Encode {
        /// Which puzzle of the file, from 1 (default: the first).
        #[arg(long, value_name = "K")]
        index: Option<usize>,
        #[command(flatten)]
        boxes: super::ShapeArg,
        /// The puzzle file, or - for standard input.
        #[arg(value_name = "FILE|-")]
        file: String,
    },
}

#[derive(Debug, Clone, Args)]
pub struct PuzzleArgs {
    #[command(flatten)]
    boxes: super::ShapeArg,
    /// Print puzzles, solutions, search nodes, branch points, inference removals, updates
    /// and time on stderr.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    inference: super::InferenceArg,
    /// Puzzle files, or - for standard input (the default).
    #[arg(value_name = "FILE|-", default_value = "-")]
    files: Vec<String>,
}

/// Whether `solve` (one solution per puzzle) restarts a search that gets lost.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct RestartArgs {
    /// Restart a search that spends its budget of branch points (1024, doubling each run)
    /// without a solution, in a fresh random order of options seeded by SEED. The answer is
    /// the same for every seed (and without restarts); the time is not.
    #[arg(long, value_name = "SEED")]
    restarts: Option<u64>,
}

impl RestartArgs {
    /// The seed of the restarts, or `None` without them.
    fn seed(self) -> Option<u64> {
        self.restarts
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolveFormat {
    /// One line per grid, one character per cell.
    Line,
    /// One row per line with box separators.
    Grid,
    /// Rows of numbers, for large grids.
    Numbers,
    /// One JSON object per puzzle and line (JSON Lines).
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// One plain word or number per line.
    Text,
    /// One JSON object per puzzle and line (JSON Lines).
    Json,
}

/// What each command asks of one valid puzzle.
#[derive(Clone, Copy)]
enum Task {
    /// The solution, in a format; with restarts seeded by the number, or none.
    First(Option<SolveFormat>, Option<u64>),
    Count(Option<u128>, ReportFormat),
    Check(ReportFormat),
}

impl Task {
    fn json(self) -> bool {
        matches!(
            self,
            Task::First(Some(SolveFormat::Json), _)
                | Task::Count(_, ReportFormat::Json)
                | Task::Check(ReportFormat::Json)
        )
    }
}

/// Puzzles solved and printed per parallel chunk at most: enough to keep every thread busy,
/// few enough that output keeps flowing and memory stays flat on files of any length.
const CHUNK: usize = 2048;

pub fn run(command: SudokuCommand) -> io::Result<Outcome> {
    if let Some(outcome) = run_mixed(&command) {
        return outcome;
    }
    if let Some(outcome) = run_variant(&command) {
        return outcome;
    }
    match command {
        SudokuCommand::Solve {
            all,
            limit,
            format,
            ordered,
            search,
            input,
            ..
        } if all || limit.is_some() => solve_all(limit, format, ordered, &search, &input),
        SudokuCommand::Solve { search, .. } if search.any() => {
            eprintln!("xcover: --shard, --task, --checkpoint and --resume go with --all");
            Ok(Outcome::InvalidInput)
        }
        SudokuCommand::Solve {
            format,
            restarts,
            input,
            ..
        } => batch(Task::First(format, restarts.seed()), &input, None),
        SudokuCommand::Count {
            limit,
            format,
            search,
            input,
        } if search.any() => count_one(limit, format, &search, &input),
        SudokuCommand::Count {
            limit,
            format,
            search,
            input,
        } => batch(Task::Count(limit, format), &input, Some(&search)),
        SudokuCommand::Split { parts, input } => split(parts, &input),
        SudokuCommand::Check { format, input } => batch(Task::Check(format), &input, None),
        SudokuCommand::Compare(args) => super::compare::run(args),
        SudokuCommand::Generate(args) => super::generate::run(args),
        SudokuCommand::Explain(args) => super::logic::explain(args),
        SudokuCommand::Hint(args) => super::logic::hint(args),
        SudokuCommand::Rate(args) => super::logic::rate(args),
        SudokuCommand::Encode { index, boxes, file } => encode(index, boxes.shape, &file),
    }
}

/// Runs `solve`, `count` and `check` on files of both kinds, plain grids and variants, in
/// the order given: each run of files of one kind through its own path, as if the command had
/// been given those files alone (only the first file was looked at, and the others were read
/// as what it was). `None` when the files are all of one kind.
fn run_mixed(command: &SudokuCommand) -> Option<io::Result<Outcome>> {
    use super::variant::is_variant_file;
    let (SudokuCommand::Solve { input, .. }
    | SudokuCommand::Count { input, .. }
    | SudokuCommand::Check { input, .. }) = command
    else {
        return None;
    };
    let kinds: Vec<bool> = input
        .files
        .iter()
        .map(|file| is_variant_file(file))
        .collect();
    if kinds.iter().all(|&kind| kind == kinds[0]) {
        return None;
    }
    let mut outcome = Outcome::Success;
    let mut start = 0;
    while start < kinds.len() {
        let end = (start..kinds.len())
            .find(|&i| kinds[i] != kinds[start])
            .unwrap_or(kinds.len());
        let mut part = command.clone();
        if let SudokuCommand::Solve { input, .. }
        | SudokuCommand::Count { input, .. }
        | SudokuCommand::Check { input, .. } = &mut part
        {
            input.files = input.files[start..end].to_vec();
        }
        let ran = match run(part) {
            Ok(ran) => ran,
            Err(error) => return Some(Err(error)),
        };
        outcome = outcome.worse(ran);
        if ran == Outcome::Interrupted || ran == Outcome::BadUsage {
            break;
        }
        start = end;
    }
    Some(Ok(outcome))
}

/// Runs `solve`, `count`, `check` and `encode` on files of variant puzzles
/// ([`super::variant`]); `None` when the input is plain grids (or another command).
fn run_variant(command: &SudokuCommand) -> Option<io::Result<Outcome>> {
    use super::variant::{self, Layout, VariantTask};
    let (task, search, input) = match command {
        SudokuCommand::Encode { index, file, .. } => {
            return variant::is_variant_input(std::slice::from_ref(file))
                .then(|| variant::encode(*index, file));
        }
        SudokuCommand::Solve {
            all,
            limit,
            format,
            search,
            input,
            ..
        } => {
            let layout = match format {
                None | Some(SolveFormat::Grid) => Layout::Grid,
                Some(SolveFormat::Line) => Layout::Line,
                Some(SolveFormat::Numbers) => Layout::Numbers,
                Some(SolveFormat::Json) => Layout::Json,
            };
            let limit = if *all {
                Some(limit.unwrap_or(u128::MAX))
            } else {
                *limit
            };
            (VariantTask::Solve { limit, layout }, Some(search), input)
        }
        SudokuCommand::Count {
            limit,
            format,
            search,
            input,
        } => {
            let json = *format == ReportFormat::Json;
            (
                VariantTask::Count {
                    limit: *limit,
                    json,
                },
                Some(search),
                input,
            )
        }
        SudokuCommand::Check { format, input } => {
            let json = *format == ReportFormat::Json;
            (VariantTask::Check { json }, None, input)
        }
        SudokuCommand::Split { parts, input } => {
            return variant::is_variant_input(&input.files)
                .then(|| variant::split(&input.files, *parts, input.inference.inference));
        }
        _ => return None,
    };
    if !variant::is_variant_input(&input.files) {
        return None;
    }
    if let Some(shape) = input.boxes.shape {
        // A variant block gives its own boxes (`box: 2x3`): --box was silently ignored.
        eprintln!(
            "xcover: --box {shape} is for plain grids; a variant puzzle gives its boxes in its \
             'box:' line"
        );
        return Some(Ok(Outcome::BadUsage));
    }
    if let Some(search) = search.filter(|search| search.any()) {
        return Some(match task {
            VariantTask::Count { limit, json } => variant::count_one(
                &input.files,
                limit,
                json,
                search,
                input.inference.inference,
                input.stats,
            ),
            VariantTask::Solve {
                limit: Some(limit),
                layout,
            } => variant::solve_one(
                &input.files,
                (limit, layout),
                search,
                input.inference.inference,
                input.stats,
            ),
            _ => {
                eprintln!(
                    "xcover: --shard, --task, --checkpoint and --resume split the search of a \
                     variant puzzle: count, or solve with --all or --limit"
                );
                Ok(Outcome::InvalidInput)
            }
        });
    }
    Some(variant::run(
        task,
        &input.files,
        input.inference.inference,
        input.stats,
    ))
}

/// A progress line on a terminal once a batch proves large: puzzles done and their rate.
fn progress_bar() -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {pos} puzzles, {per_sec}") {
        bar.set_style(style);
    }
    bar
}

/// Solves, counts or checks every puzzle, in parallel chunks as they are read, printing
/// records in input order.
///
/// A chunk of a single puzzle (a file of one, or puzzles typed one by one) is counted,
/// checked or solved (without restarts) by one search on every core (`search` holds a
/// count's flags) rather than by one thread, when there are several (with `-j1` it would
/// only add the overhead of a split search). Its record is the same as a batch's, so a
/// script never sees two shapes from one command.
fn batch(task: Task, args: &PuzzleArgs, search: Option<&SearchArgs>) -> io::Result<Outcome> {
    let started = Instant::now();
    let items = input::stream(args.files.clone(), args.boxes.shape);
    let mut runner = Batch::new();
    runner.set_cancel_flag(Some(signals::flag()));
    runner.set_inference(args.inference.inference);
    let mut bar = ProgressBar::hidden();
    let mut out = stdout();
    let mut outcome = Outcome::Success;
    let mut total = Stats::default();
    let mut puzzles = 0usize;
    let mut hinted = false;
    loop {
        let chunk = input::next_chunk(&items, CHUNK);
        if chunk.is_empty() {
            if signals::stopped() {
                bar.finish_and_clear();
                return interrupted(out, puzzles, started, args.stats, total);
            }
            break;
        }
        if chunk.len() == CHUNK && bar.is_hidden() && puzzles == 0 {
            bar = progress_bar();
        }
        let single = match (task, search, chunk.as_slice()) {
            (
                Task::Count(limit, format),
                Some(search),
                [
                    Item::Job(
                        job @ Job {
                            puzzle: Ok(puzzle), ..
                        },
                    ),
                ],
            ) if rayon::current_num_threads() > 1 || search.progress.is_some() => {
                Some(count_record(
                    limit,
                    format,
                    JsonShape::Batch,
                    search,
                    args,
                    &job.file,
                    puzzle,
                ))
            }
            (
                Task::First(_, None) | Task::Check(_),
                _,
                [
                    Item::Job(
                        job @ Job {
                            puzzle: Ok(puzzle), ..
                        },
                    ),
                ],
            ) => Some(verdict_record(task, args, &job.file, puzzle)),
            _ => None,
        };
        let solved = match single {
            Some(Ok(record)) => vec![Some(record)],
            Some(Err(message)) => {
                eprintln!("xcover: {message}");
                return finish(out, Outcome::InvalidInput);
            }
            None => runner.run(&chunk, grid_of, |solver, item, _| match item {
                Item::Job(Job {
                    file,
                    puzzle: Ok(puzzle),
                }) => record(task, solver, file, puzzle),
                _ => unreachable!("only valid puzzles have a grid"),
            }),
        };
        for (item, solved) in chunk.iter().zip(solved) {
            let Some(job) = input::job(item, &mut outcome) else {
                continue;
            };
            let record = solved.unwrap_or_else(|| Record::invalid(task, job));
            if !record.finished && record.text.is_empty() {
                // No record for the puzzle in progress, but what its search found is said
                // and its work counts in the stats.
                if let Some(note) = &record.note {
                    eprintln!("{}:{}: {}", job.file, note.line, note.text);
                }
                total += record.stats;
                return interrupted(out, puzzles, started, args.stats, total);
            }
            if let Err(error) = &job.puzzle {
                eprintln!("{}:{}: {}", job.file, error.line, error.kind);
                outcome = Outcome::InvalidInput;
            }
            if let Some(note) = &record.note
                && (!hinted || note.warning)
            {
                eprintln!("{}:{}: {}", job.file, note.line, note.text);
                hinted |= !note.warning;
            }
            if record.multiline && puzzles > 0 {
                writeln!(out)?;
            }
            out.write_all(record.text.trim_end_matches('\n').as_bytes())?;
            writeln!(out)?;
            puzzles += 1;
            total += record.stats;
            if !record.finished {
                return interrupted(out, puzzles - 1, started, args.stats, total);
            }
        }
        out.flush()?;
        bar.inc(chunk.len() as u64);
        if signals::stopped() {
            bar.finish_and_clear();
            return interrupted(out, puzzles, started, args.stats, total);
        }
    }
    bar.finish_and_clear();
    if args.stats {
        print_stats(puzzles, total, started);
    }
    finish(out, outcome)
}

/// Ends a run that Ctrl-C or SIGTERM stopped: what was printed stays, a message says so.
fn interrupted(
    out: impl Write,
    finished: usize,
    started: Instant,
    stats: bool,
    total: Stats,
) -> io::Result<Outcome> {
    let outcome = finish(out, Outcome::Interrupted)?;
    eprintln!("xcover: interrupted; the records of {finished} puzzles were printed in full");
    if stats {
        print_stats(finished, total, started);
    }
    Ok(outcome)
}

/// A message for stderr that goes with a record.
struct Note {
    line: usize,
    text: String,
    /// A warning is printed for every puzzle; other notes (the box-shape hint) once a run.
    warning: bool,
}

/// One puzzle's output. Records of several lines are separated by a blank line.
struct Record {
    /// What stdout gets; empty for a puzzle whose search was stopped with nothing worth
    /// printing (no verdict can be given before the search ends).
    text: String,
    multiline: bool,
    stats: Stats,
    /// False when Ctrl-C stopped the search: the record is then a partial count, a solution
    /// not yet proved the only one, or nothing.
    finished: bool,
    note: Option<Note>,
}

impl Record {
    /// The record of a puzzle that could not be read.
    fn invalid(task: Task, job: &Job) -> Record {
        let error = job.puzzle.as_ref().err();
        let text = if task.json() {
            json!({
                "file": &*job.file,
                "line": error.map_or(0, |e| e.line),
                "error": error.map_or(String::new(), |e| e.kind.to_string()),
            })
            .to_string()
        } else {
            "invalid".to_string()
        };
        Record {
            text,
            multiline: false,
            stats: Stats::default(),
            finished: true,
            note: None,
        }
    }
}

/// A record's `stats`, the same for plain grids and variants.
pub(super) fn stats_json(stats: Stats) -> Value {
    json!({
        "nodes": stats.nodes,
        "branches": stats.branches,
        "removals": stats.removals,
        "updates": stats.updates,
    })
}

/// The layout to print a solution in: the one asked for, else the puzzle's own.
fn layout_for(format: Option<SolveFormat>, puzzle: &Puzzle) -> Layout {
    match format {
        Some(SolveFormat::Line) => Layout::Line,
        Some(SolveFormat::Grid) => Layout::Grid,
        Some(SolveFormat::Numbers) => Layout::Numbers,
        Some(SolveFormat::Json) | None => puzzle.layout,
    }
}

/// Whether a puzzle's answer is a JSON record: asked for, or the puzzle came as one (answers
/// are in the layout the puzzle came in).
fn answers_in_json(format: Option<SolveFormat>, puzzle: &Puzzle) -> bool {
    format == Some(SolveFormat::Json) || (format.is_none() && puzzle.json)
}

/// Whether a layout takes several lines, so that records are separated by blank lines.
fn is_multiline(layout: Layout) -> bool {
    matches!(layout, Layout::Grid | Layout::Numbers)
}

/// The note for a puzzle that has no solution or several when its boxes were only assumed.
fn shape_note(puzzle: &Puzzle, solutions: u128) -> Option<Note> {
    if solutions == 1 {
        return None;
    }
    let hints: Vec<String> = [puzzle.shape_hint(), puzzle.symbols_hint()]
        .into_iter()
        .flatten()
        .collect();
    (!hints.is_empty()).then(|| Note {
        line: puzzle.line,
        text: format!("note: {}", hints.join("; ")),
        warning: false,
    })
}

/// Solves one valid puzzle for a task and renders its record.
fn record(task: Task, solver: &mut GridSolver<'_>, file: &str, puzzle: &Puzzle) -> Record {
    match task {
        Task::First(format, restarts) => {
            // Looking for a second solution costs about as much as proving the first one
            // unique, and a puzzle with several must not pass silently.
            let answer = match restarts {
                Some(seed) => solver.verdict_restarting(&puzzle.grid, seed),
                None => solver.verdict(&puzzle.grid),
            };
            let judged = Judged {
                verdict: answer.value,
                stats: answer.stats,
                finished: !solver.interrupted(),
            };
            first_report(format, file, puzzle, &judged)
        }
        Task::Count(limit, format) => {
            let answer = solver.count(&puzzle.grid, limit);
            let finished = !solver.interrupted();
            let text = match format {
                ReportFormat::Text if finished => answer.value.to_string(),
                ReportFormat::Text => format!("{} (partial)", answer.value),
                ReportFormat::Json => {
                    count_json_record(file, puzzle, answer.value, limit, !finished, answer.stats)
                }
            };
            Record {
                text,
                multiline: false,
                stats: answer.stats,
                finished,
                note: if finished {
                    shape_note(puzzle, answer.value)
                } else {
                    None
                },
            }
        }
        Task::Check(format) => {
            let answer = solver.verdict(&puzzle.grid);
            let judged = Judged {
                verdict: answer.value,
                stats: answer.stats,
                finished: !solver.interrupted(),
            };
            check_report(format, file, puzzle, &judged)
        }
    }
}

/// A puzzle's verdict, the work it took and whether its search finished.
struct Judged {
    verdict: Verdict,
    stats: Stats,
    finished: bool,
}

/// `solve`'s record of a puzzle, from its verdict: the first solution, with a warning when
/// there are several.
fn first_report(
    format: Option<SolveFormat>,
    file: &str,
    puzzle: &Puzzle,
    judged: &Judged,
) -> Record {
    let (solution, several) = match &judged.verdict {
        Verdict::None => (None, false),
        Verdict::Unique(a) => (Some(a), false),
        Verdict::Multiple(a, _) => (Some(a), true),
    };
    // Two solutions settle the answer, stopped or not.
    let (stats, finished) = (judged.stats, judged.finished || several);
    let layout = layout_for(format, puzzle);
    let json = answers_in_json(format, puzzle);
    let text = match (json, solution) {
        (_, None) if !finished => String::new(),
        (true, solution) => puzzle_json(
            file,
            puzzle,
            json!({
                "solution": solution.map(grid_json),
                // Unknown (null) for a solution found before the search was stopped.
                "unique": finished.then_some(solution.is_some() && !several),
                "partial": !finished,
                "stats": stats_json(stats),
            }),
        ),
        (false, Some(solution)) => text::write_in(solution, layout, puzzle.symbols),
        (false, None) => "no solution".to_string(),
    };
    let note = if !finished {
        Some(Note {
            line: puzzle.line,
            text: signals::stopped_verdict(solution.is_some(), true).to_string(),
            warning: true,
        })
    } else if several {
        let mut text = "warning: this puzzle has more than one solution; the one printed \
                        is the first found (`sudoku count` says how many)"
            .to_string();
        if let Some(hint) = puzzle.shape_hint() {
            text.push_str(&format!("; {hint}"));
        }
        Some(Note {
            line: puzzle.line,
            text,
            warning: true,
        })
    } else {
        shape_note(puzzle, u128::from(solution.is_some()))
    };
    Record {
        text,
        multiline: !json && is_multiline(layout),
        stats,
        finished,
        note,
    }
}

/// `check`'s record of a puzzle, from its verdict.
fn check_report(format: ReportFormat, file: &str, puzzle: &Puzzle, judged: &Judged) -> Record {
    let (word, solutions) = match &judged.verdict {
        Verdict::None => ("none", vec![]),
        Verdict::Unique(a) => ("unique", vec![grid_json(a)]),
        Verdict::Multiple(a, b) => ("multiple", vec![grid_json(a), grid_json(b)]),
    };
    // Two solutions settle the verdict, stopped or not; else a stopped search gives none.
    let (stats, finished) = (judged.stats, judged.finished || solutions.len() == 2);
    if !finished {
        return Record {
            text: String::new(),
            multiline: false,
            stats,
            finished,
            note: Some(Note {
                line: puzzle.line,
                text: signals::stopped_verdict(!solutions.is_empty(), false).to_string(),
                warning: true,
            }),
        };
    }
    let text = match format {
        ReportFormat::Text => word.to_string(),
        ReportFormat::Json => puzzle_json(
            file,
            puzzle,
            json!({
                "verdict": word,
                "solutions": solutions,
                "stats": stats_json(stats),
            }),
        ),
    };
    Record {
        text,
        multiline: false,
        stats,
        finished,
        note: shape_note(puzzle, solutions.len() as u128),
    }
}

/// `solve` (without restarts) or `check` of a file of one puzzle (or one typed in): where the
/// search probes (large grids), one search split across the threads, counting to two in the
/// order of a one-thread search, so that the verdict and the grids shown are those of `-j1`,
/// with a bar on a terminal for a search that lasts. At `-j1` this is the one-thread search
/// with the bar, in the same time (sparse 25x25 puzzle 2 of `large-hard`: 1.00 of the time of
/// the batch path, 0.93-1.09, seven pairs of runs). A batch's puzzles are solved one per
/// thread instead.
fn verdict_record(
    task: Task,
    args: &PuzzleArgs,
    file: &str,
    puzzle: &Puzzle,
) -> Result<Record, String> {
    let encoding = Encoding::new(puzzle.grid.shape());
    let (verdict, stats, stopped) = match puzzle_solver(&encoding, puzzle, args) {
        // A search that does not probe has cheap nodes, and while one thread goes down
        // thousands of levels to the first solutions (an empty 64x64 grid), others can only
        // search elsewhere and slow it down (`count --limit 2`, which splits: two threads
        // 0.51 s, one 0.31 s): one thread.
        Some(mut solver) if solver.resolved_inference() != Inference::Probe => {
            let verdict = solver.verdict().map(|options| encoding.grid_of(&options));
            (verdict, solver.stats(), solver.interrupted())
        }
        Some(solver) => {
            let found = Mutex::new(Vec::with_capacity(2));
            let visit = |options: &[dlx::OptionId]| {
                let grid = encoding.grid_of(options);
                found.lock().unwrap_or_else(|e| e.into_inner()).push(grid);
                ControlFlow::Continue(())
            };
            let settings = Enumeration {
                limit: Some(2),
                ordered: true,
                ..Enumeration::default()
            };
            // On a terminal, a search that lasts shows a bar: the share explored (most of a
            // hard puzzle's time goes on proving its one solution the only one).
            let monitor = Monitor::new();
            let progress = Progress::new(None, 0.0, 0, 1.0);
            let outcome = progress.watch(&monitor, 0, 0.0, || {
                solver.enumerate_parallel(vec![Subtree::root()], &settings, Some(&visit), &monitor)
            });
            progress.finish();
            let outcome = outcome.map_err(|error| format!("{file}:{}: {error}", puzzle.line))?;
            let mut grids = found
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .into_iter();
            let verdict = match (grids.next(), grids.next()) {
                (None, _) => Verdict::None,
                (Some(a), None) => Verdict::Unique(a),
                (Some(a), Some(b)) => Verdict::Multiple(a, b),
            };
            // The work of choosing the clues counts, as in a batch's records.
            let mut stats = solver.stats();
            stats += outcome.stats;
            (verdict, stats, outcome.stopped.is_some())
        }
        // Clashing clues: no search, no solution.
        None => (Verdict::None, Stats::default(), false),
    };
    let judged = Judged {
        verdict,
        stats,
        finished: !stopped,
    };
    Ok(match task {
        Task::First(format, _) => first_report(format, file, puzzle, &judged),
        Task::Check(format) => check_report(format, file, puzzle, &judged),
        Task::Count(..) => unreachable!("a count of one puzzle is `count_record`'s"),
    })
}

/// A solver of the engine for one puzzle, set up from the flags; `None` when its clues
/// clash.
fn puzzle_solver<'e>(
    encoding: &'e Encoding,
    puzzle: &Puzzle,
    args: &PuzzleArgs,
) -> Option<dlx::Solver<'e>> {
    let mut solver = encoding.puzzle_solver(&puzzle.grid)?;
    solver.set_cancel_flag(Some(signals::flag()));
    solver.set_inference(args.inference.inference);
    Some(solver)
}

/// Which JSON record a count of one puzzle prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JsonShape {
    /// A batch's record: the same for every puzzle, however it was counted.
    Batch,
    /// A single search's record, with what `merge` needs (fingerprint, shard, nodes).
    Shard,
}

/// Counts one puzzle's solutions with one search on every core (or the part of it that
/// `search` names) and renders its record in `shape`.
fn count_record(
    limit: Option<u128>,
    format: ReportFormat,
    shape: JsonShape,
    search: &SearchArgs,
    args: &PuzzleArgs,
    file: &str,
    puzzle: &Puzzle,
) -> Result<Record, String> {
    let encoding = Encoding::new(puzzle.grid.shape());
    let label = format!("{file}:{}", puzzle.line);
    let finished = match puzzle_solver(&encoding, puzzle, args) {
        Some(mut solver) => {
            let wanted = Wanted {
                limit,
                ordered: false,
                visit: None,
            };
            enumerate::run(&mut solver, search, &wanted, &label)?
        }
        // Clashing clues: no search, no solution.
        None => enumerate::Finished {
            solutions: 0,
            stats: Stats::default(),
            seconds: 0.0,
            part: enumerate::Part { k: 1, n: 1 },
            fingerprint: 0,
            interrupted: false,
        },
    };
    let text = match format {
        ReportFormat::Text if finished.interrupted => format!("{} (partial)", finished.solutions),
        ReportFormat::Text => finished.solutions.to_string(),
        ReportFormat::Json if shape == JsonShape::Batch => count_json_record(
            file,
            puzzle,
            finished.solutions,
            limit,
            finished.interrupted,
            finished.stats,
        ),
        ReportFormat::Json => {
            let mut record = finished.record();
            if let Value::Object(fields) = &mut record {
                fields.insert("file".into(), json!(file));
                fields.insert("line".into(), json!(puzzle.line));
                fields.insert("id".into(), Value::Null);
                fields.insert("boxes".into(), json!(puzzle.grid.shape().to_string()));
                fields.insert("limit".into(), json!(limit));
                fields.insert("stats".into(), stats_json(finished.stats));
            }
            record.to_string()
        }
    };
    Ok(Record {
        text,
        multiline: false,
        stats: finished.stats,
        finished: !finished.interrupted,
        note: if finished.interrupted {
            None
        } else {
            shape_note(puzzle, finished.solutions)
        },
    })
}

/// A batch's JSON record of a puzzle: where it is and its shape (and, as for variants, its
/// name: none), then `extra`'s fields.
fn puzzle_json(file: &str, puzzle: &Puzzle, extra: Value) -> String {
    let mut object = json!({
        "file": file,
        "line": puzzle.line,
        "id": null,
        "boxes": puzzle.grid.shape().to_string(),
    });
    if let (Some(object), Value::Object(extra)) = (object.as_object_mut(), extra) {
        object.extend(extra);
    }
    object.to_string()
}

/// A batch's JSON record of a count, the same whichever way the puzzle was counted.
fn count_json_record(
    file: &str,
    puzzle: &Puzzle,
    count: u128,
    limit: Option<u128>,
    partial: bool,
    stats: Stats,
) -> String {
    let fields = json!({
        "count": count_json(count),
        "limit": limit,
        "partial": partial,
        "stats": stats_json(stats),
    });
    puzzle_json(file, puzzle, fields)
}

/// The one puzzle of the input, for the flags that split, save or resume a single search;
/// an error message says why there is not exactly one.
fn single_puzzle(args: &PuzzleArgs) -> Result<(Arc<str>, Puzzle), String> {
    let mut found = None;
    let mut count = 0;
    for item in input::stream(args.files.clone(), args.boxes.shape) {
        match item {
            Item::FileError(message) => return Err(message),
            Item::Job(Job { file, puzzle }) => {
                count += 1;
                match puzzle {
                    Ok(puzzle) => found = found.or(Some((file, puzzle))),
                    Err(error) => return Err(format!("{file}:{}: {}", error.line, error.kind)),
                }
            }
        }
    }
    if signals::stopped() {
        return Err("interrupted while reading the input".to_string());
    }
    match found {
        Some(found) if count == 1 => Ok(found),
        _ => Err(format!(
            "--shard, --task, --checkpoint, --resume and split work on one puzzle; the input \
             holds {count} puzzle{}",
            if count == 1 { "" } else { "s" }
        )),
    }
}

/// `count` with --shard, --task, --checkpoint or --resume: one puzzle's count.
fn count_one(
    limit: Option<u128>,
    format: ReportFormat,
    search: &SearchArgs,
    args: &PuzzleArgs,
) -> io::Result<Outcome> {
    let started = Instant::now();
    let record = single_puzzle(args).and_then(|(file, puzzle)| {
        count_record(
            limit,
            format,
            JsonShape::Shard,
            search,
            args,
            &file,
            &puzzle,
        )
        .map(|record| (record, puzzle, file))
    });
    let (record, puzzle, file) = match record {
        Ok(found) => found,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    if let Some(note) = &record.note {
        eprintln!("{file}:{}: {}", puzzle.line, note.text);
    }
    let mut out = stdout();
    writeln!(out, "{}", record.text)?;
    if args.stats {
        print_stats(1, record.stats, started);
    }
    if !record.finished {
        return finish(out, Outcome::Interrupted);
    }
    finish(out, Outcome::Success)
}

/// `split`: the task list of one puzzle's search.
fn split(parts: usize, args: &PuzzleArgs) -> io::Result<Outcome> {
    let (_, puzzle) = match single_puzzle(args) {
        Ok(found) => found,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let encoding = Encoding::new(puzzle.grid.shape());
    let Some(mut solver) = puzzle_solver(&encoding, &puzzle, args) else {
        eprintln!("xcover: the clues clash: the puzzle has no solution and nothing to split");
        return Ok(Outcome::InvalidInput);
    };
    let mut out = stdout();
    enumerate::print_tasks(&mut solver, parts, &mut out)?;
    finish(out, Outcome::Success)
}

/// Where `solve --all` writes: standard output itself rather than its lock, because the
/// writer moves between the threads of a search.
type SharedOut = io::BufWriter<io::Stdout>;

/// `solve --all` / `--limit`: one puzzle at a time, each puzzle's search on every core, each
/// solution written as it is found, so that enumerating millions of solutions never holds
/// them in memory (unless --ordered makes some wait for their turn).
fn solve_all(
    limit: Option<u128>,
    format: Option<SolveFormat>,
    ordered: bool,
    search: &SearchArgs,
    args: &PuzzleArgs,
) -> io::Result<Outcome> {
    if let Some(message) = enumerate::conflict(ordered, search) {
        eprintln!("xcover: {message}");
        return Ok(Outcome::BadUsage);
    }
    let started = Instant::now();
    let items: Box<dyn Iterator<Item = Item>> = if search.any() {
        match single_puzzle(args) {
            Ok((file, puzzle)) => Box::new(std::iter::once(Item::Job(Job {
                file,
                puzzle: Ok(puzzle),
            }))),
            Err(message) => {
                eprintln!("xcover: {message}");
                return Ok(Outcome::InvalidInput);
            }
        }
    } else {
        Box::new(input::stream(args.files.clone(), args.boxes.shape))
    };
    let mut encodings: HashMap<BoxShape, Encoding> = HashMap::new();
    let mut out: SharedOut = io::BufWriter::with_capacity(1 << 16, io::stdout());
    let mut outcome = Outcome::Success;
    let mut total = Stats::default();
    let mut puzzles = 0;
    for item in items {
        let Some(job) = input::job(&item, &mut outcome) else {
            continue;
        };
        // Records of several lines are set apart by a blank line; JSON records are one line
        // each (JSON Lines).
        let json = match &job.puzzle {
            Ok(puzzle) => answers_in_json(format, puzzle),
            Err(_) => format == Some(SolveFormat::Json),
        };
        if puzzles > 0 && !json {
            writeln!(out)?;
        }
        puzzles += 1;
        let file = &job.file;
        let puzzle = match &job.puzzle {
            Ok(puzzle) => puzzle,
            Err(error) => {
                eprintln!("{file}:{}: {}", error.line, error.kind);
                outcome = Outcome::InvalidInput;
                let record = Record::invalid(Task::First(format, None), job);
                writeln!(out, "{}", record.text)?;
                continue;
            }
        };
        let shape = puzzle.grid.shape();
        let encoding = encodings
            .entry(shape)
            .or_insert_with(|| Encoding::new(shape));
        let layout = layout_for(format, puzzle);
        let json = answers_in_json(format, puzzle);
        // In JSON, one record per solution and a last one with the count (JSON Lines): one
        // record holding every solution made a puzzle with millions of them one line of
        // hundreds of megabytes.
        let head = format!(
            r#""file":{},"line":{},"id":null,"boxes":"{}""#,
            json!(&**file),
            puzzle.line,
            puzzle.grid.shape()
        );
        if !json && is_multiline(layout) {
            // Solutions of several lines are set apart by blank lines, so each puzzle's are
            // headed by where the puzzle is (a comment, which reads back as nothing): they
            // could not be told from the next puzzle's.
            writeln!(out, "# solutions of {file}:{}", puzzle.line)?;
        }
        let label = format!("{file}:{}", puzzle.line);
        let (written, finished, result) = match puzzle_solver(encoding, puzzle, args) {
            None => (0, None, Ok(())),
            Some(mut solver) => {
                let write = |out: &mut SharedOut, options: &[dlx::OptionId], index: u128| {
                    let grid = encoding.grid_of(options);
                    if json {
                        let solution = grid_json(&grid);
                        return writeln!(
                            out,
                            r#"{{{head},"index":{index},"solution":{solution}}}"#
                        );
                    }
                    write_solution(out, &grid, index, (layout, puzzle.symbols))
                };
                let (returned, written, result) = enumerate::run_writing(
                    &mut solver,
                    search,
                    (limit, ordered),
                    &label,
                    out,
                    write,
                );
                out = returned;
                match result {
                    Ok(finished) => (written, Some(finished), Ok(())),
                    Err(error) => (written, None, Err(error)),
                }
            }
        };
        result?;
        let finished = match finished.transpose() {
            Ok(finished) => finished,
            Err(message) => {
                eprintln!("xcover: {message}");
                return finish(out, Outcome::InvalidInput);
            }
        };
        let stopped = finished.as_ref().is_some_and(|f| f.interrupted);
        if let Some(finished) = &finished {
            total += finished.stats;
        }
        if json {
            writeln!(
                out,
                r#"{{{head},"count":{written}{}}}"#,
                if stopped { r#","partial":true"# } else { "" }
            )?;
        } else if written == 0 && !stopped && search.resume.is_none() {
            writeln!(out, "no solution")?;
        }
        if stopped {
            return interrupted(out, puzzles - 1, started, args.stats, total);
        }
        if let Some(note) = shape_note(puzzle, written) {
            eprintln!("{file}:{}: {}", note.line, note.text);
        }
    }
    if signals::stopped() {
        // Stopped while waiting for the next puzzle of the input.
        return interrupted(out, puzzles, started, args.stats, total);
    }
    if args.stats {
        print_stats(puzzles, total, started);
    }
    finish(out, outcome)
}

/// Writes the `index`-th solution of a puzzle (from 0) in its layout.
fn write_solution(
    out: &mut SharedOut,
    grid: &xcover::sudoku::Grid,
    index: u128,
    (layout, symbols): (Layout, Symbols),
) -> io::Result<()> {
    if index > 0 && is_multiline(layout) {
        writeln!(out)?;
    }
    write!(out, "{}", text::write_in(grid, layout, symbols))?;
    if !is_multiline(layout) {
        writeln!(out)?;
    }
    Ok(())
}

/// `encode`: one puzzle's problem in Knuth's format.
fn encode(index: Option<usize>, shape: Option<BoxShape>, path: &str) -> io::Result<Outcome> {
    let (name, reader) = match input::open(path) {
        Ok(opened) => opened,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let wanted = index.unwrap_or(1);
    let mut count = 0;
    let mut found = None;
    for puzzle in Reader::new(reader, shape) {
        count += 1;
        if count == wanted {
            found = Some(puzzle);
            break;
        }
    }
    let puzzle = match found {
        Some(puzzle) if wanted > 0 => puzzle,
        _ if count == 0 => {
            eprintln!(
                "xcover: {name}: no puzzle found (the input is empty, or holds only comments)"
            );
            return Ok(Outcome::InvalidInput);
        }
        _ => {
            eprintln!(
                "xcover: {name}: --index {wanted} is out of range: the input holds {count} \
                 puzzle{} (numbered from 1)",
                if count == 1 { "" } else { "s" }
            );
            return Ok(Outcome::BadUsage);
        }
    };
    let puzzle = match puzzle.and_then(|p| p.validate().map(|()| p)) {
        Ok(puzzle) => puzzle,
        Err(error) => {
            eprintln!("{name}:{}: {}", error.line, error.kind);
            return Ok(Outcome::InvalidInput);
        }
    };
    let encoding = Encoding::new(puzzle.grid.shape());
    let problem = encoding.puzzle_problem(&puzzle.grid);
    let mut out = stdout();
    writeln!(
        out,
        "| Sudoku {} (boxes {}) from {name} line {}: items rIcJ (cell), rIvV, cJvV, bKvV (row, \
         column, box has symbol V); one option per allowed cell and symbol; |block: lines match \
         each row's, column's and box's cells with its symbols, and each symbol's rows with its \
         columns.",
        puzzle.grid.size(),
        puzzle.grid.shape(),
        puzzle.line
    )?;
    dlx::format::write(&problem, &mut out)?;
    finish(out, Outcome::Success)
}
