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
use itertools::Itertools;
use rayon::prelude::*;
use serde_json::{Value, json};

use super::enumerate::{self, SearchArgs, Wanted, count_json};
use super::input::{self, InputPuzzle, Item, Job, grid_of};
use super::progress::Progress;
use super::{Outcome, finish, parse_limit, print_stats, signals, stdout};
use xcover::dlx::Verdict;
use xcover::dlx::{self, Enumeration, Inference, Monitor, OptionId, Stats, Subtree};
use xcover::sudoku::batch::Batch;
use xcover::sudoku::text::{self, FaultKind, Layout, Puzzle};
use xcover::sudoku::variant::text as variant_text;
use xcover::sudoku::variant::{VariantEncoding, fpuzzles};
use xcover::sudoku::{BoxShape, Encoding, Grid, GridSolver};

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
    /// The true candidates of each cell (the symbols some solution puts there), and which
    /// cells are still open; with --counts, how many solutions each leaves.
    Candidates(super::candidates::CandidatesArgs),
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
    /// One f-puzzles link per solution: the puzzle with that solution, to open in f-puzzles
    /// or SudokuPad (sides up to 16; not for greater-than signs).
    Fpuzzles,
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
    if let Some(outcome) = refuse_box_for_variants(&command) {
        return Ok(outcome);
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
            eprintln!(
                "xcover: --shard, --task, --checkpoint and --resume split the search of one \
                 puzzle: count, or solve with --all or --limit"
            );
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
        SudokuCommand::Candidates(args) => super::candidates::run(args),
        SudokuCommand::Encode { index, boxes, file } => encode(index, boxes.shape, &file),
    }
}

/// `--box` is for plain grids: a variant puzzle gives its boxes in its `box:` line. When
/// every file holds variants the flag could only be ignored silently, so it is refused.
fn refuse_box_for_variants(command: &SudokuCommand) -> Option<Outcome> {
    let (files, shape) = match command {
        SudokuCommand::Solve { input, .. }
        | SudokuCommand::Count { input, .. }
        | SudokuCommand::Check { input, .. }
        | SudokuCommand::Split { input, .. } => (&input.files[..], input.boxes.shape),
        SudokuCommand::Encode { boxes, file, .. } => (std::slice::from_ref(file), boxes.shape),
        _ => return None,
    };
    let shape = shape?;
    files
        .iter()
        .all(|file| input::is_variant_file(file))
        .then(|| {
            eprintln!(
                "xcover: --box {shape} is for plain grids; a variant puzzle gives its boxes in \
                 its 'box:' line"
            );
            Outcome::BadUsage
        })
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

/// Solves, counts or checks every puzzle, plain grids and variants alike, in parallel chunks
/// as they are read, printing records in input order.
///
/// Plain grids share one encoding per box shape ([`Batch`]); a variant's rules are its own,
/// so each gets its own encoding, on a thread of the same pool.
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
    runner.set_branching(args.inference.branching.chosen());
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
            None => {
                let mut solved = runner.run(&chunk, grid_of, |solver, item, _| match item {
                    Item::Job(Job {
                        file,
                        puzzle: Ok(input @ InputPuzzle::Grid(puzzle)),
                    }) => grid_record(task, solver, file, input, puzzle),
                    _ => unreachable!("only valid plain puzzles have a grid"),
                });
                add_variant_records(task, args, &chunk, &mut solved);
                solved
            }
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
                eprintln!("{}:{}: {}", job.file, error.line, error.message);
                outcome = Outcome::InvalidInput;
            }
            if let Some(note) = &record.note
                && (!hinted || note.warning)
            {
                eprintln!("{}:{}: {}", job.file, note.line, note.text);
                hinted |= !note.warning;
                if note.failed {
                    outcome = Outcome::InvalidInput;
                }
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

/// Fills in the records of a chunk's variant puzzles, in parallel, each searched with an
/// encoding of its own rules.
fn add_variant_records(
    task: Task,
    args: &PuzzleArgs,
    chunk: &[Item],
    solved: &mut [Option<Record>],
) {
    let is_variant = |item: &Item| {
        matches!(
            item,
            Item::Job(Job {
                puzzle: Ok(InputPuzzle::Variant(_)),
                ..
            })
        )
    };
    if !chunk.iter().any(is_variant) {
        return;
    }
    let records: Vec<Option<Record>> = chunk
        .par_iter()
        .map(|item| match item {
            Item::Job(Job {
                file,
                puzzle: Ok(puzzle @ InputPuzzle::Variant(_)),
            }) => Some(variant_record(task, args, file, puzzle)),
            _ => None,
        })
        .collect();
    for (slot, record) in solved.iter_mut().zip(records) {
        if record.is_some() {
            *slot = record;
        }
    }
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
    /// The note is an error that fails the run: a solution that breaks a rule, or one that
    /// differs from the solution the file states.
    failed: bool,
}

impl Note {
    /// A note printed for every puzzle it concerns, named by its id when it has one.
    fn warning(puzzle: &InputPuzzle, text: &str) -> Note {
        Note {
            line: puzzle.line(),
            text: match puzzle.id() {
                Some(id) => format!("puzzle {id}: {text}"),
                None => text.to_string(),
            },
            warning: true,
            failed: false,
        }
    }

    fn error(puzzle: &InputPuzzle, text: &str) -> Note {
        Note {
            failed: true,
            ..Note::warning(puzzle, text)
        }
    }
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
        let text = match job.puzzle.as_ref().err() {
            Some(error) => invalid_text(task, &job.file, error.line, &error.message, error.kind),
            None => invalid_text(task, &job.file, 0, "", FaultKind::Layout),
        };
        Record {
            text,
            multiline: false,
            stats: Stats::default(),
            finished: true,
            note: None,
        }
    }

    /// The record of a puzzle that was read but cannot be searched (a variant whose rules
    /// cannot be encoded), with its error on stderr.
    fn unsearchable(task: Task, file: &str, puzzle: &InputPuzzle, message: String) -> Record {
        Record {
            text: invalid_text(task, file, puzzle.line(), &message, FaultKind::Rule),
            multiline: false,
            stats: Stats::default(),
            finished: true,
            note: Some(Note::error(puzzle, &message)),
        }
    }
}

