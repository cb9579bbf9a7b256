//! `xcover cover` and `xcover example`: exact-cover problems in Knuth's format.

use std::io::{self, Write};
use std::time::Instant;

use clap::{Args, Subcommand};

use super::{Outcome, finish, read_input, stdout};
use xcover::dlx::{Matrix, Solver, format};
use xcover::problems;

#[derive(Debug, Subcommand)]
pub enum CoverCommand {
    /// Print the number of solutions, and nothing else, on stdout.
    Count {
        /// Stop counting at N solutions.
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        #[command(flatten)]
        common: CoverArgs,
    },
    /// Print solutions as the option lines they choose, separated by blank lines.
    Solve {
        /// Print every solution, not only the first.
        #[arg(long)]
        all: bool,
        /// Print at most N solutions (implies --all).
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        #[command(flatten)]
        common: CoverArgs,
    },
}

#[derive(Debug, Args)]
pub struct CoverArgs {
    /// Print search nodes, link updates and time on stderr.
    #[arg(long)]
    stats: bool,
    /// The problem in Knuth's DLX1 format, or - for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Subcommand)]
pub enum ExampleCommand {
    /// N non-attacking queens on an NxN board (diagonals are secondary items).
    Queens { n: usize },
    /// Langford pairs of order N.
    Langford { n: usize },
    /// The twelve pentominoes on a WxH board of 60 cells (or 8x8 with its centre removed).
    Pentominoes {
        #[arg(value_name = "WxH", value_parser = parse_board)]
        board: (usize, usize),
    },
    /// Latin squares of order N.
    Latin { n: usize },
}

fn parse_board(text: &str) -> Result<(usize, usize), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WxH such as 6x10, found '{text}'"))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("expected WxH such as 6x10, found '{text}'"))
    };
    Ok((parse(w)?, parse(h)?))
}

pub fn run(command: CoverCommand) -> io::Result<Outcome> {
    let (common, limit, all) = match &command {
        CoverCommand::Count { limit, common } => (common, *limit, true),
        CoverCommand::Solve { all, limit, common } => (common, *limit, *all || limit.is_some()),
    };
    let input = match read_input(&common.file) {
        Ok(input) => input,
        Err(message) => {
            eprintln!("xcover: {message}");
            return Ok(Outcome::InvalidInput);
        }
    };
    let parsed = match format::read(&input.text) {
        Ok(parsed) => parsed,
        Err(error) => {
            eprintln!(
                "{}:{}:{}: {}",
                input.name, error.line, error.column, error.kind
            );
            return Ok(Outcome::InvalidInput);
        }
    };
    for warning in &parsed.warnings {
        eprintln!(
            "{}:{}: warning: {}",
            input.name, warning.line, warning.message
        );
    }
    let matrix = match Matrix::new(parsed.problem) {
        Ok(matrix) => matrix,
        Err(error) => {
            eprintln!("{}: {error}", input.name);
            return Ok(Outcome::InvalidInput);
        }
    };
    let mut solver = matrix.solver();
    let started = Instant::now();
    let mut out = stdout();
    match command {
        CoverCommand::Count { .. } => {
            let count = solver.count(limit);
            writeln!(out, "{count}")?;
        }
        CoverCommand::Solve { .. } => {
            let wanted = if all { limit.unwrap_or(u64::MAX) } else { 1 };
            print_solutions(&mut solver, wanted, &mut out)?;
        }
    }
    if common.stats {
        let stats = solver.stats();
        eprintln!(
            "solutions {}, nodes {}, updates {}, time {:.3} s",
            stats.solutions,
            stats.nodes,
            stats.updates,
            started.elapsed().as_secs_f64()
        );
    }
    finish(out, Outcome::Success)
}

/// Streams up to `wanted` solutions: option lines, a blank line between solutions.
fn print_solutions(solver: &mut Solver<'_>, wanted: u64, out: &mut impl Write) -> io::Result<()> {
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
    if printed == 0 {
        eprintln!("no solution");
    }
    Ok(())
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
