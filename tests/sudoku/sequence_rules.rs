//! The rules read along cells (arrows, sums, sandwiches, lines, cages of conditions) and the
//! pair rules added with them, each against brute force: on random 4x4 puzzles whose clues
//! come from one of the 288 Sudoku squares (sometimes changed, so that some have no
//! solution), the engine's count equals the number of squares the rules' judges accept
//! (written from each rule's definition, sharing no code with its machine or its pairs), and
//! equals the backtracking baseline's count, and the true candidates are those of the squares
//! accepted; each rule alone and several together.

use proptest::prelude::*;

use xcover::sudoku::BoxShape;
use xcover::sudoku::backtrack::Backtracker;
use xcover::sudoku::logic;
use xcover::sudoku::rules::{
    AntiTaxicab, Arrow, Arrows, BetweenLines, Clones, Constraint, CountingCircles, DoubleArrows,
    EqualSums, EqualityCages, FullRank, GlobalGroups, Indexing, LittleKillers, LockoutLines,
    Lunchboxes, NumberedRooms, Outside, PairRelation, PairRelations, Quadruples, RegionSumLines,
    RellikCages, Sandwiches, Side, Skyscrapers, SumLine, SumLines, SumlessCages, Sums,
    ValueIndexing, XSums, ZipperLines,
};
use xcover::sudoku::variant::{Puzzle, Rules, VariantEncoding, check, fpuzzles};

type Cell = (usize, usize);

/// Every 4x4 Sudoku square (2x2 boxes), row by row.
fn squares() -> Vec<Vec<u8>> {
    fn fill(grid: &mut Vec<u8>, at: usize, all: &mut Vec<Vec<u8>>) {
        if at == 16 {
            all.push(grid.clone());
            return;
        }
        let (r, c) = (at / 4, at % 4);
        for v in 1..=4 {
            let clash = (0..4).any(|j| grid[r * 4 + j] == v)
                || (0..4).any(|i| grid[i * 4 + c] == v)
                || (0..16).any(|k| grid[k] == v && (k / 4) / 2 == r / 2 && (k % 4) / 2 == c / 2);
            if !clash {
                grid[at] = v;
                fill(grid, at + 1, all);
                grid[at] = 0;
            }
        }
    }
    let mut all = Vec::new();
    fill(&mut vec![0; 16], 0, &mut all);
    all
}

