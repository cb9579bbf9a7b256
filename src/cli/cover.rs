//! `xcover cover` and `xcover example`: exact-cover problems in Knuth's format.

use std::io::{self, Write};
use std::time::Instant;

use clap::{Args, Subcommand};

use super::input::read_text;
use super::{Outcome, finish, parse_limit, signals, stdout};
use xcover::dlx::{Matrix, Solver, format};
use xcover::problems;

#[derive(Debug, Subcommand)]
pub enum CoverCommand {
    /// Print the number of solutions, and nothing else, on stdout.
    Count {
        /// Stop counting at N solutions.
        #[arg(long, value_name = "N", value_parser = parse_limit)]
        limit: Option<u128>,
        #[command(flatten)]
        common: CoverArgs,
    },
    /// Print solutions as the option lines they choose, separated by blank lines.
    Solve {
        /// Print every solution, not only the first.
        #[arg(long)]
        all: bool,
        /// Print at most N solutions (implies --all).
        #[arg(long, value_name = "N", value_parser = parse_limit)]
        limit: Option<u128>,
        #[command(flatten)]
        common: CoverArgs,
    },
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
    let (common, limit, all) = match &command {
        CoverCommand::Count { limit, common } => (common, *limit, true),
        CoverCommand::Solve { all, limit, common } => (common, *limit, *all || limit.is_some()),
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
    let started = Instant::now();
    let mut out = stdout();
    match command {
        CoverCommand::Count { .. } => {
            let count = solver.count(limit);
            if solver.interrupted() {
                writeln!(out, "{count} (partial)")?;
            } else {
                writeln!(out, "{count}")?;
            }
        }
        CoverCommand::Solve { .. } => {
            let wanted = if all { limit.unwrap_or(u128::MAX) } else { 1 };
            let printed = print_solutions(&mut solver, wanted, &mut out)?;
            if printed == 0 && !solver.interrupted() {
                eprintln!("no solution");
            }
        }
    }
    let stats = solver.stats();
    let seconds = started.elapsed().as_secs_f64();
    if common.stats {
        eprintln!(
            "solutions {}, nodes {}, branch points {}, removals {}, updates {}, time \
             {seconds:.3} s",
            stats.solutions, stats.nodes, stats.branches, stats.removals, stats.updates,
        );
    }
    if solver.interrupted() {
        let outcome = finish(out, Outcome::Interrupted)?;
        eprintln!(
            "xcover: interrupted after {seconds:.1} s: {} solutions found so far (a partial \
             result), {} search nodes",
            stats.solutions, stats.nodes
        );
        return Ok(outcome);
    }
    finish(out, Outcome::Success)
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

pub fn example(command: ExampleCommand) -> io::Result<Outcome> {
    let problem = match command {
        ExampleCommand::Queens { n } => problems::queens(n),
        ExampleCommand::Langford { n } => problems::langford(n),
        ExampleCommand::Latin { n } => problems::latin_square(n),
        ExampleCommand::Pentominoes { board: (w, h) } => match problems::pentominoes(w, h) {
            Ok(problem) => problem,
            Err(error) => {
                eprintln!("xcover: {error}");
                return Ok(Outcome::InvalidInput);
            }
        },
    };
    let mut out = stdout();
    format::write(&problem, &mut out)?;
    finish(out, Outcome::Success)
}
