//! Build an exact-cover problem in code and count its solutions.
//!
//! `cargo run --example count_problem`: the 4x4 Latin squares, items "cell", "row has
//! symbol" and "column has symbol", one option per (cell, symbol); 576 of them.

use xcover::dlx::{Matrix, Problem};

fn main() {
    let n = 4;
    let mut problem = Problem::new();
    let mut item = |name: String| problem.add_primary(&name).expect("a fresh name");
    let cells: Vec<_> = (0..n * n)
        .map(|k| item(format!("c{}{}", k / n, k % n)))
        .collect();
    let rows: Vec<_> = (0..n * n)
        .map(|k| item(format!("r{}v{}", k / n, k % n)))
        .collect();
    let cols: Vec<_> = (0..n * n)
        .map(|k| item(format!("k{}v{}", k / n, k % n)))
        .collect();
    for r in 0..n {
        for c in 0..n {
            for v in 0..n {
                let option = [cells[r * n + c], rows[r * n + v], cols[c * n + v]];
                problem.add_option(&option).expect("declared items");
            }
        }
    }
    let matrix = Matrix::new(problem).expect("a problem with primary items");
    let mut solver = matrix.solver();
    let count = solver.count(None);
    let stats = solver.stats();
    println!("{count} Latin squares of order {n}");
    println!(
        "{} search nodes, {} link updates",
        stats.nodes, stats.updates
    );
    assert_eq!(count, 576);
}
