//! Command-line definitions and dispatch for the `xcover` binary.
//!
//! Each subcommand group lives in its own module; this one declares the argument grammar with
//! clap, maps outcomes to exit codes, and provides the input reading and output plumbing the
//! groups share (files or `-` for stdin, quiet exit on a closed pipe).

mod compare;
mod cover;
mod generate;
mod logic;
mod sudoku;

use std::io::{self, Read, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exact-cover solver (Knuth's Algorithm X with dancing links) with Sudoku of any size.
#[derive(Debug, Parser)]
#[command(name = "xcover", version, about, propagate_version = true)]
pub struct Cli {
    /// Worker threads for batch work (default: all cores).
    #[arg(short = 'j', long = "threads", global = true, value_name = "N")]
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
    if let Some(threads) = cli.threads {
        // Only fails if a pool was already built, which cannot happen this early.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build_global();
    }
    let result = match cli.command {
        Command::Cover(command) => cover::run(command),
        Command::Example(command) => cover::example(command),
        Command::Sudoku(command) => sudoku::run(command),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::InvalidInput) => ExitCode::from(1),
        Ok(Outcome::SolversDisagree) => ExitCode::from(3),
        // Output closed early (`xcover ... | head`): not an error worth a message.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xcover: {error}");
            ExitCode::from(1)
        }
    }
}

/// An input named on the command line, read whole.
pub struct Input {
    /// The name to use in messages: the path, or `<stdin>`.
    pub name: String,
    pub text: String,
}

/// Reads a file, or standard input for `-`. The error names the file.
pub fn read_input(path: &str) -> Result<Input, String> {
    let mut text = String::new();
    if path == "-" {
        io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("<stdin>: {e}"))?;
        return Ok(Input {
            name: "<stdin>".to_string(),
            text,
        });
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{path}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(Input {
        name: path.to_string(),
        text,
    })
}

/// The puzzles of a file (or `-`), each read and its clues checked, in file order; the error
/// names the file when it cannot be read.
pub fn read_puzzles(
    path: &str,
    shape: Option<xcover::sudoku::BoxShape>,
) -> Result<(String, Vec<CheckedPuzzle>), String> {
    let input = read_input(path)?;
    let puzzles = xcover::sudoku::text::parse(&input.text, shape)
        .into_iter()
        .map(|p| p.and_then(|p| p.validate().map(|()| p)))
        .collect();
    Ok((input.name, puzzles))
}

/// A puzzle whose clues were checked, or why it cannot be used.
pub type CheckedPuzzle = Result<xcover::sudoku::text::Puzzle, xcover::sudoku::text::PuzzleError>;

/// Buffered standard output; flushed by the caller so errors are seen.
pub fn stdout() -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// A grid as JSON: an array of rows of numbers, 0 for blank.
pub fn grid_json(grid: &xcover::sudoku::Grid) -> serde_json::Value {
    serde_json::Value::from(
        grid.cells()
            .chunks(grid.size())
            .map(|row| serde_json::Value::from(row.to_vec()))
            .collect::<Vec<_>>(),
    )
}

/// Flushes and reports write errors (a closed pipe included) to the caller.
pub fn finish(mut out: impl Write, outcome: Outcome) -> io::Result<Outcome> {
    out.flush()?;
    Ok(outcome)
}
