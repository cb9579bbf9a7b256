//! `xcover cover` and `xcover example`: exact-cover problems in Knuth's format.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::Instant;

use clap::{Args, Subcommand};

use super::enumerate::{self, SearchArgs, Wanted};
use super::input::read_text;
use super::{BranchingArg, Outcome, finish, parse_limit, signals, stdout};
use xcover::dlx::{Candidates, Inference, Matrix, OptionId, Presence, Solver, bits, cells, format};
use xcover::problems;

#[derive(Debug, Subcommand)]
pub enum CoverCommand {
    /// Print the number of solutions, and nothing else, on stdout (on every core: -j).
    Count {
        /// Stop counting at N solutions.
        #[arg(long, value_name = "N", value_parser = parse_limit)]
        limit: Option<u128>,
        /// text: the count alone; json: a record with the search's fingerprint, the shard,
        /// the count, nodes and seconds, which `xcover merge` adds up.
        #[arg(long, value_enum, default_value = "text")]
        format: CountFormat,
        #[command(flatten)]
        engine: EngineArg,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        common: CoverArgs,
    },
    /// Print solutions as the option lines they choose, separated by blank lines. With --all
    /// the search runs on every core (-j) and solutions come in the order threads find them,
    /// unless --ordered.
    Solve {
        /// Print every solution, not only the first.
        #[arg(long)]
        all: bool,
        /// Print at most N solutions (implies --all).
        #[arg(long, value_name = "N", value_parser = parse_limit)]
        limit: Option<u128>,
        /// Print solutions in the order a one-thread search finds them, whatever -j (those
        /// found ahead of their turn wait in memory).
        #[arg(long)]
        ordered: bool,
        #[command(flatten)]
        engine: EngineArg,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        common: CoverArgs,
    },
    /// Print the options that occur in some solution, one option line each (with --cap, the
    /// number of solutions holding it first, up to the cap), found by one short search per
    /// option not yet seen in a solution rather than by listing every solution (on every
    /// core: -j).
    Candidates {
        /// Count, up to N, the solutions holding each option.
        #[arg(long, value_name = "N", value_parser = parse_limit)]
        cap: Option<u128>,
        #[command(flatten)]
        common: CoverArgs,
    },
    /// Print the search split into N parts as a task list: one line per part, each run on
    /// its own with `cover count --task LINE FILE` (or `solve --all --task`).
    Split {
        /// How many parts.
        #[arg(long, value_name = "N", value_parser = parse_parts)]
        parts: usize,
        #[command(flatten)]
        common: CoverArgs,
    },
}

/// `--engine`, for `cover count` and `cover solve`.
#[derive(Debug, Clone, Copy, Args)]
pub struct EngineArg {
    /// links: dancing links, with everything this command offers; cells: dancing cells
    /// (Knuth's sparse sets); bits: bit sets (each option's clashes a row of bits). Cells
    /// take plain exact covers (no colours, multiplicities, sums or chains), bits colours
    /// and multiplicities too (no sums or chains; up to about 20,000 options); both count on
    /// every core (-j) and list on one thread, with no inference, --shard, --task,
    /// --checkpoint, --resume, --progress or JSON. auto: bits where they are expected to win
    /// (pentominoes, queens, Langford pairs, small Latin squares, word squares, partial
    /// queens) and nothing asked for needs the links, else links (docs/performance.md).
    #[arg(long, value_enum, default_value = "auto")]
    engine: Engine,
}

/// Which search `cover count` and `cover solve` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Bit sets where `xcover::dlx::bits::preferred` expects them to win and nothing asked
    /// for needs the links; dancing links otherwise.
    Auto,
    /// Dancing links: the engine (`xcover::dlx::Solver`).
    Links,
    /// Dancing cells (`xcover::dlx::cells`).
    Cells,
    /// Bit sets (`xcover::dlx::bits`).
    Bits,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CountFormat {
    /// The count alone.
    Text,
    /// One JSON record (JSON Lines).
    Json,
}

/// A number of parts for `split`: from 1 to [`enumerate::MAX_PARTS`].
pub fn parse_parts(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=enumerate::MAX_PARTS).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of parts from 1 to {}",
            enumerate::MAX_PARTS
        )),
    }
}

