//! `xcover sudoku generate`: new puzzles, streamed in order as they are made in parallel.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;

use super::{Outcome, finish, grid_json, signals, stdout};
use xcover::sudoku::generate::{Generator, Request, Symmetry};
use xcover::sudoku::logic::Level;
use xcover::sudoku::rules::Rules;
use xcover::sudoku::text::{self, Layout};
use xcover::sudoku::variant::generate::{
    generate_killer_of_level, generate_variant_of_level, rules_named,
};
use xcover::sudoku::variant::{self, fpuzzles, text as variant_text};
use xcover::sudoku::{BoxShape, Encoding};

#[derive(Debug, Args, Clone)]
pub struct GenerateArgs {
    /// How many puzzles to make.
    #[arg(long, default_value_t = 1, value_name = "N")]
    count: u64,
    /// Side of the grid (boxes: the most square shape).
    #[arg(long, value_name = "N", conflicts_with = "shape", default_value_t = 9)]
    size: usize,
    /// Box shape RxC (rows x columns of one box), instead of --size.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<BoxShape>,
    /// Only puzzles of this level, as rated by the human-style solver.
    #[arg(long, value_enum, value_name = "LEVEL")]
    difficulty: Option<Difficulty>,
    /// Symmetry of the pattern of clues.
    #[arg(long, default_value = "none", value_parser = |s: &str| s.parse::<Symmetry>())]
    symmetry: Symmetry,
    /// Remove clues until no clue can go without losing uniqueness (with a symmetry: no
    /// symmetric group of clues can go).
    #[arg(long)]
    minimal: bool,
    /// Seed: the same seed gives the same puzzles, whatever the thread count.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Output format (default: line; variants are written as blocks unless fpuzzles).
    #[arg(long, value_enum)]
    format: Option<GenerateFormat>,
    /// Make variant puzzles instead, minimal, in the plain variant format (with their
    /// solutions): rules joined by commas from jigsaw (a random region map instead of boxes),
    /// x, windoku, anti-knight, anti-king, non-consecutive, killer (a random cage layout);
    /// e.g. --variant jigsaw,x. With --difficulty, minimal among the puzzles of that level.
    #[arg(long, value_name = "RULES", conflicts_with_all = ["symmetry"])]
    variant: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
    Expert,
    NeedsSearch,
}

