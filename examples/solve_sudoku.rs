//! Solve one Sudoku given as a string, and print it in two layouts.
//!
//! `cargo run --example solve_sudoku [PUZZLE]` (default: the puzzle of seed post 001).

use xcover::sudoku::Grid;
use xcover::sudoku::text::Layout;

fn main() {
    let text = std::env::args().nth(1).unwrap_or_else(|| {
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .to_string()
    });
    let puzzle: Grid = match text.parse() {
        Ok(grid) => grid,
        Err(error) => {
            eprintln!("not a puzzle: {error}");
            std::process::exit(1);
        }
    };
    if let Some(clash) = puzzle.clash() {
        eprintln!("invalid clues: {clash}");
        std::process::exit(1);
    }
    match puzzle.solution() {
        Some(solution) => {
            println!("{solution}");
            println!();
            println!("{}", solution.display(Layout::Grid));
        }
        None => println!("no solution"),
    }
}
