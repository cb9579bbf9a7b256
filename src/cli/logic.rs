//! `xcover sudoku explain`, `hint` and `rate`: the human-style solver on the command line.
//!
//! The reasoning lives in [`xcover::sudoku::logic`]; this module reads puzzles, prints the
//! numbered steps, the next step only, or one rating line per puzzle with a summary of levels.

use std::collections::BTreeMap;
use std::io::{self, Write};

use clap::{Args, ValueEnum};
use rayon::prelude::*;
use serde_json::json;

use super::{CheckedPuzzle, Outcome, finish, read_puzzles, stdout};
use xcover::sudoku::logic::{self, Level, Rating};
use xcover::sudoku::text::{self, Layout};
use xcover::sudoku::{BoxShape, Encoding};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// When logic stalls, finish with the exact-cover engine and count the guesses it needs.
    #[arg(long)]
    complete: bool,
    /// Box shape RxC; default: the most square one.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<BoxShape>,
    /// The puzzle file (every puzzle in it is explained), or - for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Args)]
pub struct HintArgs {
    /// Box shape RxC; default: the most square one.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<BoxShape>,
    /// The puzzle file, or - for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Args)]
pub struct RateArgs {
    #[arg(long, value_enum, default_value = "text")]
    format: RateFormat,
    /// Box shape RxC; default: the most square one.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<BoxShape>,
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
fn read_reported(path: &str, shape: Option<BoxShape>) -> (String, Vec<CheckedPuzzle>, Outcome) {
    let (name, puzzles) = match read_puzzles(path, shape) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("xcover: {message}");
            return (path.to_string(), Vec::new(), Outcome::InvalidInput);
        }
    };
    let mut outcome = Outcome::Success;
    for error in puzzles.iter().filter_map(|p| p.as_ref().err()) {
        eprintln!("{name}:{}: {}", error.line, error.message);
        outcome = Outcome::InvalidInput;
    }
    (name, puzzles, outcome)
}

pub fn explain(args: ExplainArgs) -> io::Result<Outcome> {
    let (name, puzzles, outcome) = read_reported(&args.file, args.shape);
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
    let (_, puzzles, outcome) = read_reported(&args.file, args.shape);
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

pub fn rate(args: RateArgs) -> io::Result<Outcome> {
    let mut outcome = Outcome::Success;
    let mut jobs = Vec::new();
    for path in &args.files {
        let (name, puzzles, read) = read_reported(path, args.shape);
        if read != Outcome::Success {
            outcome = read;
        }
        jobs.extend(puzzles.into_iter().map(|p| (name.clone(), p)));
    }
    let ratings: Vec<Option<Rating>> = jobs
        .par_iter()
        .map(|(_, puzzle)| puzzle.as_ref().ok().map(|p| logic::rate(&p.grid)))
        .collect();
    let mut out = stdout();
    let mut levels: BTreeMap<Level, usize> = BTreeMap::new();
    for ((name, puzzle), rating) in jobs.iter().zip(&ratings) {
        match (puzzle, rating, args.format) {
            (Ok(p), Some(r), RateFormat::Json) => writeln!(
                out,
                "{}",
                json!({
                    "file": name,
                    "line": p.line,
                    "level": r.level.name(),
                    "score": r.score,
                    "hardest": r.hardest.map(|t| t.name()),
                })
            )?,
            (Ok(_), Some(r), RateFormat::Text) => writeln!(out, "{} {}", r.level, r.score)?,
            (Err(e), _, RateFormat::Json) => writeln!(
                out,
                "{}",
                json!({"file": name, "line": e.line, "error": e.message})
            )?,
            _ => writeln!(out, "invalid")?,
        }
        if let Some(r) = rating {
            *levels.entry(r.level).or_default() += 1;
        }
    }
    if jobs.len() > 1 {
        let summary: Vec<String> = Level::ALL
            .iter()
            .map(|level| format!("{level} {}", levels.get(level).copied().unwrap_or(0)))
            .collect();
        eprintln!("{} puzzles: {}", jobs.len(), summary.join(", "));
    }
    finish(out, outcome)
}