/// The record of a puzzle that cannot be used: `invalid`, or in JSON where it is and why.
fn invalid_text(task: Task, file: &str, line: usize, message: &str, kind: FaultKind) -> String {
    if task.json() {
        json!({"file": file, "line": line, "error": message, "kind": kind.name()}).to_string()
    } else {
        "invalid".to_string()
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

/// The layout to print a plain grid's solution in: the one asked for, else the puzzle's own.
fn layout_for(format: Option<SolveFormat>, puzzle: &Puzzle) -> Layout {
    match format {
        Some(SolveFormat::Line) => Layout::Line,
        Some(SolveFormat::Grid) => Layout::Grid,
        Some(SolveFormat::Numbers) => Layout::Numbers,
        Some(SolveFormat::Json | SolveFormat::Fpuzzles) | None => puzzle.layout,
    }
}

/// Whether a puzzle's answer is a JSON record: asked for, or a plain grid came as one
/// (answers are in the layout the puzzle came in).
fn answers_in_json(format: Option<SolveFormat>, puzzle: &InputPuzzle) -> bool {
    format == Some(SolveFormat::Json)
        || (format.is_none() && matches!(puzzle, InputPuzzle::Grid(grid) if grid.json))
}

/// Whether a layout takes several lines, so that records are separated by blank lines.
fn is_multiline(layout: Layout) -> bool {
    matches!(layout, Layout::Grid | Layout::Numbers)
}

/// Whether a puzzle's solutions, written in `format`, take several lines.
fn writes_multiline(format: Option<SolveFormat>, puzzle: &InputPuzzle) -> bool {
    if format == Some(SolveFormat::Fpuzzles) {
        return false;
    }
    match puzzle {
        InputPuzzle::Grid(grid) => is_multiline(layout_for(format, grid)),
        InputPuzzle::Variant(_) => format != Some(SolveFormat::Line),
    }
}

/// A solution of `puzzle` (its cells row by row) written as asked, else as its file writes
/// grids: a plain grid in the layout and symbols it came in, a variant's as N lines.
fn written(format: Option<SolveFormat>, puzzle: &InputPuzzle, values: &[u8]) -> String {
    let n = puzzle.size();
    if format == Some(SolveFormat::Fpuzzles) {
        // A puzzle f-puzzles cannot draw gets a comment saying why, in its place.
        return fpuzzles::link(&puzzle.ruleset(), Some(values))
            .unwrap_or_else(|why| format!("# no f-puzzles link: {why}"));
    }
    if let InputPuzzle::Grid(grid) = puzzle
        && let Some(solution) = Grid::from_cells(grid.grid.shape(), values.to_vec())
    {
        return text::write_in(&solution, layout_for(format, grid), grid.symbols);
    }
    if let InputPuzzle::Variant(entry) = puzzle
        && entry.puzzle.rules.digits_from_zero()
    {
        // Doppelganger's board: digits from 0 (then letters past 9), a row a line (all on one
        // for --format line); as numbers with --format numbers.
        let rules = &entry.puzzle.rules;
        return match format {
            Some(SolveFormat::Line) => values.iter().map(|&v| rules.symbol_text(v)).collect(),
            Some(SolveFormat::Numbers) => values
                .chunks(n)
                .map(|row| row.iter().map(|&v| v.saturating_sub(1)).join(" ") + "\n")
                .collect(),
            _ => variant_text::board_lines(rules, values),
        };
    }
    match format {
        Some(SolveFormat::Line) => variant_text::grid_line(values),
        Some(SolveFormat::Numbers) => values
            .chunks(n)
            .map(|row| row.iter().map(u8::to_string).join(" ") + "\n")
            .collect(),
        _ => variant_text::grid_lines(n, values),
    }
}

/// A grid's symbols as a list of rows of `n`, each symbol as its digit: from 1, or from 0
/// when `from_zero` (doppelganger).
fn values_json(n: usize, from_zero: bool, values: &[u8]) -> Value {
    let digit = |v: u8| if from_zero { v.saturating_sub(1) } else { v };
    Value::from(
        values
            .chunks(n)
            .map(|row| Value::from(row.iter().map(|&v| digit(v)).collect::<Vec<_>>()))
            .collect::<Vec<_>>(),
    )
}

/// The note for a plain puzzle that has no solution or several when its boxes were only
/// assumed.
fn shape_note(puzzle: &InputPuzzle, solutions: u128) -> Option<Note> {
    let InputPuzzle::Grid(puzzle) = puzzle else {
        return None;
    };
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
        failed: false,
    })
}

