//! The human-style solver on variant puzzles: each technique on the units and neighbour rules
//! a variant adds, killer cage arithmetic, soundness against the stated solutions of the
//! shared set, and `explain`, `hint` and `rate` on variant files.

use crate::common;

use common::scratch::ScratchDir;
use common::{err, out, xcover};
use xcover::sudoku::Cell;
use xcover::sudoku::logic::{self, Position, Technique};
use xcover::sudoku::rules::{AntiKnight, Constraint};
use xcover::sudoku::variant::text::{self, Entry};
use xcover::sudoku::variant::{Puzzle, VariantEncoding};

const SHARED: &str = common::SHARED_VARIANTS;

/// The one puzzle of a block written as the files write it.
fn puzzle(size: usize, boxes: &str, rules: &str, grid: &[&str], extra: &str) -> Puzzle {
    let text = format!(
        "puzzle: test\nsize: {size}\nbox: {boxes}\nrules: {rules}\ngrid:\n{}\n{extra}end\n",
        grid.join("\n")
    );
    let entry = text::read(&text).remove(0).unwrap();
    entry.puzzle
}

fn cell(row: usize, col: usize) -> Cell {
    Cell {
        row: row - 1,
        col: col - 1,
    }
}

const EMPTY9: [&str; 9] = ["........."; 9];

/// Every step of logic on `puzzle` agrees with `solution`: placements are its symbols,
/// eliminations never remove them. Returns the steps.
fn steps_agree(puzzle: &Puzzle, solution: &[u8]) -> logic::Solution {
    let n = puzzle.rules.size;
    let done = logic::solve_from(Position::of_variant(puzzle));
    for step in &done.steps {
        for &(c, v) in &step.placements {
            assert_eq!(solution[c.row * n + c.col], v, "{}: {step}", puzzle.id);
        }
        for &(c, v) in &step.eliminations {
            assert_ne!(solution[c.row * n + c.col], v, "{}: {step}", puzzle.id);
        }
    }
    assert_eq!(done.contradiction, None, "{}", puzzle.id);
    if done.is_complete() {
        assert_eq!(done.values, solution, "{}", puzzle.id);
    }
    done
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn no_step_contradicts_the_stated_solution_of_any_shared_variant() {
    let mut solved = 0;
    let mut techniques = std::collections::BTreeSet::new();
    for file in common::SHARED_VARIANT_FILES {
        let content = std::fs::read_to_string(format!("{SHARED}/{file}")).unwrap();
        for entry in text::read(&content) {
            let Entry {
                puzzle, solution, ..
            } = entry.unwrap();
            let done = steps_agree(&puzzle, &solution.unwrap());
            solved += usize::from(done.is_complete());
            techniques.extend(done.steps.iter().map(|s| s.technique));
        }
    }
    // Logic alone finishes more than a third of them, and the variant techniques are used.
    assert!(solved >= 20, "{solved}");
    for used in [
        Technique::CageCombination,
        Technique::InniesAndOuties,
        Technique::Pointing,
        Technique::NakedPair,
    ] {
        assert!(techniques.contains(&used), "{used} never used");
    }
}

/// Two of tarek's killers without givens (`../shared/data/variants/killers/tarek-21.txt`, from
/// the killer forums, with their solutions): the forcing chains follow the cages' sums and
/// the rule of 45 as well as singles, so logic finishes them, every step true to the
/// solution. Before, it stalled on every one of the 21.
#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn forcing_chains_read_the_sums_and_finish_hard_killers() {
    let content = std::fs::read_to_string(format!("{SHARED}/killers/tarek-21.txt")).unwrap();
    for entry in text::read(&content).into_iter().take(2) {
        let Entry {
            puzzle, solution, ..
        } = entry.unwrap();
        let done = steps_agree(&puzzle, &solution.unwrap());
        assert!(done.is_complete(), "{}", puzzle.id);
        let rating = logic::rating_of(&done);
        assert_eq!(rating.level, logic::Level::Forcing, "{}", puzzle.id);
        // The forcing chains' stories name what they read.
        let chain = done
            .steps
            .iter()
            .find(|s| s.technique == Technique::ForcingChain)
            .expect("a forcing chain");
        assert!(
            chain
                .detail
                .contains("singles and the sums and clues would follow"),
            "{chain}"
        );
    }
}

