//! Inference inside the search: the rules really remove options, and no setting changes an
//! answer (oracle counts, Sudoku counts up to a limit, the large grids' published solutions).

use xcover::dlx::{BuildError, Inference, ItemId, Matrix, Problem, Stats, format};
use xcover::problems;
use xcover::sudoku::{Encoding, Grid, Verdict, check, text};

/// Counts every solution at one setting.
fn count_with(matrix: &Matrix, inference: Inference) -> (u128, Stats) {
    let mut solver = matrix.solver();
    solver.set_inference(inference);
    let count = solver.count(None);
    (count, solver.stats())
}

#[test]
fn the_implication_rule_removes_options_in_knuths_example() {
    // Item A's options (A D G, A D) both hold D, so D's other option (D E G) is in no
    // solution; the search then needs fewer nodes than plain dancing links (6 nodes).
    let knuth = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
    let matrix = Matrix::new(format::read(knuth).unwrap().problem).unwrap();
    let (count, plain) = count_with(&matrix, Inference::None);
    assert_eq!((count, plain.nodes, plain.removals), (1, 6, 0));
    let (count, inferred) = count_with(&matrix, Inference::EveryNode);
    assert_eq!(count, 1);
    assert!(inferred.removals >= 1, "{inferred:?}");
    assert!(inferred.nodes < plain.nodes, "{inferred:?}");
}

#[test]
fn the_pair_rule_finds_a_naked_pair() {
    // Items p and q each have two options over x and y, and no option holds both p and q:
    // whichever options cover p and q also cover x and y, so "x r" and "y r" are impossible,
    // and only the pair rule sees it (no item's options all share an item).
    let text = "p q r | x y\np x\np y\nq x\nq y\nr x\nr y\nr\n";
    let matrix = Matrix::new(format::read(text).unwrap().problem).unwrap();
    let mut solver = matrix.solver();
    solver.set_inference(Inference::Root);
    assert_eq!(solver.count(None), 2);
    assert_eq!(solver.stats().removals, 2, "{:?}", solver.stats());
}

#[test]
fn the_exclusion_rule_removes_an_option_that_meets_every_option_of_an_item() {
    // Item i's options are "i a" and "i b": "a b" shares a with one and b with the other, so
    // choosing it leaves i no option. No item's options all share an item and no two items
    // have two options each, so only the exclusion rule sees it.
    let text = "i a b\ni a\ni b\na b\na\nb\n";
    let matrix = Matrix::new(format::read(text).unwrap().problem).unwrap();
    let (count, every) = count_with(&matrix, Inference::EveryNode);
    assert_eq!((count, every.removals), (2, 0), "{every:?}");
    let (count, excluded) = count_with(&matrix, Inference::Exclusion);
    assert_eq!((count, excluded.removals), (2, 1), "{excluded:?}");
}

#[test]
fn items_given_to_the_exclusion_rule_are_examined_at_every_setting() {
    // The problem of the test above, with the rule asked for on item i alone.
    let build = |watched: bool| {
        let mut problem = Problem::new();
        let [i, a, b] = ["i", "a", "b"].map(|name| problem.add_primary(name).unwrap());
        for items in [&[i, a][..], &[i, b], &[a, b], &[a], &[b]] {
            problem.add_option(items).unwrap();
        }
        if watched {
            problem.add_exclusion_items(&[i]).unwrap();
        }
        Matrix::new(problem).unwrap()
    };
    // (Probing removes the option by itself: its probe fails.)
    for inference in [Inference::Root, Inference::Shallow, Inference::EveryNode] {
        let (count, plain) = count_with(&build(false), inference);
        assert_eq!((count, plain.removals), (2, 0), "{inference}: {plain:?}");
        let (count, watched) = count_with(&build(true), inference);
        assert_eq!(
            (count, watched.removals),
            (2, 1),
            "{inference}: {watched:?}"
        );
    }
    let (count, none) = count_with(&build(true), Inference::None);
    assert_eq!((count, none.removals), (2, 0), "{none:?}");
}

