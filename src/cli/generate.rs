//! `xcover sudoku generate`: new puzzles, streamed in order as they are made in parallel.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;

use super::{Outcome, finish, signals, stdout};
use xcover::sudoku::generate::{Generated, Recipe, Request, Symmetry, rules_named};
use xcover::sudoku::logic::Level;
use xcover::sudoku::rules::Rules;
use xcover::sudoku::text::{self, Layout};
use xcover::sudoku::variant::{self, fpuzzles, text as variant_text};
use xcover::sudoku::{AnyPuzzle, BoxShape};

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
    /// Output format (default: line; variants are written as blocks, or as json or
    /// fpuzzles).
    #[arg(long, value_enum)]
    format: Option<GenerateFormat>,
    /// Make puzzles under more rules, written in the variant format (with their solutions)
    /// unless --format json or fpuzzles: rules joined by commas from jigsaw (a random region
    /// map instead of boxes), x, windoku, anti-knight, anti-king, non-consecutive, the
    /// catalogue's rules that need no clues, and clues drawn over each full grid: killer
    /// (cages), thermo, arrow, kropki, xv, little-killer; e.g. --variant jigsaw,x or
    /// --variant thermo,kropki. They are always minimal; --symmetry and --difficulty work as for classic
    /// puzzles.
    #[arg(long, value_name = "RULES")]
    variant: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
    Expert,
    Extreme,
    Forcing,
    NeedsSearch,
}