/// The error for solutions of a variant that break one of its rules, as the judge that
/// shares no code with the encoding sees them (a fault of the engine), or for a unique
/// solution that differs from the one its file states; `None` when all is well. Plain grids
/// are not judged here: their encoding is checked against published counts and independent
/// solvers by the tests, and on files of easy puzzles the judge cost a fifth of the time.
fn fault(puzzle: &InputPuzzle, solutions: &[&Vec<u8>], unique: bool) -> Option<Note> {
    let InputPuzzle::Variant(entry) = puzzle else {
        return None;
    };
    let rules = &entry.puzzle.rules;
    let givens = &entry.puzzle.givens;
    if let Some(broken) = solutions
        .iter()
        .find_map(|grid| rules.broken_rule(givens, grid))
    {
        return Some(Note::error(
            puzzle,
            &format!("internal error: a solution breaks a rule ({broken}); please report it"),
        ));
    }
    match (&entry.solution, solutions) {
        (Some(stated), [found]) if unique && stated != *found => Some(Note::error(
            puzzle,
            "the solution found differs from the one the file states",
        )),
        _ => None,
    }
}

/// Solves one valid plain puzzle for a task with its shape's shared solver, and renders its
/// record.
fn grid_record(
    task: Task,
    solver: &mut GridSolver<'_>,
    file: &str,
    input: &InputPuzzle,
    puzzle: &Puzzle,
) -> Record {
    let cells = |grid: Grid| grid.cells().to_vec();
    match task {
        Task::First(format, restarts) => {
            // Looking for a second solution costs about as much as proving the first one
            // unique, and a puzzle with several must not pass silently.
            let answer = match restarts {
                Some(seed) => solver.verdict_restarting(&puzzle.grid, seed),
                None => solver.verdict(&puzzle.grid),
            };
            let judged = Judged {
                verdict: answer.value.map(cells),
                stats: answer.stats,
                finished: !solver.interrupted(),
            };
            first_report(format, file, input, &judged)
        }
        Task::Count(limit, format) => {
            let answer = solver.count(&puzzle.grid, limit);
            count_report(
                (limit, format),
                file,
                input,
                answer.value,
                answer.stats,
                !solver.interrupted(),
            )
        }
        Task::Check(format) => {
            let answer = solver.verdict(&puzzle.grid);
            let judged = Judged {
                verdict: answer.value.map(cells),
                stats: answer.stats,
                finished: !solver.interrupted(),
            };
            check_report(format, file, input, &judged)
        }
    }
}

