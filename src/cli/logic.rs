//! `xcover sudoku explain`, `hint` and `rate`: the human-style solver on the command line.
//!
//! The reasoning lives in [`xcover::sudoku::logic`]; this module reads puzzles, prints the
//! numbered steps, the next step only, or one rating line per puzzle with a summary of levels.

use std::collections::BTreeMap;
use std::io::{self, Write};

use clap::{Args, ValueEnum};
use rayon::prelude::*;
use serde_json::json;

use super::input::{self, InputPuzzle, Item, Job, grid_of, read_puzzles};
use super::{Outcome, finish, signals, stdout};
use xcover::dlx::Stats;
use xcover::sudoku::AnyPuzzle;
use xcover::sudoku::batch::Batch;
use xcover::sudoku::logic::{self, Level, Position, Rating};
use xcover::sudoku::{Cell, Grid, GridSolver, symbol_name};

#[derive(Debug, Args, Clone)]
pub struct ExplainArgs {
    /// When logic stalls, finish with the exact-cover engine and count the guesses it needs.
    #[arg(long)]
    complete: bool,
    /// Print the candidates of every empty cell after each step (they are printed where logic
    /// stalls in any case).
    #[arg(long)]
    candidates: bool,
    /// Take the puzzle as having one solution, as its setter declares, and use the techniques
    /// that assume it (unique rectangles, BUG+1). On a puzzle with several solutions they may
    /// lead logic to one of them.
    #[arg(long)]
    assume_unique: bool,
    #[command(flatten)]
    boxes: super::ShapeArg,
    /// The puzzle file (every puzzle in it is explained), or - for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Args, Clone)]
pub struct HintArgs {
    /// Take the puzzle as having one solution, as its setter declares, and use the techniques
    /// that assume it (unique rectangles, BUG+1). On a puzzle with several solutions they may
    /// lead logic to one of them.
    #[arg(long)]
    assume_unique: bool,
    #[command(flatten)]
    boxes: super::ShapeArg,
    /// The puzzle file, or - for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Args, Clone)]
pub struct RateArgs {
    /// Take the puzzle as having one solution, as its setter declares, and use the techniques
    /// that assume it (unique rectangles, BUG+1). On a puzzle with several solutions they may
    /// lead logic to one of them.
    #[arg(long)]
    assume_unique: bool,
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

/// `position`, declared to have one solution when the user says so, its techniques stopped by
/// Ctrl-C or SIGTERM.
fn declared(position: Position, unique: bool) -> Position {
    let position = position.with_stop(signals::stopped);
    if unique {
        position.declared_unique()
    } else {
        position
    }
}

/// What the engine made of the grid that logic left.
enum Completion {
    /// Its first solution, with the search's statistics.
    Solved(Vec<u8>, Stats),
    /// None exists.
    NoSolution,
    /// Ctrl-C or SIGTERM stopped the search before it found one.
    Interrupted,
}

/// The engine's first solution of `subject` with `values` as its givens.
fn complete(subject: &AnyPuzzle, values: &[u8]) -> Completion {
    let first = subject.with_givens(values).and_then(|start| {
        start
            .with_solver(
                |solver| solver.set_cancel_flag(Some(signals::flag())),
                |solver, decode| {
                    solver.map(|solver| {
                        let first = solver.first().map(|options| decode(&options));
                        (first, solver.stats(), solver.interrupted())
                    })
                },
            )
            .ok()
            .flatten()
    });
    match first {
        Some((Some(full), stats, _)) => Completion::Solved(full, stats),
        Some((None, _, true)) => Completion::Interrupted,
        Some((None, _, false)) | None => Completion::NoSolution,
    }
}

/// Whether a puzzle has one solution, several or none, as the engine finds by counting to
/// two; `None` when Ctrl-C or SIGTERM stopped it first.
fn solutions_up_to_two(subject: &AnyPuzzle) -> Option<u128> {
    subject
        .with_solver(
            |solver| solver.set_cancel_flag(Some(signals::flag())),
            |solver, _| match solver {
                Some(solver) => {
                    let count = solver.count(Some(2));
                    (!solver.interrupted()).then_some(count)
                }
                None => Some(0),
            },
        )
        .unwrap_or(Some(0))
}

/// The puzzles of a file, classic or variant, each with its line; an unreadable one is
/// `None`, its error printed as `file:line: message`.
/// Why logic refuses a puzzle off a square grid of digits from 1 (6x9, doppelganger).
const NOT_SQUARE: &str = "logic reads square grids of digits from 1 only; `xcover sudoku \
                          solve`, `count` and `check` read this puzzle";

fn read_reported(
    path: &str,
    shape: Option<xcover::sudoku::BoxShape>,
) -> (String, Vec<Option<(usize, AnyPuzzle)>>, Outcome) {
    let mut outcome = Outcome::Success;
    let (name, puzzles) = match read_puzzles(path, shape) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("xcover: {message}");
            return (path.to_string(), Vec::new(), Outcome::InvalidInput);
        }
    };
    let subjects = puzzles
        .into_iter()
        .map(|puzzle| match puzzle {
            Ok(puzzle) if !puzzle.any().rules().is_square() => {
                eprintln!("{name}:{}: {NOT_SQUARE}", puzzle.line());
                outcome = Outcome::InvalidInput;
                None
            }
            Ok(puzzle) => Some((puzzle.line(), puzzle.any())),
            Err(error) => {
                eprintln!("{name}:{}: {}", error.line, error.message);
                outcome = Outcome::InvalidInput;
                None
            }
        })
        .collect();
    (name.to_string(), subjects, outcome)
}

pub fn explain(args: ExplainArgs) -> io::Result<Outcome> {
    let (name, puzzles, outcome) = read_reported(&args.file, args.boxes.shape);
    let mut out = stdout();
    let several = puzzles.len() > 1;
    for (k, puzzle) in puzzles.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        let Some((line, subject)) = puzzle else {
            writeln!(out, "# invalid puzzle")?;
            continue;
        };
        if several {
            writeln!(out, "# {name}:{line}")?;
        }
        let start = declared(subject.position(), args.assume_unique);
        let solution = logic::solve_from(start.clone());
        let mut position = start;
        for (number, step) in solution.steps.iter().enumerate() {
            writeln!(out, "{}. {step}", number + 1)?;
            if args.candidates {
                position.apply(step);
                write!(out, "{}", position.candidate_grid())?;
            }
        }
        if solution.stopped {
            out.flush()?;
            eprintln!(
                "xcover: interrupted while logic looked for step {}",
                solution.steps.len() + 1
            );
            return finish(out, Outcome::Interrupted);
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
                rating.score_text()
            )?;
        } else {
            let empty = solution.values.iter().filter(|&&v| v == 0).count();
            writeln!(
                out,
                "logic stalls after {} steps with {empty} cells empty:",
                solution.steps.len()
            )?;
            write!(out, "{}", subject.write(&solution.values))?;
            writeln!(out, "candidates where logic stalls:")?;
            write!(out, "{}", solution.position.candidate_grid())?;
            // Logic that completes a grid proves it the only one; one that stalls may have
            // met a puzzle that no logic can finish, because it has several solutions: the
            // engine says which (after completing the grid, when asked to).
            let completed = if args.complete {
                match complete(subject, &solution.values) {
                    Completion::Solved(full, stats) => Some((full, stats)),
                    Completion::NoSolution => {
                        writeln!(out, "the exact-cover engine finds no solution")?;
                        continue;
                    }
                    Completion::Interrupted => {
                        out.flush()?;
                        eprintln!(
                            "xcover: interrupted before the exact-cover engine completed the grid"
                        );
                        return finish(out, Outcome::Interrupted);
                    }
                }
            } else {
                None
            };
            let solutions = solutions_up_to_two(subject);
            match solutions {
                Some(0) => writeln!(out, "the puzzle has no solution")?,
                Some(2) => writeln!(
                    out,
                    "the puzzle has more than one solution, so no logic can finish it"
                )?,
                _ => {}
            }
            if let Some((full, stats)) = completed {
                let which = match solutions {
                    Some(2) => "with one of its several solutions",
                    Some(_) => "with the only solution",
                    None => "with a solution (stopped before it was proved the only one)",
                };
                writeln!(
                    out,
                    "completed by the exact-cover engine {which}, in {} guesses ({} search \
                     nodes):",
                    stats.branches, stats.nodes
                )?;
                write!(out, "{}", subject.write(&full))?;
            }
            if solutions.is_none() {
                out.flush()?;
                eprintln!("xcover: interrupted before the puzzle's solutions were counted");
                return finish(out, Outcome::Interrupted);
            }
        }
    }
    finish(out, outcome)
}

