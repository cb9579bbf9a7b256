//! Criterion benches of the three Sudoku solvers side by side on a few puzzles of each kind:
//! an easy board (seed post 000), a hard one (the third of `../shared/data/sudoku9/top95.txt`
//! when present: naive needs about 0.2 s there, against 9 s on the first of hard20), a 16x16,
//! and one with many solutions (post 000 with its first 8 clues removed). Each counts up to 2
//! solutions.
//!
//! Run with `cargo bench --bench baselines`.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use xcover::sudoku::backtrack::Baseline;
use xcover::sudoku::text;
use xcover::sudoku::{AnyPuzzle, DancingLinks, Grid, SudokuSolver};

fn nth_grid(path: &str, n: usize) -> Option<Grid> {
    let content = std::fs::read_to_string(path).ok()?;
    text::parse(&content, None)
        .into_iter()
        .nth(n)?
        .ok()
        .map(|p| p.grid)
}

fn solvers(c: &mut Criterion) {
    let easy = nth_grid("data/sudoku/post000.txt", 0).expect("project data");
    let mut several = easy.clone();
    for (cell, _) in easy.clues().take(8).collect::<Vec<_>>() {
        several.set(cell.row, cell.col, 0);
    }
    let mut cases = vec![
        ("easy", easy),
        ("several", several),
        (
            "16x16",
            nth_grid("data/sudoku/16x16-4x4.txt", 0).expect("project data"),
        ),
    ];
    match nth_grid("../shared/data/sudoku9/top95.txt", 2) {
        Some(hard) => cases.push(("hard", hard)),
        None => eprintln!("skipping the hard case: ../shared/data/sudoku9/top95.txt is absent"),
    }
    let mut group = c.benchmark_group("solvers_count_to_2");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(3));
    for (name, grid) in &cases {
        let puzzle = AnyPuzzle::Grid(grid.clone());
        let mut dlx = DancingLinks::default();
        dlx.prepare(grid.shape());
        let solvers: [&mut dyn SudokuSolver; 3] =
            [&mut dlx, &mut Baseline::mrv(), &mut Baseline::naive()];
        for solver in solvers {
            group.bench_with_input(
                BenchmarkId::new(solver.name(), name),
                &puzzle,
                |b, puzzle| b.iter(|| solver.count_up_to(puzzle, Some(2)).value),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, solvers);
criterion_main!(benches);
