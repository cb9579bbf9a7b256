//! Command-line definitions and dispatch for the `xcover` binary.
//!
//! Each subcommand group lives in its own module; this one declares the argument grammar with
//! clap, maps outcomes to exit codes, and provides the output plumbing the groups share (quiet
//! exit on a closed pipe); [`input`] reads files, [`signals`] handles Ctrl-C.

mod candidates;
mod compare;
mod cover;
mod enumerate;
mod generate;
mod input;
mod logic;
mod merge;
mod progress;
mod serve;
mod signals;
mod sudoku;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use xcover::dlx::Inference;

/// Exact-cover solver (Knuth's Algorithm X with dancing links) with Sudoku of any size.
#[derive(Debug, Parser)]
#[command(name = "xcover", version, about, propagate_version = true)]
pub struct Cli {
    /// Worker threads for batch work (default, or 0: all cores; at most 256).
    #[arg(short = 'j', long = "threads", global = true, value_name = "N",
          value_parser = parse_threads)]
    threads: Option<usize>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve exact-cover problems written in Knuth's DLX1 format.
    #[command(subcommand)]
    Cover(cover::CoverCommand),
    /// Print a classic exact-cover problem in Knuth's format.
    #[command(subcommand)]
    Example(cover::ExampleCommand),
    /// Solve, count, check and encode Sudoku puzzles of any box shape.
    #[command(subcommand)]
    Sudoku(sudoku::SudokuCommand),
    /// A local web page to enter a puzzle and solve, check, count, explain, rate or generate
    /// it, with its JSON API (docs/api.md).
    Serve(serve::ServeArgs),
    /// Add up the JSON records of the shards of one search (`count --shard K/N --format
    /// json`): prints the total; refuses records of another search, a missing, repeated or
    /// interrupted shard.
    Merge {
        /// Files of records (one per line), or - for standard input.
        #[arg(value_name = "FILE|-", required = true)]
        files: Vec<String>,
    },
}

/// How a command ended, as scripts see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every input was read and processed.
    Success,
    /// Some input was invalid; everything else was still processed.
    InvalidInput,
    /// `sudoku compare`: solvers that finished disagree on a count (a bug somewhere).
    SolversDisagree,
    /// Ctrl-C or SIGTERM stopped the work; what was finished has been printed.
    Interrupted,
    /// The command line asked for something out of range or contradictory (exit code 2, as
    /// for the usage errors the argument parser finds).
    BadUsage,
}

impl Outcome {
    /// The outcome of work that read its input: stopped by a signal or not.
    pub fn finished(interrupted: bool) -> Outcome {
        if interrupted {
            Outcome::Interrupted
        } else {
            Outcome::Success
        }
    }
}

/// `--inference`, for every command that searches.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct InferenceArg {
    /// How much inference the search makes: none (plain dancing links), root (the rules
    /// once per search), shallow (the rules at the nodes where 5/8 of the items are left to
    /// cover), every (the rules at every node), exclusion (those and the exclusion rule at
    /// every node: an option that shares an item with every option of an item goes; for
    /// renban lines), probe (the rules and trial of the options of
    /// every two-option item at every node) or auto (shallow below 1100 items to cover,
    /// probe up to 12000, every above; probe too where a problem of 1000 items or more,
    /// such as a 16x16 puzzle, starts with under 7/8 of them to cover; with sums, probe
    /// where most are of distinct values as cages are, else none below 1100 items; none for
    /// a classic 9x9 grid, whose rests are counted in bit sets: as measured). Multiplicities
    /// turn it off; with colours the rules reason on the items an option holds uncoloured.
    #[arg(long, value_name = "SETTING", default_value_t = Inference::Auto)]
    pub inference: Inference,
    /// How the search chooses the item it branches on: fewest (the first with the fewest
    /// options), conflicts (the most recent dead ends per option; where the rules run but
    /// do not probe, each option tried is taken out before choosing again; one thread) or auto
    /// (conflicts where a puzzle's rules reach beyond units: cages, arrows, dots, lines and
    /// other clues; else fewest). A search split by --shard, --task, --checkpoint or
    /// --resume branches on the fewest.
    #[arg(long, value_name = "SETTING", default_value = "auto")]
    pub branching: BranchingArg,
}