#[test]
fn a_jigsaw_region_gives_a_hidden_single() {
    let p = puzzle(
        6,
        "none",
        "rows columns regions",
        &["......"; 6],
        "regions:\nAAABBB\nAACCBB\nACCCDB\nEECDDD\nEEFFDD\nEEFFFF\n",
    );
    // Region A is r1c1 r1c2 r1c3 r2c1 r2c2 r3c1: leave 6 a place in r3c1 only.
    let mut position = Position::of_variant(&p);
    for (r, c) in [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)] {
        position.eliminate(cell(r, c), 6);
    }
    let step = logic::find(&position, Technique::HiddenSingle).unwrap();
    assert_eq!(step.placements, vec![(cell(3, 1), 6)]);
    assert!(step.detail.contains("region A"), "{step}");
}

#[test]
fn a_diagonal_points_and_a_window_claims() {
    // X: the main diagonal's 5 confined to r1c1 and r2c2 (box 1) leaves the rest of box 1.
    let p = puzzle(9, "3x3", "rows columns boxes diagonals", &EMPTY9, "");
    let mut position = Position::of_variant(&p);
    for i in 3..=9 {
        position.eliminate(cell(i, i), 5);
    }
    let steps = logic::find_all(&position, Technique::Pointing);
    let step = steps
        .iter()
        .find(|s| s.detail.contains("main diagonal"))
        .unwrap();
    assert!(step.detail.contains("5 can only go in box 1"), "{step}");
    assert!(step.eliminations.contains(&(cell(1, 2), 5)), "{step}");
    assert!(!step.eliminations.contains(&(cell(1, 1), 5)));
    // Windoku: a row's 7 confined to a window's cells leaves the window's other cells.
    let p = puzzle(9, "3x3", "rows columns boxes windows", &EMPTY9, "");
    let mut position = Position::of_variant(&p);
    for c in [1, 2, 3, 4, 5, 9] {
        position.eliminate(cell(2, c), 7);
    }
    // Row 2's 7 has r2c6, r2c7 and r2c8 left: two boxes, but one window.
    let steps = logic::find_all(&position, Technique::Claiming);
    let step = steps
        .iter()
        .find(|s| s.detail.contains("the window at r2c6"))
        .unwrap_or_else(|| panic!("{steps:?}"));
    assert!(step.eliminations.contains(&(cell(3, 7), 7)), "{step}");
}

