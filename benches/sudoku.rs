//! Criterion benches of the Sudoku layer, in the field's timing convention: one thread, count
//! solutions up to 2 per puzzle (so each time includes proving uniqueness), over whole
//! collections from `../shared/data/sudoku9/`; criterion's throughput line gives puzzles per
//! second, so the mean time per puzzle is one over it. Also the enumeration of every solution
//! of the empty 6x6 grid (28,200,960). Collections that are absent are skipped with a message.
//!
//! Run with `cargo bench --bench sudoku`.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xcover::sudoku::text;
use xcover::sudoku::{BoxShape, Encoding, Grid};

fn load(name: &str) -> Option<Vec<Grid>> {
    let path = format!("../shared/data/sudoku9/{name}.txt");
    let Ok(content) = std::fs::read_to_string(&path) else {
        eprintln!("skipping {name}: {path} is absent");
        return None;
    };
    let grids = text::parse(&content, None)
        .into_iter()
        .filter_map(Result::ok)
        .map(|puzzle| puzzle.grid)
        .collect();
    Some(grids)
}

fn collections(c: &mut Criterion) {
    let encoding = Encoding::new(BoxShape::new(3, 3).unwrap());
    let mut solver = encoding.solver();
    let mut group = c.benchmark_group("sudoku9_count_to_2");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(20));
    for name in [
        "17-clue",
        "top1465",
        "forum-hardest-1106",
        "serg-multi-10000",
    ] {
        let Some(grids) = load(name) else { continue };
        group.throughput(Throughput::Elements(grids.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                grids
                    .iter()
                    .map(|grid| solver.count(grid, Some(2)).value)
                    .sum::<u128>()
            })
        });
    }
    group.finish();
}

fn enumerate_6x6(c: &mut Criterion) {
    let empty = Grid::empty(BoxShape::new(2, 3).unwrap());
    let encoding = Encoding::new(empty.shape());
    let mut solver = encoding.solver();
    let mut group = c.benchmark_group("enumerate");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_secs(170))
        .throughput(Throughput::Elements(28_200_960));
    group.bench_function("empty_6x6_all_solutions", |b| {
        b.iter(|| {
            let count = solver.count(&empty, None).value;
            assert_eq!(count, 28_200_960);
            count
        })
    });
    group.finish();
}

criterion_group!(benches, collections, enumerate_6x6);
criterion_main!(benches);
