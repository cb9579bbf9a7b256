//! The human-style solver: each technique on a position where it applies and on a near miss
//! where it must not; seed post 003's worked examples; and, over real collections, no step
//! ever contradicts the solution the exact-cover engine finds.

use xcover::sudoku::logic::{self, Level, Position, Technique};
use xcover::sudoku::text;
use xcover::sudoku::{BoxShape, Cell, Grid, Verdict};

fn cell(row: usize, col: usize) -> Cell {
    Cell {
        row: row - 1,
        col: col - 1,
    }
}

fn empty9() -> Position {
    Position::new(&Grid::empty(BoxShape::new(3, 3).unwrap()))
}

/// Leaves `cell` with exactly `keep` as candidates.
fn restrict(p: &mut Position, at: Cell, keep: &[u8]) {
    for v in 1..=9 {
        if !keep.contains(&v) {
            p.eliminate(at, v);
        }
    }
}

/// Removes `value` from every cell of row `row` except the columns in `keep`.
fn confine_in_row(p: &mut Position, row: usize, value: u8, keep: &[usize]) {
    for col in 1..=9 {
        if !keep.contains(&col) {
            p.eliminate(cell(row, col), value);
        }
    }
}

fn post003() -> Grid {
    let text = std::fs::read_to_string("data/sudoku/post003.txt").unwrap();
    text::parse(&text, None).remove(0).unwrap().grid
}

#[test]
fn post_003_naked_single_at_row_5_col_1() {
    // 0-based (5, 1) in the post: 1-based r6c2.
    let position = Position::new(&post003());
    assert_eq!(position.candidates(cell(6, 2)), vec![2]);
    let steps = logic::find_all(&position, Technique::NakedSingle);
    let step = steps
        .iter()
        .find(|s| s.placements == vec![(cell(6, 2), 2)])
        .expect("r6c2=2 is a naked single");
    assert_eq!(
        step.to_string(),
        "naked single: r6c2=2 (row 6 has 1 5 7 8, column 2 has 3 4 6 7 8, box 4 has 1 3 4 5 7 9)"
    );
}

#[test]
fn post_003_elimination_within_a_box_at_row_4_col_6() {
    // 0-based (4, 6): 1-based r5c7, the only place for 3 in box 6 (the post's box 5).
    let position = Position::new(&post003());
    assert_eq!(position.candidates(cell(5, 7)), vec![3, 6, 9]);
    let steps = logic::find_all(&position, Technique::HiddenSingle);
    let step = steps
        .iter()
        .find(|s| s.placements == vec![(cell(5, 7), 3)])
        .expect("r5c7=3 is a hidden single");
    assert_eq!(step.detail, "the only place left for 3 in box 6");
    // The post names the 3s at (3, 2), (1, 8) and (6, 7); its board has them at (3, 1), (0, 8)
    // and (6, 7), 0-based: r4c2, r1c9 and r7c8.
    for reason in [cell(4, 2), cell(1, 9), cell(7, 8)] {
        assert!(step.reasons.contains(&reason), "{reason} rules out a place");
    }
}

#[test]
fn post_003_hidden_pair_in_box_1() {
    // 0-based (2, 0) and (2, 2): r3c1 and r3c3 are the only places for 3 and 6 in box 1.
    let position = Position::new(&post003());
    let steps = logic::find_all(&position, Technique::HiddenPair);
    let step = steps
        .iter()
        .find(|s| s.reasons == vec![cell(3, 1), cell(3, 3)])
        .expect("a hidden pair at r3c1, r3c3");
    assert!(step.detail.starts_with("in box 1, 3 6 can only go in"));
    assert!(
        step.eliminations.contains(&(cell(3, 1), 8))
            || step.eliminations.contains(&(cell(3, 3), 8))
    );
    assert!(step.eliminations.iter().all(|&(_, v)| v != 3 && v != 6));
}

#[test]
fn naked_and_hidden_singles() {
    let mut p = empty9();
    assert!(
        logic::find(&p, Technique::NakedSingle).is_none(),
        "the empty grid"
    );
    assert!(
        logic::find(&p, Technique::HiddenSingle).is_none(),
        "the empty grid"
    );
    restrict(&mut p, cell(4, 4), &[7]);
    let step = logic::find(&p, Technique::NakedSingle).unwrap();
    assert_eq!(step.placements, vec![(cell(4, 4), 7)]);

    let mut p = empty9();
    confine_in_row(&mut p, 1, 5, &[9]);
    let step = logic::find(&p, Technique::HiddenSingle).unwrap();
    assert_eq!(step.placements, vec![(cell(1, 9), 5)]);
    assert_eq!(step.detail, "the only place left for 5 in row 1");
    let mut p = empty9();
    confine_in_row(&mut p, 1, 5, &[8, 9]);
    assert!(
        logic::find(&p, Technique::HiddenSingle).is_none(),
        "two places left"
    );
}

