//! `xcover sudoku compare`: the side-by-side comparison of Dancing Links with backtracking.
//!
//! The measuring lives in the library ([`xcover::sudoku::comparison`]); this module reads the
//! puzzles, shows progress, and presents the result as a table, JSON or CSV, and optionally as
//! an SVG chart of time per puzzle (log scale, puzzles sorted by DLX time).

use std::io::{self, IsTerminal, Write};
use std::time::Duration;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget};
use plotters::prelude::*;
use serde_json::json;

use super::input::read_puzzles;
use super::{Outcome, finish, signals, stdout};
use xcover::sudoku::AnyPuzzle;
use xcover::sudoku::comparison::{Comparison, Figure, Ratio, SolverKind, Summary, compare};

#[derive(Debug, Args, Clone)]
pub struct CompareArgs {
    /// Solvers to compare, comma-separated: dlx, mrv, naive.
    #[arg(long, value_delimiter = ',', default_value = "dlx,mrv,naive")]
    solvers: Vec<SolverKind>,
    /// Count solutions up to N per puzzle (2 proves uniqueness).
    #[arg(long, default_value_t = 2, value_name = "N", value_parser = super::parse_limit)]
    limit: u128,
    /// Give up on a puzzle after T milliseconds (per solver); timed-out puzzles are counted.
    #[arg(long = "timeout-ms", default_value_t = 10_000, value_name = "T")]
    timeout_ms: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: CompareFormat,
    /// Also draw time per puzzle for each solver as an SVG chart.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<String>,
    #[command(flatten)]
    boxes: super::ShapeArg,
    /// Puzzle files, or - for standard input.
    #[arg(value_name = "FILE|-", required = true)]
    files: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    Table,
    Json,
    Csv,
}

/// A puzzle with where it came from, for messages.
struct Source {
    file: String,
    line: usize,
}

/// The puzzles of the files, of any rules, each with its source; an unreadable one is left
/// out (and makes the outcome `InvalidInput`).
fn read_all(args: &CompareArgs, outcome: &mut Outcome) -> (Vec<Source>, Vec<AnyPuzzle>) {
    let mut read = Vec::new();
    let mut sources = Vec::new();
    for path in &args.files {
        let (name, puzzles) = match read_puzzles(path, args.boxes.shape) {
            Ok(read) => read,
            Err(message) => {
                eprintln!("xcover: {message}");
                *outcome = Outcome::InvalidInput;
                continue;
            }
        };
        for puzzle in puzzles {
            match puzzle {
                Ok(puzzle) => {
                    sources.push(Source {
                        file: name.to_string(),
                        line: puzzle.line(),
                    });
                    read.push(puzzle.any());
                }
                Err(error) => {
                    eprintln!("{name}:{}: {} (left out)", error.line, error.message);
                    *outcome = Outcome::InvalidInput;
                }
            }
        }
    }
    (sources, read)
}