#[test]
fn neighbour_rules_remove_candidates_and_are_named() {
    // Anti-knight: a 5 at r1c1 leaves r2c3 and r3c2 without 5.
    let mut rows = EMPTY9.to_vec();
    rows[0] = "5........";
    let p = puzzle(9, "3x3", "rows columns boxes anti-knight", &rows, "");
    let position = Position::of_variant(&p);
    assert!(!position.candidates(cell(2, 3)).contains(&5));
    assert!(!position.candidates(cell(3, 2)).contains(&5));
    assert!(position.candidates(cell(3, 4)).contains(&5));
    // Non-consecutive: the same 5 leaves r1c2 and r2c1 without 4 and 6.
    let p = puzzle(9, "3x3", "rows columns boxes non-consecutive", &rows, "");
    let position = Position::of_variant(&p);
    for at in [cell(1, 2), cell(2, 1)] {
        let candidates = position.candidates(at);
        assert!(
            !candidates.contains(&4) && !candidates.contains(&6),
            "{candidates:?}"
        );
        assert!(candidates.contains(&3) && candidates.contains(&7));
    }
    assert!(
        position.candidates(cell(2, 2)).contains(&4),
        "diagonal neighbours may be"
    );
    // Anti-king: a 5 at r3c3 leaves r4c4 (another box) without 5, not r4c5.
    let mut rows = EMPTY9.to_vec();
    rows[2] = "..5......";
    let p = puzzle(9, "3x3", "rows columns boxes anti-king", &rows, "");
    let position = Position::of_variant(&p);
    assert!(!position.candidates(cell(4, 4)).contains(&5));
    assert!(position.candidates(cell(4, 5)).contains(&5));
    // A naked single that the anti-knight rule makes says so: row 1 leaves r1c3 8 or 9, and
    // the 8 at r2c5 is a knight's move away.
    let mut rows = EMPTY9.to_vec();
    rows[0] = "12.34567.";
    rows[1] = "....8....";
    let p = puzzle(9, "3x3", "rows columns boxes anti-knight", &rows, "");
    let position = Position::of_variant(&p);
    let step = logic::find(&position, Technique::NakedSingle).unwrap();
    assert_eq!(step.placements, vec![(cell(1, 3), 9)], "{step}");
    assert!(
        step.detail.contains("its anti-knight neighbours hold 8"),
        "{step}"
    );
    assert!(step.reasons.contains(&cell(2, 5)), "{step}");
    // A contradiction from the rule: two 5s a knight's move apart.
    let p = puzzle(
        6,
        "2x3",
        "rows columns boxes",
        &["5.....", "......", ".5....", "......", "......", "......"],
        "",
    );
    let mut with_knights = p.clone();
    with_knights.rules.add(Constraint::AntiKnight(AntiKnight));
    let contradiction = Position::of_variant(&with_knights).contradiction().unwrap();
    assert!(
        contradiction.0.contains("anti-knight"),
        "{}",
        contradiction.0
    );
    assert!(Position::of_variant(&p).contradiction().is_none());
}

/// Each rule that relates two cells gives a named step: the bulb of a four-cell thermometer
/// loses 7, 8 and 9 and its tip 1, 2 and 3 on an empty grid, each said by the thermometer; a
/// white kropki dot beside a 5 keeps only 4 and 6; an X beside a 3 keeps only 7.
#[test]
fn related_cells_read_thermometers_dots_and_xv() {
    let p = puzzle(
        9,
        "3x3",
        "rows columns boxes thermometers",
        &EMPTY9,
        "thermometers: 1\nr1c1 r1c2 r1c3 r1c4\n",
    );
    let position = Position::of_variant(&p);
    let steps = logic::find_all(&position, Technique::RelatedCells);
    let gone = |at: Cell| -> Vec<u8> {
        let mut gone: Vec<u8> = steps
            .iter()
            .flat_map(|s| &s.eliminations)
            .filter(|(c, _)| *c == at)
            .map(|&(_, v)| v)
            .collect();
        gone.sort_unstable();
        gone.dedup();
        gone
    };
    assert_eq!(gone(cell(1, 1)), [7, 8, 9]);
    assert_eq!(gone(cell(1, 2)), [1, 8, 9]);
    assert_eq!(gone(cell(1, 4)), [1, 2, 3]);
    assert!(gone(cell(2, 1)).is_empty());
    let step = logic::find(&position, Technique::RelatedCells).unwrap();
    assert_eq!(
        step.to_string(),
        "related cells: r1c1<>9 (a thermometer: r1c2 is at least 1 more than r1c1; \
         nothing in r1c2 goes with 9 in r1c1)"
    );
    // Explain uses it, and the rating counts it as easy.
    let done = logic::solve_from(Position::of_variant(&p));
    assert!(
        done.steps
            .iter()
            .any(|s| s.technique == Technique::RelatedCells)
    );
    let mut rows = EMPTY9.to_vec();
    rows[0] = "5..3.....";
    let dots = "kropki: 1\nwhite r1c1 r1c2\nxv: 1\nx r1c4 r1c5\n";
    let p = puzzle(9, "3x3", "rows columns boxes kropki xv", &rows, dots);
    let mut position = Position::of_variant(&p);
    while let Some(step) = logic::find(&position, Technique::RelatedCells) {
        position.apply(&step);
    }
    assert_eq!(position.candidates(cell(1, 2)), [4, 6]);
    assert_eq!(position.candidates(cell(1, 5)), [7]);
}

