//! The backtracking baselines against Dancing Links: on a table of puzzles of several shapes
//! (unique, several solutions, none), all three solvers agree on the count and on what a
//! solution is, and `naive` reproduces the solution printed in seed post 000.

use std::time::{Duration, Instant};

use xcover::sudoku::backtrack::{Mrv, Naive};
use xcover::sudoku::check::check_solution;
use xcover::sudoku::text;
use xcover::sudoku::{Encoding, Grid, SudokuSolver, Verdict};

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
/// removed (several solutions), and with a wrong but unclashing digit added (none).
fn table() -> Vec<(String, Grid)> {
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
            table.push((format!("{file} #{k}"), grid));
            table.push((format!("{file} #{k} loosened"), loose));
            table.push((format!("{file} #{k} with a wrong digit"), wrong));
        }
    }
    table
}

#[test]
fn three_solvers_agree_on_every_puzzle_of_the_table() {
    let table = table();
    let mut kinds = [0; 3];
    for (name, grid) in &table {
        let encoding = Encoding::new(grid.shape());
        let mut dlx = encoding.solver();
        let mut solvers: [&mut dyn SudokuSolver; 3] =
            [&mut dlx, &mut Mrv::default(), &mut Naive::default()];
        let mut counts = Vec::new();
        for solver in solvers.iter_mut() {
            let deadline = Some(Instant::now() + Duration::from_secs(20));
            let mut count = 0u128;
            let run = solver.search(grid, deadline, &mut |solution| {
                check_solution(grid, solution).unwrap_or_else(|e| panic!("{name}: {e}"));
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
    let puzzle = &grids("data/sudoku/post000.txt")[0];
    let printed = &grids("data/sudoku/post000.solution.txt")[0];
    assert_eq!(
        Naive::default().first_solution(puzzle).value.as_ref(),
        Some(printed)
    );
    assert_eq!(
        Mrv::default().first_solution(puzzle).value.as_ref(),
        Some(printed)
    );
    let Verdict::Unique(solution) = Naive::default().verdict_of(puzzle).value else {
        panic!("post 000 is proper");
    };
    assert_eq!(&solution, printed);
}

#[test]
fn empty_4x4_has_288_solutions_for_every_solver() {
    let empty = &grid_of("................");
    let encoding = Encoding::new(empty.shape());
    assert_eq!(encoding.solver().count_up_to(empty, None).value, 288);
    assert_eq!(Mrv::default().count_up_to(empty, None).value, 288);
    assert_eq!(Naive::default().count_up_to(empty, None).value, 288);
    assert_eq!(Naive::default().count_up_to(empty, Some(7)).value, 7);
}

#[test]
fn clashing_clues_have_no_solution_for_every_solver() {
    let grid = &grid_of("11..............");
    let encoding = Encoding::new(grid.shape());
    assert_eq!(encoding.solver().count_up_to(grid, None).value, 0);
    assert_eq!(Mrv::default().count_up_to(grid, None).value, 0);
    assert_eq!(Naive::default().count_up_to(grid, None).value, 0);
}

#[test]
fn a_deadline_stops_the_baselines() {
    // The empty 9x9 grid has far too many solutions to enumerate.
    let empty = &grid_of(&".".repeat(81));
    for solver in [
        &mut Naive::default() as &mut dyn SudokuSolver,
        &mut Mrv::default(),
    ] {
        let deadline = Some(Instant::now() + Duration::from_millis(50));
        let run = solver.search(
            empty,
            deadline,
            &mut |_| std::ops::ControlFlow::Continue(()),
        );
        assert!(run.interrupted, "{}", solver.name());
    }
}