impl From<Difficulty> for Level {
    fn from(d: Difficulty) -> Level {
        match d {
            Difficulty::Easy => Level::Easy,
            Difficulty::Medium => Level::Medium,
            Difficulty::Hard => Level::Hard,
            Difficulty::Expert => Level::Expert,
            Difficulty::NeedsSearch => Level::NeedsSearch,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GenerateFormat {
    /// One puzzle per line.
    Line,
    /// One row per line, a blank line between puzzles.
    Grid,
    /// Rows of separated numbers (0 blank), a blank line between puzzles: the usual layout
    /// for 16x16 and larger.
    Numbers,
    /// One JSON object per line, with the solution.
    Json,
    /// One f-puzzles link per line, with the solution: opens in f-puzzles and SudokuPad.
    Fpuzzles,
}

/// Puzzles made in parallel between two writes.
const CHUNK: u64 = 64;

pub fn run(args: GenerateArgs) -> io::Result<Outcome> {
    if let Some(variant) = &args.variant {
        return run_variant(&args, variant);
    }
    let Some(shape) = args.shape.or_else(|| BoxShape::for_size(args.size)) else {
        eprintln!(
            "xcover: a grid of side {} is not supported (sides from 1 to 64 whose boxes fit)",
            args.size
        );
        return Ok(Outcome::BadUsage);
    };
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let request = Request {
        shape,
        symmetry: args.symmetry,
        minimal: args.minimal,
        difficulty: args.difficulty.map(Level::from),
        seed,
    };
    let encoding = Encoding::new(shape);
    let bar = if args.count > 1 && io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(args.count), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    // A single puzzle shows instead how far its clue removal went: a large one takes minutes.
    let cells_tried =
        (args.count == 1 && io::stderr().is_terminal()).then(|| Arc::new(AtomicU64::new(0)));
    let mut out = stdout();
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let make = || {
            (start..end)
                .into_par_iter()
                .map_init(
                    || {
                        let mut generator = Generator::new(&encoding);
                        generator.set_cancel_flag(Some(signals::flag()));
                        generator.set_progress_counter(cells_tried.clone());
                        generator
                    },
                    |generator, index| generator.generate(&request, index),
                )
                .collect::<Vec<_>>()
        };
        let made = match &cells_tried {
            Some(counter) => with_removal_bar(counter, shape.cells() as u64, make),
            None => make(),
        };
        for (index, result) in (start..end).zip(made) {
            let generated = match result {
                Ok(generated) => generated,
                Err(_) if signals::stopped() => {
                    bar.finish_and_clear();
                    out.flush()?;
                    eprintln!("xcover: interrupted; {index} puzzles were made");
                    return Ok(Outcome::Interrupted);
                }
                Err(error) => {
                    bar.finish_and_clear();
                    eprintln!("xcover: {error}");
                    out.flush()?;
                    return Ok(Outcome::InvalidInput);
                }
            };
            if args.minimal && generated.undecided > 0 {
                eprintln!(
                    "xcover: puzzle {index}: {} clue removals ran out of search budget; the \
                     puzzle is unique but may not be minimal",
                    generated.undecided
                );
            }
            let format = args.format.unwrap_or(GenerateFormat::Line);
            match format {
                GenerateFormat::Line => {
                    writeln!(out, "{}", text::write(&generated.puzzle, Layout::Line))?
                }
                GenerateFormat::Grid | GenerateFormat::Numbers => {
                    if index > 0 {
                        writeln!(out)?;
                    }
                    let layout = if format == GenerateFormat::Grid {
                        Layout::Grid
                    } else {
                        Layout::Numbers
                    };
                    write!(out, "{}", text::write(&generated.puzzle, layout))?
                }
                GenerateFormat::Json => {
                    let record = json!({
                        "seed": seed,
                        "index": index,
                        "boxes": shape.to_string(),
                        "clues": generated.puzzle.clue_count(),
                        "puzzle": grid_json(&generated.puzzle),
                        "solution": grid_json(&generated.solution),
                        "level": generated.rating.map(|r| r.level.name()),
                        "score": generated.rating.map(|r| r.score),
                    });
                    writeln!(out, "{record}")?
                }
                GenerateFormat::Fpuzzles => {
                    let puzzle = variant::Puzzle {
                        id: format!("seed {seed}, puzzle {index}"),
                        rules: Rules::classic(shape),
                        givens: generated.puzzle.cells().to_vec(),
                    };
                    match fpuzzles::link(&puzzle, Some(generated.solution.cells())) {
                        Ok(link) => writeln!(out, "{link}")?,
                        Err(why) => {
                            eprintln!("xcover: {why}");
                            out.flush()?;
                            return Ok(Outcome::BadUsage);
                        }
                    }
                }
            }
        }
        out.flush()?;
        bar.inc(end - start);
        start = end;
    }
    bar.finish_and_clear();
    finish(out, Outcome::Success)
}

/// `generate --variant`: minimal variant puzzles, made in parallel and printed in order.
fn run_variant(args: &GenerateArgs, names: &str) -> io::Result<Outcome> {
    let Some(shape) = args.shape.or_else(|| BoxShape::for_size(args.size)) else {
        eprintln!(
            "xcover: a grid of side {} is not supported (sides from 1 to 64 whose boxes fit)",
            args.size
        );
        return Ok(Outcome::BadUsage);
    };
    let (rules, killer) = match rules_named(names, shape) {
        Ok(found) => found,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let links = match args.format {
        None => false,
        Some(GenerateFormat::Fpuzzles) => true,
        Some(_) => {
            eprintln!(
                "xcover: variant puzzles are written as blocks of the variant format (the \
                 default) or as f-puzzles links (--format fpuzzles)"
            );
            return Ok(Outcome::BadUsage);
        }
    };
    let level = args.difficulty.map(Level::from);
    let asked = level.map_or(String::new(), |level| format!(" --difficulty {level}"));
    let mut out = stdout();
    // Written with the first puzzle: a run that makes none prints nothing but its error.
    let mut header = Some(format!(
        "# Made by xcover sudoku generate --variant {names}{asked} --seed {seed}\npuzzles: {}",
        args.count
    ));
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let made: Vec<_> = (start..end)
            .into_par_iter()
            .map(|index| {
                if killer {
                    generate_killer_of_level(&rules, seed, index, level, &signals::stopped)
                } else {
                    generate_variant_of_level(&rules, seed, index, level, &signals::stopped)
                }
            })
            .collect();
        for (index, result) in (start..).zip(made) {
            let generated = match result {
                Ok(generated) => generated,
                Err(_) if signals::stopped() => {
                    out.flush()?;
                    eprintln!("xcover: interrupted; {index} puzzles were made");
                    return Ok(Outcome::Interrupted);
                }
                Err(error) => {
                    eprintln!("xcover: {error}");
                    out.flush()?;
                    return Ok(Outcome::InvalidInput);
                }
            };
            let puzzle = &generated.puzzle;
            if links {
                match fpuzzles::link(puzzle, Some(&generated.solution)) {
                    Ok(link) => writeln!(out, "{link}")?,
                    Err(why) => {
                        eprintln!("xcover: {why}");
                        out.flush()?;
                        return Ok(Outcome::BadUsage);
                    }
                }
                continue;
            }
            if let Some(header) = header.take() {
                writeln!(out, "{header}")?;
            }
            let n = puzzle.rules.size;
            let boxes = puzzle
                .rules
                .boxes
                .map_or("none".to_string(), |b| b.to_string());
            let clues = puzzle.givens.iter().filter(|&&v| v != 0).count();
            write!(
                out,
                "\npuzzle: {}\nsize: {n}\nbox: {boxes}\nrules: {}\nseed: {seed}\n{}",
                puzzle.id,
                puzzle.rules.names().join(" "),
                // Below "needs search", removals that made the puzzle harder were refused: it
                // is minimal among the puzzles of its level only.
                if level.is_some_and(|level| level != Level::NeedsSearch) {
                    format!("mode: difficulty\nclues: {clues}\n")
                } else {
                    format!("mode: minimal\nclues: {clues}\nminimal: yes\n")
                },
            )?;
            if let Some(level) = level {
                writeln!(out, "difficulty: {level}")?;
            }
            write!(
                out,
                "grid:\n{}",
                variant_text::grid_lines(n, &puzzle.givens)
            )?;
            write!(out, "{}", variant_text::rule_blocks(&puzzle.rules))?;
            write!(
                out,
                "solution:\n{}end\n",
                variant_text::grid_lines(n, &generated.solution)
            )?;
        }
        out.flush()?;
        if signals::stopped() {
            eprintln!("xcover: interrupted; {end} puzzles were made");
            return Ok(Outcome::Interrupted);
        }
        start = end;
    }
    finish(out, Outcome::Success)
}

/// Runs `work` while another thread draws a bar of the cells whose clue removal has been
/// tried (`counter`, of `cells`), from one second on: quick puzzles print nothing extra.
fn with_removal_bar<T>(counter: &AtomicU64, cells: u64, work: impl FnOnce() -> T) -> T {
    let done = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let (lock, wake) = &done;
            let started = Instant::now();
            let shown_from = started + Duration::from_secs(1);
            let mut bar: Option<ProgressBar> = None;
            let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
            while !*finished {
                finished = wake
                    .wait_timeout(finished, Duration::from_millis(200))
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if !*finished && Instant::now() >= shown_from {
                    let bar = bar.get_or_insert_with(|| {
                        let bar = ProgressBar::with_draw_target(
                            Some(cells),
                            ProgressDrawTarget::stderr(),
                        )
                        .with_elapsed(started.elapsed());
                        if let Ok(style) = ProgressStyle::with_template(
                            "{bar:30} {pos}/{len} cells tried for removal, {elapsed}",
                        ) {
                            bar.set_style(style);
                        }
                        bar
                    });
                    bar.set_position(counter.load(Ordering::Relaxed));
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        let result = work();
        *done.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        done.1.notify_all();
        result
    })
}
