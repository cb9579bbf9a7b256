//! The backtracking baseline against Dancing Links, all through [`SudokuSolver`]: on a table
//! of puzzles of several shapes and rules (unique, several solutions, none), the three
//! solvers agree on the count and on what a solution is, and `naive` reproduces the solution
//! printed in seed post 000.

use std::time::{Duration, Instant};

use xcover::dlx::Verdict;
use xcover::sudoku::backtrack::Baseline;
use xcover::sudoku::text;
use xcover::sudoku::variant::text as variant_text;
use xcover::sudoku::{AnyPuzzle, DancingLinks, Grid, SudokuSolver};

/// The three solvers, in the order of `compare`'s table.
fn solvers() -> [Box<dyn SudokuSolver>; 3] {
    [
        Box::new(DancingLinks::default()),
        Box::new(Baseline::mrv()),
        Box::new(Baseline::naive()),
    ]
}

fn grids(path: &str) -> Vec<Grid> {
    let content = std::fs::read_to_string(path).unwrap();
    text::parse(&content, None)
        .into_iter()
        .map(|p| p.unwrap().grid)
        .collect()
}

fn grid_of(line: &str) -> Grid {
    text::parse(line, None).remove(0).unwrap().grid
}

/// Puzzles with a known character: proper ones from the project's files, the same with clues
/// removed (several solutions), and with a wrong but unclashing digit added (none); then the
/// variants of `data/sudoku/variants.txt`, as they are and (6x6 ones) loosened.
fn table() -> Vec<(String, AnyPuzzle)> {
    let mut table = Vec::new();
    for file in [
        "data/sudoku/4x4-2x2.txt",
        "data/sudoku/6x6-2x3.txt",
        "data/sudoku/8x8-2x4.txt",
        "data/sudoku/post000.txt",
        "data/sudoku/post001.txt",
        "data/sudoku/16x16-4x4.txt",
    ] {
        for (k, grid) in grids(file).into_iter().enumerate() {
            let solution = match grid.verdict() {
                Verdict::Unique(solution) => solution,
                other => panic!("{file} #{k} should be proper: {other:?}"),
            };
            let clues: Vec<_> = grid.clues().collect();
            // Several solutions: blank the first few clues.
            let mut loose = grid.clone();
            for &(cell, _) in clues.iter().take(3) {
                loose.set(cell.row, cell.col, 0);
            }
            // No solution: a wrong digit in a blank cell that clashes with no clue.
            let mut wrong = grid.clone();
            'find: for row in 0..grid.size() {
                for col in 0..grid.size() {
                    if grid.get(row, col) != 0 {
                        continue;
                    }
                    for value in 1..=grid.size() as u8 {
                        wrong.set(row, col, value);
                        if value != solution.get(row, col) && wrong.clash().is_none() {
                            break 'find;
                        }
                    }
                    wrong.set(row, col, 0);
                }
            }
            table.push((format!("{file} #{k}"), AnyPuzzle::Grid(grid)));
            table.push((format!("{file} #{k} loosened"), AnyPuzzle::Grid(loose)));
            let wrong = AnyPuzzle::Grid(wrong);
            table.push((format!("{file} #{k} with a wrong digit"), wrong));
        }
    }
    let variants = std::fs::read_to_string("data/sudoku/variants.txt").unwrap();
    for entry in variant_text::read(&variants) {
        let entry = entry.unwrap();
        let name = entry.puzzle.id.clone();
        let mut loose = entry.puzzle.clone();
        let given = |cell: &&mut u8| **cell != 0;
        for cell in loose.givens.iter_mut().filter(given).take(4) {
            *cell = 0;
        }
        let small = entry.puzzle.rules.size <= 6;
        table.push((name.clone(), AnyPuzzle::Variant(Box::new(entry.puzzle))));
        // Loosened 9x9 variants take `naive` minutes.
        if small {
            let loose = AnyPuzzle::Variant(Box::new(loose));
            table.push((format!("{name} loosened"), loose));
        }
    }
    table
}

#[test]
fn three_solvers_agree_on_every_puzzle_of_the_table() {
    let table = table();
    let mut kinds = [0; 3];
    let mut solvers = solvers();
    for (name, puzzle) in &table {
        let mut counts = Vec::new();
        for solver in solvers.iter_mut() {
            let deadline = Some(Instant::now() + Duration::from_secs(20));
            let mut count = 0u128;
            let run = solver.search(puzzle, deadline, &mut |solution| {
                // Every solution keeps the puzzle's givens and rules, by the independent
                // judge.
                assert_eq!(puzzle.broken_rule(solution), None, "{name}");
                count += 1;
                if count == 50 {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            });
            assert!(!run.interrupted, "{name}: {} took too long", solver.name());
            assert_eq!(run.stats.solutions, count);
            counts.push((solver.name(), count));
        }
        assert!(
            counts.iter().all(|&(_, c)| c == counts[0].1),
            "{name}: solvers disagree: {counts:?}"
        );
        kinds[counts[0].1.min(2) as usize] += 1;
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "none / unique / several all tested: {kinds:?}"
    );
}

#[test]
fn naive_reproduces_post_000() {
    let puzzle = &AnyPuzzle::Grid(grids("data/sudoku/post000.txt").remove(0));
    let printed = grids("data/sudoku/post000.solution.txt").remove(0);
    let printed = printed.cells();
    assert_eq!(
        Baseline::naive().first_solution(puzzle).value.as_deref(),
        Some(printed)
    );
    assert_eq!(
        Baseline::mrv().first_solution(puzzle).value.as_deref(),
        Some(printed)
    );
    let Verdict::Unique(solution) = Baseline::naive().verdict_of(puzzle).value else {
        panic!("post 000 is proper");
    };
    assert_eq!(solution, printed);
}

#[test]
fn empty_4x4_has_288_solutions_for_every_solver() {
    let empty = &AnyPuzzle::Grid(grid_of("................"));
    for mut solver in solvers() {
        assert_eq!(
            solver.count_up_to(empty, None).value,
            288,
            "{}",
            solver.name()
        );
        assert_eq!(
            solver.count_up_to(empty, Some(7)).value,
            7,
            "{}",
            solver.name()
        );
    }
}

#[test]
fn clashing_clues_have_no_solution_for_every_solver() {
    let grid = &AnyPuzzle::Grid(grid_of("11.............."));
    for mut solver in solvers() {
        assert_eq!(solver.count_up_to(grid, None).value, 0, "{}", solver.name());
    }
}

#[test]
fn a_deadline_stops_every_solver() {
    // The empty 9x9 grid has far too many solutions to enumerate.
    let empty = &AnyPuzzle::Grid(grid_of(&".".repeat(81)));
    for mut solver in solvers() {
        let deadline = Some(Instant::now() + Duration::from_millis(50));
        let run = solver.search(
            empty,
            deadline,
            &mut |_| std::ops::ControlFlow::Continue(()),
        );
        assert!(run.interrupted, "{}", solver.name());
    }
}
