//! `xcover sudoku explain`, `hint` and `rate`: the human-style solver on the command line.
//!
//! The reasoning lives in [`xcover::sudoku::logic`]; this module reads puzzles, prints the
//! numbered steps, the next step only, or one rating line per puzzle with a summary of levels.

use std::collections::BTreeMap;
use std::io::{self, Write};

use clap::{Args, ValueEnum};
use serde_json::json;

use super::input::{self, CheckedPuzzle, grid_of, read_puzzles};
use super::{Outcome, finish, signals, stdout};
use xcover::sudoku::batch::Batch;
use xcover::sudoku::logic::{self, Level, Rating};
use xcover::sudoku::text::{self, Layout};
use xcover::sudoku::{Encoding, GridSolver, Verdict};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// When logic stalls, finish with the exact-cover engine and count the guesses it needs.
    #[arg(long)]
    complete: bool,
    #[command(flatten)]
    boxes: super::ShapeArg,
    /// The puzzle file (every puzzle in it is explained), or - for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Args)]
pub struct HintArgs {
    #[command(flatten)]
    boxes: super::ShapeArg,
    /// The puzzle file, or - for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Args)]
pub struct RateArgs {
    #[arg(long, value_enum, default_value = "text")]
    format: RateFormat,
    #[command(flatten)]
    boxes: super::ShapeArg,
    /// Puzzle files, or - for standard input.
    #[arg(value_name = "FILE|-", required = true)]
    files: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RateFormat {
    /// `level score` per line.
    Text,
    /// One JSON object per puzzle and line.
    Json,
}

/// The puzzles of a file; errors are printed as `file:line: message`.
fn read_reported(
    path: &str,
    shape: Option<xcover::sudoku::BoxShape>,
) -> (String, Vec<CheckedPuzzle>, Outcome) {
    let (name, puzzles) = match read_puzzles(path, shape) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("xcover: {message}");
            return (path.to_string(), Vec::new(), Outcome::InvalidInput);
        }
    };
    let name = name.to_string();
    let mut outcome = Outcome::Success;
    for error in puzzles.iter().filter_map(|p| p.as_ref().err()) {
        eprintln!("{name}:{}: {}", error.line, error.kind);
        outcome = Outcome::InvalidInput;
    }
    (name, puzzles, outcome)
}

pub fn explain(args: ExplainArgs) -> io::Result<Outcome> {
    let (name, puzzles, outcome) = read_reported(&args.file, args.boxes.shape);
    let mut out = stdout();
    let several = puzzles.len() > 1;
    for (k, puzzle) in puzzles.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        let Ok(puzzle) = puzzle else {
            writeln!(out, "# invalid puzzle")?;
            continue;
        };
        if several {
            writeln!(out, "# {name}:{}", puzzle.line)?;
        }
        let solution = logic::solve(&puzzle.grid);
        for (number, step) in solution.steps.iter().enumerate() {
            writeln!(out, "{}. {step}", number + 1)?;
        }
        let rating = logic::rating_of(&solution);
        if let Some(contradiction) = &solution.contradiction {
            writeln!(
                out,
                "contradiction: {contradiction}: the puzzle has no solution"
            )?;
        } else if solution.is_complete() {
            writeln!(
                out,
                "solved by logic in {} steps; hardest: {}; level {}, score {}",
                solution.steps.len(),
                rating.hardest.map_or("none", |t| t.name()),
                rating.level,
                rating.score
            )?;
        } else {
            let empty = solution.grid.cells().iter().filter(|&&v| v == 0).count();
            writeln!(
                out,
                "logic stalls after {} steps with {empty} cells empty:",
                solution.steps.len()
            )?;
            write!(out, "{}", text::write(&solution.grid, Layout::Grid))?;
            if args.complete {
                let encoding = Encoding::new(solution.grid.shape());
                let answer = encoding.solver().first(&solution.grid);
                match answer.value {
                    Some(full) => {
                        writeln!(
                            out,
                            "completed by the exact-cover engine with {} guesses ({} search nodes):",
                            answer.stats.branches, answer.stats.nodes
                        )?;
                        write!(out, "{}", text::write(&full, Layout::Grid))?;
                    }
                    None => writeln!(out, "the exact-cover engine finds no solution")?,
                }
            }
        }
    }
    finish(out, outcome)
}

pub fn hint(args: HintArgs) -> io::Result<Outcome> {
    let (_, puzzles, outcome) = read_reported(&args.file, args.boxes.shape);
    let mut out = stdout();
    for puzzle in &puzzles {
        let Ok(puzzle) = puzzle else {
            writeln!(out, "invalid")?;
            continue;
        };
        let position = logic::Position::new(&puzzle.grid);
        if let Some(contradiction) = position.contradiction() {
            writeln!(out, "contradiction: {contradiction}")?;
        } else if puzzle.grid.is_full() {
            writeln!(out, "the grid is already full")?;
        } else {
            match logic::next_step(&position) {
                Some(step) => writeln!(out, "{step}")?,
                None => writeln!(out, "no technique applies: logic stalls here")?,
            }
        }
    }
    finish(out, outcome)
}

