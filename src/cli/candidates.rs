//! `xcover sudoku candidates`: for each puzzle, the true candidates of every cell (the
//! symbols some solution puts there), with how many solutions each leaves when asked, as a
//! grid picture or JSON records; and which cells are still open.

use std::io::{self, Write};

use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use xcover::sudoku::candidates::TrueCandidates;
use xcover::sudoku::rules::Rules;

use super::input::{self, InputPuzzle, Job};
use super::{Outcome, finish, signals, stdout};

#[derive(Debug, Args, Clone)]
pub struct CandidatesArgs {
    /// Also count, for each candidate, the solutions that put it there (up to --cap).
    #[arg(long)]
    counts: bool,
    /// Count solutions up to N for each candidate (implies --counts).
    #[arg(long, value_name = "N", value_parser = super::parse_limit)]
    cap: Option<u128>,
    #[arg(long, value_enum, default_value = "text")]
    format: CandidatesFormat,
    #[command(flatten)]
    boxes: super::ShapeArg,
    /// Puzzle files, or - for standard input.
    #[arg(value_name = "FILE|-", default_value = "-")]
    files: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CandidatesFormat {
    /// A grid of each cell's candidates, then the open cells (with counts when asked).
    Text,
    /// One JSON object per puzzle and line.
    Json,
}

/// The cap of counts when `--counts` is given without `--cap`.
const DEFAULT_CAP: u128 = 1000;

pub fn run(args: CandidatesArgs) -> io::Result<Outcome> {
    let cap = args.cap.or(args.counts.then_some(DEFAULT_CAP));
    let threads = rayon::current_num_threads();
    let items = input::stream(args.files.clone(), args.boxes.shape);
    let mut outcome = Outcome::Success;
    let mut out = stdout();
    loop {
        let chunk = input::next_chunk(&items, 1);
        if chunk.is_empty() {
            break;
        }
        for item in &chunk {
            let Some(Job { file, puzzle }) = input::job(item, &mut outcome) else {
                continue;
            };
            let puzzle = match puzzle {
                Ok(puzzle) => puzzle,
                Err(error) => {
                    outcome = Outcome::InvalidInput;
                    eprintln!("{file}:{}: {}", error.line, error.message);
                    if args.format == CandidatesFormat::Json {
                        let record = json!({"file": &**file, "line": error.line,
                                            "error": error.message});
                        writeln!(out, "{record}")?;
                    }
                    continue;
                }
            };
            let any = puzzle.any();
            let rules = any.rules();
            let found = any.true_candidates(cap, threads, |solver| {
                solver.set_cancel_flag(Some(signals::flag()));
            });
            let found = match found {
                Ok(found) => found,
                Err(message) => {
                    outcome = Outcome::InvalidInput;
                    eprintln!("{file}:{}: {message}", puzzle.line());
                    continue;
                }
            };
            match args.format {
                CandidatesFormat::Text => write!(out, "{}", picture(&found, &rules, cap))?,
                CandidatesFormat::Json => writeln!(out, "{}", record(file, puzzle, &found, cap))?,
            }
            out.flush()?;
            if found.stopped.is_some() {
                eprintln!("xcover: interrupted: the candidates printed are partial");
                return Ok(Outcome::Interrupted);
            }
        }
    }
    finish(out, outcome)
}

/// The candidates of a cell as one word: `259`, or `.` when none (no solution), with `?`
/// after symbols not decided.
fn word(found: &TrueCandidates, rules: &Rules, cell: usize) -> String {
    let mut word: String = found.cells[cell]
        .iter()
        .map(|&(v, _)| rules.symbol_text(v))
        .collect();
    if !found.undecided[cell].is_empty() {
        word.push('?');
    }
    if word.is_empty() {
        word.push('.');
    }
    word
}

/// Each cell's candidates in a grid, boxes set apart where the grid has them, then a line
/// on what is open (and each open cell's counts, when counted). The board's rows are those of
/// `rules` (a 6x9 grid has six).
fn picture(found: &TrueCandidates, rules: &Rules, cap: Option<u128>) -> String {
    let n = found.size;
    let rows = found.cells.len() / n;
    let words: Vec<String> = (0..found.cells.len())
        .map(|cell| word(found, rules, cell))
        .collect();
    let boxes = rules.boxes;
    let width = words.iter().map(String::len).max().unwrap_or(1);
    let (box_rows, box_cols) = boxes.map_or((n, n), |b| (b.box_rows(), b.box_cols()));
    let mut text = String::new();
    for r in 0..rows {
        if r > 0 && r.is_multiple_of(box_rows) {
            let segment = "-".repeat(box_cols * (width + 1) - 1);
            let line = vec![segment; n / box_cols].join("-+-");
            text.push_str(&line);
            text.push('\n');
        }
        let mut row = Vec::new();
        for c in 0..n {
            if c > 0 && c.is_multiple_of(box_cols) {
                row.push("|".to_string());
            }
            row.push(format!("{:<width$}", words[r * n + c]));
        }
        text.push_str(row.join(" ").trim_end());
        text.push('\n');
    }
    let open = found.open_cells();
    let name = |cell: usize| format!("r{}c{}", cell / n + 1, cell % n + 1);
    if !found.solvable() && found.stopped.is_none() {
        text.push_str("no solution\n");
    } else if open.is_empty() {
        text.push_str("unique: every cell has one true candidate\n");
    } else {
        let names: Vec<String> = open.iter().map(|&cell| name(cell)).collect();
        text.push_str(&format!(
            "open: {} cells: {}\n",
            open.len(),
            names.join(" ")
        ));
    }
    if let (Some(solutions), Some(cap)) = (found.solutions, cap) {
        text.push_str(&format!("solutions: {}\n", counted(solutions, cap)));
        for &cell in &open {
            let counts: Vec<String> = found.cells[cell]
                .iter()
                .map(|&(v, count)| {
                    format!(
                        "{} {}",
                        rules.symbol_text(v),
                        counted(count.unwrap_or(0), cap)
                    )
                })
                .collect();
            text.push_str(&format!("  {}  {}\n", name(cell), counts.join(", ")));
        }
    }
    text.push('\n');
    text
}

/// A count as printed: `1000+` when it reached the cap (there may be more).
fn counted(count: u128, cap: u128) -> String {
    if count >= cap {
        format!("{count}+")
    } else {
        count.to_string()
    }
}

/// One puzzle's record: each cell's candidates (and counts), the open cells, the solutions
/// counted, whether the work was stopped.
fn record(file: &str, puzzle: &InputPuzzle, found: &TrueCandidates, cap: Option<u128>) -> Value {
    let n = found.size;
    let cells: Vec<Vec<u8>> = found
        .cells
        .iter()
        .map(|c| c.iter().map(|&(v, _)| v).collect())
        .collect();
    let mut record = json!({
        "file": file,
        "line": puzzle.line(),
        "size": n,
        "candidates": cells,
        "open": found.open_cells().iter().map(|&c| [c / n + 1, c % n + 1]).collect::<Vec<_>>(),
        "searches": found.searches,
        "stopped": found.stopped.map(|s| s.to_string()),
    });
    if let Some(id) = puzzle.id() {
        record["id"] = json!(id);
    }
    if found.stopped.is_some() {
        record["undecided"] = json!(found.undecided);
    }
    if let Some(solutions) = found.solutions {
        let counts: Vec<Vec<u128>> = found
            .cells
            .iter()
            .map(|c| c.iter().map(|&(_, count)| count.unwrap_or(0)).collect())
            .collect();
        record["counts"] = json!(counts);
        record["solutions"] = json!(solutions);
        record["cap"] = json!(cap);
    }
    record
}
