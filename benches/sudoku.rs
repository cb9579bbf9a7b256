//! Criterion benches of the Sudoku layer, in the field's timing convention: one thread, count
//! solutions up to 2 per puzzle (so each time includes proving uniqueness), over whole
//! collections from `../shared/data/sudoku9/`; criterion's throughput line gives puzzles per
//! second, so the mean time per puzzle is one over it. Also the enumeration of every solution
//! of the empty 6x6 grid (28,200,960), and large grids with and without inference in the
//! search; and the true candidates of puzzles with many solutions. Collections that are
//! absent are skipped with a message.
//!
//! Run with `cargo bench --bench sudoku`.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xcover::dlx::Inference;
use xcover::sudoku::text;
use xcover::sudoku::{AnyPuzzle, BoxShape, Encoding, Grid};

/// The puzzles of `../shared/data/{folder}/{name}.txt`, or `None` (said on stderr) if absent.
fn load(folder: &str, name: &str) -> Option<Vec<Grid>> {
    let path = format!("../shared/data/{folder}/{name}.txt");
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
        let Some(grids) = load("sudoku9", name) else {
            continue;
        };
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

/// Large grids at several inference settings: the 16x16 and 25x25 collections of
/// `../shared/data/large-hard/` (solved and proved unique, one verdict per puzzle), the first
/// of its sparse 25x25 puzzles (the default only: the rules alone take minutes), and empty
/// grids of side 16 to 64 (a verdict: two solutions found).
fn large_grids(c: &mut Criterion) {
    let mut group = c.benchmark_group("large_verdict");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(10));
    let settings: &[(&str, &[Inference])] = &[
        (
            "16x16",
            &[Inference::None, Inference::EveryNode, Inference::Auto],
        ),
        (
            "25x25",
            &[Inference::None, Inference::EveryNode, Inference::Auto],
        ),
        ("25x25-sparse", &[Inference::Auto]),
    ];
    for &(name, inferences) in settings {
        let Some(mut grids) = load("large-hard", name) else {
            continue;
        };
        if name.ends_with("sparse") {
            grids.truncate(1);
        }
        let Some(first) = grids.first() else { continue };
        let encoding = Encoding::new(first.shape());
        group.throughput(Throughput::Elements(grids.len() as u64));
        for &inference in inferences {
            let mut solver = encoding.solver();
            solver.set_inference(inference);
            group.bench_function(format!("{name}/{inference}"), |b| {
                b.iter(|| {
                    grids
                        .iter()
                        .map(|grid| solver.verdict(grid).value.count())
                        .sum::<u128>()
                })
            });
        }
    }
    group.throughput(Throughput::Elements(1));
    for side in [16usize, 25, 36, 49, 64] {
        let shape = BoxShape::new(side.isqrt(), side.isqrt()).unwrap();
        let empty = Grid::empty(shape);
        let encoding = Encoding::new(shape);
        let mut solver = encoding.solver();
        group.bench_function(format!("empty_{side}x{side}/auto"), |b| {
            b.iter(|| solver.verdict(&empty).value.count())
        });
    }
    group.finish();
}

/// True candidates on one thread: the puzzle of 3,828,403 solutions of
/// `../shared/data/README.md` (its candidates, then its candidates with counts up to 1000),
/// and the first 100 puzzles of serg's multi-solution set.
fn true_candidates(c: &mut Criterion) {
    let mut group = c.benchmark_group("candidates");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(10));
    let millions: Grid =
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...96........"
            .parse()
            .unwrap();
    let millions = AnyPuzzle::Grid(millions);
    group.bench_function("3828403_solutions", |b| {
        b.iter(|| millions.true_candidates(None, 1, |_| {}).unwrap())
    });
    group.bench_function("3828403_solutions_counts_to_1000", |b| {
        b.iter(|| millions.true_candidates(Some(1000), 1, |_| {}).unwrap())
    });
    if let Some(grids) = load("sudoku9", "serg-multi-10000") {
        let puzzles: Vec<AnyPuzzle> = grids.into_iter().take(100).map(AnyPuzzle::Grid).collect();
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function("serg-multi-first-100", |b| {
            b.iter(|| {
                for puzzle in &puzzles {
                    puzzle.true_candidates(None, 1, |_| {}).unwrap();
                }
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    collections,
    enumerate_6x6,
    large_grids,
    true_candidates
);
criterion_main!(benches);
