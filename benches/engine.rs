//! Criterion benches of the generic engine: counting every solution of classic problems.
//!
//! Run with `cargo bench --bench engine`. Knuth's `dlx1` on this kind of machine: pentominoes
//! 6x10 in 8.0 s, 14 queens in 1.43 s (the figures in the project's issue).

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use xcover::dlx::Matrix;
use xcover::problems;

fn queens(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens_count_all");
    group.sample_size(10);
    for n in [10, 11, 12] {
        let matrix = Matrix::new(problems::queens(n)).unwrap();
        let mut solver = matrix.solver();
        group.bench_function(format!("n={n}"), |b| b.iter(|| solver.count(None)));
    }
    group.finish();
}

fn pentominoes(c: &mut Criterion) {
    let mut group = c.benchmark_group("pentominoes_count_all");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_secs(40));
    let matrix = Matrix::new(problems::pentominoes(10, 6).unwrap()).unwrap();
    let mut solver = matrix.solver();
    group.bench_function("6x10", |b| b.iter(|| solver.count(None)));
    group.finish();
}

criterion_group!(benches, queens, pentominoes);
criterion_main!(benches);