#[test]
fn pointing_and_claiming() {
    // 7 in box 1 only in row 1: it leaves the rest of row 1.
    let mut p = empty9();
    for (r, c) in [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)] {
        p.eliminate(cell(r, c), 7);
    }
    let step = logic::find(&p, Technique::Pointing).unwrap();
    assert_eq!(step.eliminations.len(), 6);
    assert!(
        step.eliminations
            .iter()
            .all(|&(at, v)| at.row == 0 && at.col >= 3 && v == 7)
    );
    // Near miss: 7 in box 1 on two rows and two columns.
    let mut p = empty9();
    for (r, c) in [(1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3)] {
        p.eliminate(cell(r, c), 7);
    }
    assert!(logic::find(&p, Technique::Pointing).is_none());

    // 4 in row 1 only in box 1: it leaves the rest of box 1.
    let mut p = empty9();
    confine_in_row(&mut p, 1, 4, &[1, 2, 3]);
    let step = logic::find(&p, Technique::Claiming).unwrap();
    assert_eq!(step.detail, "in row 1, 4 can only go in box 1");
    assert_eq!(step.eliminations.len(), 6);
    let mut p = empty9();
    confine_in_row(&mut p, 1, 4, &[1, 4]);
    assert!(logic::find(&p, Technique::Claiming).is_none(), "two boxes");
}

#[test]
fn naked_pairs_and_triples() {
    let mut p = empty9();
    restrict(&mut p, cell(1, 1), &[1, 2]);
    restrict(&mut p, cell(1, 5), &[1, 2]);
    let step = logic::find(&p, Technique::NakedPair).unwrap();
    assert_eq!(step.reasons, vec![cell(1, 1), cell(1, 5)]);
    assert_eq!(
        step.eliminations.len(),
        14,
        "1 and 2 leave the 7 other cells of row 1"
    );
    let mut p = empty9();
    restrict(&mut p, cell(1, 1), &[1, 2]);
    restrict(&mut p, cell(1, 5), &[1, 3]);
    assert!(logic::find(&p, Technique::NakedPair).is_none());

    let mut p = empty9();
    restrict(&mut p, cell(1, 1), &[1, 2]);
    restrict(&mut p, cell(1, 5), &[2, 3]);
    restrict(&mut p, cell(1, 9), &[1, 3]);
    let step = logic::find(&p, Technique::NakedTriple).unwrap();
    assert_eq!(step.eliminations.len(), 18);
    let mut p = empty9();
    restrict(&mut p, cell(1, 1), &[1, 2]);
    restrict(&mut p, cell(1, 5), &[2, 3]);
    restrict(&mut p, cell(1, 9), &[3, 4]);
    assert!(logic::find(&p, Technique::NakedTriple).is_none());
}

#[test]
fn hidden_pairs_and_triples() {
    let mut p = empty9();
    confine_in_row(&mut p, 1, 1, &[4, 8]);
    confine_in_row(&mut p, 1, 2, &[4, 8]);
    let step = logic::find(&p, Technique::HiddenPair).unwrap();
    assert_eq!(step.reasons, vec![cell(1, 4), cell(1, 8)]);
    assert_eq!(step.eliminations.len(), 14, "3..9 leave both cells");
    let mut p = empty9();
    confine_in_row(&mut p, 1, 1, &[4, 8]);
    confine_in_row(&mut p, 1, 2, &[4, 9]);
    assert!(logic::find(&p, Technique::HiddenPair).is_none());

    let mut p = empty9();
    confine_in_row(&mut p, 1, 1, &[4, 5]);
    confine_in_row(&mut p, 1, 2, &[5, 8]);
    confine_in_row(&mut p, 1, 3, &[4, 8]);
    let step = logic::find(&p, Technique::HiddenTriple).unwrap();
    assert_eq!(step.reasons, vec![cell(1, 4), cell(1, 5), cell(1, 8)]);
    let mut p = empty9();
    confine_in_row(&mut p, 1, 1, &[4, 5]);
    confine_in_row(&mut p, 1, 2, &[5, 8]);
    confine_in_row(&mut p, 1, 3, &[4, 9]);
    assert!(logic::find(&p, Technique::HiddenTriple).is_none());
}

#[test]
fn x_wing_and_swordfish() {
    let mut p = empty9();
    confine_in_row(&mut p, 1, 5, &[2, 7]);
    confine_in_row(&mut p, 5, 5, &[2, 7]);
    let step = logic::find(&p, Technique::XWing).unwrap();
    assert_eq!(step.detail, "in rows 1,5, 5 can only go in columns 2,7");
    assert_eq!(step.eliminations.len(), 14, "7 other rows in 2 columns");
    let mut p = empty9();
    confine_in_row(&mut p, 1, 5, &[2, 7]);
    confine_in_row(&mut p, 5, 5, &[2, 8]);
    assert!(logic::find(&p, Technique::XWing).is_none());

    let mut p = empty9();
    confine_in_row(&mut p, 1, 5, &[2, 5]);
    confine_in_row(&mut p, 5, 5, &[5, 8]);
    confine_in_row(&mut p, 9, 5, &[2, 8]);
    let step = logic::find(&p, Technique::Swordfish).unwrap();
    assert_eq!(step.detail, "in rows 1,5,9, 5 can only go in columns 2,5,8");
    assert_eq!(step.eliminations.len(), 18);
    let mut p = empty9();
    confine_in_row(&mut p, 1, 5, &[2, 5]);
    confine_in_row(&mut p, 5, 5, &[5, 8]);
    confine_in_row(&mut p, 9, 5, &[2, 9]);
    assert!(logic::find(&p, Technique::Swordfish).is_none());
}

