//! Criterion benches of the human-style solver: `rate`'s work (logic until the grid is full or
//! logic stalls) per puzzle, one thread, over the first puzzles of shared collections: 10,000
//! 17-clue puzzles (mostly singles: what the cheap-first order makes fast), 200 of top1465
//! (chains and forcing) and 30 of the forum's hardest (nested forcing), so that a sample takes
//! seconds. Criterion's throughput line gives puzzles per second. Collections that are absent
//! are skipped with a message.
//!
//! Run with `cargo bench --bench logic`.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xcover::sudoku::Grid;
use xcover::sudoku::logic;
use xcover::sudoku::text;

/// The first `take` puzzles of `../shared/data/sudoku9/{name}.txt`, or `None` (said on
/// stderr) if absent.
fn load(name: &str, take: usize) -> Option<Vec<Grid>> {
    let path = format!("../shared/data/sudoku9/{name}.txt");
    let Ok(content) = std::fs::read_to_string(&path) else {
        eprintln!("skipping {name}: {path} is absent");
        return None;
    };
    let grids = text::parse(&content, None)
        .into_iter()
        .filter_map(Result::ok)
        .map(|puzzle| puzzle.grid)
        .take(take)
        .collect();
    Some(grids)
}

fn rate(c: &mut Criterion) {
    let mut group = c.benchmark_group("logic_rate");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(30));
    for (name, take) in [
        ("17-clue", 10_000),
        ("top1465", 200),
        ("forum-hardest-1106", 30),
    ] {
        let Some(grids) = load(name, take) else {
            continue;
        };
        group.throughput(Throughput::Elements(grids.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| grids.iter().map(|grid| logic::rate(grid).score).max())
        });
    }
    group.finish();
}

criterion_group!(benches, rate);
criterion_main!(benches);
