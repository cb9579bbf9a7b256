//! `xcover sudoku`: solve, count, check and encode files of puzzles.
//!
//! Batches are read whole, checked, then solved in parallel chunks (one solver per thread and
//! box shape, each reusing its matrix), and written in input order, one record per puzzle. A
//! puzzle that cannot be read still gets a record (`invalid`), so output lines stay aligned
//! with input puzzles; its error goes to stderr as `file:line: message`.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde_json::{Value, json};

use super::{Outcome, finish, grid_json, read_input, read_puzzles, stdout};
use xcover::dlx::{self, Stats};
use xcover::sudoku::text::{self, Layout, Puzzle, PuzzleError};
use xcover::sudoku::{BoxShape, Encoding, GridSolver, Verdict};

#[derive(Debug, Subcommand)]
pub enum SudokuCommand {
    /// Solve puzzles: the solution in the layout each puzzle came in (or --format).
    Solve {
        /// Print every solution, not only the first.
        #[arg(long)]
        all: bool,
        /// Print at most N solutions per puzzle (implies --all).
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        /// Output layout; default: the layout of each puzzle.
        #[arg(long, value_enum)]
        format: Option<SolveFormat>,
        #[command(flatten)]
        input: PuzzleArgs,
    },
    /// Count solutions, one number per line.
    Count {
        /// Stop counting at N.
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        #[arg(long, value_enum, default_value = "text")]
        format: ReportFormat,
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
        /// Which puzzle of the file, from 1.
        #[arg(long, default_value_t = 1, value_name = "K")]
        index: usize,
        /// Box shape RxC (rows x columns of one box); default: the most square one.
        #[arg(long = "box", value_name = "RxC")]
        shape: Option<BoxShape>,
        /// The puzzle file, or - for standard input.
        #[arg(value_name = "FILE|-")]
        file: String,
    },
}