impl From<Difficulty> for Level {
    fn from(d: Difficulty) -> Level {
        match d {
            Difficulty::Easy => Level::Easy,
            Difficulty::Medium => Level::Medium,
            Difficulty::Hard => Level::Hard,
            Difficulty::Expert => Level::Expert,
            Difficulty::Extreme => Level::Extreme,
            Difficulty::Forcing => Level::Forcing,
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

/// How the puzzles are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Output {
    /// A classic grid in one of the grid layouts.
    Layout(Layout),
    /// One JSON object per line.
    Json,
    /// One f-puzzles link per line.
    Fpuzzles,
    /// Blocks of the variant format, after a header.
    Blocks,
}

pub fn run(args: GenerateArgs) -> io::Result<Outcome> {
    let Some(shape) = args.shape.or_else(|| BoxShape::for_size(args.size)) else {
        eprintln!(
            "xcover: a grid of side {} is not supported (sides from 1 to 64 whose boxes fit)",
            args.size
        );
        return Ok(Outcome::BadUsage);
    };
    let (rules, drawn) = match &args.variant {
        None => (Rules::classic(shape), Vec::new()),
        Some(names) => match rules_named(names, shape) {
            Ok(found) => found,
            Err(message) => {
                eprintln!("xcover: {message}");
                return Ok(Outcome::InvalidInput);
            }
        },
    };
    let variant = args.variant.is_some();
    let output = match (args.format, variant) {
        (None | Some(GenerateFormat::Line), false) => Output::Layout(Layout::Line),
        (Some(GenerateFormat::Grid), false) => Output::Layout(Layout::Grid),
        (Some(GenerateFormat::Numbers), false) => Output::Layout(Layout::Numbers),
        (None, true) => Output::Blocks,
        (Some(GenerateFormat::Json), _) => Output::Json,
        (Some(GenerateFormat::Fpuzzles), _) => Output::Fpuzzles,
        (Some(_), true) => {
            eprintln!(
                "xcover: variant puzzles are written as blocks of the variant format (the \
                 default), as JSON records or as f-puzzles links"
            );
            return Ok(Outcome::BadUsage);
        }
    };
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let level = args.difficulty.map(Level::from);
    let request = Request {
        rules,
        drawn,
        symmetry: args.symmetry,
        // Variants are always made minimal: a killer stopped at 40% of its cells as givens
        // would be a poor killer.
        minimal: args.minimal || variant,
        difficulty: level,
        seed,
    };
    let recipe = match Recipe::new(request) {
        Ok(recipe) => recipe,
        Err(error) => {
            eprintln!("xcover: {error}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let bar = if args.count > 1 && io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(args.count), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    // A single puzzle shows instead how far its clue removal went: a large one takes minutes.
    let cells_tried =
        (args.count == 1 && io::stderr().is_terminal()).then(|| Arc::new(AtomicU64::new(0)));
    let mut out = stdout();
    // Written with the first puzzle: a run that makes none prints nothing but its error.
    let mut header = (output == Output::Blocks).then(|| {
        let names = args.variant.as_deref().unwrap_or_default();
        let mut asked = String::new();
        if let Some(level) = level {
            asked += &format!(" --difficulty {level}");
        }
        if args.symmetry != Symmetry::None {
            asked += &format!(" --symmetry {}", args.symmetry);
        }
        format!(
            "# Made by xcover sudoku generate --variant {names}{asked} --seed {seed}\npuzzles: {}",
            args.count
        )
    });
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let make = || {
            (start..end)
                .into_par_iter()
                .map_init(
                    || {
                        let mut generator = recipe.generator();
                        generator.set_cancel_flag(Some(signals::flag()));
                        generator.set_progress_counter(cells_tried.clone());
                        generator
                    },
                    |generator, index| generator.generate(index),
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
            if recipe.request().minimal && generated.undecided > 0 {
                eprintln!(
                    "xcover: puzzle {index}: {} clue removals ran out of search budget; the \
                     puzzle is unique but may not be minimal",
                    generated.undecided
                );
            }
            let written = match output {
                Output::Layout(layout) => write_layout(&mut out, &generated, layout, index),
                Output::Json => write_json(&mut out, &generated, seed, index),
                Output::Fpuzzles => write_link(&mut out, &generated, seed, index),
                Output::Blocks => {
                    if let Some(header) = header.take() {
                        writeln!(out, "{header}")?;
                    }
                    write_blocks(&mut out, &generated, &recipe, index)
                }
            };
            if let Err(why) = written? {
                bar.finish_and_clear();
                eprintln!("xcover: {why}");
                out.flush()?;
                return Ok(Outcome::BadUsage);
            }
        }
        out.flush()?;
        bar.inc(end - start);
        start = end;
    }
    bar.finish_and_clear();
    finish(out, Outcome::Success)
}

/// A classic puzzle in a grid layout; blank lines between puzzles of several lines.
fn write_layout(
    out: &mut impl Write,
    generated: &Generated,
    layout: Layout,
    index: u64,
) -> io::Result<Result<(), String>> {
    let AnyPuzzle::Grid(grid) = &generated.puzzle else {
        return Ok(Err(
            "only classic puzzles are written in grid layouts".into()
        ));
    };
    if layout == Layout::Line {
        writeln!(out, "{}", text::write(grid, layout))?;
    } else {
        if index > 0 {
            writeln!(out)?;
        }
        write!(out, "{}", text::write(grid, layout))?;
    }
    Ok(Ok(()))
}

/// One JSON record: the puzzle and its solution as rows, its rules, its rating if asked.
fn write_json(
    out: &mut impl Write,
    generated: &Generated,
    seed: u64,
    index: u64,
) -> io::Result<Result<(), String>> {
    let puzzle = &generated.puzzle;
    let n = puzzle.size();
    let rows = |cells: &[u8]| {
        serde_json::Value::from(
            cells
                .chunks(n)
                .map(|row| serde_json::Value::from(row.to_vec()))
                .collect::<Vec<_>>(),
        )
    };
    let rules = puzzle.rules();
    let mut record = json!({
        "seed": seed,
        "index": index,
        "boxes": rules.boxes.map(|shape| shape.to_string()),
        "clues": puzzle.givens().iter().filter(|&&v| v != 0).count(),
        "puzzle": rows(puzzle.givens()),
        "solution": rows(&generated.solution),
        "level": generated.rating.map(|r| r.level.name()),
        "score": generated.rating.map(|r| r.score_value()),
    });
    // A variant's rules, and the layouts it draws (cages, regions) in its file. (A classic
    // record keeps the fields it always had, which `solve` and `check` read back.)
    if let AnyPuzzle::Variant(variant) = puzzle {
        record["rules"] = serde_json::Value::from(rules.names());
        record["file"] = serde_json::Value::from(variant_text::block(variant, "", None));
    }
    writeln!(out, "{record}")?;
    Ok(Ok(()))
}

/// One f-puzzles link with the solution.
fn write_link(
    out: &mut impl Write,
    generated: &Generated,
    seed: u64,
    index: u64,
) -> io::Result<Result<(), String>> {
    let puzzle = match &generated.puzzle {
        AnyPuzzle::Grid(grid) => variant::Puzzle {
            id: format!("seed {seed}, puzzle {index}"),
            rules: Rules::classic(grid.shape()),
            givens: grid.cells().to_vec(),
        },
        AnyPuzzle::Variant(puzzle) => (**puzzle).clone(),
    };
    match fpuzzles::link(&puzzle, Some(&generated.solution)) {
        Ok(link) => writeln!(out, "{link}").map(Ok),
        Err(why) => Ok(Err(why.to_string())),
    }
}

/// One block of the variant format, with the solution.
fn write_blocks(
    out: &mut impl Write,
    generated: &Generated,
    recipe: &Recipe,
    index: u64,
) -> io::Result<Result<(), String>> {
    let request = recipe.request();
    let puzzle = match &generated.puzzle {
        AnyPuzzle::Variant(variant) => (**variant).clone(),
        AnyPuzzle::Grid(grid) => variant::Puzzle {
            id: format!("{}-{}", request.seed, index + 1),
            rules: Rules::classic(grid.shape()),
            givens: grid.cells().to_vec(),
        },
    };
    let clues = puzzle.givens.iter().filter(|&&v| v != 0).count();
    // Below "needs search", removals that made the puzzle harder were refused: it is minimal
    // among the puzzles of its level only.
    let mut keys = format!("seed: {}\n", request.seed);
    keys += &match request.difficulty {
        Some(level) if level != Level::NeedsSearch => format!("mode: difficulty\nclues: {clues}\n"),
        _ if request.minimal || request.difficulty.is_some() => {
            format!("mode: minimal\nclues: {clues}\nminimal: yes\n")
        }
        _ => format!("mode: unique\nclues: {clues}\n"),
    };
    if let Some(level) = request.difficulty {
        keys += &format!("difficulty: {level}\n");
    }
    let block = variant_text::block(&puzzle, &keys, Some(&generated.solution));
    write!(out, "\n{block}")?;
    Ok(Ok(()))
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