#[test]
fn the_exclusion_rule_takes_only_primary_items_without_bounds() {
    let mut problem = Problem::new();
    let i = problem.add_primary("i").unwrap();
    let j = problem.add_primary("j").unwrap();
    let s = problem.add_secondary("s").unwrap();
    problem.add_option(&[i, j, s]).unwrap();
    problem.set_bounds(j, 0, 2).unwrap();
    for (item, why) in [(s, "secondary"), (j, "has bounds")] {
        let error = problem.add_exclusion_items(&[i, item]).unwrap_err();
        assert!(
            matches!(error, BuildError::BadExclusionItem(_)),
            "{error:?}"
        );
        assert!(error.to_string().contains(why), "{error}");
    }
    assert!(
        problem.exclusion_items().is_empty(),
        "nothing added on an error"
    );
    assert!(matches!(
        problem.add_exclusion_items(&[ItemId(7)]),
        Err(BuildError::UnknownItem(ItemId(7)))
    ));
    problem.add_exclusion_items(&[i]).unwrap();
    assert_eq!(problem.exclusion_items(), &[i]);
}

/// Six items on each side of a one-to-one block: a, b, c share x, y, z among them (each
/// holds two of them, no two the same two, so no pair rule applies); d holds x, u, v; e and
/// f hold u, v, w. Then x goes to one of a, b, c, so "d x" is in no solution: a Hall set of
/// three, which only the block's matching sees.
fn hall_triple(blocks: bool) -> Matrix {
    let mut problem = Problem::new();
    let left = ["a", "b", "c", "d", "e", "f"].map(|name| problem.add_primary(name).unwrap());
    let right = ["x", "y", "z", "u", "v", "w"].map(|name| problem.add_primary(name).unwrap());
    let edges = [
        "a x", "a y", "b y", "b z", "c z", "c x", "d x", "d u", "d v", "e u", "e v", "e w", "f u",
        "f v", "f w",
    ];
    for edge in edges {
        problem
            .add_option_by_names(&edge.split(' ').collect::<Vec<_>>())
            .unwrap();
    }
    if blocks {
        problem.add_block(&left, &right).unwrap();
    }
    Matrix::new(problem).unwrap()
}

#[test]
fn a_declared_block_finds_a_hall_set_of_three() {
    let (count, plain) = count_with(&hall_triple(false), Inference::Root);
    assert_eq!((count, plain.removals), (8, 0), "{plain:?}");
    let (count, matched) = count_with(&hall_triple(true), Inference::Root);
    assert_eq!(count, 8);
    assert!(matched.removals >= 1, "{matched:?}");
    // Probing matches blocks too (and here finds "d x" without them as well: both options
    // of a lead to x's cover); the rules at every node, or near the top, leave blocks alone:
    // there they cost more than they save (9x9).
    assert_eq!(count_with(&hall_triple(true), Inference::Probe).0, 8);
    for inference in [Inference::Shallow, Inference::EveryNode] {
        let with_blocks = count_with(&hall_triple(true), inference);
        assert_eq!(
            with_blocks,
            count_with(&hall_triple(false), inference),
            "{inference}"
        );
    }
}

#[test]
fn a_block_that_options_break_is_refused_with_the_option_named() {
    let mut problem = Problem::new();
    let [a, b, x, y] = ["a", "b", "x", "y"].map(|name| problem.add_primary(name).unwrap());
    problem.add_option(&[a, x]).unwrap();
    problem.add_option(&[b, x, y]).unwrap();
    problem.add_block(&[a, b], &[x, y]).unwrap();
    let error = Matrix::new(problem).unwrap_err().to_string();
    assert!(error.contains("option 2 ('b x y')"), "{error}");
    let mut problem = Problem::new();
    let [a, b, x] = ["a", "b", "x"].map(|name| problem.add_primary(name).unwrap());
    let s = problem.add_secondary("s").unwrap();
    for (left, right, why) in [
        (vec![a, b], vec![x], "same size"),
        (vec![], vec![], "same size"),
        (vec![a], vec![a], "twice"),
        (vec![a], vec![s], "secondary"),
    ] {
        let error = problem.add_block(&left, &right).unwrap_err().to_string();
        assert!(error.contains(why), "{error}");
    }
    assert!(problem.blocks().is_empty());
}

