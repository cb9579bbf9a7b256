//! Boards beyond the square grid: rectangles of fewer rows than symbols (6x9: six rows of 1
//! to 9, columns that hold each symbol at most once) and doppelganger (a grid of 0 to N - 1
//! whose rows, columns and boxes each miss one digit, written beside it). On small boards
//! the engine's count equals the number of boards that the rules' judges accept (every board
//! enumerated here by plain recursion, sharing no code with the encoding), and equals the
//! backtracking baseline's count; with random clues of the rules each board reads, several at
//! once, and random givens. The ISS examples of both (Answers on a Postcard, Dutch-pelgänger)
//! are in `variants.rs`.

use std::sync::OnceLock;

use proptest::prelude::*;

use xcover::sudoku::BoxShape;
use xcover::sudoku::backtrack::Backtracker;
use xcover::sudoku::rules::{
    AntiKing, AntiKnight, Constraint, Doppelganger, Dot, Indexing, Kropki, NonConsecutive, Renban,
    Sums, Thermometers, Whispers,
};
use xcover::sudoku::variant::{Puzzle, Rules, VariantEncoding, check, text};

type Cell = (usize, usize);

/// Every filling of a `rows` x `cols` array with symbols 1 to `symbols` in which each row,
/// each column and each box (when `boxes`) holds no symbol twice, row by row.
fn fillings(rows: usize, cols: usize, symbols: u8, boxes: Option<(usize, usize)>) -> Vec<Vec<u8>> {
    fn fill(
        grid: &mut Vec<u8>,
        at: usize,
        shape: (usize, usize, u8, Option<(usize, usize)>),
        all: &mut Vec<Vec<u8>>,
    ) {
        let (rows, cols, symbols, boxes) = shape;
        if at == rows * cols {
            all.push(grid.clone());
            return;
        }
        let (r, c) = (at / cols, at % cols);
        for v in 1..=symbols {
            let in_row = (0..c).any(|j| grid[r * cols + j] == v);
            let in_column = (0..r).any(|i| grid[i * cols + c] == v);
            let in_box = boxes.is_some_and(|(h, w)| {
                (0..at).any(|k| grid[k] == v && (k / cols) / h == r / h && (k % cols) / w == c / w)
            });
            if !in_row && !in_column && !in_box {
                grid[at] = v;
                fill(grid, at + 1, shape, all);
                grid[at] = 0;
            }
        }
    }
    let mut all = Vec::new();
    fill(
        &mut vec![0; rows * cols],
        0,
        (rows, cols, symbols, boxes),
        &mut all,
    );
    all
}

/// How many boards keep `rules` and `givens`, by the judges.
fn brute(boards: &[Vec<u8>], rules: &Rules, givens: &[u8]) -> u128 {
    boards
        .iter()
        .filter(|board| check::broken_rule(rules, givens, board).is_none())
        .count() as u128
}

/// A path of up to `len` cells among `cells`, from the one `seeds[0]` picks, each the next
/// free neighbour (a king's step) that the following seed picks; shorter where it is stuck.
fn walk(cells: &[Cell], seeds: &[u8], len: usize) -> Vec<Cell> {
    let mut path = vec![cells[usize::from(seeds[0]) % cells.len()]];
    for &seed in seeds.iter().skip(1).take(len.saturating_sub(1)) {
        let (r, c) = *path.last().unwrap();
        let next: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&(r2, c2)| r.abs_diff(r2) <= 1 && c.abs_diff(c2) <= 1)
            .filter(|cell| !path.contains(cell))
            .collect();
        if next.is_empty() {
            break;
        }
        path.push(next[usize::from(seed) % next.len()]);
    }
    path
}

