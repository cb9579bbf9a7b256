//! Prove that a puzzle has exactly one solution, or show two that differ.
//!
//! `cargo run --example prove_unique`: a proper puzzle, then the same puzzle with one clue
//! removed, whose two witnesses are printed with the cells where they differ.

use xcover::sudoku::{Encoding, Grid, Verdict};

fn report(name: &str, puzzle: &Grid, solver: &mut xcover::sudoku::GridSolver<'_>) {
    let answer = solver.verdict(puzzle);
    match answer.value {
        Verdict::None => println!("{name}: no solution"),
        Verdict::Unique(solution) => println!("{name}: unique\n  {solution}"),
        Verdict::Multiple(a, b) => {
            let n = a.size();
            let differ: Vec<String> = (0..n * n)
                .filter(|&k| a.get(k / n, k % n) != b.get(k / n, k % n))
                .map(|k| format!("r{}c{}", k / n + 1, k % n + 1))
                .collect();
            println!("{name}: several solutions, for example\n  {a}\n  {b}");
            println!("  they differ at {}", differ.join(" "));
        }
    }
    println!("  ({} search nodes)", answer.stats.nodes);
}

fn main() {
    let proper: Grid =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .parse()
            .expect("a puzzle");
    let encoding = Encoding::new(proper.shape());
    let mut solver = encoding.solver();
    report("top95 #1", &proper, &mut solver);
    let mut fewer = proper.clone();
    fewer.set(0, 0, 0);
    report("without its r1c1 clue", &fewer, &mut solver);
}