#[derive(Debug, Args)]
pub struct CoverArgs {
    /// Print search nodes, branch points, inference removals, link updates and time on
    /// stderr.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    inference: super::InferenceArg,
    /// The problem in Knuth's DLX1 format, or - for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Subcommand)]
pub enum ExampleCommand {
    /// N non-attacking queens on an NxN board (diagonals are secondary items); N up to 1000.
    Queens {
        #[arg(value_parser = example_size(1000))]
        n: usize,
    },
    /// Langford pairs of order N; N up to 1000.
    Langford {
        #[arg(value_parser = example_size(1000))]
        n: usize,
    },
    /// The twelve pentominoes on a WxH board of 60 cells (or 8x8 with its centre removed).
    Pentominoes {
        #[arg(value_name = "WxH", value_parser = parse_board)]
        board: (usize, usize),
    },
    /// Latin squares of order N; N up to 100.
    Latin {
        #[arg(value_parser = example_size(100))]
        n: usize,
    },
    /// M non-attacking queens on an NxN board, with multiplicities (Knuth's DLX3): rows and
    /// columns covered at most once (0:1), an item `queens` exactly M times. N up to 100.
    PartialQueens {
        #[arg(value_parser = example_size(100))]
        n: usize,
        /// How many queens (at least 1).
        #[arg(value_parser = at_least_one)]
        m: std::num::NonZeroUsize,
    },
    /// NxN grids whose rows and columns are all words of a list, with colours (Knuth's
    /// DLX2): each cell a secondary item, each letter a colour. N up to 12.
    WordSquares {
        #[arg(value_parser = example_size(12))]
        n: usize,
        /// The word list: words separated by blanks or lines, `#` starting a comment line
        /// (default: the built-in list of 319 three-letter words, data/words/three-letter.txt).
        #[arg(long, value_name = "FILE|-")]
        words: Option<String>,
    },
}

/// The word list built into the binary, for `example word-squares 3`.
const THREE_LETTER_WORDS: &str = include_str!("../../data/words/three-letter.txt");

/// The words of a list: blank-separated, `#` lines are comments.
fn words_of(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect()
}

/// Sizes from 1 to `max`: larger problems would print gigabytes (N-queens has N^2 options,
/// Latin squares N^3).
fn example_size(max: usize) -> impl Fn(&str) -> Result<usize, String> + Clone {
    move |text: &str| match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} is out of range: sizes go from 1 to {max}")),
        Err(_) => Err(format!(
            "'{text}' is not a size (a whole number from 1 to {max})"
        )),
    }
}

fn parse_board(text: &str) -> Result<(usize, usize), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WxH such as 6x10, found '{text}'"))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<usize>()
            .ok()
            .filter(|&side| (1..=60).contains(&side))
            .ok_or_else(|| {
                format!("expected WxH with sides from 1 to 60, such as 6x10, found '{text}'")
            })
    };
    Ok((parse(w)?, parse(h)?))
}