/// A clue of kind `kind` that `board` (`cols` symbols a row) keeps, on a path among `cells`
/// (`extra`, when given, is put at the end of the path: a cell beyond the grid); `None` when
/// the path makes no such clue.
fn clue(
    kind: usize,
    board: &[u8],
    cols: usize,
    cells: &[Cell],
    extra: Option<Cell>,
    seeds: &[u8],
) -> Option<Constraint> {
    let mut path = walk(cells, seeds, 2 + usize::from(seeds[9]) % 3);
    path.extend(extra);
    let value = |(r, c): Cell| board[r * cols + c];
    let values: Vec<u8> = path.iter().map(|&cell| value(cell)).collect();
    match kind {
        0 => {
            // A thermometer: the path rising, or falling read backwards.
            let rising = values.windows(2).all(|w| w[0] < w[1]);
            let falling = values.windows(2).all(|w| w[0] > w[1]);
            if falling {
                path.reverse();
            }
            (rising || falling)
                .then(|| Constraint::Thermometers(Thermometers { lines: vec![path] }))
        }
        1 => {
            let least = values.windows(2).map(|w| w[0].abs_diff(w[1])).min()?;
            (least >= 1).then(|| {
                Constraint::Whispers(Whispers {
                    lines: vec![(least.min(seeds[10] % 3 + 1), path)],
                })
            })
        }
        2 => {
            let (low, high) = (*values.iter().min()?, *values.iter().max()?);
            let mut sorted = values.clone();
            sorted.sort_unstable();
            sorted.dedup();
            (sorted.len() == values.len() && usize::from(high - low) + 1 == values.len())
                .then(|| Constraint::Renban(Renban { lines: vec![path] }))
        }
        3 => {
            let (a, b) = (path[0], path[1]);
            let (x, y) = (value(a), value(b));
            let dot = if x.abs_diff(y) == 1 {
                Dot::White
            } else if x == 2 * y || y == 2 * x {
                Dot::Black
            } else {
                return None;
            };
            (a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1).then(|| {
                Constraint::Kropki(Kropki {
                    dots: vec![(dot, a, b)],
                })
            })
        }
        4 => Some(Constraint::AntiKnight(AntiKnight)),
        5 => Some(Constraint::AntiKing(AntiKing)),
        6 => Some(Constraint::NonConsecutive(NonConsecutive)),
        7 => Some(Constraint::Indexing(Indexing {
            columns: vec![path[0]],
            rows: Vec::new(),
        })),
        _ => {
            let total: u32 = values.iter().map(|&v| u32::from(v)).sum();
            Some(Constraint::Sums(Sums {
                clues: vec![(total, path)],
            }))
        }
    }
}

/// A rectangle: its rows, its symbols (a row's cells) and its boxes (rows, columns), if any.
type Rectangle = (usize, usize, Option<(usize, usize)>);

/// The rectangles tried.
const RECTANGLES: [Rectangle; 4] = [
    (2, 4, Some((2, 2))),
    (2, 6, Some((2, 3))),
    (3, 4, None),
    (3, 6, Some((3, 2))),
];

/// The boards of each of [`RECTANGLES`], enumerated once.
fn rectangle_boards(shape: usize) -> &'static [Vec<u8>] {
    static BOARDS: OnceLock<Vec<Vec<Vec<u8>>>> = OnceLock::new();
    &BOARDS.get_or_init(|| {
        RECTANGLES
            .iter()
            .map(|&(rows, n, boxes)| fillings(rows, n, n as u8, boxes))
            .collect()
    })[shape]
}

/// [`doppelganger_boards`], enumerated once.
fn doppelganger_boards_once() -> &'static [Vec<u8>] {
    static BOARDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    BOARDS.get_or_init(doppelganger_boards)
}

/// Every doppelganger board on a grid of side 4 (digits 0 to 4 as symbols 1 to 5): the grid
/// with its rows', columns' and boxes' missing digits beside it, as `Doppelganger` lays them
/// out, for every grid whose rows, columns and boxes repeat no digit and hold a 0.
fn doppelganger_boards() -> Vec<Vec<u8>> {
    let (side, n) = (4, 5);
    let missing = |cells: Vec<u8>| -> Option<u8> {
        let absent: Vec<u8> = (1..=n as u8).filter(|v| !cells.contains(v)).collect();
        (cells.contains(&1) && absent.len() == 1).then(|| absent[0])
    };
    fillings(side, side, n as u8, Some((2, 2)))
        .into_iter()
        .filter_map(|grid| {
            let at = |r: usize, c: usize| grid[r * side + c];
            let mut board = vec![0u8; (n + 1) * n];
            for r in 0..side {
                for c in 0..side {
                    board[r * n + c] = at(r, c);
                }
                board[r * n + side] = missing((0..side).map(|c| at(r, c)).collect())?;
            }
            for c in 0..side {
                board[side * n + c] = missing((0..side).map(|r| at(r, c)).collect())?;
            }
            for b in 0..side {
                let (top, left) = (b / 2 * 2, b % 2 * 2);
                let cells = (0..4).map(|k| at(top + k / 2, left + k % 2)).collect();
                board[(side + 1) * n + b] = missing(cells)?;
            }
            board[side * n + side] = 1;
            board[(side + 1) * n + side] = 1;
            Some(board)
        })
        .collect()
}