/// What `rate` says of one puzzle.
enum Judgement {
    /// Logic solves it, or it is proper and needs search.
    Rated(Rating),
    /// It has no solution: logic met a contradiction or the engine found none.
    NoSolution,
    /// It has more than one solution, so no level applies.
    Multiple,
    /// Ctrl-C stopped the engine's check.
    Stopped,
}

impl Judgement {
    fn word(&self) -> String {
        match self {
            Judgement::Rated(r) => format!("{} {}", r.level, r.score),
            Judgement::NoSolution => "no-solution".to_string(),
            Judgement::Multiple => "multiple".to_string(),
            Judgement::Stopped => "stopped".to_string(),
        }
    }
}

/// Rates a puzzle; where logic stalls, the engine tells a proper puzzle that needs search
/// from one with no solution or several.
fn judge(grid: &xcover::sudoku::Grid, solver: &mut GridSolver<'_>) -> Judgement {
    let solution = logic::solve(grid);
    if solution.contradiction.is_some() {
        return Judgement::NoSolution;
    }
    let rating = logic::rating_of(&solution);
    if solution.is_complete() {
        return Judgement::Rated(rating);
    }
    let verdict = solver.verdict(&solution.grid).value;
    if solver.interrupted() {
        return Judgement::Stopped;
    }
    match verdict {
        Verdict::None => Judgement::NoSolution,
        Verdict::Unique(_) => Judgement::Rated(rating),
        Verdict::Multiple(..) => Judgement::Multiple,
    }
}

pub fn rate(args: RateArgs) -> io::Result<Outcome> {
    let items = input::stream(args.files.clone(), args.boxes.shape);
    let mut runner = Batch::new();
    runner.set_cancel_flag(Some(signals::flag()));
    let mut outcome = Outcome::Success;
    let mut out = stdout();
    let mut levels: BTreeMap<String, usize> = BTreeMap::new();
    let mut puzzles = 0;
    loop {
        let chunk = input::next_chunk(&items, 1024);
        if chunk.is_empty() {
            break;
        }
        let judgements = runner.run(&chunk, grid_of, |solver, _, grid| judge(grid, solver));
        for (item, judgement) in chunk.iter().zip(judgements) {
            let Some(job) = input::job(item, &mut outcome) else {
                continue;
            };
            let record = match (&job.puzzle, &judgement, args.format) {
                (_, Some(Judgement::Stopped), _) => {
                    out.flush()?;
                    eprintln!("xcover: interrupted; {puzzles} puzzles were rated");
                    return Ok(Outcome::Interrupted);
                }
                (Ok(p), Some(judgement), RateFormat::Json) => {
                    let rating = match judgement {
                        Judgement::Rated(r) => Some(r),
                        _ => None,
                    };
                    json!({
                        "file": &*job.file,
                        "line": p.line,
                        "level": rating.map_or_else(|| judgement.word(), |r| r.level.name().to_string()),
                        "score": rating.map(|r| r.score),
                        "hardest": rating.and_then(|r| r.hardest.map(|t| t.name())),
                    })
                    .to_string()
                }
                (Ok(_), Some(judgement), RateFormat::Text) => judgement.word(),
                (Err(e), _, format) => {
                    eprintln!("{}:{}: {}", job.file, e.line, e.kind);
                    outcome = Outcome::InvalidInput;
                    match format {
                        RateFormat::Json => {
                            json!({"file": &*job.file, "line": e.line, "error": e.kind.to_string()})
                                .to_string()
                        }
                        RateFormat::Text => "invalid".to_string(),
                    }
                }
                (Ok(_), None, _) => unreachable!("every valid puzzle is judged"),
            };
            writeln!(out, "{record}")?;
            puzzles += 1;
            if let Some(judgement) = judgement {
                let key = match judgement {
                    Judgement::Rated(r) => r.level.to_string(),
                    other => other.word(),
                };
                *levels.entry(key).or_default() += 1;
            }
        }
        out.flush()?;
        if signals::stopped() {
            eprintln!("xcover: interrupted; {puzzles} puzzles were rated");
            return Ok(Outcome::Interrupted);
        }
    }
    if puzzles > 1 {
        let mut summary: Vec<String> = Level::ALL
            .iter()
            .map(|level| format!("{level} {}", levels.remove(&level.to_string()).unwrap_or(0)))
            .collect();
        summary.extend(levels.iter().map(|(word, n)| format!("{word} {n}")));
        eprintln!("{puzzles} puzzles: {}", summary.join(", "));
    }
    finish(out, outcome)
}
