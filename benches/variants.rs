//! Criterion bench of the Sudoku variants: each file of `../shared/data/variants/` (six
//! puzzles of one variant), every puzzle counted up to 2 solutions on one thread, the time
//! including building its exact-cover problem (jigsaw regions and killer cages differ from
//! puzzle to puzzle, so a real run builds one per puzzle). Criterion's throughput line gives
//! puzzles per second; the mean time per puzzle is one over it. Absent files are skipped with
//! a message.
//!
//! Run with `cargo bench --bench variants`.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xcover::sudoku::variant::text;
use xcover::sudoku::variant::{Puzzle, VariantEncoding};

fn load(name: &str) -> Option<Vec<Puzzle>> {
    let path = format!("../shared/data/variants/{name}.txt");
    let Ok(content) = std::fs::read_to_string(&path) else {
        eprintln!("skipping {name}: {path} is absent");
        return None;
    };
    Some(
        text::read(&content)
            .into_iter()
            .filter_map(Result::ok)
            .map(|entry| entry.puzzle)
            .collect(),
    )
}

fn variants(c: &mut Criterion) {
    let mut group = c.benchmark_group("variants_count_to_2");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for name in [
        "x",
        "windoku",
        "jigsaw",
        "antiknight",
        "antiking",
        "nonconsecutive",
        "killer",
        "jigsaw6",
        "x6",
    ] {
        let Some(puzzles) = load(name) else {
            continue;
        };
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                puzzles
                    .iter()
                    .map(|puzzle| {
                        let encoding = VariantEncoding::new(puzzle).expect("valid rules");
                        encoding.count(puzzle, Some(2)).0
                    })
                    .sum::<u128>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, variants);
criterion_main!(benches);