/// Solves one valid variant puzzle for a task with an encoding of its own rules, on one
/// thread, and renders its record.
fn variant_record(task: Task, args: &PuzzleArgs, file: &str, puzzle: &InputPuzzle) -> Record {
    let searched = with_solver(puzzle, args, |solver, decode| {
        let Some(solver) = solver else {
            // The givens exclude each other: no search, no solution.
            return match task {
                Task::Count(limit, format) => {
                    count_report((limit, format), file, puzzle, 0, Stats::default(), true)
                }
                Task::First(format, _) => first_report(format, file, puzzle, &Judged::none()),
                Task::Check(format) => check_report(format, file, puzzle, &Judged::none()),
            };
        };
        match task {
            Task::Count(limit, format) => {
                let count = solver.count(limit);
                count_report(
                    (limit, format),
                    file,
                    puzzle,
                    count,
                    solver.stats(),
                    !solver.interrupted(),
                )
            }
            // Restarts are for the shared encodings of plain grids.
            Task::First(..) | Task::Check(_) => {
                let judged = Judged {
                    verdict: solver.verdict().map(|options| decode(&options)),
                    stats: solver.stats(),
                    finished: !solver.interrupted(),
                };
                match task {
                    Task::First(format, _) => first_report(format, file, puzzle, &judged),
                    _ => check_report(task_format(task), file, puzzle, &judged),
                }
            }
        }
    });
    searched.unwrap_or_else(|message| Record::unsearchable(task, file, puzzle, message))
}

/// The report format of a `check` task.
fn task_format(task: Task) -> ReportFormat {
    match task {
        Task::Check(format) | Task::Count(_, format) => format,
        Task::First(..) => ReportFormat::Text,
    }
}

