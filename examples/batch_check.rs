//! Check a file of puzzles on every core, answers in input order (feature `parallel`).
//!
//! `cargo run --release --example batch_check [FILE]` (default: `data/sudoku/6x6-3x2.txt`):
//! one line per puzzle, `unique`, `none`, `multiple` or the reason it cannot be read.

use std::fs::File;
use std::io::BufReader;

use xcover::sudoku::Verdict;
use xcover::sudoku::batch::Batch;
use xcover::sudoku::text::Reader;

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "data/sudoku/6x6-3x2.txt".to_string());
    let puzzles: Vec<_> = Reader::new(BufReader::new(File::open(&path)?), None)
        .map(|p| p.and_then(|p| p.validate().map(|()| p)))
        .collect();
    let mut batch = Batch::new();
    let verdicts = batch.run(
        &puzzles,
        |puzzle| puzzle.as_ref().ok().map(|p| &p.grid),
        |solver, _, grid| solver.verdict(grid).value,
    );
    for (puzzle, verdict) in puzzles.iter().zip(verdicts) {
        match (puzzle, verdict) {
            (Err(error), _) => println!("{path}:{error}"),
            (Ok(_), Some(Verdict::None)) => println!("none"),
            (Ok(_), Some(Verdict::Unique(_))) => println!("unique"),
            (Ok(_), Some(Verdict::Multiple(..))) => println!("multiple"),
            (Ok(_), None) => unreachable!("every valid puzzle has a verdict"),
        }
    }
    Ok(())
}