pub fn hint(args: HintArgs) -> io::Result<Outcome> {
    let (name, puzzles, outcome) = read_reported(&args.file, args.boxes.shape);
    let mut out = stdout();
    for puzzle in &puzzles {
        let Some((line, subject)) = puzzle else {
            writeln!(out, "invalid")?;
            continue;
        };
        let position = declared(subject.position(), args.assume_unique);
        if let Some(contradiction) = position.contradiction() {
            writeln!(out, "contradiction: {contradiction}")?;
        } else if position.is_full() {
            writeln!(out, "the grid is already full")?;
        } else {
            // A step is sound whatever the solutions, but a hint for a puzzle with several
            // leads nowhere: say so, in the line (where logic stalls) or beside it.
            let several = match solutions_up_to_two(subject) {
                Some(count) => count >= 2,
                None => {
                    out.flush()?;
                    eprintln!("xcover: interrupted before the puzzle's solutions were counted");
                    return finish(out, Outcome::Interrupted);
                }
            };
            let next = logic::next_step(&position);
            if position.stopped() {
                out.flush()?;
                eprintln!("xcover: interrupted while logic looked for a step");
                return finish(out, Outcome::Interrupted);
            }
            match next {
                Some(step) => {
                    writeln!(out, "{step}")?;
                    if several {
                        eprintln!(
                            "{}:{line}: note: this puzzle has more than one solution; logic \
                             alone cannot finish it",
                            name
                        );
                    }
                }
                None => {
                    let why = if several {
                        "the puzzle has more than one solution"
                    } else {
                        "logic stalls here"
                    };
                    writeln!(out, "no technique applies: {why}; the candidates:")?;
                    write!(out, "{}", position.candidate_grid())?;
                    // A cell the engine fixes: of the empty cells with the fewest
                    // candidates, the first, with what the (first) solution puts there.
                    match complete(subject, position.values()) {
                        Completion::Solved(full, _) => {
                            let n = position.size();
                            let cell = (0..full.len())
                                .filter(|&i| position.values()[i] == 0)
                                .min_by_key(|&i| {
                                    position
                                        .candidates(Cell {
                                            row: i / n,
                                            col: i % n,
                                        })
                                        .len()
                                });
                            if let Some(i) = cell {
                                let at = Cell {
                                    row: i / n,
                                    col: i % n,
                                };
                                let which = if several {
                                    "one solution"
                                } else {
                                    "the solution"
                                };
                                writeln!(
                                    out,
                                    "the exact-cover engine says: {which} has {} in {at}",
                                    symbol_name(full[i])
                                )?;
                            }
                        }
                        Completion::NoSolution => {
                            writeln!(out, "the exact-cover engine finds no solution")?
                        }
                        Completion::Interrupted => {
                            out.flush()?;
                            eprintln!("xcover: interrupted before the engine completed the grid");
                            return finish(out, Outcome::Interrupted);
                        }
                    }
                }
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
            Judgement::Rated(r) => format!("{} {}", r.level, r.score_text()),
            Judgement::NoSolution => "no-solution".to_string(),
            Judgement::Multiple => "multiple".to_string(),
            Judgement::Stopped => "stopped".to_string(),
        }
    }
}

/// Rates a puzzle; where logic stalls, the engine tells a proper puzzle that needs search
/// from one with no solution or several.
fn judge(grid: &Grid, solver: &mut GridSolver<'_>, unique: bool) -> Judgement {
    let solution = logic::solve_from(declared(Position::new(grid), unique));
    if solution.stopped {
        return Judgement::Stopped;
    }
    let (rating, open) = match settle(&solution) {
        Ok(judgement) => return judgement,
        Err(stalled) => stalled,
    };
    let Some(reached) = Grid::from_cells(grid.shape(), open) else {
        return Judgement::NoSolution;
    };
    let verdict = solver.verdict(&reached).value;
    if solver.interrupted() {
        return Judgement::Stopped;
    }
    by_verdict(rating, verdict.count())
}

/// The same for any puzzle (a variant, whose rules need an encoding of their own).
fn judge_any(puzzle: &AnyPuzzle, unique: bool) -> Judgement {
    let solution = logic::solve_from(declared(puzzle.position(), unique));
    if solution.stopped {
        return Judgement::Stopped;
    }
    let (rating, open) = match settle(&solution) {
        Ok(judgement) => return judgement,
        Err(stalled) => stalled,
    };
    let Some(reached) = puzzle.with_givens(&open) else {
        return Judgement::NoSolution;
    };
    let arm = |solver: &mut xcover::dlx::Solver<'_>| solver.set_cancel_flag(Some(signals::flag()));
    reached
        .with_solver(arm, |solver, _| {
            let Some(solver) = solver else {
                return Judgement::NoSolution;
            };
            let verdict = solver.verdict();
            if solver.interrupted() {
                return Judgement::Stopped;
            }
            by_verdict(rating, verdict.count())
        })
        .unwrap_or(Judgement::NoSolution)
}

/// The judgement when logic decides it (a contradiction, or every cell filled), else the
/// rating so far and the grid where logic stalled.
fn settle(solution: &logic::Solution) -> Result<Judgement, (Rating, Vec<u8>)> {
    if solution.contradiction.is_some() {
        return Ok(Judgement::NoSolution);
    }
    let rating = logic::rating_of(solution);
    if solution.is_complete() {
        return Ok(Judgement::Rated(rating));
    }
    Err((rating, solution.values.clone()))
}

fn by_verdict(rating: Rating, solutions: u128) -> Judgement {
    match solutions {
        0 => Judgement::NoSolution,
        1 => Judgement::Rated(rating),
        _ => Judgement::Multiple,
    }
}

/// One puzzle's record: `level score` (or a word), or a JSON object.
fn rate_record(file: &str, line: usize, judgement: &Judgement, format: RateFormat) -> String {
    match format {
        RateFormat::Text => judgement.word(),
        RateFormat::Json => {
            let rating = match judgement {
                Judgement::Rated(r) => Some(r),
                _ => None,
            };
            json!({
                "file": file,
                "line": line,
                "level": rating.map_or_else(|| judgement.word(), |r| r.level.name().to_string()),
                "score": rating.map(|r| r.score_value()),
                "hardest": rating.and_then(|r| r.hardest.map(|t| t.name())),
            })
            .to_string()
        }
    }
}

/// The record of a puzzle that cannot be read (its error goes to stderr).
fn invalid_record(file: &str, line: usize, error: &str, format: RateFormat) -> String {
    eprintln!("{file}:{line}: {error}");
    match format {
        RateFormat::Json => json!({"file": file, "line": line, "error": error}).to_string(),
        RateFormat::Text => "invalid".to_string(),
    }
}

/// How many puzzles got each level (or word), for the summary line.
#[derive(Default)]
struct Tally {
    puzzles: usize,
    levels: BTreeMap<String, usize>,
}

impl Tally {
    fn add(&mut self, judgement: Option<&Judgement>) {
        self.puzzles += 1;
        if let Some(judgement) = judgement {
            let key = match judgement {
                Judgement::Rated(r) => r.level.to_string(),
                other => other.word(),
            };
            *self.levels.entry(key).or_default() += 1;
        }
    }

    fn interrupted(&self) -> io::Result<Outcome> {
        eprintln!("xcover: interrupted; {} puzzles were rated", self.puzzles);
        Ok(Outcome::Interrupted)
    }

    /// `N puzzles: easy 3, medium 1, ...` on stderr, for more than one puzzle.
    fn summarise(mut self) {
        if self.puzzles <= 1 {
            return;
        }
        let mut summary: Vec<String> = Level::ALL
            .iter()
            .map(|level| {
                let count = self.levels.remove(&level.to_string()).unwrap_or(0);
                format!("{level} {count}")
            })
            .collect();
        summary.extend(self.levels.iter().map(|(word, n)| format!("{word} {n}")));
        eprintln!("{} puzzles: {}", self.puzzles, summary.join(", "));
    }
}

pub fn rate(args: RateArgs) -> io::Result<Outcome> {
    let items = input::stream(args.files.clone(), args.boxes.shape);
    let mut runner = Batch::new();
    runner.set_cancel_flag(Some(signals::flag()));
    let mut outcome = Outcome::Success;
    let mut out = stdout();
    let mut tally = Tally::default();
    loop {
        let chunk = input::next_chunk(&items, 1024);
        if chunk.is_empty() {
            if signals::stopped() {
                return tally.interrupted();
            }
            break;
        }
        // Plain grids share one encoding per box shape; a variant needs one of its own.
        let mut judgements = runner.run(&chunk, grid_of, |solver, _, grid| {
            judge(grid, solver, args.assume_unique)
        });
        let variants: Vec<Option<Judgement>> = chunk
            .par_iter()
            .map(|item| match item {
                Item::Job(Job {
                    puzzle: Ok(puzzle @ InputPuzzle::Variant(_)),
                    ..
                }) if puzzle.any().rules().is_square() => {
                    Some(judge_any(&puzzle.any(), args.assume_unique))
                }
                _ => None,
            })
            .collect();
        for (slot, judged) in judgements.iter_mut().zip(variants) {
            if judged.is_some() {
                *slot = judged;
            }
        }
        for (item, judgement) in chunk.iter().zip(judgements) {
            let Some(job) = input::job(item, &mut outcome) else {
                continue;
            };
            let record = match (&job.puzzle, &judgement) {
                (_, Some(Judgement::Stopped)) => {
                    out.flush()?;
                    return tally.interrupted();
                }
                (Ok(p), _) if !p.any().rules().is_square() => {
                    outcome = Outcome::InvalidInput;
                    invalid_record(&job.file, p.line(), NOT_SQUARE, args.format)
                }
                (Ok(p), Some(judgement)) => {
                    rate_record(&job.file, p.line(), judgement, args.format)
                }
                (Err(e), _) => {
                    outcome = Outcome::InvalidInput;
                    invalid_record(&job.file, e.line, &e.message, args.format)
                }
                (Ok(_), None) => unreachable!("every valid puzzle is judged"),
            };
            writeln!(out, "{record}")?;
            tally.add(judgement.as_ref());
        }
        out.flush()?;
        if signals::stopped() {
            return tally.interrupted();
        }
    }
    tally.summarise();
    finish(out, outcome)
}