#[test]
fn shallow_inference_branches_on_the_heaviest_of_the_items_with_fewest_options() {
    // Items a, u and v have two options each. Plain dancing links branches on the first, a;
    // at the top of the tree, shallow inference branches on u, whose options hide the most
    // (a u v: one other option each through a and v; u v: one through v), against a's 2
    // and v's 3 (v comes after u). The second solution shows where the root branched: its
    // first option is the root's second choice, "a" under a, "u v" under u.
    let text = "a u v\na u v\na\nu v\n";
    let matrix = Matrix::new(format::read(text).unwrap().problem).unwrap();
    let second_solution_starts_with = |inference| {
        let mut solver = matrix.solver();
        solver.set_inference(inference);
        let solutions: Vec<_> = solver.solutions().collect();
        assert_eq!(solutions.len(), 2, "{inference}");
        solutions[1][0].0
    };
    assert_eq!(second_solution_starts_with(Inference::None), 1, "option a");
    assert_eq!(
        second_solution_starts_with(Inference::EveryNode),
        1,
        "option a"
    );
    assert_eq!(
        second_solution_starts_with(Inference::Shallow),
        2,
        "option u v"
    );
}

#[test]
fn probing_removes_an_option_whose_forced_moves_fail() {
    // Choosing "p x" hides "q x", so q takes "q w", r then "r z", and s is left with nothing
    // (z and x both taken): "p x" is in no solution. No item's options share an item and no
    // two items share out the same two, so the rules see nothing; only probing removes it.
    let text = "p q r s | x y w z\np x\np y\nq x\nq w\nr w\nr z\ns z\ns x\n";
    only_probing_removes(text, 2);
}

#[test]
fn probing_removes_what_both_options_of_an_item_exclude() {
    // Item p takes "p a" or "p b". "p a" forces "q c" (q's other option holds a), "p b"
    // forces "s c" (likewise): either way c is taken, so "t c" is in no solution, though no
    // trial fails and no rule sees it (t has three options, so it is not tried itself).
    let text = "p q s t | a b c d e\np a\np b\nq a\nq c\ns b\ns c\nt c\nt d\nt e\n";
    only_probing_removes(text, 4);
}

#[test]
fn probing_applies_the_implication_rule_along_its_forced_moves() {
    // Choosing "p a1 a2 z" leaves k with "k j x" and "k j y", which share j, and k2 with two
    // options that share m: so "s j" and "s m" are out, and s ("s z" hidden) has nothing.
    // Forced moves alone see no failure there (every item keeps two options), and no rule
    // sees anything before a choice. Found at the root, the failure leaves one forced path:
    // the search never branches. With the rules alone it branches on p.
    let text = "p k k2 s | a1 a2 z j m x y x2 y2\n\
                p a1 a2 z\np j m x y x2 y2\n\
                k a1\nk j x\nk j y\nk2 a2\nk2 m x2\nk2 m y2\ns j\ns m\ns z\n";
    let matrix = Matrix::new(format::read(text).unwrap().problem).unwrap();
    let (count, rules) = count_with(&matrix, Inference::EveryNode);
    assert_eq!(count, 1);
    assert!(rules.branches >= 1, "{rules:?}");
    let (count, probed) = count_with(&matrix, Inference::Probe);
    assert_eq!(count, 1);
    assert_eq!(probed.branches, 0, "{probed:?}");
}