/// A path of `len` cells from `start`, each step one of eight directions picked by `turns`,
/// never back onto the path; shorter where it is stuck.
fn walk(start: usize, turns: &[u8], len: usize, king: bool) -> Vec<Cell> {
    let steps: [(isize, isize); 8] = [
        (0, 1),
        (1, 0),
        (0, -1),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let kinds = if king { 8 } else { 4 };
    let mut path = vec![(start / 4, start % 4)];
    for &turn in turns.iter().take(len.saturating_sub(1)) {
        let (r, c) = *path.last().unwrap();
        let next = (0..kinds).find_map(|k| {
            let (dr, dc) = steps[(usize::from(turn) + k) % kinds];
            let (r2, c2) = (r as isize + dr, c as isize + dc);
            let cell = (r2 as usize, c2 as usize);
            ((0..4).contains(&r2) && (0..4).contains(&c2) && !path.contains(&cell)).then_some(cell)
        });
        match next {
            Some(cell) => path.push(cell),
            None => break,
        }
    }
    path
}

/// A clue of rule `kind` (0 to 27) drawn from `grid` with the random numbers `seed`.
fn clue(kind: usize, grid: &[u8], seed: &[u8], n: usize) -> Option<Constraint> {
    let at = |cell: Cell| grid[cell.0 * n + cell.1];
    let start = usize::from(seed[0]) % 16;
    let len = 2 + usize::from(seed[1]) % 4;
    let path = walk(start, &seed[2..], len, true);
    let total = |cells: &[Cell]| cells.iter().map(|&c| u32::from(at(c))).sum::<u32>();
    let side = [Side::Left, Side::Right, Side::Top, Side::Bottom][usize::from(seed[3]) % 4];
    let outside = Outside {
        side,
        index: usize::from(seed[4]) % 4,
    };
    let line_of = |o: Outside| o.cells(n);
    Some(match kind {
        0 => {
            let cells = walk(start, &seed[2..], 3, true);
            let pill = 1 + usize::from(seed[5]) % 2;
            if cells.len() <= pill {
                return None;
            }
            let mut circle = cells[..pill].to_vec();
            circle.sort_unstable();
            Constraint::Arrows(Arrows {
                arrows: vec![Arrow {
                    circle,
                    line: cells[pill..].to_vec(),
                }],
            })
        }
        1 => Constraint::DoubleArrows(DoubleArrows { lines: vec![path] }),
        2 => Constraint::BetweenLines(BetweenLines { lines: vec![path] }),
        3 => Constraint::LockoutLines(LockoutLines {
            lines: vec![(1 + seed[5] % 3, path)],
        }),
        4 => Constraint::ZipperLines(ZipperLines { lines: vec![path] }),
        5 => Constraint::RegionSumLines(RegionSumLines { lines: vec![path] }),
        6 => {
            let sum = 1 + u32::from(seed[5]) % 8;
            let is_loop = seed[6].is_multiple_of(2) && path.len() >= 3 && {
                let (a, b) = (path[0], path[path.len() - 1]);
                a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1
            };
            Constraint::SumLines(SumLines {
                lines: vec![SumLine {
                    sum,
                    cells: path,
                    is_loop,
                }],
            })
        }
        7 => Constraint::Sums(Sums {
            clues: vec![(total(&path), path)],
        }),
        8 => {
            let other = walk(usize::from(seed[6]) % 16, &seed[7..], path.len(), true);
            if other.len() != path.len() {
                return None;
            }
            Constraint::EqualSums(EqualSums {
                clues: vec![vec![path, other]],
            })
        }
        9 => Constraint::EqualityCages(EqualityCages {
            cages: vec![walk(
                start,
                &seed[2..],
                2 + 2 * (usize::from(seed[5]) % 2),
                false,
            )],
        }),
        10 => {
            let cage = walk(start, &seed[2..], len, false);
            Constraint::RellikCages(RellikCages {
                cages: vec![(1 + u32::from(seed[5]) % 10, cage)],
            })
        }
        11 => {
            let corner = (usize::from(seed[5]) % 3, usize::from(seed[6]) % 3);
            let cells = [
                corner,
                (corner.0, corner.1 + 1),
                (corner.0 + 1, corner.1),
                (corner.0 + 1, corner.1 + 1),
            ];
            let count = 1 + usize::from(seed[7]) % 4;
            let values = cells[..count].iter().map(|&c| at(c)).collect();
            Constraint::Quadruples(Quadruples {
                clues: vec![(corner, values)],
            })
        }
        12 => {
            let a = walk(start, &seed[2..], 2, true);
            let b = walk(usize::from(seed[6]) % 16, &seed[7..], 2, true);
            if a.len() != 2 || b.len() != 2 {
                return None;
            }
            Constraint::Clones(Clones {
                clues: vec![vec![a, b]],
            })
        }
        13 => {
            let step = [(1, 1), (1, -1), (-1, 1), (-1, -1)][usize::from(seed[5]) % 4];
            // The diagonal through the start, from the edge the clue stands at.
            let back = LittleKillers::diagonal(n, (start / 4, start % 4), (-step.0, -step.1));
            let cells = LittleKillers::diagonal(n, *back.last().unwrap(), step);
            Constraint::LittleKillers(LittleKillers {
                clues: vec![(total(&cells), cells)],
            })
        }
        14 => {
            let cells = line_of(outside);
            let values: Vec<u8> = cells.iter().map(|&c| at(c)).collect();
            let one = values.iter().position(|&v| v == 1).unwrap();
            let top = values.iter().position(|&v| usize::from(v) == n).unwrap();
            let (a, b) = (one.min(top), one.max(top));
            let sum = values[a + 1..b].iter().map(|&v| u32::from(v)).sum();
            Constraint::Sandwiches(Sandwiches {
                clues: vec![(outside, sum)],
            })
        }
        15 => {
            let cells = line_of(outside);
            let x = usize::from(at(cells[0]));
            Constraint::XSums(XSums {
                clues: vec![(outside, total(&cells[..x]))],
            })
        }
        16 => {
            let mut tallest = 0;
            let mut seen = 0;
            for c in line_of(outside) {
                if at(c) > tallest {
                    tallest = at(c);
                    seen += 1;
                }
            }
            Constraint::Skyscrapers(Skyscrapers {
                clues: vec![(outside, seen)],
            })
        }
        17 => {
            let cells = line_of(outside);
            let x = usize::from(at(cells[0]));
            Constraint::NumberedRooms(NumberedRooms {
                clues: vec![(outside, u32::from(at(cells[x - 1])))],
            })
        }
        18 => {
            let cells = walk(start, &seed[2..], 2, false);
            let (columns, rows) = if seed[5].is_multiple_of(2) {
                (cells, Vec::new())
            } else {
                (Vec::new(), cells)
            };
            Constraint::Indexing(Indexing { columns, rows })
        }
        19 => {
            // A random table of allowed pairs (sixteen bits: three characters).
            let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            let key: String = seed[5..8]
                .iter()
                .map(|&b| char::from(alphabet[usize::from(b) % 64]))
                .collect();
            Constraint::PairRelations(PairRelations {
                relations: vec![PairRelation {
                    key,
                    every_two: seed[8].is_multiple_of(2),
                    groups: vec![path],
                }],
            })
        }
        20 => Constraint::ValueIndexing(ValueIndexing { lines: vec![path] }),
        21 => Constraint::AntiTaxicab(AntiTaxicab),
        // On 4x4 the modular groups are 3, 1 and 4, and 2: every 2x2 square holds a 3 and a 2.
        22 => Constraint::GlobalGroups(GlobalGroups { modular: true }),
        23 => {
            // Counting circles: half the time a set the square keeps (a 1 and two 2s, from
            // where the seed says), else any cells.
            let all: Vec<Cell> = (0..16).map(|i| (i / 4, i % 4)).collect();
            let sets = if seed[7].is_multiple_of(2) {
                let holding = |v: u8| -> Vec<Cell> {
                    all.iter().copied().filter(|&cell| at(cell) == v).collect()
                };
                let (ones, twos) = (holding(1), holding(2));
                let two = usize::from(seed[8]) % 4;
                vec![
                    ones[usize::from(seed[5]) % 4],
                    twos[two],
                    twos[(two + 1 + usize::from(seed[6]) % 3) % 4],
                ]
            } else {
                let mask = u16::from_le_bytes([seed[5], seed[6]]) | 1;
                all.iter()
                    .enumerate()
                    .filter(|&(i, _)| mask & 1 << i != 0)
                    .map(|(_, &cell)| cell)
                    .collect()
            };
            Constraint::CountingCircles(CountingCircles { sets: vec![sets] })
        }
        24 => {
            // A lunchbox: half the time the number the grid gives along the path, else any.
            let values: Vec<u8> = path.iter().map(|&cell| at(cell)).collect();
            let low = (0..values.len()).min_by_key(|&i| values[i])?;
            let high = (0..values.len()).max_by_key(|&i| values[i])?;
            let (from, to) = (low.min(high), low.max(high));
            let kept: u32 = values[from + 1..to].iter().map(|&v| u32::from(v)).sum();
            let number = if seed[5].is_multiple_of(2) {
                kept
            } else {
                u32::from(seed[6]) % 6
            };
            Constraint::Lunchboxes(Lunchboxes {
                boxes: vec![(number, path)],
            })
        }
        25 => {
            // A full rank clue: half the time the rank the grid gives the line, else any.
            let number = |o: Outside| -> Vec<u8> { line_of(o).iter().map(|&c| at(c)).collect() };
            let own = number(outside);
            let sides = [Side::Left, Side::Right, Side::Top, Side::Bottom];
            let lower = sides
                .iter()
                .flat_map(|&side| (0..n).map(move |index| Outside { side, index }))
                .filter(|&o| number(o) < own)
                .count() as u32;
            let rank = if seed[5].is_multiple_of(2) {
                lower + 1
            } else {
                1 + u32::from(seed[6]) % 16
            };
            Constraint::FullRank(FullRank {
                clues: vec![(outside, rank)],
            })
        }
        26 => Constraint::SumlessCages(SumlessCages {
            cages: vec![walk(start, &seed[2..], len, false)],
        }),
        _ => {
            // A long clue (9 to 16 cells along the grid's snake): with too many fillings to
            // be options of its own, the rules stated whole by sums are left to the sums.
            let snake: Vec<Cell> = (0..16)
                .map(|i| (i / 4, if (i / 4) % 2 == 0 { i % 4 } else { 3 - i % 4 }))
                .collect();
            let len = 9 + usize::from(seed[6]) % 8;
            let from = usize::from(seed[7]) % (17 - len);
            let line = snake[from..from + len].to_vec();
            match seed[5] % 5 {
                0 => Constraint::ZipperLines(ZipperLines { lines: vec![line] }),
                1 => Constraint::RegionSumLines(RegionSumLines { lines: vec![line] }),
                2 => Constraint::DoubleArrows(DoubleArrows { lines: vec![line] }),
                3 => Constraint::Sums(Sums {
                    clues: vec![(total(&line), line)],
                }),
                _ => {
                    let half = len / 2;
                    Constraint::EqualSums(EqualSums {
                        clues: vec![vec![line[..half].to_vec(), line[half..2 * half].to_vec()]],
                    })
                }
            }
        }
    })
}

/// How many squares keep `rules` and `givens`, by the judges.
fn brute(squares: &[Vec<u8>], rules: &Rules, givens: &[u8]) -> u128 {
    squares
        .iter()
        .filter(|grid| check::broken_rule(rules, givens, grid).is_none())
        .count() as u128
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn each_rule_read_along_cells_counts_as_brute_force_does(
        kinds in prop::collection::vec(0..28usize, 1..4),
        seeds in prop::collection::vec(prop::collection::vec(any::<u8>(), 12), 3),
        pick in 0..288usize,
        mask in any::<u16>(),
        corrupt in 0..6u8,
    ) {
        let all = squares();
        let grid = &all[pick];
        let mut rules = Rules::classic(BoxShape::new(2, 2).unwrap());
        for (k, &kind) in kinds.iter().enumerate() {
            let mut seed = seeds[k].clone();
            // Sometimes a clue from another square, which may have no solution.
            let source = if corrupt == 0 { &all[(pick + 97 * (k + 1)) % 288] } else { grid };
            seed[11] = seed[11].wrapping_add(k as u8);
            if let Some(constraint) = clue(kind, source, &seed, 4) {
                rules.add(constraint);
            }
        }
        prop_assume!(rules.validate().is_ok());
        let givens: Vec<u8> = (0..16)
            .map(|i| if mask & (1 << i) != 0 && i % 3 == 0 { grid[i] } else { 0 })
            .collect();
        let puzzle = Puzzle { id: "random".into(), rules: rules.clone(), givens: givens.clone() };
        let expected = brute(&all, &rules, &givens);
        let encoding = VariantEncoding::new(&puzzle).unwrap();
        let (count, _) = encoding.count(&puzzle, None);
        prop_assert_eq!(count, expected, "{:?}", rules);
        prop_assert_eq!(
            Backtracker::new(&rules).count(&givens, u128::MAX),
            expected,
            "{:?}",
            rules
        );
        // Knuth's format of the same problem counts the same.
        let matrix = xcover::dlx::Matrix::new(encoding.puzzle_problem(&puzzle)).unwrap();
        prop_assert_eq!(matrix.solver().count(None), expected);
        // The human-style solver's steps hold in every solution, and when it fills the grid
        // the grid is the one solution.
        let solutions: Vec<&Vec<u8>> = all
            .iter()
            .filter(|grid| check::broken_rule(&rules, &givens, grid).is_none())
            .collect();
        let done = logic::solve_from(logic::Position::of_variant(&puzzle));
        for step in &done.steps {
            for solution in &solutions {
                for &(cell, value) in &step.placements {
                    prop_assert_eq!(solution[cell.row * 4 + cell.col], value, "{}", step);
                }
                for &(cell, value) in &step.eliminations {
                    prop_assert_ne!(solution[cell.row * 4 + cell.col], value, "{}", step);
                }
            }
        }
        if done.is_complete() {
            prop_assert_eq!(solutions.len(), 1, "{:?}", rules);
        }
        // The true candidates are the symbols of those solutions, cell by cell, and the
        // counts (capped at 2) the number of them holding each.
        let found = xcover::sudoku::AnyPuzzle::Variant(Box::new(puzzle.clone()))
            .true_candidates(Some(2), 1, |_| {})
            .unwrap();
        for cell in 0..16 {
            let expected: Vec<(u8, Option<u128>)> = (1..=4u8)
                .filter_map(|v| {
                    let holding = solutions.iter().filter(|s| s[cell] == v).count() as u128;
                    (holding > 0).then_some((v, Some(holding.min(2))))
                })
                .collect();
            prop_assert_eq!(&found.cells[cell], &expected, "{:?}", rules);
        }
        // Written as an f-puzzles link (for the rules f-puzzles draws) and read back, it is
        // the same puzzle: the same object written again, the same count by brute force.
        if let Ok(link) = fpuzzles::link(&puzzle, None)
            && let Ok(entry) = fpuzzles::read(&link).remove(0)
        {
            let back = &entry.puzzle;
            let untitled = |p: &Puzzle| {
                let mut json = fpuzzles::to_json(p, None).unwrap();
                json.as_object_mut().unwrap().remove("title");
                json
            };
            prop_assert_eq!(untitled(back), untitled(&puzzle));
            prop_assert_eq!(brute(&all, &back.rules, &back.givens), expected);
        }
    }
}

/// Every rule f-puzzles draws is written to an f-puzzles link and read back as the same rule.
#[test]
fn the_rules_f_puzzles_draws_survive_a_link() {
    let all = squares();
    let grid = &all[40];
    let mut written = 0;
    for kind in [0, 1, 2, 4, 5, 11, 13, 14, 15, 16, 26] {
        let seed: Vec<u8> = (0..12u8)
            .map(|k| k.wrapping_mul(29).wrapping_add(kind as u8))
            .collect();
        let Some(constraint) = clue(kind, grid, &seed, 4) else {
            continue;
        };
        let rules = Rules::classic(BoxShape::new(2, 2).unwrap()).with(constraint);
        if rules.validate().is_err() {
            continue;
        }
        let puzzle = Puzzle {
            id: format!("rule-{kind}"),
            rules,
            givens: vec![0; 16],
        };
        let link = fpuzzles::link(&puzzle, None).unwrap_or_else(|e| panic!("{kind}: {e}"));
        let back = fpuzzles::read(&link).remove(0).unwrap();
        assert_eq!(back.puzzle.rules, puzzle.rules, "{kind}");
        written += 1;
    }
    assert!(written >= 9, "{written}");
}

/// Written in the block format and read back, every rule above is the same puzzle.
#[test]
fn every_rule_read_along_cells_survives_the_block_format() {
    let all = squares();
    let grid = &all[17];
    for kind in 0..28 {
        let seed: Vec<u8> = (0..12u8)
            .map(|k| k.wrapping_mul(37).wrapping_add(kind as u8))
            .collect();
        let Some(constraint) = clue(kind, grid, &seed, 4) else {
            continue;
        };
        let rules = Rules::classic(BoxShape::new(2, 2).unwrap()).with(constraint);
        if rules.validate().is_err() {
            continue;
        }
        let puzzle = Puzzle {
            id: format!("rule-{kind}"),
            rules,
            givens: vec![0; 16],
        };
        use xcover::sudoku::variant::text;
        let text = format!(
            "puzzle: {}\nsize: 4\nbox: 2x2\nrules: {}\ngrid:\n{}{}end\n",
            puzzle.id,
            puzzle.rules.names().join(" "),
            text::grid_lines(4, &puzzle.givens),
            text::rule_blocks(&puzzle.rules)
        );
        let back = text::read(&text);
        let back = back[0].as_ref().unwrap_or_else(|e| panic!("{text}\n{e}"));
        assert_eq!(back.puzzle.rules, puzzle.rules, "{text}");
    }
}

/// The full rank clues of `lines` (each a side, a row or column and a seed): half of them
/// the rank `grid` gives the line, the others any rank.
fn full_rank_clues(grid: &[u8], n: usize, lines: &[(u8, u8, u8)]) -> FullRank {
    let sides = [Side::Left, Side::Right, Side::Top, Side::Bottom];
    let number =
        |o: Outside| -> Vec<u8> { o.cells(n).iter().map(|&(r, c)| grid[r * n + c]).collect() };
    let all: Vec<Outside> = sides
        .iter()
        .flat_map(|&side| (0..n).map(move |index| Outside { side, index }))
        .collect();
    let mut clues: Vec<(Outside, u32)> = Vec::new();
    for &(side, index, seed) in lines {
        let at = Outside {
            side: sides[usize::from(side) % 4],
            index: usize::from(index) % n,
        };
        let own = number(at);
        let rank = if seed % 4 != 0 {
            1 + all.iter().filter(|&&o| number(o) < own).count() as u32
        } else {
            1 + u32::from(seed) % (4 * n as u32)
        };
        if clues.iter().all(|&(o, r)| o != at && r != rank) {
            clues.push((at, rank));
        }
    }
    FullRank { clues }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Several full rank clues together (ranks with one or two lower numbers in their group
    /// need the switches): on 4x4 against every square, on 6x6 against every grid the givens
    /// leave, judged by the rule's checker; and the backtracking baseline agrees.
    #[test]
    fn full_rank_clues_count_as_brute_force_does(
        lines in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 1..6),
        pick in 0..288usize,
        mask in any::<u64>(),
        six in any::<bool>(),
    ) {
        let (shape, n) = if six { (BoxShape::new(2, 3).unwrap(), 6) } else { (BoxShape::new(2, 2).unwrap(), 4) };
        let classic = Rules::classic(shape);
        // The grids to judge: every 4x4 square, or every 6x6 grid keeping the givens.
        let (grid, givens, grids) = if six {
            let empty = Puzzle { id: "6x6".into(), rules: classic.clone(), givens: vec![0; 36] };
            let encoding = VariantEncoding::new(&empty).unwrap();
            let grid = encoding.grid_of(encoding.solver(&empty).unwrap().solutions().nth(pick).unwrap());
            // About half the cells given.
            let givens: Vec<u8> = (0..36).map(|i| if mask & (1 << i) != 0 { grid[i] } else { 0 }).collect();
            let partial = Puzzle { id: "6x6".into(), rules: classic.clone(), givens: givens.clone() };
            let encoding = VariantEncoding::new(&partial).unwrap();
            let grids: Vec<Vec<u8>> = encoding.solver(&partial).unwrap().solutions().map(|s| encoding.grid_of(s)).collect();
            (grid, givens, grids)
        } else {
            let all = squares();
            let grid = all[pick].clone();
            let givens: Vec<u8> = (0..16).map(|i| if mask & (1 << i) != 0 && i % 3 == 0 { grid[i] } else { 0 }).collect();
            (grid, givens, all)
        };
        let rules = classic.with(Constraint::FullRank(full_rank_clues(&grid, n, &lines)));
        prop_assume!(rules.validate().is_ok());
        let puzzle = Puzzle { id: "random".into(), rules: rules.clone(), givens: givens.clone() };
        let expected = grids
            .iter()
            .filter(|g| check::broken_rule(&rules, &givens, g).is_none())
            .count() as u128;
        let encoding = VariantEncoding::new(&puzzle).unwrap();
        let (count, _) = encoding.count(&puzzle, None);
        prop_assert_eq!(count, expected, "{:?}", rules);
        prop_assert_eq!(Backtracker::new(&rules).count(&givens, u128::MAX), expected, "{:?}", rules);
    }
}

/// A renban line names its group's items for the exclusion rule (its group item and one per
/// symbol); a killer cage, which is a group too, does not.
#[test]
fn renban_lines_name_their_group_items_for_the_exclusion_rule() {
    let names = |text: &str| {
        let puzzle = xcover::sudoku::variant::iss::parse(text, "t").unwrap();
        let encoding = VariantEncoding::new(&puzzle).unwrap();
        let problem = encoding.puzzle_problem(&puzzle);
        let mut names: Vec<String> = problem
            .exclusion_items()
            .iter()
            .map(|&item| problem.name(item).to_string())
            .collect();
        names.sort();
        names
    };
    let mut expected: Vec<String> = (1..=9).map(|v| format!("s1v{v}")).collect();
    expected.push("s1".to_string());
    expected.sort();
    assert_eq!(names(".Renban~R1C1~R1C2~R1C3"), expected);
    assert!(names(".Cage~6~R1C1~R1C2~R1C3").is_empty());
}

/// A lunchbox along a whole row of 9x9 has more fillings and moves than are encoded beside its
/// chain, so the chain alone holds it: with the lunchboxes of every row and column of a grid
/// and every third cell given, each solution the engine finds keeps every lunchbox (as this
/// test adds them up), the grid is among them, and Knuth's format counts the same.
#[test]
fn lunchboxes_left_to_their_chains_alone_hold_in_every_solution() {
    let grid: Vec<u8> =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
            .bytes()
            .map(|b| b - b'0')
            .collect();
    let n = 9;
    // The sum between the smallest and the largest symbol of `cells`.
    let lunch = |cells: &[Cell], grid: &[u8]| -> u32 {
        let values: Vec<u8> = cells.iter().map(|&(r, c)| grid[r * n + c]).collect();
        let low = (0..n).min_by_key(|&i| values[i]).unwrap();
        let high = (0..n).max_by_key(|&i| values[i]).unwrap();
        let (a, b) = (low.min(high), low.max(high));
        values[a + 1..b].iter().map(|&v| u32::from(v)).sum()
    };
    let lines: Vec<Vec<Cell>> = (0..n)
        .flat_map(|i| {
            [
                (0..n).map(|j| (i, j)).collect(),
                (0..n).map(|j| (j, i)).collect(),
            ]
        })
        .collect();
    let boxes: Vec<(u32, Vec<Cell>)> = lines
        .iter()
        .map(|cells| (lunch(cells, &grid), cells.clone()))
        .collect();
    let rules = Rules::classic(BoxShape::new(3, 3).unwrap())
        .with(Constraint::Lunchboxes(Lunchboxes { boxes }));
    let givens: Vec<u8> = (0..81)
        .map(|i| if i % 3 == 0 { grid[i] } else { 0 })
        .collect();
    let puzzle = Puzzle {
        id: "lunchboxes".into(),
        rules,
        givens,
    };
    let encoding = VariantEncoding::new(&puzzle).unwrap();
    let problem = encoding.puzzle_problem(&puzzle);
    assert_eq!(problem.chains().len(), 18);
    // The clues with items of their own (`qK`, `qKcI` for fillings, `qK_I` for moves).
    let mut encoded: Vec<&str> = problem
        .items()
        .filter_map(|item| problem.name(item).strip_prefix('q'))
        .map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next().unwrap())
        .collect();
    encoded.sort_unstable();
    encoded.dedup();
    assert!(
        encoded.len() < 18,
        "a clue left to its chain alone: {encoded:?}"
    );
    let mut solver = encoding.matrix().solver();
    for (cell, &v) in puzzle.givens.iter().enumerate() {
        if v != 0 {
            solver
                .choose(encoding.cell_option(cell, v).unwrap())
                .unwrap();
        }
    }
    let mut found = Vec::new();
    let mut search = solver.search();
    while let Some(solution) = search.next_solution() {
        found.push(encoding.grid_of(solution.options()));
    }
    drop(search);
    assert!(found.contains(&grid));
    for solution in &found {
        for cells in &lines {
            assert_eq!(lunch(cells, solution), lunch(cells, &grid), "{cells:?}");
        }
    }
    let knuth = xcover::dlx::Matrix::new(problem).unwrap();
    assert_eq!(knuth.solver().count(None), found.len() as u128);
}
