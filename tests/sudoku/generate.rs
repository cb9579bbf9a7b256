//! The generator over many seeds and shapes: every puzzle has exactly one solution (checked
//! by the `mrv` baseline, not the engine that made it), minimal puzzles are minimal, the
//! symmetry holds, a difficulty is met, and a seed always gives the same puzzles.

use std::process::Command;

use xcover::dlx::Verdict;
use xcover::sudoku::backtrack::Baseline;
use xcover::sudoku::check::check_solution;
use xcover::sudoku::generate::{Generated, Recipe, Request, Symmetry};
use xcover::sudoku::logic::{self, Level};
use xcover::sudoku::{AnyPuzzle, BoxShape, Encoding, Grid, SudokuSolver};

fn request(shape: &str, symmetry: Symmetry, minimal: bool, seed: u64) -> Request {
    Request {
        symmetry,
        minimal,
        ..Request::classic(shape.parse::<BoxShape>().unwrap(), seed)
    }
}

/// Puzzle `index` of `request`, with its solution, as classic grids.
fn generate(request: &Request, index: u64) -> (Grid, Grid, Generated) {
    let recipe = Recipe::new(request.clone()).unwrap();
    let made = recipe.generator().generate(index).unwrap();
    let AnyPuzzle::Grid(puzzle) = &made.puzzle else {
        panic!("classic rules make classic grids: {:?}", made.puzzle);
    };
    let solution = Grid::from_cells(puzzle.shape(), made.solution.clone()).unwrap();
    (puzzle.clone(), solution, made)
}

fn assert_unique_by_mrv(puzzle: &Grid, solution: &Grid) {
    match Baseline::mrv()
        .verdict_of(&AnyPuzzle::Grid(puzzle.clone()))
        .value
    {
        Verdict::Unique(found) => assert_eq!(found, solution.cells()),
        other => panic!("not unique for mrv: {other:?}"),
    }
    check_solution(puzzle, solution).unwrap();
}

#[test]
fn every_puzzle_is_unique_minimal_and_symmetric() {
    let symmetries = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];
    for shape in ["2x2", "2x3", "3x2", "2x4", "3x3"] {
        for (k, &symmetry) in symmetries.iter().enumerate() {
            for seed in 0..4 {
                let request = request(shape, symmetry, true, seed * 7 + k as u64);
                let (puzzle, solution, made) = generate(&request, seed);
                let context = format!("{shape} {symmetry} seed {seed}");
                assert_eq!(made.undecided, 0, "{context}");
                assert_unique_by_mrv(&puzzle, &solution);
                assert!(symmetry.holds(&puzzle), "{context}: {puzzle:?}");
                // Minimal: no clue (no symmetric group of clues) can go.
                let n = puzzle.size();
                for (cell, _) in puzzle.clues() {
                    let mut fewer = puzzle.clone();
                    for (r, c) in symmetry.orbit(n, cell.row, cell.col) {
                        fewer.set(r, c, 0);
                    }
                    assert_eq!(
                        Baseline::mrv()
                            .count_up_to(&AnyPuzzle::Grid(fewer), Some(2))
                            .value,
                        2,
                        "{context}: the clue at {cell} could go"
                    );
                }
            }
        }
    }
}

#[test]
fn without_minimal_puzzles_are_unique_with_more_clues() {
    for seed in 0..10 {
        let (puzzle, solution, _) = generate(&request("3x3", Symmetry::None, false, seed), 0);
        assert_unique_by_mrv(&puzzle, &solution);
        assert!(puzzle.clue_count() >= 32, "stops at 40% of the cells");
    }
}

#[test]
fn a_seed_gives_the_same_puzzles_whatever_the_order() {
    let request = request("3x3", Symmetry::Rot180, true, 42);
    let forward: Vec<Grid> = (0..6).map(|i| generate(&request, i).0).collect();
    let recipe = Recipe::new(request).unwrap();
    let mut generator = recipe.generator();
    let backward: Vec<AnyPuzzle> = (0..6)
        .rev()
        .map(|i| generator.generate(i).unwrap().puzzle)
        .collect();
    let backward: Vec<Grid> = backward
        .into_iter()
        .rev()
        .map(|puzzle| match puzzle {
            AnyPuzzle::Grid(grid) => grid,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(forward, backward);
    assert_ne!(
        forward[0], forward[1],
        "different indices give different puzzles"
    );
}

#[test]
fn a_seed_gives_the_same_output_whatever_the_thread_count() {
    let run = |threads: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_xcover"))
            .args([
                "-j",
                threads,
                "sudoku",
                "generate",
                "--count",
                "12",
                "--seed",
                "9",
                "--minimal",
                "--box",
                "2x3",
            ])
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let one = run("1");
    assert_eq!(one.lines().count(), 12);
    assert_eq!(one, run("2"));
}

#[test]
fn a_difficulty_is_met() {
    for level in [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Extreme,
        Level::Forcing,
    ] {
        let mut request = request("3x3", Symmetry::None, false, 5);
        request.difficulty = Some(level);
        let (puzzle, solution, made) = generate(&request, 1);
        assert_eq!(logic::rate(&puzzle).level, level);
        assert_eq!(made.rating.map(|r| r.level), Some(level));
        assert_unique_by_mrv(&puzzle, &solution);
    }
}

#[test]
fn sixteen_by_sixteen() {
    let encoding = Encoding::new(BoxShape::new(4, 4).unwrap());
    let (puzzle, solution, _) = generate(&request("4x4", Symmetry::Rot180, false, 1), 0);
    assert!(Symmetry::Rot180.holds(&puzzle));
    assert_eq!(
        encoding.solver().count(&puzzle, Some(2)).value,
        1,
        "16x16: unique"
    );
    check_solution(&puzzle, &solution).unwrap();
}