#[test]
fn probing_tries_first_the_option_that_narrows_the_others_less() {
    // p is the only item with two options. "p u v" leaves q one option, "p" only takes one
    // option each from u and v: probing tries "p" first, so the first solution holds it,
    // while the rules alone try the options in column order.
    let text = "p q u v w\np u v\np\nq u\nq v\nq w\nv w\nu w\nu v\n";
    let matrix = Matrix::new(format::read(text).unwrap().problem).unwrap();
    let first_with = |inference| {
        let mut solver = matrix.solver();
        solver.set_inference(inference);
        let mut first: Vec<u32> = solver.first().unwrap().iter().map(|o| o.0).collect();
        first.sort_unstable();
        first
    };
    assert_eq!(first_with(Inference::EveryNode), [0, 4]);
    assert_eq!(first_with(Inference::Probe)[0], 1);
    // Either order finds every solution.
    assert_eq!(count_with(&matrix, Inference::Probe).0, 4);
}

/// The problem in `text` has `count` solutions; the rules remove nothing from it, probing
/// removes something.
fn only_probing_removes(text: &str, count: u128) {
    let matrix = Matrix::new(format::read(text).unwrap().problem).unwrap();
    let (rules_count, rules) = count_with(&matrix, Inference::EveryNode);
    assert_eq!((rules_count, rules.removals), (count, 0), "{rules:?}");
    let (probed_count, probed) = count_with(&matrix, Inference::Probe);
    assert_eq!(probed_count, count);
    assert!(probed.removals >= 1, "{probed:?}");
}

#[test]
fn oracle_counts_hold_at_every_setting() {
    let cases = [
        ("queens 8", Matrix::new(problems::queens(8)).unwrap(), 92),
        ("queens 10", Matrix::new(problems::queens(10)).unwrap(), 724),
        (
            "langford 7",
            Matrix::new(problems::langford(7)).unwrap(),
            52,
        ),
        (
            "langford 8",
            Matrix::new(problems::langford(8)).unwrap(),
            300,
        ),
        (
            "pentominoes 3x20",
            Matrix::new(problems::pentominoes(3, 20).unwrap()).unwrap(),
            8,
        ),
        (
            "latin 4",
            Matrix::new(problems::latin_square(4)).unwrap(),
            576,
        ),
    ];
    for (name, matrix, expected) in cases {
        for inference in Inference::ALL {
            assert_eq!(
                count_with(&matrix, inference).0,
                expected,
                "{name} {inference}"
            );
        }
    }
}

/// The first `per_file` puzzles of each puzzle file shipped in `data/sudoku`, by file name.
fn shipped_puzzles(per_file: usize) -> Vec<(String, Vec<text::Puzzle>)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir("data/sudoku").unwrap() {
        let path = entry.unwrap().path();
        let name = path.display().to_string();
        if name.contains("solution") || name.contains("invalid") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let puzzles = text::parse(&text, None)
            .into_iter()
            .flatten()
            .take(per_file);
        files.push((name, puzzles.collect()));
    }
    files
}

#[test]
fn sudoku_counts_hold_at_every_setting() {
    // Every shipped puzzle file, counted up to 500 solutions: sparse puzzles of every box
    // shape have many, so the rules run in searches that branch a lot.
    let mut puzzles = 0;
    let mut removals = 0;
    for (name, puzzles_of_file) in shipped_puzzles(20) {
        let Some(first) = puzzles_of_file.first() else {
            continue;
        };
        // One solver per setting for the whole file, as a batch keeps one: each count ends
        // its search and takes the clues back before the next puzzle's.
        let encoding = Encoding::new(first.grid.shape());
        let mut solvers: Vec<_> = Inference::ALL
            .iter()
            .map(|&inference| {
                let mut solver = encoding.solver();
                solver.set_inference(inference);
                solver
            })
            .collect();
        for puzzle in puzzles_of_file {
            let mut counts = Vec::new();
            for solver in &mut solvers {
                let answer = solver.count(&puzzle.grid, Some(500));
                removals += answer.stats.removals;
                counts.push(answer.value);
            }
            assert!(
                counts.windows(2).all(|w| w[0] == w[1]),
                "{name}: {counts:?}"
            );
            puzzles += 1;
        }
    }
    assert!(puzzles >= 10, "{puzzles} puzzles");
    assert!(
        removals > 0,
        "the rules removed nothing in {puzzles} puzzles"
    );
}

