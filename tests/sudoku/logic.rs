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
    steps_agree(grid, false)
}

/// The same, with the puzzle declared unique or not.
fn steps_agree(grid: &Grid, unique: bool) -> Level {
    let Verdict::Unique(truth) = grid.verdict() else {
        panic!("a proper puzzle");
    };
    let start = Position::new(grid);
    let solution = logic::solve_from(if unique {
        start.declared_unique()
    } else {
        start
    });
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
fn finished_agreeing(file: &str, unique: bool) -> (usize, usize) {
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
                    if steps_agree(grid, unique) != Level::NeedsSearch {
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
    // Before chains, colouring and forcing, logic alone finished 320 of top1465. Declared
    // unique, so that unique rectangles and BUG+1 are checked too.
    let (top, of) = finished_agreeing("top1465.txt", true);
    assert!(top >= 1400, "top1465: logic finished {top} of {of}");
    // Nested forcing chains reach every one of the forum's hardest.
    let (hardest, of) = finished_agreeing("forum-hardest-1106.txt", false);
    assert_eq!(
        hardest, of,
        "forum-hardest: logic finished {hardest} of {of}"
    );
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

/// Test cases of HoDoKu's regression library, `reglib-1.4.txt` (published with HoDoKu,
/// hodoku.sourceforge.net; the copy read is in github.com/zh3305/HoDoKu): the first four of each
/// technique that this solver names (fewer where the library has fewer), under HoDoKu's
/// code and name. A line is
/// `:code:digit:grid:deleted candidates:eliminations:placements:`, the grid with `+` before
/// a placed (not given) digit and candidates written `<digit><row><col>`.
const HODOKU_CASES: [(Technique, &str); 107] = [
    // 0302: Jellyfish
    (
        Technique::Jellyfish,
        ":0302:7:2.......3.8..3..5...34.21....12.54......9......93.86....25.69...9..2..7.4.......1::712 715 721 729 751 752 759 792 795::",
    ),
    (
        Technique::Jellyfish,
        ":0302:9:.............1.....123.456.+1.........23...78..47.6.12...........318.764..58...23.:444 544 944 445 545 945 546 946 459 566 966:911 914 915 916 919 921 924 926 929 949 971 974 975 976 979::",
    ),
    (
        Technique::Jellyfish,
        ":0302:9:.............1.....123.456...........27...38..36.5.42...........682.715..74...83.:714 724 445 645 745 845 945 146 646 846 946:911 914 915 916 919 921 924 926 929 941 944 949 971 974 975 976 979::",
    ),
    (
        Technique::Jellyfish,
        ":0302:5:.4..28.7187.6...2+4.+1.+4.+7..+9..48..26..+21.4+69+3+8.86..24+1.+4...+6...+2.6..+89.4313.27+4.9+6:311 331 176 577 877 781 587:523 527 531 533 537 541 561 564 573 574::",
    ),
    // 0310: Finned X-Wing
    (
        Technique::FinnedXWing,
        ":0310:3:1.........5.....61..8+1..2...7...9.......1.3..4...5...6.+6.+398+14+2+9+42+5+71+6..+8+136+4279+5:962:315 335::",
    ),
    (
        Technique::FinnedXWing,
        ":0310:9:.8+3.49+26..7...+2...2....+35.......6....57.3+1+6.26..27+5...+7+6+5+328+14939.1.4.....1..+7...::948 958::",
    ),
    (
        Technique::FinnedXWing,
        ":0310:8:.9+15..3..562+318+9+7+4+3+4....+1..189...6+3.+47+3.....1+2+5+6+1834+9+7+6+1.2+3+7.+499+24+8+65+7+1+3.+3...126.::818::",
    ),
    (
        Technique::FinnedXWing,
        ":0310:8:...+936+581+15+6+2..3+49+8+3941+5+6+72..274+3+19.3..+6.+1.+2..1.+5+2..+36.4.+3...+1...18.+4.6+3..+31.2.+5.::879::",
    ),
    // 0311: Finned Swordfish
    (
        Technique::FinnedSwordfish,
        ":0311:5:.+6.4+1+7.+83+3+1+4+98..+7.8+7..+6+39147+43.29..+8..+8+3+4+6.2+7..6.+7.34+96..+75+4+8+314+3+1.+9.7..58+7631+4+9+2::557::",
    ),
    (
        Technique::FinnedSwordfish,
        ":0311:5:....4...97+9..124+6....9+6....2...+9.3.....+2....6.784+3...5329+1+8+4+6+5+78+5+7+6291..4+16..38+9+2::555::",
    ),
    (
        Technique::FinnedSwordfish,
        ":0311:7:+2.3.+186+5.41+6+75+39+8+2.+5+8.+26.1.84.3+6+2.9+5+62.+8.543.5+3.1+4.+8+2+6.+6+52...+4+83.+4+58.26..+8+2+6.45+7.::737::",
    ),
    (
        Technique::FinnedSwordfish,
        ":0311:4:3+2.+1.+7+6+9+8..862.+713..+6+3+9+8+245+6+8.....7.5.783..+2.2.1.7..8..6..+89.+3....71.86.+8...+639+5.:422 443 546 147 447 456 459 566 467 469 471 482 283 483 583 492 299 499:466::",
    ),
    // 0312: Finned Jellyfish
    (
        Technique::FinnedJellyfish,
        ":0312:8:+64+12+5.7.3+3826+7..+1+5....+31+6...9+3+1.+6..+74+1+6.27+3.......3.61.+2.+7+65+13.+765+31....+13...+2+576:934 938 939 979 986 993:879::",
    ),
    (
        Technique::FinnedJellyfish,
        ":0312:7:..2.18.+6..+6..+9+4+8+1.+8+14..+597.658+1....+9+1...+59.+8...+9+8...51.354..1.82.+1+583..64+8+69.+1...:752 754 259 762 299:787::",
    ),
    (
        Technique::FinnedJellyfish,
        ":0312:9:..827463.2+4.8..1.+7+7+6....+4+8+2....87.4.+45+7...+8+2.+8.64.2+7...+7..+4+8.+6...4...5786+8.+7.9.+14:525 133 534 535 343 144 344 944 149 349 949 162 971 373 973 393:962::",
    ),
    (
        Technique::FinnedJellyfish,
        ":0312:7:...68+2+9.+112+8.59...+9..1..5827...15+39+8..9.3.1463....+6+2......6..2.........3+635.+2.81.:424 432 433 562 764 765 474 774 974 476 776 484 784 984 486 786:718::",
    ),
    // 0320: Sashimi X-Wing
    (
        Technique::FinnedXWing,
        ":0320:8:4..5.769....+3....2.68+1...3.65.2.4..9...+73.4.....9.......+68........+6.3..73894+7....::859 869::",
    ),
    (
        Technique::FinnedXWing,
        ":0320:8:+5...+2.+4..+2...5483.3+4...826+5+1+35789+6+42.7+42+6+15.+36.+2+4+3+5...+456.1.....2.....547..+54...+6::881::",
    ),
    (
        Technique::FinnedXWing,
        ":0320:3:......3+8+99.4..2+561....9.72+4+4619+2+78+53+8+5+93+64+17+2..2...+4+9+6.97.1..4+85....8+9.+7.....+9..+5::371::",
    ),
    (
        Technique::FinnedXWing,
        ":0320:1:5.....34+7+7.+6+5+3+4..132+4.715.+697..456.3.35....+7.6..+3.+7.+5..+6+7..9.+3+52.+3.567..8+5+9+7+13462::151::",
    ),
    // 0321: Sashimi Swordfish
    (
        Technique::FinnedSwordfish,
        ":0321:6:.+489+127+3.2..6..14.....4....9.42..87....+49.+3...32..15+94....2.+4..+471..9..3.+251.49..:331 373 678 679 699:638::",
    ),
    (
        Technique::FinnedSwordfish,
        ":0321:6:5+8.74...+39..+3.8....4319+5..+22.7..+9.3+64.8.3.5+79+39...+72.1+8+2.+97361....5....8+1...84..7:613 122 623 664 686 693:622::",
    ),
    (
        Technique::FinnedSwordfish,
        ":0321:6:+8.3.14.2..+4....8...+1..385.4+7+3184..+52.+25+37+14+8.4.+8.523..3.418.+2....9..+3+1+4+8+18+249.7..:612 712 614 914 919 621 526 628 728 928 629 729 929 631 638 668 968 669 969 572 679 584 684 699:646::",
    ),
    (
        Technique::FinnedSwordfish,
        ":0321:5:94.+6+8....+1.82+4.93+66.21...+48....61.....1.+2.4.....75+4...7....82.1+219+5+763+8+4.+8..+1+2.97:718 336 342 542 742 747 352 552 952 558 362 662 373 374:572::",
    ),
    // 0322: Sashimi Jellyfish
    (
        Technique::FinnedJellyfish,
        ":0322:6:.+489+127+3.2..6..14.....4....9.42..87....+49.+3...32..15+94....2.+4..+471..9..3.+251.49..:331 638 373 678 679 699:637::",
    ),
    (
        Technique::FinnedJellyfish,
        ":0322:8:..+34+16+2..2+6...+3+1.41.+4....36.463+7+15.+2.+2184......7+62.+41...5.3..41..+2+1.+4...+4+1.5+6732.:536 936 976:871 872 881 882::",
    ),
    (
        Technique::FinnedJellyfish,
        ":0322:6:.+5+92+87.+1.+218.+4+9+7.54.+7.+5.+2+8+9+58.+7+941.27.+4.+2..5....53..+4+7....6+5.7..459+7..2..7..12+59.:663 166 373 381:657 659 667::",
    ),
    (
        Technique::FinnedJellyfish,
        ":0322:8:3.+2..57...+5...1.42+49+172.....3...4....25..+7...9+1456+2+8..+2.+9.531..+14.27.39+5+57+3..+9...:647 947 148 648 748 749 358 359:874 894 895::",
    ),
    // 0400: Skyscraper
    (
        Technique::Skyscraper,
        ":0400:6:+1+6+328+9754+79.4.38.+1+4+8.+1.....+6397+1+428+584+7+5....3+25+1..+8+47.+5+28.+41.9+7+9+7+4+8.5..23+16+9..+5+4+8::657 658 664 665::",
    ),
    (
        Technique::Skyscraper,
        ":0400:1:+6+9+7.....+2..19+72.6+3..+3..679.9+12...6.+737+4+2+6.95.+8+65+7.+9.+2414+8+6+93+2+757.9.24..+6..+68.+7..+9::117 118 134 135::",
    ),
    (
        Technique::Skyscraper,
        ":0400:2:2+3+1...+9+86+84+9.+3.+5+7+15+67918.+3.+1+2+8..3.+9.+4+9+6.8..1.7+53+1.9..+8+6+123+5784+9+385.+9.1.+79+7+4+8.+1.5.::284 286 297 299::",
    ),
    (
        Technique::Skyscraper,
        ":0400:7:.+956.8+1.33.+1.5+9...+867..+1.+5...+3..+6..1+982.145.+6..6..+5.....45+8...77.+896..1...+91+4+7.2.::724 745 765::",
    ),
    // 0401: 2-String Kite
    (
        Technique::TwoStringKite,
        ":0401:3:+156+87+49+3+2.4+762.+18+528....+4+7+6....8.+5+9.73....618+8.5...+32.........+3.7.5...49....487.1::381::",
    ),
    (
        Technique::TwoStringKite,
        ":0401:9:+3617..+2+95842+395+6+7+1.5.+26+14+8+3+1.+8+5+2+6.3+4+625....+1+8.+341..+526+4..+6+1.+8+5+2+58...+2+1672+1+6+8+5+7349::976::",
    ),
    (
        Technique::TwoStringKite,
        ":0401:5:.81.2.+6...+4+2.+6..+89.+568..+24.+6+931+4+27+5+8+4+28+357916+1+7+5+6+8+9+3+245+1..+36+89223...84+6.+8+6.+2.....::524::",
    ),
    (
        Technique::TwoStringKite,
        ":0401:8:+21+67+3+8..98+9+3+65+4..+1+7..+2+19+38613.5+4+6..2+4..172+6..6.+2+8+93.1452.4+6+7...+3+6.+98+5..79..+3+21.6.::897::",
    ),
    // 0403: Turbot Fish
    (
        Technique::TurbotFish,
        ":0403:2:2+64+9+13587.3+1.+8+5..2.+58..6+3.+1+4+7+9+6+3..+5+8+12+6+8+54+739+3+8+5.9...659+3+1.+8..+4+84.5+6.+91+361.3+49+8.5::277::",
    ),
    (
        Technique::TurbotFish,
        ":0403:1:29+35..+1.+4...+4.3+2+9....+29.3.5..+96.84+3+2826+93+45+1+73...+2+59..+6+8534+9+721+917+8+5264+3+4+3+2...+8+5+9::131::",
    ),
    (
        Technique::TurbotFish,
        ":0403:4:+2+8.1.3.9..3..9...+1.+9+1...5.+3+35...7+1.26+27..+1.3.14.2+3....8+1+4+3+6+9+2+579+7+2514+3..+5+6+3+72+84+1+9::445::",
    ),
    (
        Technique::TurbotFish,
        ":0403:2:+5+71+6+38+942.3+8...15+66.+9...8+7+3...+8..+4.7...4..+6.+1+7.4.63+598..+7...+2+8+9....2.+71595+27+8+136+4::224::",
    ),
    // 0500: Simple Colors Trap
    (
        Technique::SimpleColouring,
        ":0500:1:+23.7.+68+955972+8...+6+6..+9+3+5.+7.+3.+6.9.5.7+7+5.+36...+9+4.+9+5+7.+683+872.+5396.+94+5+6.7..+8+1638.+9+7+5.:439:127 128 132 133::",
    ),
    (
        Technique::SimpleColouring,
        ":0500:3:21+4..+6.....+79.+2..4...4.7.....+1+87..32..+26+9.....48.21..642.+7.986+1..91+68...1+86+2+4...9:937 938 387 587 787 588 788 789:319 339 381::",
    ),
    (
        Technique::SimpleColouring,
        ":0500:2:+6+745+93+12+8..+1.87.+45+5+8.14..+7.1+534.9.+8.8.+7........6+8......+6+8+7.+4+5917+15+9682+3+4....5+18+67:327 657 659:294::",
    ),
    (
        Technique::SimpleColouring,
        ":0500:2:+652...+7..8+7+3+9+54+612+41+97+2+6+83+5.3...94569...7....1.....9....+15...6.3...615..+54+68.....:853 154 763 863 272 375 379 779:284::",
    ),
    // 0501: Simple Colors Wrap
    (
        Technique::SimpleColouring,
        ":0501:8:+6+5+9...+1+3...+1.3.6+252.+31+65.4+9.+2..9+63+1.+36.7..5+9.+91.+3.4.+6279.6..+2+5+35.+6...9811.2...+4+7+6:814 815 424 826 443 843 849 855 856 863 875 285 896:819 821 824 832 844 853 867 876 892 895::",
    ),
    (
        Technique::SimpleColouring,
        ":0501:7:3+9265.....+86+3.4+5.+2+45...+2+63...+9+52..+6.+2+6.9+4.8+5...51.6+2..6+7+8+43+192+5+5+2+3.+6+9..4+914+2.5+3.6:717 718 818 119 725 128 735 835 139 741 147 768 769 788:719 728 733 734 761 787 795::",
    ),
    (
        Technique::SimpleColouring,
        ":0501:1:+548..+3....+674.+9+8359..8+5+7+6...+9..+382+5+73..57.4..+8+7+52+9+4163689+7+4+5+31+2...+9..+5...+513.2...::114 119 125 132 141 156 185::",
    ),
    // 0502: Multi-Colors 1
    (
        Technique::MultiColouring,
        ":0502:8:......58779..52..15.41..932.......2.2.6.3.1.5.5.......947.182.....76..1961.......::824 832 843 845 863 865::",
    ),
    (
        Technique::MultiColouring,
        ":0502:2:.9..4187678.3..15441.8..329..91...6.1...6.9..674..851.967485231.4..12.95521......::245::",
    ),
    (
        Technique::MultiColouring,
        ":0502:3:.9..4187678.3..15441.8..329..91...6.1...6.9..674..851.967485231.4..12.95521......::341 353::",
    ),
    // 0503: Multi-Colors 2
    (
        Technique::MultiColouring,
        ":0503:8:......58779..52..15.41..932.......2.2.6.3.1.5.5.......947.182.....76..1961.......::824 832::",
    ),
    // 0701: X-Chain
    (
        Technique::XChain,
        ":0701:7:3.4+52..8...6.+9.....5..7.3.....68+9.2+3...+734....6+315+27...1.+9+6......9.+4..6.+6.8217..5::742::5",
    ),
    (
        Technique::XChain,
        ":0701:6:.+421+7+8..+9..+8+4+2..+7+1.1+7+3.928+44..+83+1+7+2673+65+4+2+1+9+8+2+8+1+69745+3.2.+9..+8.787+32.49.+5...+78...+2::697 698::5",
    ),
    (
        Technique::XChain,
        ":0701:1:.....+394..4...53+8...+3+478+5.25+39.+47.+2........+7371..3+64+95..6+3.2754.......+3+93.....2.8:921 657 181:184 185 186::5",
    ),
    (
        Technique::XChain,
        ":0701:2:+8..6.+351+7..+6+8+1+7.3937+1.9+5..+8+7.45+6..+81+16...87..2.+8731..668..+5.+1.....1+8.....+1..+7.8.5:458 459 973 474 478 982 383 983 487 488 389 993 494 498:212 213::5",
    ),
    // 0702: XY-Chain
    (
        Technique::XyChain,
        ":0702:7:76+2+8+1+3+59+4...+7+6+9+1+2+8.+9.42536+7.+765+9+82.+39..1+32......+67+4+8.9..+7+9+5643+1.49+38+1..2.1.+2+47+9+8.::758 787::19",
    ),
    (
        Technique::XyChain,
        ":0702:6:4+7+2+35+698153+1..+8.+2.+86+91.+2.53+158.2+7+34.+2+9+64+13+8+7+57+4+38.+5....+8...9....2..+8+1...+91..+3+4.68::675::7",
    ),
    (
        Technique::XyChain,
        ":0702:2:+57.4.+169.+9+482+7+6+1536.....+7+4...+9...+3.4+4...9+35.+63.+5...+9.12+5+4367+8+1+9......2+651+96+5+284+3+7::219 232 233::13",
    ),
    (
        Technique::XyChain,
        ":0702:8:.1.+3825+6+4...+9+75+138...1+6+4+7+2+9...6+9+127527+5438+6+9+1+1+96+5+2+7+8+4+3....+5+9+4+12..+1.+4398+6.4..16+3+5+7::871 872 873 894::11",
    ),
    // 0703: Remote Pairs
    (
        Technique::RemotePair,
        ":0703:58:..+1.+4+9+2+636+3.21+7+9+4.942+63..+7.2634.+17.98.+4.+9..2...+9.+6+2.+34..7..4.9.+4..9+7631..+9+6.+2.+4.7::577 579 594 596 877 879 894 896::7",
    ),
    (
        Technique::RemotePair,
        ":0703:18:.+4.2..+6+7.7.+2.6+3+459.+6.4+7.8+2.47+6+9..+23+512+8+5+37+964+5+396+4+2+71+8..4+7..+3+96.+9...+65+4+7+65+7+39+418+2::175 176 183 875 876 881::7",
    ),
    (
        Technique::RemotePair,
        ":0703:47:+6+84+3+7+921+5+3+1+98+25.+6.+52+7+4+1+69+8+3.359+8+4+6+2.2.+8+56+13.+9.+9+6+2+37.+5896+1+74+8+5+3+2..36+5+2.9..+5+21+93..6::487 489 491 787 789 791::7",
    ),
    (
        Technique::RemotePair,
        ":0703:78:5.+4+2+193.+61+3+6748+259..2+5+36+41...3695..+1+6+5.+4.+1+9+3..+1+9+8.+3+564+3+2.+1+64.9+5..135.+6...6+5+9+8.1.3::741 742 759 841 842 859::7",
    ),
    // 0801: XYZ-Wing
    (
        Technique::XyzWing,
        ":0801:467:+673.+8.+2.9514.92..+3+9+82.....+5+167+359..28.+9.1.53+6..+5+8..+7+9+1..+614.9+2+8..+1..835+4..+8...1+67::635 636::",
    ),
    (
        Technique::XyzWing,
        ":0801:157:+4.+3.2+8+6.+9+2.8...+3.46.5..31+2+8.4+7..9+86+28+5..6+2+7.+3.2+68.+7.1+5.+6.2+84537+53+47+912+8+6+7+8+2.....+1::524 526::",
    ),
    (
        Technique::XyzWing,
        ":0801:248:6+9+1.527+3.4.+7.+935...+5+3.1+7....+6+4+2+3+5...37+91+68+24+5..574+96.3+5+389+7+142+6+9+1+6+5+2+43..+7+42+386+1+59::837 838::",
    ),
    (
        Technique::XyzWing,
        ":0801:123:+94+5.8.6+313+67+15+4+982+2+81+3+69+7+4+5.2...+6.+19+6+7+954+1+8+2+3.+1.+9...767.6....+9+4+4.86...5+71.+2+4..+3+68::274 276::",
    ),
    // 0803: W-Wing
    (
        Technique::WWing,
        ":0803:14:6..+9+5..7...+9.2.....58.+31...+1+64+3+8+9+7+52...1+7+59+46597+24+6..892+54+1+76+8+3...5+6+2.....68+93...::417 427 437 489 499::",
    ),
    (
        Technique::WWing,
        ":0803:36:1+6+9..58.+4+8+54.+1.+9.+2+37+2+48+965+14+97...12.+2.+59+7.+4+86+6.+8.+4.7+9.+7.31..+5+495.+6.9+43+1+7+9+4+1+357+268::315 346 356 366::",
    ),
    (
        Technique::WWing,
        ":0803:29:.+6.5924.+8.+5416+8.9.+982+7+43+6+5+16+7.3...8+4.....47+6.....7+61.5..7.....6.3.+6.+7...5.6..1...::959 977 987 997::",
    ),
    (
        Technique::WWing,
        ":0803:26:.5.1.2...+4+73+9+8+52+161..+4.+7+5.95+142+96+378..68+7315+4+3+8+7+54+16+9+28.5.+24..+1..+1.+5+9...7...18..+5::611 672 682 692::",
    ),
    // 0600: Uniqueness Test Type 1
    (
        Technique::UniqueRectangle,
        ":0600-1:23:+4+7.3..1.8+85.4...9.39.+86.+4.7+1342+8.+5.+9+2+8+5+1...+3+496+7+53+4..1+6+2871+3+9+45+5+1+3+9+42..+6+74+96+58.+1.::227 327::",
    ),
    (
        Technique::UniqueRectangle,
        ":0600-1:23:+1+97+84+6+532..+8.+5.7+1+9+3+5+291+76+4+883+17694+2+55+2+4+1+38+9+7+6..+9+524+1+8+3.8+6+4....1..3+6....+79.+5....64::296 396::",
    ),
    (
        Technique::UniqueRectangle,
        ":0600-1:68:+6.+5+3....7+2.8+5.+6..+43.+9+1....5+7+3+1+4+59.2.+4+5681+2..98+927+635+4+19+8+7+6+3145+212+3+94+5...5+6+428+7+91+3::687 887::",
    ),
    (
        Technique::UniqueRectangle,
        ":0600-1:13:+5+9..3..+2+4+2...+5+48.97+4+81+92+56+36..+4+27+9+5+8+8+593+61..2+4+2+7+5+8+9..+6+382.+75..1+1+65.43+2.79+74+2+1...5::123 323::",
    ),
    // 0601: Uniqueness Test Type 2
    (
        Technique::UniqueRectangle,
        ":0601-1:34:.9..+52+6+4.6..4+8..+53..5..628....8....4.1..+4......+4.27........341+8+1+865+743+92..9+21+8+576::711 713 722 723 734 739::",
    ),
    (
        Technique::UniqueRectangle,
        ":0601-1:25:3.9+4.5..+8..+136+9..+4+645+2+8...+9+71+2...8+934+6+3+19+8..+7+5+987+2+3+416.568....1.+3+7.....21.493...5::717 718 722 737 738::",
    ),
    (
        Technique::UniqueRectangle,
        ":0601-1:49:5.+7......+3+824+691+7+51.+67.+5...+2......9.+4.9.52..886.9...2.+92+4+5+1+6+83+77+58+2+9+36..+6318+742+59::319 339 347 357 367::",
    ),
    (
        Technique::UniqueRectangle,
        ":0601-1:45:8+5469+3+21+79.7..2.8+3.+3+2....+5+9..+32..+59+6.....5+832+2+859+36+7+4+1+5..+3+2.1+7+4+47..+6.+3+2532+1..79+68::122 134 135 136::",
    ),
    // 0602: Uniqueness Test Type 3
    (
        Technique::UniqueRectangle,
        ":0602-1:89:3.......7...98.+5.3.5.....2+6+2+31+4..+6+85+7968+512+3+4...+6237+9+1..4...+1+79..+371.+45.......36.::212 222 293 722 793::",
    ),
    (
        Technique::UniqueRectangle,
        ":0602-1:15:.8+2+73+51...+7+5.+623.+8.+364..+2753.9+82....+62+45.1.8+3+8.7.4...27+9.6...+2.+2+6....8..54.+2....7::488 698 988 998::",
    ),
    (
        Technique::UniqueRectangle,
        ":0602-1:49:+58+1...+29+6+6+9+4+5283+7+1+2+739+1654+84+5+2.9..+8...+8.+5..2...+98.+2.+5.+9+46+23+78+153+27+1+8+5.+6.+8+154+697+3+2::156 356::",
    ),
    (
        Technique::UniqueRectangle,
        ":0602-1:15:+7+1+3+4+5+862+9+4927+63..+8+8+6+51+9+2374+67158+9+4+3+2+9+5+42+3+7+8+612+386+4+1+7+9+5.8..+1.+24+71+47.+2.....+2..+74...::391::",
    ),
    // 0603: Uniqueness Test Type 4
    (
        Technique::UniqueRectangle,
        ":0603-1:14:..+9+4.+6+3+8....3.9+5+6..+6.+8.7149...+2+9+4+631.2.+5+689+74+496+17+3+2+58+9+58+7+3+2+4+1+6+7326+4+1+8+9+5+6..9+8+572+3::122 123::",
    ),
    (
        Technique::UniqueRectangle,
        ":0603-1:18:.68.+9+7+21...2.+86..795+731+2+6+4+8+8+9+4+1+7+53+625+2+684+3...+73+1+62+9+8+54+6.973..+2...+5+2+6....+2.+3954.8+6::172 182::",
    ),
    (
        Technique::UniqueRectangle,
        ":0603-1:28:+8.9..7......6+9+8..3...5218..+214+8.5..7.83.+7.2..........+8...+78.64..6..+53+7.17.......5:312 412 417 419 223 127 128 638 639 958 959 367 967 968 971 272 972 273 292 392 193:288 298::",
    ),
    (
        Technique::UniqueRectangle,
        ":0603-1:45:..7+163+29+816+97+8+2+54+3+2+8+359+4..+7...4+3..+7+979.+2+1.3..83.+6+7+9..2+91.3.7.....+8+9.17+3.3+7.8+4+69.+1:543 553 558 473 573 578 489:581 582::",
    ),
    // 0610: Bivalue Universal Grave + 1
    (
        Technique::BugPlusOne,
        ":0610::.+9.+613.+8+4...2+5+7+1+393.184+92..968+5+7+1+42+3+4379+2+6+81+5+1..+3+84......+1+9+2..8..9+435+67+1+51.+76+8..+2::373 673::",
    ),
    (
        Technique::BugPlusOne,
        ":0610::+4+3+75+82+9+61..+9+41+7+28+38+1+2+6+9+34+7+5..+6+9+7+8+13+49413+2+68+5778+3+15+46+2+9..+4+2.+5+7.+8.75+8.9+3.2..87.+1+5.+6::171 371::",
    ),
    (
        Technique::BugPlusOne,
        ":0610::8+4+9325+6+1+77+3+2+8..9+4+5+5+6+1+7..+32+8+49327+85+61+1+5+7.3.8+9+2+2+86...+4+7+3+9+7+8..+213+4+3+149+87+2566+2+5..+3+7+8+9::565 965::",
    ),
    (
        Technique::BugPlusOne,
        ":0610::+5+41+3+8...7862+4+7...+59+7+36.+5+4.+8+4+1+6+85+72+9+379+8..3+5+46+2+3+5+9+648+71+624+73815+9.5+7.+9..+8+4.+8+9+5+4.+7.2::286 686::",
    ),
    // 0901: ALS-XZ
    (
        Technique::AlsXz,
        ":0901-1:3:.24.6.+7..5.74.9.1.....+7......+5.9+4+87+14+7.+6.85.3..8..7.6.+7......46.+46..3.+57.5.7+4+61..:314 819 225 134 237 937 238 938 239 839 269 372 972 973 274 291 891 999:327::",
    ),
    (
        Technique::AlsXz,
        ":0901-1:7:.........2.....3495...3926..9.........41..+98....598..4..182...6......7....3..6...:111 711 811 112 712 812 713 813 714 515 715 516 716 722 625 725 726 739 341 744 348 162 589 794:752::",
    ),
    (
        Technique::AlsXz,
        ":0901-1:1:...2..6..67...8....853+6.......+4.6...5..19...2+1.4...79+6.....426....7..8.3.1.+6.29..:719 427 345 545 845 365 579:128::",
    ),
    (
        Technique::AlsXz,
        ":0901-1:8:.+934.7.6.4....59...276...+41...+9....591.+5...8.2..78....6..25.4...4..........1....3:817 325 145 245 345 346 347 747 748 255 357 366 581 881 985 587 591 597:873 883 893::",
    ),
    // 0902: ALS-XY-Wing
    (
        Technique::AlsXyWing,
        ":0902-1:7:+8...43..+1.+3+1.5+7..8.721......9+3+5+1......5....1.18.3..........1.67..7..91..3+1+8+76592+4:441 247 451 254 454 854 255 257 265 267 471 274 875 481 284 885:768::",
    ),
    (
        Technique::AlsXyWing,
        ":0902-1:8:9....7.68+72....9+43..4....+7+52+7....4+8+9.6+9+78...28.39..71+6.....5.973.76....1+5...+7...+4:114 514 115 515 123 523 134 135 136 356 173 277 287 193 297:824::",
    ),
    (
        Technique::AlsXyWing,
        ":0902-1:2:..4..7...12....7...6.1...8.+24678+1+3+59.+19.....453.69+4.1....4325...................8:626 257 258 771 773 781 881 882 783 883 585 685 791 793 595 695:237::",
    ),
    (
        Technique::AlsXyWing,
        ":0902-1:2:.......+3.6..5..18..83.1..+2....9573...6.....92...........+6...254.487...1+3..23.....:111 615 616 636 453 457 261 262 164 464 664 465 467 667 668 669 171 971 172 972 985 986 791 792 895 995 196 896 996:212::",
    ),
    // 0402: Empty Rectangle
    (
        Technique::EmptyRectangle,
        ":0402:9:7+2+4+956+1381+6842+3+5+9+7+9+3+5+7+1+8+6+2+45..3..+8+1..4..8+17+5..+81.+7.24..+13....+7+2...1...+85.5...7.6+1::986::",
    ),
    (
        Technique::EmptyRectangle,
        ":0402:2:7+2+4+956+1381+6842+3+5+9+7+9+3+5+7+1+8+6+2+45..3..+8+1..4..8+17+5..+81.+7.24..+13....+7+2...1...+85.5...7.6+1::293::",
    ),
    (
        Technique::EmptyRectangle,
        ":0402:5:.+9...+83+1.8.193..+6.+4+3.+1.6+8+953+492.+16..7+1.4.9+2.3.+28..39+412..8..+1+3.+9+8+4+3175+26+1.3......:515 745 673 495:576::",
    ),
    (
        Technique::EmptyRectangle,
        ":0402:7:..+3+9+6+5+48...4312.9....+8471..+3..+1+842...625+3981...87+2+6+3+5...129+3....9+64715...3+7+6+5+8+9.+1:211 231 479:721::",
    ),
    // 0711: Grouped AIC
    (
        Technique::Aic,
        ":0711-1:6:3.2....1.+1..97........+1....5..+18.6....15...7..8.+74.+1..9....1.27.1.4.......5..79.+1::612 616 619 626 634 636::7",
    ),
    (
        Technique::Aic,
        ":0711-1:1:.+5243+19+6..3+67...1519.....2.2.......694.......+5+6....74+93.9......6.+5.1.....8.5..69.:825 826 833 837 839 254 255 256 779 789 495 496 499 799:143 153::7",
    ),
    (
        Technique::Aic,
        ":0711-1:8:3.6..2.89...+6.+9.+5..5.8.1.........5.2.......7.2....6.4.67...43......93..5....6.4..:345 948 553 554 355 555 365 593 594:845 855 865 896::7",
    ),
    (
        Technique::Aic,
        ":0711-1:9:+8..1...7....8.76..+7.3.5......+7..9...4...7+8.9668+9...+7....+4+78+52+6+15+2+83..+94717+69+42.5.::912 922 932 971::15",
    ),
];

/// The candidates `<digit><row><col>` of a HoDoKu field.
fn hodoku_candidates(field: &str) -> Vec<(Cell, u8)> {
    field
        .split_whitespace()
        .map(|c| {
            let d: Vec<u8> = c.bytes().map(|b| b - b'0').collect();
            (cell(usize::from(d[1]), usize::from(d[2])), d[0])
        })
        .collect()
}

/// The techniques that find the same patterns under other names: HoDoKu's chain of a
/// skyscraper's shape may be a turbot fish here, its short remote pair an XY-chain.
fn family(technique: Technique) -> Vec<Technique> {
    match technique {
        Technique::Skyscraper
        | Technique::TwoStringKite
        | Technique::TurbotFish
        | Technique::EmptyRectangle => vec![
            Technique::Skyscraper,
            Technique::TwoStringKite,
            Technique::TurbotFish,
            Technique::EmptyRectangle,
        ],
        Technique::RemotePair | Technique::XyChain => {
            vec![Technique::RemotePair, Technique::XyChain]
        }
        other => vec![other],
    }
}

#[test]
fn hodoku_regression_cases_find_their_eliminations() {
    for (technique, line) in HODOKU_CASES {
        let fields: Vec<&str> = line.split(':').collect();
        let grid_text: String = fields[3].chars().filter(|&c| c != '+').collect();
        assert_eq!(grid_text.len(), 81, "{line}");
        let grid = text::parse(&grid_text, None).remove(0).unwrap().grid;
        let Verdict::Unique(truth) = grid.verdict() else {
            panic!("{line}: a grid with one solution");
        };
        // The uniqueness techniques work only on a puzzle declared to have one solution.
        let mut position = match technique {
            Technique::UniqueRectangle | Technique::BugPlusOne => {
                Position::new(&grid).declared_unique()
            }
            _ => Position::new(&grid),
        };
        for (at, v) in hodoku_candidates(fields[4]) {
            position.eliminate(at, v);
        }
        let expected = hodoku_candidates(fields[5]);
        let expected_placements = hodoku_candidates(fields[6]);
        assert!(
            !expected.is_empty() || !expected_placements.is_empty(),
            "{line}"
        );
        let steps: Vec<logic::Step> = family(technique)
            .iter()
            .flat_map(|&t| logic::find_all(&position, t))
            .collect();
        for step in &steps {
            links_prove(&position, step);
        }
        let found: Vec<(Cell, u8)> = steps.iter().flat_map(|s| s.eliminations.clone()).collect();
        let placed: Vec<(Cell, u8)> = steps.iter().flat_map(|s| s.placements.clone()).collect();
        for &(at, v) in &found {
            assert_ne!(
                truth.get(at.row, at.col),
                v,
                "{technique} removes the solution's {at}={v}: {line}"
            );
        }
        for &(at, v) in &placed {
            assert_eq!(
                truth.get(at.row, at.col),
                v,
                "{technique} places {at}={v}: {line}"
            );
        }
        // A placement removes the cell's other candidates (HoDoKu writes BUG+1 so).
        let removed = |at: Cell, v: u8| {
            found.contains(&(at, v)) || placed.iter().any(|&(c, w)| c == at && w != v)
        };
        for (at, v) in &expected {
            assert!(
                removed(*at, *v),
                "{technique} misses {at}<>{v}: {line}\nfound: {steps:#?}"
            );
        }
        for (at, v) in &expected_placements {
            assert!(
                placed.contains(&(*at, *v)),
                "{technique} misses {at}={v}: {line}\nfound: {steps:#?}"
            );
        }
        // Not declared unique, the position gives no uniqueness step.
        if matches!(
            technique,
            Technique::UniqueRectangle | Technique::BugPlusOne
        ) {
            let mut undeclared = Position::new(&grid);
            for (at, v) in hodoku_candidates(fields[4]) {
                undeclared.eliminate(at, v);
            }
            assert!(logic::find(&undeclared, technique).is_none(), "{line}");
        }
    }
}

/// The fourth puzzle of top1465 (a collection of hard puzzles published on the players'
/// forum; in `../shared/data/sudoku9/top1465.txt`): chains and colouring stall on it, forcing
/// chains do not.
const TOP1465_4: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

#[test]
fn forcing_chains_and_nets_follow_singles_to_a_contradiction_or_an_agreement() {
    let grid = text::parse(TOP1465_4, None).remove(0).unwrap().grid;
    let Verdict::Unique(truth) = grid.verdict() else {
        panic!("a proper puzzle");
    };
    // Take every step short of forcing: then chains and colouring have nothing more.
    let mut position = Position::new(&grid);
    while let Some(step) = Technique::ALL
        .iter()
        .filter(|&&t| t.level() != Level::Forcing)
        .find_map(|&t| logic::find(&position, t))
    {
        position.apply(&step);
    }
    assert!(!position.is_full());
    let chain = logic::find(&position, Technique::ForcingChain).expect("a forcing chain");
    assert_eq!(chain.eliminations.len(), 1);
    let (at, v) = chain.eliminations[0];
    assert_ne!(truth.get(at.row, at.col), v, "{chain}");
    assert!(
        chain
            .detail
            .starts_with(&format!("if {at} held {v}, singles would follow")),
        "{chain}"
    );
    let nets = logic::find_all(&position, Technique::ForcingNet);
    assert!(!nets.is_empty(), "a forcing net");
    for step in nets {
        assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
        for &(at, v) in &step.placements {
            assert_eq!(truth.get(at.row, at.col), v, "{step}");
        }
        for &(at, v) in &step.eliminations {
            assert_ne!(truth.get(at.row, at.col), v, "{step}");
        }
    }
    // Logic finishes it, forcing chains the hardest step.
    let rating = logic::rate(&grid);
    assert_eq!(rating.level, Level::Forcing);
    assert_eq!(rating.score_text(), "8.5");
    // Near misses: on the empty grid no assumption runs into anything.
    assert!(logic::find(&empty9(), Technique::ForcingChain).is_none());
}

#[test]
fn the_candidate_grid_aligns_each_column() {
    let mut p = empty9();
    restrict(&mut p, cell(1, 1), &[1, 2]);
    let grid = p.candidate_grid();
    let lines: Vec<&str> = grid.lines().collect();
    assert_eq!(lines.len(), 9);
    assert!(lines[0].starts_with("12        123456789 "), "{grid}");
    assert!(lines[1].starts_with("123456789 123456789 "), "{grid}");
}

/// The first of the forum's hardest puzzles (the players' forum's list of 2011, in
/// `../shared/data/sudoku9/forum-hardest-1106.txt`): after its singles, not even a forcing
/// chain applies, but a nested one does, and it is sound.
const FORUM_HARDEST_1: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

#[test]
fn nested_forcing_chains_crack_the_hardest_puzzles() {
    let grid = text::parse(FORUM_HARDEST_1, None).remove(0).unwrap().grid;
    let Verdict::Unique(truth) = grid.verdict() else {
        panic!("a proper puzzle");
    };
    let mut position = Position::new(&grid);
    while let Some(step) = Technique::ALL
        .iter()
        .filter(|&&t| t != Technique::NestedForcingChain)
        .find_map(|&t| logic::find(&position, t))
    {
        position.apply(&step);
    }
    assert!(logic::find(&position, Technique::ForcingChain).is_none());
    let step = logic::find(&position, Technique::NestedForcingChain).expect("a nested chain");
    for &(at, v) in &step.eliminations {
        assert_ne!(truth.get(at.row, at.col), v, "{step}");
    }
    assert!(step.detail.contains("forcing chains inside"), "{step}");
    let rating = logic::rate(&grid);
    assert_eq!(
        (rating.level, rating.hardest),
        (Level::Forcing, Some(Technique::NestedForcingChain))
    );
    assert_eq!(rating.score_text(), "9.5");
}

/// Whether two cells of a 9x9 grid share a row, a column or a box (written here, apart from
/// the solver's layout).
fn sees9(a: Cell, b: Cell) -> bool {
    a != b && (a.row == b.row || a.col == b.col || (a.row / 3, a.col / 3) == (b.row / 3, b.col / 3))
}

/// The cells of the nine rows, nine columns and nine boxes of a 9x9 grid.
fn units9() -> Vec<Vec<Cell>> {
    let mut units = Vec::new();
    for k in 0..9 {
        units.push((0..9).map(|c| Cell { row: k, col: c }).collect());
        units.push((0..9).map(|r| Cell { row: r, col: k }).collect());
        units.push(
            (0..9)
                .map(|i| Cell {
                    row: k / 3 * 3 + i / 3,
                    col: k % 3 * 3 + i % 3,
                })
                .collect(),
        );
    }
    units
}

/// Whether `link` holds on `p`: a strong link's two ends cannot both be false, a weak link's
/// cannot both be true. Checked from the candidates alone.
fn link_holds(p: &Position, link: &logic::ChainLink) -> bool {
    let (from, to) = (&link.from, &link.to);
    let single = |cells: &[Cell]| (cells.len() == 1).then(|| cells[0]);
    if from.symbol != to.symbol {
        // Two symbols of one cell: strong when they are its only two candidates.
        let (Some(a), Some(b)) = (single(&from.cells), single(&to.cells)) else {
            return false;
        };
        let candidates = p.candidates(a);
        let both = candidates.contains(&from.symbol) && candidates.contains(&to.symbol);
        return a == b && both && (!link.strong || candidates.len() == 2);
    }
    let v = from.symbol;
    let holds_v = |c: &Cell| p.candidates(*c).contains(&v);
    if !from.cells.iter().chain(&to.cells).all(holds_v) {
        return false;
    }
    if link.strong {
        // Some unit's places of the symbol are exactly the two ends' cells.
        let mut ends: Vec<Cell> = from.cells.iter().chain(&to.cells).copied().collect();
        ends.sort();
        units9().iter().any(|unit| {
            let mut places: Vec<Cell> = unit.iter().copied().filter(holds_v).collect();
            places.sort();
            places == ends
        })
    } else {
        from.cells
            .iter()
            .all(|&a| to.cells.iter().all(|&b| sees9(a, b)))
    }
}

/// Whether candidate `v` in `at` and the node are not both true.
fn excludes_node(at: Cell, v: u8, node: &logic::ChainNode) -> bool {
    if node.symbol == v {
        node.cells.iter().all(|&c| sees9(at, c))
    } else {
        node.cells == [at]
    }
}

/// Checks that the links `step` draws prove it on `p`: a chain's links alternate strong and
/// weak, each holds, each ends where the next starts, and what the step removes excludes both
/// ends; colouring's links are strong links of its symbol; other steps draw none.
fn links_prove(p: &Position, step: &logic::Step) {
    let chained = [
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::WWing,
        Technique::RemotePair,
        Technique::XChain,
        Technique::XyChain,
        Technique::Aic,
    ];
    let links = &step.links;
    if chained.contains(&step.technique) {
        assert!(links.len() >= 3 && links.len() % 2 == 1, "{step}");
        for (k, link) in links.iter().enumerate() {
            assert_eq!(link.strong, k % 2 == 0, "links alternate: {step}");
            assert!(link_holds(p, link), "link {k} of {step}");
            if let Some(next) = links.get(k + 1) {
                assert_eq!(link.to, next.from, "{step}");
            }
        }
        let (first, last) = (&links[0].from, &links[links.len() - 1].to);
        for &(at, v) in &step.eliminations {
            assert!(
                excludes_node(at, v, first) && excludes_node(at, v, last),
                "{step}"
            );
        }
    } else if matches!(
        step.technique,
        Technique::SimpleColouring | Technique::MultiColouring
    ) {
        assert!(!links.is_empty(), "{step}");
        for link in links {
            assert!(link.strong && link_holds(p, link), "{step}");
        }
    } else {
        assert!(links.is_empty(), "{step}");
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn the_chains_drawn_prove_their_steps() {
    let content = std::fs::read_to_string("../shared/data/sudoku9/top1465.txt").unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for puzzle in text::parse(&content, None).into_iter().take(200) {
        let grid = puzzle.unwrap().grid;
        let solution = logic::solve_from(Position::new(&grid));
        // Replayed, so each step is checked on the position it was found on.
        let mut position = Position::new(&grid);
        for step in &solution.steps {
            links_prove(&position, step);
            *seen.entry(step.technique).or_insert(0) += usize::from(!step.links.is_empty());
            position.apply(step);
        }
    }
    // What the first 200 of top1465 use (skyscrapers, remote pairs and colouring come later
    // or not at all there; the HoDoKu cases above check theirs).
    for technique in [
        Technique::TwoStringKite,
        Technique::EmptyRectangle,
        Technique::WWing,
        Technique::XChain,
        Technique::XyChain,
        Technique::Aic,
    ] {
        assert!(
            seen.get(&technique).is_some_and(|&n| n > 0),
            "no {technique} drawn: {seen:?}"
        );
    }
}
