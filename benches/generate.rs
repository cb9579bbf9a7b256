//! Criterion bench of the generator: 9x9 minimal puzzles per second on one thread, beside
//! QQWing making the same number in the same run (`qqwing --generate 100 --one-line`, the
//! Debian package `qqwing`; skipped with a message when it is not installed). Throughput lines
//! read directly as puzzles per second.
//!
//! Run with `cargo bench --bench generate`.

use std::process::Command;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xcover::sudoku::BoxShape;
use xcover::sudoku::generate::{Recipe, Request};

const BATCH: u64 = 100;

fn generate(c: &mut Criterion) {
    let shape = BoxShape::new(3, 3).unwrap();
    let mut group = c.benchmark_group("generate_9x9_minimal");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(BATCH));
    let mut seed = 0;
    group.bench_function("xcover", |b| {
        b.iter(|| {
            seed += 1;
            let request = Request {
                minimal: true,
                ..Request::classic(shape, seed)
            };
            let recipe = Recipe::new(request).unwrap();
            let mut generator = recipe.generator();
            (0..BATCH)
                .map(|i| {
                    let made = generator.generate(i).unwrap().puzzle;
                    made.givens().iter().filter(|&&v| v != 0).count()
                })
                .sum::<usize>()
        })
    });
    let qqwing = Command::new("qqwing").arg("--version").output();
    if qqwing.is_ok_and(|o| o.status.success()) {
        group.bench_function("qqwing", |b| {
            b.iter(|| {
                let output = Command::new("qqwing")
                    .args(["--generate", &BATCH.to_string(), "--one-line"])
                    .output()
                    .unwrap();
                assert_eq!(
                    output.stdout.split(|&b| b == b'\n').count() as u64,
                    BATCH + 1
                );
            })
        });
    } else {
        eprintln!("skipping qqwing: not installed (apt-get install qqwing)");
    }
    group.finish();
}

criterion_group!(benches, generate);
criterion_main!(benches);