#[derive(Debug, Args)]
pub struct PuzzleArgs {
    /// Box shape RxC (rows x columns of one box); default: the most square one.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<BoxShape>,
    /// Print puzzles, solutions, search nodes, updates and time on stderr.
    #[arg(long)]
    stats: bool,
    /// Puzzle files, or - for standard input.
    #[arg(value_name = "FILE|-", required = true)]
    files: Vec<String>,
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

/// A puzzle of the batch, or why it cannot be solved, with the file it came from.
struct Job {
    file: usize,
    puzzle: Result<Puzzle, PuzzleError>,
}

/// What each command asks of one valid puzzle.
#[derive(Clone, Copy)]
enum Task {
    First(Option<SolveFormat>),
    Count(Option<u64>, ReportFormat),
    Check(ReportFormat),
}

/// Puzzles solved and printed per parallel chunk: enough to keep every thread busy, few enough
/// that output starts at once and memory stays flat on files of any length.
const CHUNK: usize = 2048;

pub fn run(command: SudokuCommand) -> io::Result<Outcome> {
    match command {
        SudokuCommand::Solve {
            all,
            limit,
            format,
            input,
        } if all || limit.is_some() => solve_all(limit.unwrap_or(u64::MAX), format, &input),
        SudokuCommand::Solve { format, input, .. } => batch(Task::First(format), &input),
        SudokuCommand::Count {
            limit,
            format,
            input,
        } => batch(Task::Count(limit, format), &input),
        SudokuCommand::Check { format, input } => batch(Task::Check(format), &input),
        SudokuCommand::Compare(args) => super::compare::run(args),
        SudokuCommand::Generate(args) => super::generate::run(args),
        SudokuCommand::Explain(args) => super::logic::explain(args),
        SudokuCommand::Hint(args) => super::logic::hint(args),
        SudokuCommand::Rate(args) => super::logic::rate(args),
        SudokuCommand::Encode { index, shape, file } => encode(index, shape, &file),
    }
}

/// Reads and checks every puzzle of every file. Unreadable files are reported at once.
fn read_jobs(args: &PuzzleArgs) -> (Vec<String>, Vec<Job>, Outcome) {
    let mut names = Vec::new();
    let mut jobs = Vec::new();
    let mut outcome = Outcome::Success;
    for path in &args.files {
        match read_puzzles(path, args.shape) {
            Ok((name, puzzles)) => {
                let file = names.len();
                names.push(name);
                jobs.extend(puzzles.into_iter().map(|puzzle| Job { file, puzzle }));
            }
            Err(message) => {
                eprintln!("xcover: {message}");
                outcome = Outcome::InvalidInput;
            }
        }
    }
    (names, jobs, outcome)
}

/// One encoding per box shape present in the batch.
fn encodings(jobs: &[Job]) -> HashMap<BoxShape, Encoding> {
    let mut encodings = HashMap::new();
    for job in jobs {
        if let Ok(puzzle) = &job.puzzle {
            let shape = puzzle.grid.shape();
            encodings
                .entry(shape)
                .or_insert_with(|| Encoding::new(shape));
        }
    }
    encodings
}

fn progress_bar(total: usize) -> ProgressBar {
    if total < 5000 || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}

/// Solves, counts or checks every puzzle, in parallel chunks, printing records in input order.
fn batch(task: Task, args: &PuzzleArgs) -> io::Result<Outcome> {
    let started = Instant::now();
    let (names, jobs, mut outcome) = read_jobs(args);
    let encodings = encodings(&jobs);
    let bar = progress_bar(jobs.len());
    let mut out = stdout();
    let mut total = Stats::default();
    let mut records_written = 0;
    for chunk in jobs.chunks(CHUNK) {
        let records: Vec<Record> = chunk
            .par_iter()
            .map_init(HashMap::new, |solvers, job| {
                let Ok(puzzle) = &job.puzzle else {
                    return Record {
                        text: invalid_record(task, &names[job.file], job),
                        multiline: false,
                        stats: Stats::default(),
                    };
                };
                let shape = puzzle.grid.shape();
                let solver: &mut GridSolver<'_> = solvers
                    .entry(shape)
                    .or_insert_with(|| encodings[&shape].solver());
                record(task, solver, &names[job.file], puzzle)
            })
            .collect();
        for (job, record) in chunk.iter().zip(records) {
            if let Err(error) = &job.puzzle {
                eprintln!("{}:{}: {}", names[job.file], error.line, error.message);
                outcome = Outcome::InvalidInput;
            }
            if record.multiline && records_written > 0 {
                writeln!(out)?;
            }
            out.write_all(record.text.trim_end_matches('\n').as_bytes())?;
            writeln!(out)?;
            records_written += 1;
            total += record.stats;
        }
        out.flush()?;
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    if args.stats {
        print_stats(jobs.len(), total, started);
    }
    finish(out, outcome)
}

fn print_stats(puzzles: usize, total: Stats, started: Instant) {
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "puzzles {puzzles}, solutions {}, nodes {}, updates {}, time {seconds:.3} s ({:.1} us per puzzle)",
        total.solutions,
        total.nodes,
        total.updates,
        seconds * 1e6 / puzzles.max(1) as f64
    );
}

/// One puzzle's output. Records of several lines are separated by a blank line.
struct Record {
    text: String,
    multiline: bool,
    stats: Stats,
}

/// The text of the record of a puzzle that could not be read.
fn invalid_record(task: Task, file: &str, job: &Job) -> String {
    let error = job.puzzle.as_ref().err().map_or("", |e| e.message.as_str());
    let line = job.puzzle.as_ref().err().map_or(0, |e| e.line);
    let json = matches!(
        task,
        Task::First(Some(SolveFormat::Json))
            | Task::Count(_, ReportFormat::Json)
            | Task::Check(ReportFormat::Json)
    );
    if json {
        json!({"file": file, "line": line, "error": error}).to_string()
    } else {
        "invalid".to_string()
    }
}

fn stats_json(stats: Stats) -> Value {
    json!({"nodes": stats.nodes, "updates": stats.updates})
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

/// Whether a layout takes several lines, so that records are separated by blank lines.
fn is_multiline(layout: Layout) -> bool {
    matches!(layout, Layout::Grid | Layout::Numbers)
}

/// Solves one valid puzzle for a task and renders its record.
fn record(task: Task, solver: &mut GridSolver<'_>, file: &str, puzzle: &Puzzle) -> Record {
    let base = |extra: Value| {
        let mut object = json!({"file": file, "line": puzzle.line});
        if let (Some(object), Value::Object(extra)) = (object.as_object_mut(), extra) {
            object.extend(extra);
        }
        object.to_string()
    };
    match task {
        Task::First(format) => {
            let answer = solver.first(&puzzle.grid);
            let layout = layout_for(format, puzzle);
            let json = format == Some(SolveFormat::Json);
            let text = match (json, &answer.value) {
                (true, solution) => base(json!({
                    "solution": solution.as_ref().map(grid_json),
                    "stats": stats_json(answer.stats),
                })),
                (false, Some(solution)) => text::write(solution, layout),
                (false, None) => "no solution".to_string(),
            };
            Record {
                text,
                multiline: !json && is_multiline(layout),
                stats: answer.stats,
            }
        }
        Task::Count(limit, format) => {
            let answer = solver.count(&puzzle.grid, limit);
            let text = match format {
                ReportFormat::Text => answer.value.to_string(),
                ReportFormat::Json => base(json!({
                    "count": answer.value,
                    "limit": limit,
                    "stats": stats_json(answer.stats),
                })),
            };
            Record {
                text,
                multiline: false,
                stats: answer.stats,
            }
        }
        Task::Check(format) => {
            let answer = solver.verdict(&puzzle.grid);
            let (word, solutions) = match &answer.value {
                Verdict::None => ("none", vec![]),
                Verdict::Unique(a) => ("unique", vec![grid_json(a)]),
                Verdict::Multiple(a, b) => ("multiple", vec![grid_json(a), grid_json(b)]),
            };
            let text = match format {
                ReportFormat::Text => word.to_string(),
                ReportFormat::Json => base(json!({
                    "verdict": word,
                    "solutions": solutions,
                    "stats": stats_json(answer.stats),
                })),
            };
            Record {
                text,
                multiline: false,
                stats: answer.stats,
            }
        }
    }
}

/// `solve --all` / `--limit`: one puzzle at a time, each solution written as it is found, so
/// that enumerating millions of solutions never holds them in memory.
fn solve_all(limit: u64, format: Option<SolveFormat>, args: &PuzzleArgs) -> io::Result<Outcome> {
    let started = Instant::now();
    let (names, jobs, mut outcome) = read_jobs(args);
    let encodings = encodings(&jobs);
    let mut solvers: HashMap<BoxShape, GridSolver<'_>> = HashMap::new();
    let mut out = stdout();
    let mut total = Stats::default();
    for (index, job) in jobs.iter().enumerate() {
        if index > 0 {
            writeln!(out)?;
        }
        let file = &names[job.file];
        let puzzle = match &job.puzzle {
            Ok(puzzle) => puzzle,
            Err(error) => {
                eprintln!("{file}:{}: {}", error.line, error.message);
                outcome = Outcome::InvalidInput;
                let task = Task::First(format);
                writeln!(out, "{}", invalid_record(task, file, job))?;
                continue;
            }
        };
        let shape = puzzle.grid.shape();
        let solver = solvers
            .entry(shape)
            .or_insert_with(|| encodings[&shape].solver());
        let layout = layout_for(format, puzzle);
        let json = format == Some(SolveFormat::Json);
        if json {
            write!(
                out,
                r#"{{"file":{},"line":{},"solutions":["#,
                json!(file),
                puzzle.line
            )?;
        }
        let mut written = 0u64;
        let mut result = Ok(());
        let stats = solver.for_each_solution(&puzzle.grid, |solution| {
            if written == limit {
                return ControlFlow::Break(());
            }
            result = if json {
                let comma = if written > 0 { "," } else { "" };
                write!(out, "{comma}{}", grid_json(solution))
            } else {
                let separator = if written > 0 && is_multiline(layout) {
                    "\n"
                } else {
                    ""
                };
                write!(out, "{separator}{}", text::write(solution, layout)).and_then(|()| {
                    if is_multiline(layout) {
                        Ok(())
                    } else {
                        writeln!(out)
                    }
                })
            };
            written += 1;
            if result.is_err() || written == limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        result?;
        if json {
            writeln!(out, r#"],"count":{written}}}"#)?;
        } else if written == 0 {
            writeln!(out, "no solution")?;
        }
        total += stats;
    }
    if args.stats {
        print_stats(jobs.len(), total, started);
    }
    finish(out, outcome)
}

/// `encode`: one puzzle's problem in Knuth's format.
fn encode(index: usize, shape: Option<BoxShape>, path: &str) -> io::Result<Outcome> {
    let input = match read_input(path) {
        Ok(input) => input,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let mut puzzles = text::parse(&input.text, shape);
    let count = puzzles.len();
    if index == 0 || index > count {
        eprintln!(
            "{}: --index {index} is out of range: the file holds {count} puzzles",
            input.name
        );
        return Ok(Outcome::InvalidInput);
    }
    let puzzle = match puzzles
        .swap_remove(index - 1)
        .and_then(|p| p.validate().map(|()| p))
    {
        Ok(puzzle) => puzzle,
        Err(error) => {
            eprintln!("{}:{}: {}", input.name, error.line, error.message);
            return Ok(Outcome::InvalidInput);
        }
    };
    let encoding = Encoding::new(puzzle.grid.shape());
    let problem = encoding.puzzle_problem(&puzzle.grid);
    let mut out = stdout();
    writeln!(
        out,
        "| Sudoku {} (boxes {}) from {} line {}: items rIcJ (cell), rIvV, cJvV, bKvV (row, \
         column, box has symbol V); one option per allowed cell and symbol.",
        puzzle.grid.size(),
        puzzle.grid.shape(),
        input.name,
        puzzle.line
    )?;
    dlx::format::write(&problem, &mut out)?;
    finish(out, Outcome::Success)
}
