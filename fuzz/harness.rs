// What each fuzz target does with one input, shared by the targets (`fuzz_targets/*.rs`) and
// by the corpus replay in `cargo test` (`tests/sudoku/fuzz_corpus.rs`), which `include!` this file.
// Every function must return normally on any input: a panic is a bug, and so is a search
// that ignores its node budget. Searches end at a node budget, never at a clock, so a replay
// does the same work on every machine.

#[allow(dead_code)]
mod harness {
    use xcover::dlx::{Branching, Inference, Matrix, Verdict, bits, cells, format};
    use xcover::sudoku::text::{Layout, Reader, write};
    use xcover::sudoku::{Encoding, check};

    /// Search nodes one input may cost.
    const NODES: u64 = 20_000;

    fn text(data: &[u8]) -> String {
        String::from_utf8_lossy(data).into_owned()
    }

    /// Knuth's format: read, and when accepted, write and read again to the same problem.
    pub fn knuth_read(data: &[u8]) {
        let text = text(data);
        if let Ok(parsed) = format::read(&text) {
            let mut written = Vec::new();
            format::write(&parsed.problem, &mut written).unwrap();
            let again = format::read(std::str::from_utf8(&written).unwrap())
                .expect("what the writer writes reads back");
            assert_eq!(again.problem.item_count(), parsed.problem.item_count());
            assert_eq!(again.problem.option_count(), parsed.problem.option_count());
            let (first, second) = (&parsed.problem, &again.problem);
            for item in first.items() {
                assert_eq!(first.bounds(item), second.bounds(item), "bounds read back");
            }
            for option in first.options() {
                let colors = |p: &xcover::dlx::Problem| -> Vec<Option<String>> {
                    p.option_colors(option)
                        .map(|c| c.map(|c| p.color_name(c).to_string()))
                        .collect()
                };
                assert_eq!(colors(first), colors(second), "colours read back");
            }
            assert_eq!(first.blocks(), second.blocks(), "blocks read back");
        }
    }

    /// Knuth's format, then a small search on what was accepted: the count within the node
    /// budget must be what the lazy enumeration finds, and every inference setting must list
    /// the same solutions.
    pub fn knuth_search(data: &[u8]) {
        let text = text(data);
        let Ok(parsed) = format::read(&text) else {
            return;
        };
        let Ok(matrix) = Matrix::new(parsed.problem) else {
            return;
        };
        let mut solver = matrix.solver();
        solver.set_node_limit(Some(NODES));
        let counted = solver.count(Some(50));
        solver.reset_stats();
        let listed = solver.solutions().take(50).count() as u128;
        assert_eq!(counted, listed, "count and enumeration agree under one budget");
        solver.reset_stats();
        match solver.verdict() {
            // With multiplicities, lower bounds of 0 can make the empty set the solution.
            Verdict::Unique(a) => assert!(
                !a.is_empty()
                    || matrix.problem().primary_count() == 0
                    || matrix.problem().has_multiplicities()
            ),
            Verdict::Multiple(a, b) => assert_ne!(a, b),
            Verdict::None => {}
        }
        // Dancing cells (plain problems) and bit sets (colours and multiplicities too) count
        // alike, where their search and the links' end within the budget.
        let limits = cells::Limits {
            solutions: Some(50),
            nodes: Some(NODES),
            ..cells::Limits::default()
        };
        let mut solver = matrix.solver();
        solver.set_inference(Inference::None);
        solver.set_node_limit(Some(NODES));
        let by_links = solver.count(Some(50));
        let links_finished = solver.stopped().is_none();
        for (engine, counted) in [
            ("dancing cells", cells::count(matrix.problem(), &limits)),
            ("bit sets", bits::count(matrix.problem(), &limits)),
        ] {
            let Ok(counted) = counted else { continue };
            if counted.finished && links_finished {
                assert_eq!(counted.solutions, by_links, "{engine} and links count alike");
            }
        }
        // Every inference setting, under either branching, lists the same solutions (as sets:
        // the order may differ) when its search ends within the budget; declared blocks
        // (`|block:` lines) are matched under `root` and `probe`, and conflict branching
        // refutes the options it tried where the rules run without probing.
        let mut lists = Vec::new();
        let settings = Inference::ALL.into_iter().flat_map(|inference| {
            [Branching::Fewest, Branching::Conflicts].map(|branching| (inference, branching))
        });
        for (inference, branching) in settings {
            let mut solver = matrix.solver();
            solver.set_inference(inference);
            solver.set_branching(branching);
            solver.set_node_limit(Some(NODES));
            let mut solutions: Vec<Vec<_>> = solver
                .solutions()
                .take(50)
                .map(|mut solution| {
                    solution.sort();
                    solution
                })
                .collect();
            if solver.stopped().is_none() {
                solutions.sort();
                lists.push((inference, branching, solutions));
            }
        }
        for pair in lists.windows(2) {
            let ((first, by, a), (second, then_by, b)) = (&pair[0], &pair[1]);
            // Fifty solutions of a search with more may be different fifty.
            if a.len() < 50 && b.len() < 50 {
                assert_eq!(
                    a, b,
                    "{first} ({by:?}) and {second} ({then_by:?}) list the same solutions"
                );
            } else {
                assert_eq!(
                    a.len(),
                    b.len(),
                    "{first} ({by:?}) and {second} ({then_by:?}) count alike"
                );
            }
        }
    }