/// `--branching`: a choice of [`xcover::dlx::Branching`], or the problem's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BranchingArg {
    Auto,
    Fewest,
    Conflicts,
}

impl BranchingArg {
    /// The branching the user chose, if they chose one.
    pub fn chosen(self) -> Option<xcover::dlx::Branching> {
        match self {
            BranchingArg::Auto => None,
            BranchingArg::Fewest => Some(xcover::dlx::Branching::Fewest),
            BranchingArg::Conflicts => Some(xcover::dlx::Branching::Conflicts),
        }
    }

    /// Sets the branching the user chose, if they chose one.
    pub fn apply(self, solver: &mut xcover::dlx::Solver<'_>) {
        if let Some(branching) = self.chosen() {
            solver.set_branching(branching);
        }
    }
}

/// `--box`, for every command that reads puzzles.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ShapeArg {
    /// Box shape RxC (rows x columns of one box). Default: what the input says (its
    /// separators, or a `# boxes RxC` comment), else the most square shape.
    #[arg(long = "box", value_name = "RxC")]
    pub shape: Option<xcover::sudoku::BoxShape>,
}

/// The most worker threads `-j` accepts: more only costs time to start them.
pub const MAX_THREADS: usize = 256;

fn parse_threads(text: &str) -> Result<usize, String> {
    let threads: usize = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of threads"))?;
    if threads > MAX_THREADS {
        return Err(format!("at most {MAX_THREADS} threads"));
    }
    Ok(threads)
}

/// A value of `--limit`: at least 1.
pub fn parse_limit(text: &str) -> Result<u128, String> {
    match text.parse::<u128>() {
        Ok(0) => Err("the limit must be at least 1".to_string()),
        Ok(limit) => Ok(limit),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let code = if error.use_stderr() { 2 } else { 0 };
            let _ = error.print();
            return ExitCode::from(code);
        }
    };
    // The threads of batches and parallel searches, one per core unless -j says otherwise
    // (0: all cores), named so that they are told apart from the server's own. Building the
    // pool only fails if one was already built, which cannot happen this early.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(cli.threads.unwrap_or(0))
        .thread_name(|index| format!("xcover-search-{index}"))
        .build_global();
    signals::install();
    let result = match cli.command {
        Command::Cover(command) => cover::run(command),
        Command::Example(command) => cover::example(command),
        Command::Sudoku(command) => sudoku::run(command),
        Command::Serve(args) => serve::run(args),
        Command::Merge { files } => {
            let mut out = stdout();
            match merge::merge(&files, &mut out) {
                Ok(_) => finish(out, Outcome::Success),
                Err(message) => {
                    eprintln!("xcover: merge: {message}");
                    Ok(Outcome::InvalidInput)
                }
            }
        }
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::InvalidInput) => ExitCode::from(1),
        Ok(Outcome::SolversDisagree) => ExitCode::from(3),
        Ok(Outcome::BadUsage) => ExitCode::from(2),
        Ok(Outcome::Interrupted) => ExitCode::from(signals::exit_code()),
        // Output closed early (`xcover ... | head`): not an error worth a message.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xcover: {error}");
            ExitCode::from(1)
        }
    }
}

/// Buffered standard output; flushed by the caller so errors are seen.
pub fn stdout() -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// The `--stats` line of a run over puzzles: `finished` of them got their record; `total`
/// also holds the work on a puzzle that Ctrl-C stopped. The time per puzzle is left out
/// when no puzzle finished.
pub fn print_stats(finished: usize, total: xcover::dlx::Stats, started: std::time::Instant) {
    let seconds = started.elapsed().as_secs_f64();
    let per_puzzle = if finished > 0 {
        format!(" ({:.1} us per puzzle)", seconds * 1e6 / finished as f64)
    } else {
        String::new()
    };
    eprintln!(
        "puzzles {finished}, solutions {}, nodes {}, branch points {}, removals {}, updates {}, \
         time {seconds:.3} s{per_puzzle}",
        total.solutions, total.nodes, total.branches, total.removals, total.updates,
    );
}

/// Flushes and reports write errors (a closed pipe included) to the caller.
pub fn finish(mut out: impl Write, outcome: Outcome) -> io::Result<Outcome> {
    out.flush()?;
    Ok(outcome)
}