#[test]
fn xy_wing() {
    let mut p = empty9();
    restrict(&mut p, cell(1, 1), &[1, 2]);
    restrict(&mut p, cell(1, 5), &[1, 3]);
    restrict(&mut p, cell(5, 1), &[2, 3]);
    let step = logic::find(&p, Technique::XyWing).unwrap();
    assert!(step.eliminations.contains(&(cell(5, 5), 3)));
    assert!(step.eliminations.iter().all(|&(_, v)| v == 3));
    let mut p = empty9();
    restrict(&mut p, cell(1, 1), &[1, 2]);
    restrict(&mut p, cell(1, 5), &[1, 3]);
    restrict(&mut p, cell(5, 1), &[2, 4]);
    assert!(logic::find(&p, Technique::XyWing).is_none());
}

/// Every step of the logical solution agrees with the engine's unique solution.
fn steps_agree_with_the_solution(grid: &Grid) -> Level {
    let Verdict::Unique(truth) = grid.verdict() else {
        panic!("a proper puzzle");
    };
    let solution = logic::solve(grid);
    assert!(
        solution.contradiction.is_none(),
        "{:?}",
        solution.contradiction
    );
    for step in &solution.steps {
        for &(at, v) in &step.placements {
            assert_eq!(truth.get(at.row, at.col), v, "{step}");
        }
        for &(at, v) in &step.eliminations {
            assert_ne!(truth.get(at.row, at.col), v, "{step}");
        }
    }
    logic::rating_of(&solution).level
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn no_step_contradicts_the_true_solution_on_real_puzzles() {
    for (file, take) in [("top95.txt", 95), ("17-clue.txt", 500), ("hard20.txt", 20)] {
        let path = format!("../shared/data/sudoku9/{file}");
        let content = std::fs::read_to_string(&path).unwrap();
        let mut levels = std::collections::BTreeMap::new();
        for puzzle in text::parse(&content, None).into_iter().take(take) {
            let level = steps_agree_with_the_solution(&puzzle.unwrap().grid);
            *levels.entry(level).or_insert(0) += 1;
        }
        assert!(levels.len() >= 2, "{file}: a spread of levels: {levels:?}");
    }
}

/// Soundness of every technique over thousands of hard puzzles: each collection split across
/// two threads, every step of every logical solution checked against the engine's solution,
/// and the count logic finishes returned.
fn finished_agreeing(file: &str) -> (usize, usize) {
    let content = std::fs::read_to_string(format!("../shared/data/sudoku9/{file}")).unwrap();
    let grids: Vec<Grid> = text::parse(&content, None)
        .into_iter()
        .map(|p| p.unwrap().grid)
        .collect();
    let finished = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for half in grids.chunks(grids.len().div_ceil(2)) {
            let finished = &finished;
            scope.spawn(move || {
                for grid in half {
                    if steps_agree_with_the_solution(grid) != Level::NeedsSearch {
                        finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    (finished.into_inner(), grids.len())
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn chains_and_forcing_agree_with_the_solution_on_top1465_and_the_forum_hardest() {
    // Before chains, colouring and forcing, logic alone finished 320 of top1465.
    let (top, of) = finished_agreeing("top1465.txt");
    assert!(top >= 1400, "top1465: logic finished {top} of {of}");
    let (hardest, of) = finished_agreeing("forum-hardest-1106.txt");
    eprintln!("top1465: {top} of 1465; forum-hardest: {hardest} of {of}");
}

#[test]
fn project_puzzles_of_other_shapes_explain_without_contradiction() {
    for file in [
        "data/sudoku/4x4-2x2.txt",
        "data/sudoku/6x6-2x3.txt",
        "data/sudoku/12x12-3x4.txt",
        "data/sudoku/post000.txt",
    ] {
        let content = std::fs::read_to_string(file).unwrap();
        for puzzle in text::parse(&content, None) {
            steps_agree_with_the_solution(&puzzle.unwrap().grid);
        }
    }
    // Post 000's board falls to singles alone.
    let content = std::fs::read_to_string("data/sudoku/post000.txt").unwrap();
    let grid = text::parse(&content, None).remove(0).unwrap().grid;
    assert_eq!(logic::rate(&grid).level, Level::Easy);
}