    /// Every puzzle the reader accepts, written back in `layout` and read again, is the same.
    fn round_trip(text: &str, layout: Layout) {
        for puzzle in Reader::new(text.as_bytes(), None).flatten() {
            let written = write(&puzzle.grid, layout);
            let again: Vec<_> = Reader::new(written.as_bytes(), None).collect();
            assert_eq!(again.len(), 1, "{written}");
            let again = again.into_iter().next().unwrap().expect("written puzzles read back");
            assert_eq!(again.grid, puzzle.grid, "{written}");
        }
    }

    /// One line of text, as the line layout.
    pub fn sudoku_line(data: &[u8]) {
        let line: String = text(data).replace(['\n', '\r'], "");
        round_trip(&line, Layout::Line);
    }

    /// The bytes drawn as text over the characters of character grids.
    pub fn sudoku_grid(data: &[u8]) {
        const ALPHABET: &[u8] = b"..123456789ABCDEFG0 |-+\n\n#,;x";
        let text: String = data
            .iter()
            .map(|&b| ALPHABET[b as usize % ALPHABET.len()] as char)
            .collect();
        round_trip(&text, Layout::Grid);
    }

    /// The bytes drawn as tokens of number grids.
    pub fn sudoku_numbers(data: &[u8]) {
        let mut text = String::new();
        for &b in data {
            match b % 8 {
                0 => text.push('\n'),
                1 => text.push(' '),
                2 => text.push(','),
                3 => text.push_str(" | "),
                _ => text.push_str(&format!("{} ", b / 4)),
            }
        }
        round_trip(&text, Layout::Numbers);
    }

    /// A JSON record: the input is put after `{"puzzle":` unless it starts with `{`.
    pub fn sudoku_json(data: &[u8]) {
        let raw = text(data).replace(['\n', '\r'], "");
        let line = if raw.starts_with('{') {
            raw
        } else {
            format!("{{\"puzzle\":{raw}}}")
        };
        round_trip(&line, Layout::NumberLine);
    }

    /// Any text through the reader, then each valid puzzle of side at most 9 through the
    /// engine: every solution it gives must pass the independent checker, and every
    /// inference setting must count alike.
    pub fn sudoku_search(data: &[u8]) {
        let text = text(data);
        for puzzle in Reader::new(text.as_bytes(), None).flatten() {
            if puzzle.validate().is_err() || puzzle.grid.size() > 9 {
                continue;
            }
            let encoding = Encoding::new(puzzle.grid.shape());
            let mut solver = encoding.solver();
            solver.set_node_limit(Some(NODES));
            let answer = solver.verdict(&puzzle.grid);
            let solutions = match &answer.value {
                xcover::sudoku::Verdict::None => vec![],
                xcover::sudoku::Verdict::Unique(a) => vec![a],
                xcover::sudoku::Verdict::Multiple(a, b) => {
                    assert_ne!(a, b);
                    vec![a, b]
                }
            };
            for solution in solutions {
                check::check_solution(&puzzle.grid, solution).expect("the engine's solution");
            }
            // Every inference setting (probing and the blocks' matching included) counts
            // alike where its search ends within the budget.
            let mut counts = Vec::new();
            for inference in Inference::ALL {
                let mut solver = encoding.solver();
                solver.set_inference(inference);
                solver.set_node_limit(Some(NODES));
                let count = solver.count(&puzzle.grid, Some(3)).value;
                if solver.stopped().is_none() {
                    counts.push((inference, count));
                }
            }
            assert!(
                counts.windows(2).all(|w| w[0].1 == w[1].1),
                "{counts:?}"
            );
        }
    }

    /// What a target does with one input.
    pub type Target = fn(&[u8]);

    /// The targets by name, for the replay.
    pub const TARGETS: &[(&str, Target)] = &[
        ("knuth_read", knuth_read),
        ("knuth_search", knuth_search),
        ("sudoku_line", sudoku_line),
        ("sudoku_grid", sudoku_grid),
        ("sudoku_numbers", sudoku_numbers),
        ("sudoku_json", sudoku_json),
        ("sudoku_search", sudoku_search),
    ];
}