/// The engine, the backtracking baseline and brute force agree on `puzzle`.
fn counts_agree(boards: &[Vec<u8>], puzzle: &Puzzle) -> Result<(), TestCaseError> {
    let expected = brute(boards, &puzzle.rules, &puzzle.givens);
    let encoding = VariantEncoding::new(puzzle).unwrap();
    let (count, _) = encoding.count(puzzle, None);
    prop_assert_eq!(count, expected, "{:?}", puzzle.rules);
    prop_assert_eq!(
        Backtracker::new(&puzzle.rules).count(&puzzle.givens, u128::MAX),
        expected,
        "{:?}",
        puzzle.rules
    );
    // Knuth's format of the same problem counts the same.
    let matrix = xcover::dlx::Matrix::new(encoding.puzzle_problem(puzzle)).unwrap();
    prop_assert_eq!(matrix.solver().count(None), expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rectangles_count_as_brute_force_does(
        shape in 0..RECTANGLES.len(),
        kinds in prop::collection::vec(0..9usize, 0..4),
        seeds in prop::collection::vec(prop::collection::vec(any::<u8>(), 11), 3),
        pick in any::<u16>(),
        mask in any::<u32>(),
        corrupt in 0..5u8,
    ) {
        let (rows, n, boxes) = RECTANGLES[shape];
        let boards = rectangle_boards(shape);
        let board = &boards[usize::from(pick) % boards.len()];
        let mut rules = Rules::latin(n)
            .with_rows(rows)
            .with_boxes(boxes.map(|(h, w)| BoxShape::new(h, w).unwrap()));
        let cells: Vec<Cell> = (0..rows).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
        for (k, &kind) in kinds.iter().enumerate() {
            // Sometimes a clue of another board, which may leave no solution.
            let source = if corrupt == 0 { &boards[(usize::from(pick) + 7 * k + 1) % boards.len()] } else { board };
            if let Some(constraint) = clue(kind, source, n, &cells, None, &seeds[k]) {
                rules.add(constraint);
            }
        }
        prop_assume!(rules.validate().is_ok());
        let givens: Vec<u8> = (0..rows * n)
            .map(|i| if mask & (1 << i) != 0 && i % 3 == 0 { board[i] } else { 0 })
            .collect();
        let puzzle = Puzzle { id: "random".into(), rules, givens };
        // The block format writes the rectangle's rows and reads the same puzzle back (it
        // refuses givens that clash, as with any grid).
        let written = text::block(&puzzle, "", Some(board));
        let read = text::read(&written).remove(0);
        if puzzle.clashes().is_empty() {
            prop_assert!(read.is_ok(), "{}: {:?}", written, read.as_ref().err());
            let read = read.unwrap();
            prop_assert_eq!(&read.puzzle, &puzzle);
            prop_assert_eq!(read.solution.as_deref(), Some(&board[..]));
        } else {
            prop_assert!(read.is_err());
        }
        counts_agree(boards, &puzzle)?;
    }

    #[test]
    fn doppelganger_counts_as_brute_force_does(
        kinds in prop::collection::vec(0..3usize, 0..4),
        seeds in prop::collection::vec(prop::collection::vec(any::<u8>(), 11), 3),
        beyond in prop::collection::vec(any::<u8>(), 3),
        pick in any::<u16>(),
        mask in any::<u32>(),
        corrupt in 0..5u8,
    ) {
        let boards = doppelganger_boards_once();
        let (side, n) = (4, 5);
        let board = &boards[usize::from(pick) % boards.len()];
        let mut rules = Rules::latin(n)
            .with_rows(n + 1)
            .with_symbols_from_zero()
            .with(Constraint::Doppelganger(Doppelganger));
        let cells: Vec<Cell> = (0..side).flat_map(|r| (0..side).map(move |c| (r, c))).collect();
        // The missing digits: the column beside the grid, the row below it and the boxes'.
        let missing: Vec<Cell> = (0..side)
            .flat_map(|i| [(i, side), (side, i), (side + 1, i)])
            .collect();
        for (k, &kind) in kinds.iter().enumerate() {
            let source = if corrupt == 0 { &boards[(usize::from(pick) + 7 * k + 1) % boards.len()] } else { board };
            // Lines through the grid, some ending on a missing digit.
            let extra = (beyond[k] % 2 == 0).then(|| missing[usize::from(beyond[k]) % missing.len()]);
            if let Some(constraint) = clue(kind, source, n, &cells, extra, &seeds[k]) {
                rules.add(constraint);
            }
        }
        prop_assume!(rules.validate().is_ok());
        let givens: Vec<u8> = (0..(n + 1) * n)
            .map(|i| if mask & (1 << (i % 32)) != 0 && i % 4 == 0 && i % n < side && i / n < side { board[i] } else { 0 })
            .collect();
        let puzzle = Puzzle { id: "random".into(), rules, givens };
        counts_agree(boards, &puzzle)?;
    }
}

/// Each doppelganger board's missing digits follow from its grid, so the boards are as many
/// as the grids the rule allows; and the rule removes some of the grids whose rows, columns
/// and boxes each miss a digit (those where a 0 sees one digit missed twice).
#[test]
fn doppelganger_boards_are_its_grids() {
    let boards = doppelganger_boards_once();
    let rules = Rules::latin(5)
        .with_rows(6)
        .with_symbols_from_zero()
        .with(Constraint::Doppelganger(Doppelganger));
    let empty = vec![0u8; 30];
    let kept = brute(boards, &rules, &empty);
    assert!(
        kept > 0 && kept < boards.len() as u128,
        "{kept} of {}",
        boards.len()
    );
    let encoding = VariantEncoding::new(&Puzzle {
        id: "empty".into(),
        rules: rules.clone(),
        givens: empty.clone(),
    })
    .unwrap();
    assert_eq!(
        encoding
            .count(
                &Puzzle {
                    id: "empty".into(),
                    rules,
                    givens: empty
                },
                None
            )
            .0,
        kept
    );
}

/// A rule not read on a board off the square is refused by name, never dropped, and a cell
/// past a rectangle's rows is outside the grid.
#[test]
fn boards_refuse_what_they_cannot_read() {
    let rectangle = Rules::latin(6).with_rows(4).with_boxes(BoxShape::new(2, 3));
    let diagonals = rectangle
        .clone()
        .with(Constraint::named("diagonals").unwrap());
    let error = diagonals.validate().unwrap_err().to_string();
    assert!(
        error.contains("'diagonals'") && error.contains("4x6"),
        "{error}"
    );
    let outside = rectangle.with(Constraint::Thermometers(Thermometers {
        lines: vec![vec![(3, 0), (4, 0)]],
    }));
    let error = outside.validate().unwrap_err().to_string();
    assert!(error.contains("r5c1 is outside the grid"), "{error}");
    let doppelganger = Rules::latin(10)
        .with_rows(11)
        .with_symbols_from_zero()
        .with(Constraint::Doppelganger(Doppelganger))
        .with(Constraint::Sums(Sums {
            clues: vec![(10, vec![(0, 0), (0, 1)])],
        }));
    let error = doppelganger.validate().unwrap_err().to_string();
    assert!(error.contains("'sums'"), "{error}");
    let zero_alone = Rules::latin(10).with_rows(11).with_symbols_from_zero();
    assert!(zero_alone.validate().is_err());
}

/// Doppelganger's sums say the whole rule where its 81 machines are too large to unroll (on
/// 9x9 they are all the search has of it): on every board of side 4 whose houses and units
/// hold, the sums hold exactly when the rule's judge accepts the board.
#[test]
fn doppelganger_sums_state_the_rule() {
    let rules = Rules::latin(5)
        .with_rows(6)
        .with_symbols_from_zero()
        .with(Constraint::Doppelganger(Doppelganger));
    let sums = rules.sums();
    assert!(!sums.is_empty());
    let (mut kept, mut broken) = (0, 0);
    for board in doppelganger_boards_once() {
        let holds = sums.iter().all(|(sum, _)| {
            let total: i64 = sum
                .terms
                .iter()
                .map(|(cell, weight)| weight.of(board[cell.0 * 5 + cell.1]))
                .sum();
            (sum.min..=sum.max).contains(&total)
        });
        let judged = check::broken_rule(&rules, &[], board).is_none();
        assert_eq!(holds, judged, "{board:?}");
        if judged {
            kept += 1;
        } else {
            broken += 1;
        }
    }
    assert!(kept > 0 && broken > 0, "{kept} kept, {broken} broken");
}