#[test]
fn shallow_inference_stops_below_the_top_of_the_tree() {
    // The first 1000 solutions of the empty 9x9 grid: a deep search, where the rules find
    // something at the top (few removals) and more further down (the rules at every node).
    let shape = xcover::sudoku::BoxShape::new(3, 3).unwrap();
    let encoding = Encoding::new(shape);
    let removals = |inference| {
        let mut solver = encoding.solver();
        solver.set_inference(inference);
        let answer = solver.count(&Grid::empty(shape), Some(1000));
        assert_eq!(answer.value, 1000, "{inference}");
        answer.stats.removals
    };
    let (none, shallow, every) = (
        removals(Inference::None),
        removals(Inference::Shallow),
        removals(Inference::EveryNode),
    );
    assert_eq!(none, 0);
    assert!(shallow > 0, "the rules run at the top");
    assert!(
        shallow < every,
        "{shallow} removals at the top, {every} at every node"
    );
    // A classic 9x9 grid's rests are counted in bit sets from the root, with no rule above.
    assert_eq!(removals(Inference::Auto), 0, "auto is none on 9x9");
}

#[test]
fn a_solver_reused_after_a_search_ended_half_way_answers_the_same() {
    // Inference at the root removes options here, and the count stops at 5 of 288
    // solutions: ending that search (its removals still on the trail) takes the clues
    // back at once, and the next puzzle must start from a clean matrix.
    let grid = text::parse("12..............", None)
        .remove(0)
        .unwrap()
        .grid;
    let encoding = Encoding::new(grid.shape());
    for inference in Inference::ALL {
        let mut solver = encoding.solver();
        solver.set_inference(inference);
        let first = solver.count(&grid, Some(5));
        assert_eq!(first.value, 5);
        if inference == Inference::Root {
            assert!(first.stats.removals > 0, "the rules remove at the root");
        }
        for _ in 0..3 {
            let again = solver.count(&grid, Some(5));
            assert_eq!(
                (again.value, again.stats),
                (first.value, first.stats),
                "{inference}"
            );
            assert!(matches!(solver.verdict(&grid).value, Verdict::Multiple(..)));
            assert_eq!(solver.count(&Grid::empty(grid.shape()), None).value, 288);
        }
    }
}

#[test]
fn the_setting_names_read_back() {
    for inference in Inference::ALL {
        assert_eq!(inference.name().parse::<Inference>(), Ok(inference));
    }
    assert!("sometimes".parse::<Inference>().is_err());
    assert_eq!(Inference::Auto.resolve(324), Inference::Shallow);
    assert_eq!(Inference::Auto.resolve(1024), Inference::Shallow);
    assert_eq!(Inference::Auto.resolve(1100), Inference::Probe);
    assert_eq!(Inference::Auto.resolve(2500), Inference::Probe);
    assert_eq!(Inference::Auto.resolve(16384), Inference::EveryNode);
    assert_eq!(Inference::Root.resolve(1024), Inference::Root);
}

