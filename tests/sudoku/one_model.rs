//! The two Sudoku encodings agree: a classic grid encoded by `sudoku::exact_cover` (one
//! matrix per box shape, givens chosen as options) and the same grid as a ruleset (rows,
//! columns and boxes) encoded by `sudoku::variant` have the same solutions, on random puzzles
//! of every box shape from 4x4 to 16x16, from nearly full grids to nearly empty ones, with
//! clashing givens now and then. This holds the two stacks together while they are merged
//! into one puzzle model: it must keep passing through every step of that change.

use proptest::prelude::*;

use xcover::sudoku::variant::{Puzzle, Rules, VariantEncoding};
use xcover::sudoku::{BoxShape, Encoding, Grid};

/// Solutions listed and compared one by one up to this many; past it, counts are compared
/// up to [`COUNT_LIMIT`].
const LISTED: usize = 40;
const COUNT_LIMIT: u128 = 300;

/// Every box shape of R rows and C columns (both at least 2) with a side from 4 to 16.
fn shapes() -> Vec<BoxShape> {
    let mut shapes = Vec::new();
    for rows in 2..=8 {
        for cols in 2..=8 {
            if (4..=16).contains(&(rows * cols)) {
                shapes.push(BoxShape::new(rows, cols).unwrap());
            }
        }
    }
    shapes
}

/// A random puzzle: a full grid (the shape's pattern grid, symbols shuffled), each cell
/// kept as a clue with probability `density` percent, and, when `clash` says so, a clue
/// copied to another cell of its row (two clues that clash).
fn puzzle() -> impl Strategy<Value = Grid> {
    let shapes = shapes();
    (0..shapes.len())
        .prop_flat_map(move |index| {
            let shape = shapes[index];
            let n = shape.size();
            (
                Just(shape),
                Just((1..=n as u8).collect::<Vec<u8>>()).prop_shuffle(),
                prop::collection::vec(0u8..100, n * n),
                5u8..95,
                prop::option::weighted(0.15, (0..n * n, 0..n)),
            )
        })
        .prop_map(|(shape, first_row, dice, density, clash)| {
            let n = shape.size();
            // The pattern grid of the shape, its symbols relabelled by the shuffle. (Not the
            // engine's completion of a shuffled first row: on some 16x16 shapes that search
            // is occasionally lost for minutes, and the property is not about it.)
            let (rows, cols) = (shape.box_rows(), shape.box_cols());
            let mut full = Grid::empty(shape);
            for r in 0..n {
                for c in 0..n {
                    let pattern = (cols * (r % rows) + r / rows + c) % n;
                    full.set(r, c, first_row[pattern]);
                }
            }
            let mut puzzle = Grid::empty(shape);
            for (cell, &die) in dice.iter().enumerate() {
                if die < density {
                    puzzle.set(cell / n, cell % n, full.get(cell / n, cell % n));
                }
            }
            // Both clues of the clash are set, so that it is plain to see: a wrong clue beside
            // a blank can make a sparse 16x16 with no solution that takes any search hours to
            // refute.
            if let Some((cell, col)) = clash {
                let row = cell / n;
                puzzle.set(row, col, full.get(row, col));
                puzzle.set(row, cell % n, full.get(row, col));
            }
            puzzle
        })
}

/// The puzzle's solutions by the classic encoding, at most `LISTED + 1`, sorted.
fn classic_solutions(puzzle: &Grid) -> Vec<Vec<u8>> {
    let encoding = Encoding::new(puzzle.shape());
    let mut solver = encoding.solver();
    let mut solutions: Vec<Vec<u8>> = solver
        .solutions(puzzle)
        .take(LISTED + 1)
        .map(|grid| grid.cells().to_vec())
        .collect();
    solutions.sort();
    solutions
}

/// The same puzzle as a ruleset.
fn as_ruleset(puzzle: &Grid) -> Puzzle {
    Puzzle {
        id: "random".to_string(),
        rules: Rules::classic(puzzle.shape()),
        givens: puzzle.cells().to_vec(),
    }
}

/// The puzzle's solutions by the ruleset encoding, at most `LISTED + 1`, sorted.
fn ruleset_solutions(puzzle: &Puzzle) -> Vec<Vec<u8>> {
    let encoding = VariantEncoding::new(puzzle).expect("classic rules are valid");
    let Some(mut solver) = encoding.solver(puzzle) else {
        return Vec::new();
    };
    let mut solutions: Vec<Vec<u8>> = solver
        .solutions()
        .take(LISTED + 1)
        .map(|options| encoding.grid_of(options))
        .collect();
    solutions.sort();
    solutions
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_classic_and_the_ruleset_encodings_agree(puzzle in puzzle()) {
        let ruleset = as_ruleset(&puzzle);
        let classic = classic_solutions(&puzzle);
        let listed = ruleset_solutions(&ruleset);
        if classic.len() <= LISTED || listed.len() <= LISTED {
            prop_assert_eq!(&classic, &listed, "{:?}", puzzle.cells());
        } else {
            let encoding = Encoding::new(puzzle.shape());
            let count = encoding.solver().count(&puzzle, Some(COUNT_LIMIT)).value;
            let variant = VariantEncoding::new(&ruleset).unwrap();
            let (other, _) = variant.count(&ruleset, Some(COUNT_LIMIT));
            prop_assert_eq!(count, other, "{:?}", puzzle.cells());
        }
    }
}

/// Every shape of the property above is tried by name at least once, with the empty grid
/// (many solutions) and a full one (exactly one), so that no shape depends on the draw.
#[test]
fn every_shape_agrees_on_an_empty_and_a_full_grid() {
    for shape in shapes() {
        let empty = Grid::empty(shape);
        let full = empty.solution().unwrap();
        for puzzle in [empty, full] {
            let encoding = Encoding::new(shape);
            let count = encoding.solver().count(&puzzle, Some(COUNT_LIMIT)).value;
            let ruleset = as_ruleset(&puzzle);
            let (other, _) = VariantEncoding::new(&ruleset)
                .unwrap()
                .count(&ruleset, Some(COUNT_LIMIT));
            assert_eq!(count, other, "{shape}");
        }
        assert_eq!(
            classic_solutions(&Grid::empty(shape).solution().unwrap()),
            ruleset_solutions(&as_ruleset(&Grid::empty(shape).solution().unwrap())),
            "{shape}"
        );
    }
}