pub fn run(args: CompareArgs) -> io::Result<Outcome> {
    let mut outcome = Outcome::Success;
    let mut solvers = args.solvers.clone();
    solvers.dedup();
    let timeout = Duration::from_millis(args.timeout_ms);
    let (sources, puzzles) = read_all(&args, &mut outcome);
    let bar = if io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(sources.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    let progress = |done: usize| bar.set_position(done as u64);
    let cancel = Some(signals::flag());
    let comparison = compare(&puzzles, &solvers, args.limit, timeout, cancel, progress);
    bar.finish_and_clear();

    let disagreements = comparison.disagreements();
    for d in &disagreements {
        let source = &sources[d.puzzle];
        let counts: Vec<String> = d.counts.iter().map(|(k, c)| format!("{k} {c}")).collect();
        eprintln!(
            "{}:{}: solvers disagree on the number of solutions: {}",
            source.file,
            source.line,
            counts.join(", ")
        );
    }
    let summaries = comparison.summaries();
    let mut out = stdout();
    match args.format {
        CompareFormat::Table => write_table(&mut out, &comparison, &summaries)?,
        CompareFormat::Csv => write_csv(&mut out, &summaries)?,
        CompareFormat::Json => {
            let disagreements: Vec<_> = disagreements
                .iter()
                .map(|d| {
                    let source = &sources[d.puzzle];
                    let counts: serde_json::Map<String, serde_json::Value> = d
                        .counts
                        .iter()
                        .map(|(k, c)| (k.name().to_string(), json!(c)))
                        .collect();
                    json!({"file": source.file, "line": source.line, "counts": counts})
                })
                .collect();
            let report = json!({
                "puzzles": sources.len(),
                "limit": comparison.limit,
                "timeout_ms": args.timeout_ms,
                "solvers": summaries.iter().map(summary_json).collect::<Vec<_>>(),
                "disagreements": disagreements,
            });
            writeln!(out, "{report:#}")?;
        }
    }
    if let Some(path) = &args.plot
        && let Err(error) = plot(&comparison, path)
    {
        eprintln!("xcover: {path}: cannot draw the chart: {error}");
        outcome = Outcome::InvalidInput;
    }
    let outcome = if !disagreements.is_empty() {
        Outcome::SolversDisagree
    } else if signals::stopped() {
        eprintln!(
            "xcover: interrupted; the comparison covers the first {} of {} puzzles",
            comparison.results.len(),
            sources.len()
        );
        Outcome::Interrupted
    } else {
        outcome
    };
    finish(out, outcome)
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

fn summary_json(s: &Summary) -> serde_json::Value {
    let (ratio, bound) = match s.vs_dlx {
        None => (None, None),
        Some(Ratio::Exact(r)) => (Some(r), Some("exact")),
        Some(Ratio::AtLeast(r)) => (Some(r), Some("at least")),
        Some(Ratio::AtMost(r)) => (Some(r), Some("at most")),
        Some(Ratio::Unknown) => (None, Some("not comparable")),
    };
    json!({
        "solver": s.solver.name(),
        "puzzles": s.puzzles,
        "finished": s.finished,
        "timed_out": s.puzzles - s.finished,
        "mean_us": micros(s.mean.value),
        "median_us": micros(s.median.value),
        "p99_us": micros(s.p99.value),
        "max_us": micros(s.max.value),
        "mean_nodes": s.mean_nodes.value,
        // Figures that timed-out puzzles entered at their budget are lower bounds.
        "lower_bounds": lower_bounds(s),
        "vs_dlx": ratio,
        "vs_dlx_bound": bound,
    })
}

/// The names of the figures that timed-out puzzles entered at their budget.
fn lower_bounds(s: &Summary) -> Vec<&'static str> {
    [
        ("mean_us", s.mean.at_least),
        ("median_us", s.median.at_least),
        ("p99_us", s.p99.at_least),
        ("max_us", s.max.at_least),
        ("mean_nodes", s.mean_nodes.at_least),
    ]
    .into_iter()
    .filter(|&(_, at_least)| at_least)
    .map(|(name, _)| name)
    .collect()
}

/// A figure, with `>=` before it when it is a lower bound.
fn bounded(figure: Figure<Duration>) -> String {
    let at_least = if figure.at_least { ">=" } else { "" };
    format!("{at_least}{}", human(figure.value))
}

/// The ratio to DLX as the table shows it.
fn ratio_text(ratio: Option<Ratio>) -> String {
    match ratio {
        None => "-".to_string(),
        Some(Ratio::Exact(r)) => format!("{r:.1}x"),
        Some(Ratio::AtLeast(r)) => format!(">={r:.1}x"),
        Some(Ratio::AtMost(r)) => format!("<={r:.1}x"),
        Some(Ratio::Unknown) => "n/a".to_string(),
    }
}

/// A duration in the unit that keeps it readable.
fn human(duration: Duration) -> String {
    let us = micros(duration);
    if us < 1_000.0 {
        format!("{us:.1} us")
    } else if us < 1_000_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

fn write_table(out: &mut impl Write, c: &Comparison, summaries: &[Summary]) -> io::Result<()> {
    writeln!(
        out,
        "{} puzzles, counting up to {} solutions, timeout {} per puzzle and solver, one thread",
        c.results.len(),
        c.limit,
        human(c.timeout)
    )?;
    writeln!(
        out,
        "{:<7} {:>8} {:>9} {:>11} {:>11} {:>11} {:>11} {:>12} {:>10}",
        "solver", "puzzles", "finished", "mean", "median", "p99", "max", "mean nodes", "vs dlx"
    )?;
    for s in summaries {
        let nodes = format!(
            "{}{:.0}",
            if s.mean_nodes.at_least { ">=" } else { "" },
            s.mean_nodes.value
        );
        writeln!(
            out,
            "{:<7} {:>8} {:>9} {:>11} {:>11} {:>11} {:>11} {:>12} {:>10}",
            s.solver.name(),
            s.puzzles,
            s.finished,
            bounded(s.mean),
            bounded(s.median),
            bounded(s.p99),
            bounded(s.max),
            nodes,
            ratio_text(s.vs_dlx)
        )?;
    }
    if summaries.iter().any(|s| s.finished < s.puzzles) {
        writeln!(
            out,
            "a puzzle that timed out counts at the time it ran: figures marked >= are lower \
             bounds; n/a: both timed out on some puzzles"
        )?;
    }
    Ok(())
}

fn write_csv(out: &mut impl Write, summaries: &[Summary]) -> io::Result<()> {
    writeln!(
        out,
        "solver,puzzles,finished,timed_out,mean_us,median_us,p99_us,max_us,mean_nodes,vs_dlx,\
         vs_dlx_bound,lower_bounds"
    )?;
    for s in summaries {
        let summary = summary_json(s);
        writeln!(
            out,
            "{},{},{},{},{:.3},{:.3},{:.3},{:.3},{:.1},{},{},{}",
            s.solver.name(),
            s.puzzles,
            s.finished,
            s.puzzles - s.finished,
            micros(s.mean.value),
            micros(s.median.value),
            micros(s.p99.value),
            micros(s.max.value),
            s.mean_nodes.value,
            summary["vs_dlx"]
                .as_f64()
                .map_or(String::new(), |r| format!("{r:.3}")),
            summary["vs_dlx_bound"].as_str().unwrap_or(""),
            lower_bounds(s).join(" ")
        )?;
    }
    Ok(())
}

/// Time per puzzle for each solver on a log scale, puzzles sorted by DLX time (or by the first
/// solver's). A puzzle that timed out is drawn at the timeout, as a cross.
fn plot(c: &Comparison, path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let key = c
        .solvers
        .iter()
        .position(|&k| k == SolverKind::Dlx)
        .unwrap_or(0);
    let mut order: Vec<usize> = (0..c.results.len()).collect();
    order.sort_by_key(|&p| c.results[p][key].time);
    let shown = |m: &xcover::sudoku::comparison::Measurement| {
        micros(if m.finished { m.time } else { c.timeout }).max(0.1)
    };
    let all = c.results.iter().flatten().map(shown);
    let (low, high) = all.fold((f64::MAX, 0.1f64), |(lo, hi), t| (lo.min(t), hi.max(t)));
    let low = if low > high { 0.1 } else { low };

    let root = SVGBackend::new(path, (960, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "Time per puzzle ({} puzzles, count to {}), sorted by {} time; x = timed out",
                c.results.len(),
                c.limit,
                c.solvers[key]
            ),
            ("sans-serif", 22),
        )
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(
            0..c.results.len().max(1),
            (low * 0.8..high * 1.25).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("puzzle (sorted)")
        .y_desc("time per puzzle (log scale)")
        .y_label_formatter(&|us| human(Duration::from_secs_f64(us / 1e6)))
        .draw()?;
    let colors = [BLUE, RED, GREEN, MAGENTA];
    for (column, kind) in c.solvers.iter().enumerate() {
        let color = colors[column % colors.len()];
        let points: Vec<(usize, f64, bool)> = order
            .iter()
            .enumerate()
            .map(|(rank, &p)| {
                let m = &c.results[p][column];
                (rank, shown(m), m.finished)
            })
            .collect();
        chart
            .draw_series(
                points
                    .iter()
                    .filter(|p| p.2)
                    .map(|&(x, y, _)| Circle::new((x, y), 2, color.filled())),
            )?
            .label(kind.name())
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, color.filled()));
        chart.draw_series(
            points
                .iter()
                .filter(|p| !p.2)
                .map(|&(x, y, _)| Cross::new((x, y), 4, color.stroke_width(2))),
        )?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}