/// Runs `work` with the engine's solver of one puzzle (its givens chosen, Ctrl-C and the
/// inference flag wired; `None` when the givens exclude each other) and the function that
/// turns a solution's options into its cells. An error: a variant whose rules cannot be
/// encoded, or Ctrl-C while a large cage's options are built.
fn with_solver<T>(
    puzzle: &InputPuzzle,
    args: &PuzzleArgs,
    work: impl FnOnce(Option<&mut dlx::Solver<'_>>, &(dyn Fn(&[OptionId]) -> Vec<u8> + Sync)) -> T,
) -> Result<T, String> {
    let inference = args.inference.inference;
    let branching = args.inference.branching;
    puzzle.any().with_solver_until(
        &signals::stopped,
        |solver| {
            solver.set_cancel_flag(Some(signals::flag()));
            solver.set_inference(inference);
            branching.apply(solver);
        },
        work,
    )
}

/// A puzzle's verdict (solutions as cells row by row), the work it took and whether its
/// search finished.
struct Judged {
    verdict: Verdict<Vec<u8>>,
    stats: Stats,
    finished: bool,
}

impl Judged {
    /// The verdict of givens that exclude each other: no search, no solution.
    fn none() -> Judged {
        Judged {
            verdict: Verdict::None,
            stats: Stats::default(),
            finished: true,
        }
    }
}

/// `solve`'s record of a puzzle, from its verdict: the first solution, with a warning when
/// there are several.
fn first_report(
    format: Option<SolveFormat>,
    file: &str,
    puzzle: &InputPuzzle,
    judged: &Judged,
) -> Record {
    let (solution, several) = match &judged.verdict {
        Verdict::None => (None, false),
        Verdict::Unique(a) => (Some(a), false),
        Verdict::Multiple(a, _) => (Some(a), true),
    };
    // Two solutions settle the answer, stopped or not.
    let (stats, finished) = (judged.stats, judged.finished || several);
    let json = answers_in_json(format, puzzle);
    let n = puzzle.size();
    let text = match (json, solution) {
        (_, None) if !finished => String::new(),
        (true, solution) => puzzle_json(
            file,
            puzzle,
            json!({
                "solution": solution.map(|grid| values_json(n, puzzle.digits_from_zero(), grid)),
                // Unknown (null) for a solution found before the search was stopped.
                "unique": finished.then_some(solution.is_some() && !several),
                "partial": !finished,
                "stats": stats_json(stats),
            }),
        ),
        (false, Some(solution)) => written(format, puzzle, solution),
        (false, None) => "no solution".to_string(),
    };
    let fault = solution.and_then(|grid| fault(puzzle, &[grid], finished && !several));
    let note = if fault.is_some() {
        fault
    } else if !finished {
        Some(Note::warning(
            puzzle,
            signals::stopped_verdict(solution.is_some(), true),
        ))
    } else if several {
        let mut text = "warning: this puzzle has more than one solution; the one printed is the \
                        first found (`sudoku count` says how many)"
            .to_string();
        if let InputPuzzle::Grid(grid) = puzzle
            && let Some(hint) = grid.shape_hint()
        {
            text.push_str(&format!("; {hint}"));
        }
        Some(Note::warning(puzzle, &text))
    } else {
        shape_note(puzzle, u128::from(solution.is_some()))
    };
    Record {
        text,
        multiline: !json && writes_multiline(format, puzzle),
        stats,
        finished,
        note,
    }
}

/// `check`'s record of a puzzle, from its verdict.
fn check_report(format: ReportFormat, file: &str, puzzle: &InputPuzzle, judged: &Judged) -> Record {
    let (word, solutions) = match &judged.verdict {
        Verdict::None => ("none", vec![]),
        Verdict::Unique(a) => ("unique", vec![a]),
        Verdict::Multiple(a, b) => ("multiple", vec![a, b]),
    };
    // Two solutions settle the verdict, stopped or not; else a stopped search gives none.
    let (stats, finished) = (judged.stats, judged.finished || solutions.len() == 2);
    let fault = fault(puzzle, &solutions, finished && solutions.len() == 1);
    if !finished {
        return Record {
            text: String::new(),
            multiline: false,
            stats,
            finished,
            note: fault.or_else(|| {
                Some(Note::warning(
                    puzzle,
                    signals::stopped_verdict(!solutions.is_empty(), false),
                ))
            }),
        };
    }
    let n = puzzle.size();
    let text = match format {
        ReportFormat::Text => word.to_string(),
        ReportFormat::Json => puzzle_json(
            file,
            puzzle,
            json!({
                "verdict": word,
                "solutions": solutions
                    .iter()
                    .map(|grid| values_json(n, puzzle.digits_from_zero(), grid))
                    .collect::<Vec<_>>(),
                "stats": stats_json(stats),
            }),
        ),
    };
    Record {
        text,
        multiline: false,
        stats,
        finished,
        note: fault.or_else(|| shape_note(puzzle, solutions.len() as u128)),
    }
}

/// `count`'s record of a puzzle counted by one thread.
fn count_report(
    (limit, format): (Option<u128>, ReportFormat),
    file: &str,
    puzzle: &InputPuzzle,
    count: u128,
    stats: Stats,
    finished: bool,
) -> Record {
    let text = match format {
        ReportFormat::Text if finished => count.to_string(),
        ReportFormat::Text => format!("{count} (partial)"),
        ReportFormat::Json => count_json_record(file, puzzle, count, limit, !finished, stats),
    };
    Record {
        text,
        multiline: false,
        stats,
        finished,
        note: if finished {
            shape_note(puzzle, count)
        } else {
            None
        },
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
    puzzle: &InputPuzzle,
) -> Result<Record, String> {
    let searched = with_solver(puzzle, args, |solver, decode| match solver {
        // A search that does not probe has cheap nodes, and while one thread goes down
        // thousands of levels to the first solutions (an empty 64x64 grid), others can only
        // search elsewhere and slow it down (`count --limit 2`, which splits: two threads
        // 0.51 s, one 0.31 s): one thread.
        Some(solver) if solver.resolved_inference() != Inference::Probe => {
            let verdict = solver.verdict().map(|options| decode(&options));
            Ok::<_, String>((verdict, solver.stats(), solver.interrupted()))
        }
        Some(solver) => {
            let found = Mutex::new(Vec::with_capacity(2));
            let visit = |options: &[dlx::OptionId]| {
                let grid = decode(options);
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
            let outcome = outcome.map_err(|error| format!("{file}:{}: {error}", puzzle.line()))?;
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
            Ok((verdict, stats, outcome.stopped.is_some()))
        }
        // Givens that exclude each other: no search, no solution.
        None => Ok((Verdict::None, Stats::default(), false)),
    });
    let (verdict, stats, stopped) = match searched {
        Ok(searched) => searched?,
        // A variant whose rules cannot be encoded gets its record, as in a batch.
        Err(message) => return Ok(Record::unsearchable(task, file, puzzle, message)),
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
    puzzle: &InputPuzzle,
) -> Result<Record, String> {
    let label = format!("{file}:{}", puzzle.line());
    let counted = with_solver(puzzle, args, |solver, _| match solver {
        Some(solver) => {
            let wanted = Wanted {
                limit,
                ordered: false,
                visit: None,
            };
            enumerate::run(solver, search, &wanted, &label)
        }
        // Givens that exclude each other: no search, no solution.
        None => Ok(enumerate::Finished {
            solutions: 0,
            stats: Stats::default(),
            seconds: 0.0,
            part: enumerate::Part { k: 1, n: 1 },
            fingerprint: 0,
            interrupted: false,
        }),
    });
    let finished = counted.map_err(|error| format!("{file}:{}: {error}", puzzle.line()))??;
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
                fields.insert("line".into(), json!(puzzle.line()));
                fields.insert("id".into(), json!(puzzle.id()));
                fields.insert("boxes".into(), json!(puzzle.boxes()));
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

/// The head of every JSON record of a puzzle: its file, line, name (plain grids have none)
/// and boxes.
fn record_head(file: &str, puzzle: &InputPuzzle) -> Value {
    json!({
        "file": file,
        "line": puzzle.line(),
        "id": puzzle.id(),
        "boxes": puzzle.boxes(),
    })
}

/// A batch's JSON record of a puzzle: its head, then `extra`'s fields.
fn puzzle_json(file: &str, puzzle: &InputPuzzle, extra: Value) -> String {
    let mut object = record_head(file, puzzle);
    if let (Some(object), Value::Object(extra)) = (object.as_object_mut(), extra) {
        object.extend(extra);
    }
    object.to_string()
}

/// A batch's JSON record of a count, the same whichever way the puzzle was counted.
fn count_json_record(
    file: &str,
    puzzle: &InputPuzzle,
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
fn single_puzzle(args: &PuzzleArgs) -> Result<(Arc<str>, InputPuzzle), String> {
    let mut found = None;
    let mut count = 0;
    for item in input::stream(args.files.clone(), args.boxes.shape) {
        match item {
            Item::FileError(message) => return Err(message),
            Item::Job(Job { file, puzzle }) => {
                count += 1;
                match puzzle {
                    Ok(puzzle) => found = found.or(Some((file, puzzle))),
                    Err(error) => return Err(format!("{file}:{}: {}", error.line, error.message)),
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
        .map(|record| (record, file))
    });
    let (record, file) = match record {
        Ok(found) => found,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    if let Some(note) = &record.note {
        eprintln!("{file}:{}: {}", note.line, note.text);
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
    let (file, puzzle) = match single_puzzle(args) {
        Ok(found) => found,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let mut out = stdout();
    let split = with_solver(&puzzle, args, |solver, _| match solver {
        Some(solver) => enumerate::print_tasks(solver, parts, &mut out).map_err(|e| e.to_string()),
        None => Err(
            "the givens exclude each other: the puzzle has no solution and nothing to split"
                .to_string(),
        ),
    });
    let split = split.map_err(|error| format!("{file}:{}: {error}", puzzle.line()));
    if let Err(message) = split.and_then(|split| split) {
        eprintln!("xcover: {message}");
        return Ok(Outcome::InvalidInput);
    }
    finish(out, Outcome::Success)
}

/// Where `solve --all` writes: standard output itself rather than its lock, because the
/// writer moves between the threads of a search.
type SharedOut = io::BufWriter<io::Stdout>;

/// `solve --all` / `--limit`: one puzzle at a time, each puzzle's search on every core, each
/// solution written as it is found, so that enumerating millions of solutions never holds
/// them in memory (unless --ordered makes some wait for their turn). A variant's solutions
/// are each judged by its rules directly as they are written.
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
        let file = &job.file;
        let puzzle = match &job.puzzle {
            Ok(puzzle) => puzzle,
            Err(error) => {
                if puzzles > 0 && format != Some(SolveFormat::Json) {
                    writeln!(out)?;
                }
                puzzles += 1;
                eprintln!("{file}:{}: {}", error.line, error.message);
                outcome = Outcome::InvalidInput;
                let record = Record::invalid(Task::First(format, None), job);
                writeln!(out, "{}", record.text)?;
                continue;
            }
        };
        // Records of several lines are set apart by a blank line; JSON records are one line
        // each (JSON Lines).
        let json = answers_in_json(format, puzzle);
        if puzzles > 0 && !json {
            writeln!(out)?;
        }
        puzzles += 1;
        // In JSON, one record per solution and a last one with the count (JSON Lines): one
        // record holding every solution made a puzzle with millions of them one line of
        // hundreds of megabytes.
        let head = record_head(file, puzzle).to_string();
        let head = head.trim_start_matches('{').trim_end_matches('}');
        let multiline = writes_multiline(format, puzzle);
        if !json && multiline {
            // Solutions of several lines are set apart by blank lines, so each puzzle's are
            // headed by where the puzzle is (a comment, which reads back as nothing): they
            // could not be told from the next puzzle's.
            writeln!(out, "# solutions of {file}:{}", puzzle.line())?;
        }
        let label = format!("{file}:{}", puzzle.line());
        let n = puzzle.size();
        let from_zero = puzzle.digits_from_zero();
        // Plain grids are not judged one by one: millions of solutions of a small grid would
        // spend more time in the judge than in the search.
        let judged = match puzzle {
            InputPuzzle::Grid(_) => None,
            InputPuzzle::Variant(_) => Some(puzzle.any()),
        };
        let broken = Mutex::new(None);
        // The writer moves into the search and comes back; it stays here when a variant's
        // rules cannot be encoded and there is no search.
        let mut held = Some(out);
        let searched = with_cached_solver(&mut encodings, puzzle, args, |solver, decode| {
            let out = held
                .take()
                .expect("the writer is held until the search takes it");
            let Some(solver) = solver else {
                return (out, 0, Ok(None));
            };
            let write = |out: &mut SharedOut, options: &[dlx::OptionId], index: u128| {
                let grid = decode(options);
                if let Some(rule) = judged.as_ref().and_then(|any| any.broken_rule(&grid)) {
                    broken
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(rule);
                }
                if json {
                    let solution = values_json(n, from_zero, &grid);
                    return writeln!(out, r#"{{{head},"index":{index},"solution":{solution}}}"#);
                }
                if index > 0 && multiline {
                    writeln!(out)?;
                }
                write!(out, "{}", written(format, puzzle, &grid))?;
                if !multiline {
                    writeln!(out)?;
                }
                Ok(())
            };
            let (returned, written, result) =
                enumerate::run_writing(solver, search, (limit, ordered), &label, out, write);
            (returned, written, result.map(Some))
        });
        let (returned, written, result) = match searched {
            Ok(searched) => searched,
            Err(message) => {
                // The puzzle gets its record, and the rest of the input is still solved.
                out = held.take().expect("no search took the writer");
                eprintln!("{file}:{}: {message}", puzzle.line());
                outcome = Outcome::InvalidInput;
                let record = Record::unsearchable(Task::First(format, None), file, puzzle, message);
                writeln!(out, "{}", record.text)?;
                continue;
            }
        };
        out = returned;
        let finished = match result?.transpose() {
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
        if let Some(rule) = broken.into_inner().unwrap_or_else(|e| e.into_inner()) {
            let note = Note::error(
                puzzle,
                &format!("internal error: a solution breaks a rule ({rule}); please report it"),
            );
            eprintln!("{file}:{}: {}", note.line, note.text);
            outcome = Outcome::InvalidInput;
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

/// [`with_solver`], with one encoding per box shape kept across the plain grids of a run.
fn with_cached_solver<T>(
    encodings: &mut HashMap<BoxShape, Encoding>,
    puzzle: &InputPuzzle,
    args: &PuzzleArgs,
    work: impl FnOnce(Option<&mut dlx::Solver<'_>>, &(dyn Fn(&[OptionId]) -> Vec<u8> + Sync)) -> T,
) -> Result<T, String> {
    let InputPuzzle::Grid(grid) = puzzle else {
        return with_solver(puzzle, args, work);
    };
    let shape = grid.grid.shape();
    let encoding = encodings
        .entry(shape)
        .or_insert_with(|| Encoding::new(shape));
    let mut solver = encoding.puzzle_solver(&grid.grid);
    if let Some(solver) = &mut solver {
        solver.set_cancel_flag(Some(signals::flag()));
        solver.set_inference(args.inference.inference);
        args.inference.branching.apply(solver);
    }
    let decode = |options: &[OptionId]| encoding.grid_of(options).cells().to_vec();
    Ok(work(solver.as_mut(), &decode))
}

/// `encode`: one puzzle's problem in Knuth's format, with a header that names its items.
fn encode(index: Option<usize>, shape: Option<BoxShape>, path: &str) -> io::Result<Outcome> {
    let (name, puzzles) = match input::read_puzzles(path, shape) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let wanted = index.unwrap_or(1);
    let Some(puzzle) = wanted.checked_sub(1).and_then(|i| puzzles.get(i)) else {
        eprintln!(
            "xcover: {name}: --index {wanted} is out of range: the input holds {} puzzle{} \
             (numbered from 1)",
            puzzles.len(),
            if puzzles.len() == 1 { "" } else { "s" }
        );
        return Ok(Outcome::BadUsage);
    };
    let puzzle = match puzzle {
        Ok(puzzle) => puzzle,
        Err(error) => {
            eprintln!("{name}:{}: {}", error.line, error.message);
            return Ok(Outcome::InvalidInput);
        }
    };
    let (header, problem) = match puzzle {
        InputPuzzle::Grid(puzzle) => {
            let header = format!(
                "| Sudoku {} (boxes {}) from {name} line {}: items rIcJ (cell), rIvV, cJvV, bKvV \
                 (row, column, box has symbol V); one option per allowed cell and symbol; |block: \
                 lines match each row's, column's and box's cells with its symbols, and each \
                 symbol's rows with its columns.",
                puzzle.grid.size(),
                puzzle.grid.shape(),
                puzzle.line
            );
            let problem = Encoding::new(puzzle.grid.shape()).puzzle_problem(&puzzle.grid);
            (header, problem)
        }
        InputPuzzle::Variant(entry) => {
            let puzzle = &entry.puzzle;
            let encoding = match VariantEncoding::new(puzzle) {
                Ok(encoding) => encoding,
                Err(error) => {
                    eprintln!("{name}:{}: {error}", entry.line);
                    return Ok(Outcome::InvalidInput);
                }
            };
            let header = format!(
                "| Sudoku variant {} ({}x{}, rules: {}) from {name} line {}. Items: rIcJ (cell); \
                 TAGvV (unit TAG has symbol V: rI row, cJ column, bK box, gX region, d1 d2 \
                 diagonals, wK window), sG and sGvV (group G, a killer cage or a renban line, \
                 holds one of its sets of symbols; holds V), switchS (an on/off choice a rule's \
                 sums count) primary; pP_K (neighbour pair P may not hold any symbol of \
                 biclique K in one cell beside any in the other), kKvV (cage K holds V), qKcJ \
                 and qKsJ (clue K read along cells: its position J, coloured by the symbol \
                 read there, and its machine's layer J, coloured by the state) secondary. One \
                 option per cell and symbol, one per set of each group. \
                 |sum: lines are the sums of cages and other clues; |block: lines match each \
                 unit's cells with its symbols.",
                puzzle.id,
                puzzle.rules.rows(),
                puzzle.rules.size,
                puzzle.rules.names().join(" "),
                entry.line
            );
            (header, encoding.puzzle_problem(puzzle))
        }
    };
    let mut out = stdout();
    writeln!(out, "{header}")?;
    dlx::format::write(&problem, &mut out)?;
    finish(out, Outcome::Success)
}