/// Checks every puzzle of a large-hard file against its published solution at a setting,
/// and, for the default setting, solving with restarts (a first run of one branch point, so
/// that several runs happen) gives the same.
fn large_hard(file: &str, inference: Inference) {
    let dir = "../shared/data/large-hard";
    let puzzles = std::fs::read_to_string(format!("{dir}/{file}.txt")).unwrap();
    let solutions = std::fs::read_to_string(format!("{dir}/{file}.solution.txt")).unwrap();
    let solutions: Vec<Grid> = text::parse(&solutions, None)
        .into_iter()
        .map(|p| p.unwrap().grid)
        .collect();
    let puzzles = text::parse(&puzzles, None);
    assert_eq!(puzzles.len(), solutions.len());
    let mut removals = 0;
    for (puzzle, solution) in puzzles.into_iter().zip(solutions) {
        let grid = puzzle.unwrap().grid;
        let encoding = Encoding::new(grid.shape());
        let mut solver = encoding.solver();
        solver.set_inference(inference);
        let answer = solver.verdict(&grid);
        assert_eq!(answer.value, Verdict::Unique(solution), "{file}");
        removals += answer.stats.removals;
    }
    assert!(removals > 0, "the rules removed nothing in {file}");
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn large_16x16_puzzles_are_proved_unique() {
    large_hard("16x16", Inference::EveryNode);
    large_hard("16x16", Inference::Probe);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn large_25x25_puzzles_are_proved_unique() {
    large_hard("25x25", Inference::EveryNode);
    large_hard("25x25", Inference::Auto);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data beside the checkout")]
fn sparse_25x25_puzzles_are_proved_unique_by_default() {
    // Minutes of search with the rules alone; seconds with probing, what `auto` does here.
    large_hard("25x25-sparse", Inference::Auto);
}

#[test]
fn restarts_solve_as_one_search_does() {
    // Sparse puzzles of every shipped shape, with a first run of one branch point: runs are
    // abandoned and repeated in shuffled orders, and the verdict must not change.
    let mut restarted = 0;
    for (name, puzzles) in shipped_puzzles(10) {
        for puzzle in puzzles {
            let encoding = Encoding::new(puzzle.grid.shape());
            let mut solver = encoding.solver();
            let plain = solver.verdict(&puzzle.grid);
            for seed in 0..3 {
                let answer = solver.verdict_restarting_with_budget(&puzzle.grid, seed, 1);
                assert_eq!(answer.value.count(), plain.value.count(), "{name}");
                if let (Verdict::Unique(a), Verdict::Unique(b)) = (&answer.value, &plain.value) {
                    assert_eq!(a, b, "{name}");
                }
                if let Verdict::Multiple(a, b) = &answer.value {
                    assert!(a != b, "{name}");
                    check::check_solution(&puzzle.grid, a).unwrap();
                    check::check_solution(&puzzle.grid, b).unwrap();
                }
                restarted += u64::from(answer.stats.nodes > plain.stats.nodes);
            }
        }
    }
    assert!(restarted > 0, "no search was restarted");
}

/// The default probes a 16x16 puzzle whose clues leave fewer than 7/8 of its items to cover:
/// the shallow setting would infer at the root at most, and plain dancing links wander
/// (`Inference::AUTO_MIN_PROBLEM_ITEMS`). An empty grid keeps the shallow setting.
#[test]
fn auto_probes_a_16x16_puzzle_with_clues() {
    const SYMBOLS: &[u8] = b"123456789ABCDEFG";
    // A full grid by a pattern (each row the one four above shifted, each band by one), then
    // clues kept in 45% of its cells, 115 of 256.
    let line: String = (0..256)
        .map(|cell| {
            let (row, col) = (cell / 16, cell % 16);
            let symbol = (row * 4 + row / 4 + col) % 16;
            if cell * 7 % 20 < 9 {
                SYMBOLS[symbol] as char
            } else {
                '.'
            }
        })
        .collect();
    let grid = text::parse(&line, None)[0].as_ref().unwrap().grid.clone();
    let encoding = Encoding::new(grid.shape());
    let mut solver = encoding.solver();
    let by_default = solver.verdict(&grid);
    solver.set_inference(Inference::Shallow);
    let shallow = solver.verdict(&grid);
    // So many clues gone, the pattern leaves several solutions: both searches find two.
    assert!(matches!(by_default.value, Verdict::Multiple(..)));
    assert!(matches!(shallow.value, Verdict::Multiple(..)));
    assert!(by_default.stats.removals > 0, "the default did not probe");
    assert_eq!(shallow.stats.removals, 0, "the shallow setting inferred");
    let empty = Grid::empty(grid.shape());
    let shallow = solver.verdict(&empty).stats;
    solver.set_inference(Inference::Auto);
    let by_default = solver.verdict(&empty).stats;
    assert_eq!(
        (by_default.nodes, by_default.removals),
        (shallow.nodes, shallow.removals)
    );
}
