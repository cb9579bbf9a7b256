//! Read a problem in Knuth's DLX1 format and print its solutions as option lines.
//!
//! `cargo run --example read_knuth [FILE]` (default: `data/cover/knuth-7.dlx`, Knuth's
//! seven-item example from "Dancing Links").

use xcover::dlx::{Matrix, format};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "data/cover/knuth-7.dlx".to_string());
    let text = std::fs::read_to_string(&path)?;
    let parsed = format::read(&text).map_err(|e| format!("{path}:{e}"))?;
    for warning in &parsed.warnings {
        eprintln!("{path}:{}: warning: {}", warning.line, warning.message);
    }
    let matrix = Matrix::new(parsed.problem)?;
    let problem = matrix.problem();
    let mut solver = matrix.solver();
    for (k, solution) in solver.solutions().enumerate() {
        println!("solution {}:", k + 1);
        for option in solution {
            let names: Vec<&str> = problem
                .option(option)
                .iter()
                .map(|&i| problem.name(i))
                .collect();
            println!("  {}", names.join(" "));
        }
    }
    Ok(())
}