#[test]
fn cage_combinations_and_innies_follow_the_sums() {
    // A 2-cell 17 holds 8 and 9 only; a 3-cell 6 holds 1, 2 and 3.
    let p = puzzle(
        9,
        "3x3",
        "rows columns boxes cages",
        &EMPTY9,
        "cages: 3\n17 r1c1 r2c1\n6 r2c2 r2c3 r3c3\n39 r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9\n",
    );
    let position = Position::of_variant(&p);
    let steps = logic::find_all(&position, Technique::CageCombination);
    let seventeen = steps
        .iter()
        .find(|s| s.detail.starts_with("cage 1 (17)"))
        .unwrap();
    assert!(seventeen.detail.ends_with(": 8+9"), "{seventeen}");
    assert_eq!(seventeen.eliminations.len(), 14);
    let six = steps
        .iter()
        .find(|s| s.detail.starts_with("cage 2 (6)"))
        .unwrap();
    assert!(six.detail.ends_with(": 1+2+3"), "{six}");
    // Row 1 adds up to 45 and holds cage 3 (39), so r1c1 + r1c2 = 6, which r1c1 (8 or 9 by
    // cage 1) cannot make.
    let innies = logic::find_all(&position, Technique::InniesAndOuties);
    let row = innies
        .iter()
        .find(|s| s.detail.starts_with("row 1 adds up to 45"))
        .unwrap_or_else(|| panic!("{innies:?}"));
    assert!(row.detail.contains("needs 6 from r1c1,r1c2"), "{row}");
    // After the cage step, nothing is left: logic reports the contradiction.
    let done = logic::solve_from(position);
    assert!(done.contradiction.is_some(), "{:?}", done.steps);
    // A cage with one cell left: the filled cells' symbols count.
    let p = puzzle(
        6,
        "2x3",
        "rows columns boxes cages",
        &["12....", "......", "......", "......", "......", "......"],
        "cages: 1\n9 r1c1 r1c2 r1c3\n",
    );
    let position = Position::of_variant(&p);
    let step = logic::find(&position, Technique::CageCombination).unwrap();
    assert!(step.detail.contains("needs 6 more from r1c3"), "{step}");
    assert_eq!(logic::solve_from(position).values[2], 6, "r1c3 = 9 - 1 - 2");
}

#[test]
fn outies_give_the_cells_a_unit_s_cages_put_outside_it() {
    // Box 1 of a 6x6 (2x3 boxes: r1c1-r2c3) covered by a cage of r1c1 r1c2 r1c3 r1c4 (sum
    // 10) and one of r2c1 r2c2 r2c3 (sum 15): r1c4 = 10 + 15 - 21 = 4.
    let p = puzzle(
        6,
        "2x3",
        "rows columns boxes cages",
        &["......"; 6],
        "cages: 2\n10 r1c1 r1c2 r1c3 r1c4\n15 r2c1 r2c2 r2c3\n",
    );
    let position = Position::of_variant(&p);
    let steps = logic::find_all(&position, Technique::InniesAndOuties);
    let outie = steps
        .iter()
        .find(|s| s.detail.contains("cover it"))
        .unwrap_or_else(|| panic!("{steps:?}"));
    assert!(outie.detail.contains("need 4 from r1c4"), "{outie}");
    assert_eq!(outie.eliminations.len(), 5, "{outie}");
    // Outies in no common unit may repeat a symbol, so they are not treated as a cage: box 1
    // covered by cages that stick out at r1c4 and at r3c1 (both 5 in the grid the sums come
    // from; 10, which of two different symbols only 4+6 make) gives no step about them.
    let p = puzzle(
        6,
        "2x3",
        "rows columns boxes cages",
        &["......"; 6],
        "cages: 4\n3 r1c1 r1c2\n8 r1c3 r1c4\n9 r2c1 r3c1\n11 r2c2 r2c3\n",
    );
    let steps = logic::find_all(&Position::of_variant(&p), Technique::InniesAndOuties);
    assert!(
        steps.iter().all(|s| !s.detail.contains("cover it")),
        "{steps:?}"
    );
}

