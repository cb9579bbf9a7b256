//! The differential run over every 9x9 puzzle of the shared collections (about 62,000): the
//! dancing-links count up to 2, the `mrv` backtracking count up to 2, and the independent
//! checker on every solution either gives must agree, puzzle by puzzle. It takes minutes, so
//! it is ignored by default: `cargo test --release --test sudoku differential -- --ignored`.

use std::path::Path;
use std::thread;

use xcover::sudoku::backtrack::Baseline;
use xcover::sudoku::check::check_solution;
use xcover::sudoku::text;
use xcover::sudoku::{AnyPuzzle, Encoding, Grid, SudokuSolver, Verdict};

#[test]
#[ignore = "minutes: run with --ignored"]
fn dlx_mrv_and_the_checker_agree_on_every_shared_9x9_puzzle() {
    let dir = Path::new("../shared/data/sudoku9");
    assert!(dir.is_dir(), "needs ../shared/data/sudoku9");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut grids = Vec::new();
    for file in &files {
        let content = std::fs::read_to_string(file).unwrap();
        for puzzle in text::parse(&content, None) {
            let puzzle = puzzle.unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            grids.push((file.display().to_string(), puzzle.line, puzzle.grid));
        }
    }
    let threads = thread::available_parallelism().map_or(2, |n| n.get());
    let per = grids.len().div_ceil(threads);
    let tallies: Vec<[usize; 3]> = thread::scope(|scope| {
        let handles: Vec<_> = grids
            .chunks(per)
            .map(|chunk| {
                scope.spawn(move || {
                    let encoding = Encoding::new(chunk[0].2.shape());
                    let mut dlx = encoding.solver();
                    let mut mrv = Baseline::mrv();
                    let mut tally = [0usize; 3];
                    for (file, line, grid) in chunk {
                        let ours = dlx.verdict(grid).value;
                        let theirs = mrv
                            .verdict_of(&AnyPuzzle::Grid(grid.clone()))
                            .value
                            .map(|cells| Grid::from_cells(grid.shape(), cells).unwrap());
                        let index = |v: &Verdict| match v {
                            Verdict::None => 0,
                            Verdict::Unique(_) => 1,
                            Verdict::Multiple(..) => 2,
                        };
                        assert_eq!(index(&ours), index(&theirs), "{file}:{line}");
                        for verdict in [&ours, &theirs] {
                            match verdict {
                                Verdict::None => {}
                                Verdict::Unique(a) => check_solution(grid, a).unwrap(),
                                Verdict::Multiple(a, b) => {
                                    assert_ne!(a, b, "{file}:{line}");
                                    check_solution(grid, a).unwrap();
                                    check_solution(grid, b).unwrap();
                                }
                            }
                        }
                        if let (Verdict::Unique(a), Verdict::Unique(b)) = (&ours, &theirs) {
                            assert_eq!(a, b, "{file}:{line}: one solution, the same one");
                        }
                        tally[index(&ours)] += 1;
                    }
                    tally
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let total = tallies.iter().fold([0; 3], |acc, t| {
        [acc[0] + t[0], acc[1] + t[1], acc[2] + t[2]]
    });
    eprintln!(
        "{} puzzles from {} files: none {}, unique {}, multiple {}",
        grids.len(),
        files.len(),
        total[0],
        total[1],
        total[2]
    );
    assert!(grids.len() > 60_000);
    assert_eq!(total[0], 0);
}
