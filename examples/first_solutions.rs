//! Enumerate the first N solutions lazily, then stop a long count and resume it.
//!
//! `cargo run --example first_solutions [N]`: the first N placements of 10 queens, then the
//! 724 solutions counted in slices of 5000 search nodes, the search resumed after each.

use xcover::dlx::{Matrix, Stop};
use xcover::problems;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let matrix = Matrix::new(problems::queens(10)).expect("primary items");
    let problem = matrix.problem();
    let mut solver = matrix.solver();
    for (k, solution) in solver.solutions().take(n).enumerate() {
        // Each option is "rI cJ aK bL": print the squares of the queens.
        let squares: Vec<String> = solution
            .iter()
            .map(|&o| {
                let items = problem.option(o);
                format!("{}{}", problem.name(items[0]), problem.name(items[1]))
            })
            .collect();
        println!("{}: {}", k + 1, squares.join(" "));
    }

    solver.set_node_limit(Some(5000));
    let mut search = solver.search();
    let (mut found, mut slices) = (0, 1);
    loop {
        if search.next_solution().is_some() {
            found += 1;
        } else if search.stopped() == Some(Stop::NodeLimit) {
            slices += 1;
            search.set_node_limit(Some(5000));
        } else {
            break;
        }
    }
    println!("{found} solutions in {slices} slices of at most 5000 search nodes");
    assert_eq!(found, 724);
}