#[test]
fn the_engine_agrees_with_logic_on_a_shipped_variant_file() {
    let content = std::fs::read_to_string("data/sudoku/variants.txt").unwrap();
    for entry in text::read(&content) {
        let puzzle = entry.unwrap().puzzle;
        let (verdict, _) = VariantEncoding::new(&puzzle).unwrap().verdict(&puzzle);
        let xcover::dlx::Verdict::Unique(solution) = verdict else {
            panic!("{}", puzzle.id);
        };
        steps_agree(&puzzle, &solution);
    }
}

#[test]
fn explain_hint_and_rate_read_variant_files() {
    let file = "data/sudoku/variants.txt";
    let run = xcover(&["sudoku", "explain", file], "");
    assert!(run.status.success(), "{}", err(&run));
    let text = out(&run);
    assert_eq!(
        text.matches("# data/sudoku/variants.txt:").count(),
        5,
        "{text}"
    );
    assert!(text.contains("cage combination"), "{text}");
    assert!(text.contains("solved by logic"), "{text}");
    // Logic (forcing chains at worst) finishes all five: --complete has nothing to complete.
    let run = xcover(&["sudoku", "explain", "--complete", file], "");
    assert_eq!(
        out(&run).matches("solved by logic").count(),
        5,
        "{}",
        out(&run)
    );
    assert!(!out(&run).contains("completed by the exact-cover engine"));
    let run = xcover(&["sudoku", "hint", file], "");
    assert!(run.status.success(), "{}", err(&run));
    assert_eq!(out(&run).lines().count(), 5);
    let run = xcover(&["sudoku", "rate", "--format", "json", file], "");
    assert!(run.status.success(), "{}", err(&run));
    let records = out(&run);
    assert_eq!(records.lines().count(), 5);
    for record in records.lines() {
        let value: serde_json::Value = serde_json::from_str(record).unwrap();
        assert!(value["score"].is_f64(), "{record}");
        assert!(value["line"].is_u64(), "{record}");
    }
    assert!(err(&run).contains("5 puzzles:"), "{}", err(&run));
    // A block with an error gets its record and its message; the rest is still rated.
    let bad = "puzzle: a\nsize: 4\nbox: 2x2\nrules: rows columns boxes\ngrid:\n1...\n....\n....\n...1\nend\npuzzle: b\nsize: 4\nbox: 2x2\nrules: rows columns boxes\ngrid:\n1...\n1...\n....\n....\nend\n";
    let dir = ScratchDir::new("variant-rate");
    let path = dir.join("bad.txt");
    std::fs::write(&path, bad).unwrap();
    let path_text = path.to_str().unwrap();
    let run = xcover(&["sudoku", "rate", path_text], "");
    assert_eq!(run.status.code(), Some(1), "{}", err(&run));
    assert_eq!(out(&run), "multiple\ninvalid\n");
    assert!(
        err(&run).contains(":16: the givens at r1c1 and r2c1 break column 1"),
        "{}",
        err(&run)
    );
    let run = xcover(&["sudoku", "hint", path_text], "");
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(out(&run).lines().nth(1), Some("invalid"));
}