pub fn run(command: CoverCommand) -> io::Result<Outcome> {
    let common = match &command {
        CoverCommand::Count { common, .. }
        | CoverCommand::Solve { common, .. }
        | CoverCommand::Candidates { common, .. }
        | CoverCommand::Split { common, .. } => common,
    };
    let (name, text) = match read_text(&common.file) {
        Ok(input) => input,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let parsed = match format::read(&text) {
        Ok(parsed) => parsed,
        Err(error) => {
            eprintln!("{}:{}:{}: {}", name, error.line, error.column, error.kind);
            return Ok(Outcome::InvalidInput);
        }
    };
    for warning in &parsed.warnings {
        eprintln!("{}:{}: warning: {}", name, warning.line, warning.message);
    }
    let matrix = match Matrix::new(parsed.problem) {
        Ok(matrix) => matrix,
        Err(error) => {
            eprintln!("{}: {error}", name);
            return Ok(Outcome::InvalidInput);
        }
    };
    let mut solver = matrix.solver();
    solver.set_cancel_flag(Some(signals::flag()));
    solver.set_inference(common.inference.inference);
    common.inference.branching.apply(&mut solver);
    let engine = chosen_engine(&command, matrix.problem());
    let started = Instant::now();
    match command {
        CoverCommand::Candidates { cap, .. } => {
            let mut out = stdout();
            let found = solver.candidates(cap, rayon::current_num_threads());
            print_candidates(&solver, &found, cap, &mut out)?;
            report(
                common.stats,
                &solver.stats(),
                started,
                out,
                found.stopped.is_some(),
            )
        }
        CoverCommand::Split { parts, .. } => {
            let mut out = stdout();
            enumerate::print_tasks(&mut solver, parts, &mut out)?;
            finish(out, Outcome::Success)
        }
        CoverCommand::Solve {
            all,
            limit,
            ref search,
            ..
        } if engine != Engine::Links => {
            let wanted = if all || limit.is_some() {
                limit
            } else {
                Some(1)
            };
            solve_plain(
                engine,
                &matrix,
                wanted,
                search,
                &name,
                common.stats,
                started,
            )
        }
        CoverCommand::Solve {
            all: false,
            limit: None,
            ref search,
            ..
        } if !search.any() => {
            let mut out = stdout();
            let printed = print_solutions(&mut solver, 1, &mut out)?;
            if printed == 0 && !solver.interrupted() {
                eprintln!("no solution");
            }
            report(
                common.stats,
                &solver.stats(),
                started,
                out,
                solver.interrupted(),
            )
        }
        CoverCommand::Solve {
            all,
            limit,
            ordered,
            ref search,
            ..
        } => {
            // Without --all, a part of the search (--shard, --task) prints its first
            // solution: the one a one-thread search of that part finds first.
            let (limit, ordered) = if all || limit.is_some() {
                (limit, ordered)
            } else {
                (Some(1), true)
            };
            solve_all(&mut solver, search, limit, ordered, &name, common.stats)
        }
        CoverCommand::Count {
            limit,
            format,
            ref search,
            ..
        } if engine != Engine::Links => count_plain(
            engine,
            &matrix,
            limit,
            format,
            search,
            &name,
            common.stats,
            started,
        ),
        CoverCommand::Count {
            limit,
            format,
            ref search,
            ..
        } => {
            let wanted = Wanted {
                limit,
                ordered: false,
                visit: None,
            };
            let finished = match enumerate::run(&mut solver, search, &wanted, &name) {
                Ok(finished) => finished,
                Err(message) => {
                    eprintln!("xcover: {message}");
                    return Ok(Outcome::InvalidInput);
                }
            };
            let mut out = stdout();
            match format {
                CountFormat::Json => writeln!(out, "{}", finished.record())?,
                CountFormat::Text if finished.interrupted => {
                    writeln!(out, "{} (partial)", finished.solutions)?
                }
                CountFormat::Text => writeln!(out, "{}", finished.solutions)?,
            }
            report(
                common.stats,
                &finished.stats,
                started,
                out,
                finished.interrupted,
            )
        }
    }
}

/// The engine `command` runs on `problem`: the one `--engine` names, and for `auto` the bit
/// sets where [`bits::preferred`] expects them to win and no flag asks for what the links
/// alone do (inference or branching chosen, a shard, task, checkpoint, progress lines or
/// JSON); else the links.
fn chosen_engine(command: &CoverCommand, problem: &xcover::dlx::Problem) -> Engine {
    let (engine, search, common, json) = match command {
        CoverCommand::Count {
            engine,
            search,
            common,
            format,
            ..
        } => (engine.engine, search, common, *format == CountFormat::Json),
        CoverCommand::Solve {
            engine,
            search,
            common,
            ..
        } => (engine.engine, search, common, false),
        CoverCommand::Candidates { .. } | CoverCommand::Split { .. } => return Engine::Links,
    };
    if engine != Engine::Auto {
        return engine;
    }
    let links_only = search.any()
        || search.progress.is_some()
        || json
        || common.inference.inference != Inference::Auto
        || common.inference.branching != BranchingArg::Auto;
    if !links_only && bits::preferred(problem) {
        Engine::Bits
    } else {
        Engine::Links
    }
}

/// `cover count --engine cells|bits`: the count on every thread of the pool.
#[allow(clippy::too_many_arguments)]
fn count_plain(
    engine: Engine,
    matrix: &Matrix,
    limit: Option<u128>,
    format: CountFormat,
    search: &SearchArgs,
    name: &str,
    stats: bool,
    started: Instant,
) -> io::Result<Outcome> {
    if search.any() || format == CountFormat::Json {
        eprintln!("xcover: {CELLS_IN_ONE_PIECE}");
        return Ok(Outcome::InvalidInput);
    }
    let limits = cells_limits(limit);
    let counted = match engine {
        Engine::Bits => bits::count_parallel(matrix.problem(), &limits),
        _ => cells::count_parallel(matrix.problem(), &limits),
    };
    let counted = match counted {
        Ok(counted) => counted,
        Err(unsupported) => {
            eprintln!("{name}: {unsupported}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let mut out = stdout();
    if counted.finished {
        writeln!(out, "{}", counted.solutions)?;
    } else {
        writeln!(out, "{} (partial)", counted.solutions)?;
    }
    report(stats, &counted.stats(), started, out, !counted.finished)
}

/// `cover solve --engine cells|bits`: up to `wanted` solutions as option lines, a blank
/// line between solutions, on one thread.
fn solve_plain(
    engine: Engine,
    matrix: &Matrix,
    wanted: Option<u128>,
    search: &SearchArgs,
    name: &str,
    stats: bool,
    started: Instant,
) -> io::Result<Outcome> {
    if search.any() {
        eprintln!("xcover: {CELLS_IN_ONE_PIECE}");
        return Ok(Outcome::InvalidInput);
    }
    let problem = matrix.problem();
    let mut out = stdout();
    let mut failed = None;
    let mut printed: u128 = 0;
    let limits = cells_limits(wanted);
    let visit = |options: &[OptionId]| {
        let mut write = || -> io::Result<()> {
            if printed > 0 {
                writeln!(out)?;
            }
            for &option in options {
                format::write_option(problem, option, &mut out)?;
                writeln!(out)?;
            }
            Ok(())
        };
        match write() {
            Ok(()) => {
                printed += 1;
                ControlFlow::Continue(())
            }
            Err(error) => {
                failed = Some(error);
                ControlFlow::Break(())
            }
        }
    };
    let listed = match engine {
        Engine::Bits => bits::for_each_solution(problem, &limits, visit),
        _ => cells::for_each_solution(problem, &limits, visit),
    };
    if let Some(error) = failed {
        return Err(error);
    }
    let listed = match listed {
        Ok(listed) => listed,
        Err(unsupported) => {
            eprintln!("{name}: {unsupported}");
            return Ok(Outcome::InvalidInput);
        }
    };
    if printed == 0 && listed.finished {
        eprintln!("no solution");
    }
    report(stats, &listed.stats(), started, out, !listed.finished)
}

/// Why `--engine cells` refuses the options that split or save a search.
const CELLS_IN_ONE_PIECE: &str = "--engine cells and bits search in one piece: no \
                                  --shard, --task, --checkpoint, --resume or --format json";

/// Dancing cells' limits for `limit` solutions, stopped by Ctrl-C.
fn cells_limits(limit: Option<u128>) -> cells::Limits {
    cells::Limits {
        solutions: limit,
        nodes: None,
        deadline: None,
        cancel: Some(signals::flag()),
    }
}

/// The options that occur in some solution, as option lines in the problem's order (each
/// after its count, `1000+` at the cap); then, when the work was stopped, how many options
/// are undecided, on stderr.
fn print_candidates(
    solver: &Solver<'_>,
    found: &Candidates,
    cap: Option<u128>,
    out: &mut impl Write,
) -> io::Result<()> {
    let problem = solver.matrix().problem();
    for option in found.occurring() {
        if let (Some(counts), Some(cap)) = (&found.counts, cap) {
            let count = counts[option.0 as usize];
            let plus = if count >= cap { "+" } else { "" };
            write!(out, "{count}{plus}\t")?;
        }
        format::write_option(problem, option, &mut *out)?;
        writeln!(out)?;
    }
    let never = found
        .presence
        .iter()
        .filter(|&&p| p == Presence::Never)
        .count();
    let unknown = found.presence.len() - never - found.occurring().count();
    eprintln!(
        "{} of {} options occur in some solution, {never} in none{}",
        found.occurring().count(),
        found.presence.len(),
        if unknown > 0 {
            format!(", {unknown} undecided (interrupted: partial)")
        } else {
            String::new()
        }
    );
    Ok(())
}

/// `solve --all`: every solution (up to `limit`), from every thread, each printed whole.
fn solve_all(
    solver: &mut Solver<'_>,
    search: &SearchArgs,
    limit: Option<u128>,
    ordered: bool,
    name: &str,
    stats: bool,
) -> io::Result<Outcome> {
    if let Some(message) = enumerate::conflict(ordered, search) {
        eprintln!("xcover: {message}");
        return Ok(Outcome::BadUsage);
    }
    let started = Instant::now();
    let problem = solver.matrix().problem();
    // Stdout itself rather than its lock: the writer moves between worker threads.
    let out = io::BufWriter::with_capacity(1 << 16, io::stdout());
    let write = |out: &mut io::BufWriter<io::Stdout>, options: &[OptionId], index: u128| {
        if index > 0 {
            writeln!(out)?;
        }
        for &option in options {
            format::write_option(problem, option, out)?;
            writeln!(out)?;
        }
        Ok(())
    };
    let (out, printed, result) =
        enumerate::run_writing(solver, search, (limit, ordered), name, out, write);
    let finished = match result? {
        Ok(finished) => finished,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    if printed == 0 && !finished.interrupted && search.resume.is_none() {
        eprintln!("no solution");
    }
    report(stats, &finished.stats, started, out, finished.interrupted)
}

/// Prints `--stats` and ends the command.
fn report(
    stats: bool,
    work: &xcover::dlx::Stats,
    started: Instant,
    out: impl Write,
    interrupted: bool,
) -> io::Result<Outcome> {
    let seconds = started.elapsed().as_secs_f64();
    if stats {
        eprintln!(
            "solutions {}, nodes {}, branch points {}, removals {}, updates {}, time \
             {seconds:.3} s",
            work.solutions, work.nodes, work.branches, work.removals, work.updates,
        );
    }
    finish(out, Outcome::finished(interrupted))
}

/// Streams up to `wanted` solutions: option lines, a blank line between solutions.
/// Returns how many were printed.
fn print_solutions(
    solver: &mut Solver<'_>,
    wanted: u128,
    out: &mut impl Write,
) -> io::Result<u128> {
    let problem = solver.matrix().problem();
    let mut search = solver.search();
    let mut printed = 0;
    while printed < wanted {
        let Some(solution) = search.next_solution() else {
            break;
        };
        if printed > 0 {
            writeln!(out)?;
        }
        for option in solution.options() {
            format::write_option(problem, option, out)?;
            writeln!(out)?;
        }
        printed += 1;
    }
    Ok(printed)
}

/// A count of at least 1, said so when it is not.
fn at_least_one(text: &str) -> Result<std::num::NonZeroUsize, String> {
    match text.parse::<usize>() {
        Ok(n) => std::num::NonZeroUsize::new(n)
            .ok_or_else(|| "there must be at least one queen".to_string()),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

pub fn example(command: ExampleCommand) -> io::Result<Outcome> {
    let problem = match command {
        ExampleCommand::Queens { n } => problems::queens(n),
        ExampleCommand::Langford { n } => problems::langford(n),
        ExampleCommand::Latin { n } => problems::latin_square(n),
        ExampleCommand::PartialQueens { n, m } => problems::partial_queens(n, m),
        ExampleCommand::WordSquares { n, words } => {
            let text = match &words {
                None => THREE_LETTER_WORDS.to_string(),
                Some(path) => match read_text(path) {
                    Ok((_, text)) => text,
                    Err(message) => {
                        eprintln!("xcover: {message}");
                        return Ok(Outcome::InvalidInput);
                    }
                },
            };
            match problems::word_squares(&words_of(&text), n) {
                Ok(problem) => problem,
                Err(error) => {
                    eprintln!("xcover: {error}");
                    return Ok(Outcome::InvalidInput);
                }
            }
        }
        ExampleCommand::Pentominoes { board: (w, h) } => match problems::pentominoes(w, h) {
            Ok(problem) => problem,
            Err(error) => {
                eprintln!("xcover: {error}");
                return Ok(Outcome::BadUsage);
            }
        },
    };
    let mut out = stdout();
    format::write(&problem, &mut out)?;
    finish(out, Outcome::Success)
}
