//! A puzzle under any rules as exact cover, and back: the one builder of every ruleset's
//! problem, the classic rows, columns and boxes included.
//!
//! Every rule becomes items of the one problem the engine solves:
//!
//! ```text
//!   rule                        items                            in the option of V at (I, J)
//!   a cell holds one symbol     rIcJ (primary)                   rIcJ
//!   a unit holds each once      TAGvV per unit and symbol        rIvV cJvV and, per rule,
//!     (rows, columns, boxes,      (primary; TAG: rI, cJ, bK,       bKvV gXvV d1vV d2vV wKvV
//!     regions, diagonals,         gX, d1, d2, wK)                  for the units of the cell
//!     windows)
//!   two cells may not           pP_K per related pair P and      every pP_K whose symbols
//!     hold X and Y                biclique K of forbidden          in cell (I, J) hold V
//!     (anti-knight, anti-king,    symbols (secondary: at most
//!     non-consecutive, lines,     one of the two options;
//!     dots, XV)                   `bicliques.rs`)
//! ```
//!
//! A symbol a cell's pencilmarks rule out has no option, nor one that a line or a dot leaves
//! without a partner in the other cell of a pair (no 5 on a whisper on 9x9): those are in no
//! solution, and leaving them out spares the search from finding that out at every node.
//!
//! A killer cage is a sum over choices ([`dlx::Sum`]): its cells keep their own options, each
//! holding a secondary item of the cage and its symbol (no symbol twice in a cage), and the
//! engine adds up the symbols (filtering, where it branches, the options that no way of
//! making the sum keeps, and checking every solution). The cages also imply sums of their
//! own (the rule of 45, [`crate::sudoku::rules::Killer::implied_sums`]): in each unit, and in
//! runs of rows or columns, the cells outside the cages that lie mostly inside, less those
//! cages' cells outside, add up to what the cages leave. They are added as sums too
//! (docs/variant-rules.md compares this with an option per way of filling a cage).
//!
//! A clue read along cells (an arrow, a sum, a sandwich; see
//! [`crate::sudoku::rules::sequences`]) is read by a machine, unrolled into layers of states.
//! Each position of such a clue is a secondary item that the symbols colour: a cell's option
//! for symbol v gives colour v to every position that reads the cell, and an option of the
//! clue that reads d there gives it colour d, so that the two agree or exclude each other. A
//! clue with at most
//! [`MAX_CLUE_FILLINGS`] fillings is one primary item and an option per filling (fillings
//! that put equal symbols in a unit or break a pair relation are left out); a larger one of
//! at most [`MAX_MOVES_BESIDE_CHAIN`] moves is a primary item per step and an option per move
//! of its machine, with a secondary item per inner layer of several states, which the states
//! colour: a move gives the layer before it the colour of the state it leaves from, and the
//! layer after it that of the state it goes to; a larger one still is left to its chain
//! (below). What a clue allows of every two of its cells is added as pairs
//! (`Layers::pair_tables`), which the search sees at once. Each such clue is also a chain
//! over its cells' options ([`dlx::Chain`]), which the search filters where it branches: a
//! symbol that no whole path of the machine reads goes at once, where the options alone would
//! let it go only once moves around it were chosen.
//!
//! Options are numbered in the order cells are listed; [`VariantEncoding::grid_of`] decodes
//! them through a table of what each writes.

use super::bicliques::{bicliques, one_by_one};
use super::combined_sums;
use crate::dlx::{self, Branching, ColorId, ItemId, Matrix, OptionId, Problem, Solver, Stats};

use crate::sudoku::rules::sequences::Layers;
use crate::sudoku::rules::{Cell, Neighbour, RulesError, cell_name};
use crate::sudoku::variant::Puzzle;

/// The most fillings a clue read along cells (an arrow, a sum) may have to be encoded as one
/// option per filling, as a cage is; past it, as one option per move of its machine.
const MAX_CLUE_FILLINGS: usize = 3000;

/// The most plain sums (`combined_sums.rs`) whose unions are looked for: each merge looks at
/// every pair left.
const COMBINED_SUMS_MAX: usize = 64;

/// The most moves a clue's machine may have to be encoded as an option per move beside its
/// chain; past it, the chain alone holds the clue.
const MAX_MOVES_BESIDE_CHAIN: usize = 1000;

/// The most fillings a clue whose rule its sums state whole (see `Rule::stated_by_sums`)
/// may have to be encoded as options beside them, on a board of more symbols than the sums'
/// filter tracks as sets (`dlx::MAX_DISTINCT_VALUES`): there the fillings keep a unit's
/// digits apart along the clue, which the filter does not. On smaller boards the sums alone
/// hold such a clue: their filter keeps the digits some filling keeps (up to cells that see
/// each other across the filter's disjoint groups of distinct cells), and the fillings'
/// options cost far more moves than the little they add. ISS's little killers
/// (`docs/sums.md`): up to 3.4 times as long with the fillings (0.98 s against 0.29 s; the
/// slowest 9.5 s against 6.8 s); its 62 examples 8.8 s in all with them, 8.1 s without (a
/// pill arrow 0.040 s and 0.012 s, The Barbed Cross 1.29 s and 0.72 s).
const MAX_FILLINGS_BESIDE_SUMS: usize = 1000;

/// The exact-cover problem of one variant puzzle's rules, compiled.
#[derive(Debug, Clone)]
pub struct VariantEncoding {
    size: usize,
    /// The cells of the board (see [`crate::sudoku::rules::Rules::rows`]).
    cells: usize,
    matrix: Matrix,
    /// What each option writes: (cell index row * N + col, symbol) pairs.
    writes: Vec<Vec<(usize, u8)>>,
    /// The option of each symbol in each cell: `cell_options[cell * N + V - 1]`.
    cell_options: Vec<Option<OptionId>>,
}

impl VariantEncoding {
    /// Builds the problem of `puzzle`'s rules (which [`super::Rules::validate`] must accept);
    /// the givens are chosen by [`VariantEncoding::solver`].
    pub fn new(puzzle: &Puzzle) -> Result<VariantEncoding, RulesError> {
        VariantEncoding::new_until(puzzle, &|| false)
    }

    /// [`VariantEncoding::new`], stopped with [`RulesError::Stopped`] as soon as `stop` says
    /// so (it is asked every few thousand steps while clues read along cells are unrolled):
    /// a deadline or a cancellation flag reaches the building of large clues.
    pub fn new_until(
        puzzle: &Puzzle,
        stop: &dyn Fn() -> bool,
    ) -> Result<VariantEncoding, RulesError> {
        puzzle.rules.validate()?;
        let n = puzzle.rules.size;
        let cells = puzzle.rules.cell_count();
        let mut builder = Builder {
            problem: Problem::new(),
            writes: Vec::new(),
            cell_options: vec![None; cells * n],
            stop,
        };
        builder.build(puzzle)?;
        let matrix = Matrix::new(builder.problem).expect("the cells are primary items");
        Ok(VariantEncoding {
            size: n,
            cells,
            matrix,
            writes: builder.writes,
            cell_options: builder.cell_options,
        })
    }

    /// The compiled matrix.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// The compiled matrix, kept without the rest.
    pub fn into_matrix(self) -> Matrix {
        self.matrix
    }

    /// A solver with the puzzle's givens chosen; `None` when they leave no solution at once.
    /// Where the rules reach beyond units (sums such as cages and arrows, pairs of cells such
    /// as dots and lines, clues read along cells), it branches on its conflicts
    /// ([`Branching::Conflicts`]): on hard killers and line puzzles that took a tenth of the
    /// time or less of branching on the fewest options, and proved ISS examples that did not
    /// finish in minutes (`docs/sums.md`); with units alone (jigsaw, X) it did not pay. Such
    /// a search is not split over threads; set [`Branching::Fewest`] to split it.
    pub fn solver(&self, puzzle: &Puzzle) -> Option<Solver<'_>> {
        let mut solver = self.matrix.solver();
        if !self.matrix.sums.is_empty() || self.matrix.item_count > self.matrix.primary_count {
            solver.set_branching(Branching::Conflicts);
        }
        self.choose_givens(&mut solver, &puzzle.givens)
            .then_some(solver)
    }

    /// Chooses `givens` (row by row, 0 for an empty cell) in `solver`, a solver of this
    /// encoding's matrix, once it has unchosen what it held and forgotten its statistics:
    /// one solver serves many puzzles under the same rules. False when the givens leave no
    /// solution at once; then nothing stays chosen.
    pub fn choose_givens(&self, solver: &mut Solver<'_>, givens: &[u8]) -> bool {
        solver.unchoose_all();
        solver.reset_stats();
        let n = self.size;
        for (cell, &value) in givens.iter().enumerate() {
            if value == 0 {
                continue;
            }
            // A given its cell's pencilmarks rule out has no option: no solution.
            let chosen = self.cell_options[cell * n + usize::from(value) - 1]
                .is_some_and(|option| solver.choose(option).is_ok());
            if !chosen {
                solver.unchoose_all();
                return false;
            }
        }
        true
    }

    /// The option that puts `value` (from 1) in cell `cell` (row * N + column), if the rules
    /// allow it there.
    pub fn cell_option(&self, cell: usize, value: u8) -> Option<OptionId> {
        let index = cell * self.size + usize::from(value).checked_sub(1)?;
        self.cell_options.get(index).copied().flatten()
    }

    /// The grid (row by row, symbols from 1) that a solution's options fill in, givens
    /// included.
    pub fn grid_of(&self, options: impl IntoIterator<Item = OptionId>) -> Vec<u8> {
        let mut grid = vec![0; self.cells];
        for option in options {
            for &(cell, value) in &self.writes[option.0 as usize] {
                grid[cell] = value;
            }
        }
        grid
    }

    /// None, one or several solutions (two of them), with the work done.
    pub fn verdict(&self, puzzle: &Puzzle) -> (dlx::Verdict<Vec<u8>>, Stats) {
        let Some(mut solver) = self.solver(puzzle) else {
            return (dlx::Verdict::None, Stats::default());
        };
        let verdict = solver.verdict().map(|options| self.grid_of(options));
        (verdict, solver.stats())
    }

    /// The number of solutions, stopping at `limit`, with the work done.
    pub fn count(&self, puzzle: &Puzzle, limit: Option<u128>) -> (u128, Stats) {
        let Some(mut solver) = self.solver(puzzle) else {
            return (0, Stats::default());
        };
        let count = solver.count(limit);
        (count, solver.stats())
    }

    /// The puzzle as a problem of its own, for Knuth's format: every item, and the options
    /// that agree with the givens (a given cell keeps only its given's option). Its solutions
    /// are exactly the puzzle's.
    pub fn puzzle_problem(&self, puzzle: &Puzzle) -> Problem {
        let full = self.matrix.problem();
        let mut problem = Problem::new();
        for item in full.items() {
            problem
                .add_item(full.name(item), full.kind(item))
                .expect("names of a valid problem");
        }
        // The options kept, by their number in the full problem.
        let mut kept: Vec<Option<OptionId>> = vec![None; full.option_count()];
        for option in full.options() {
            let agrees = self.writes[option.0 as usize]
                .iter()
                .all(|&(cell, value)| puzzle.givens[cell] == 0 || puzzle.givens[cell] == value);
            if agrees {
                kept[option.0 as usize] = Some(OptionId(problem.option_count() as u32));
                let colours: Vec<Option<ColorId>> = full
                    .option_colors(option)
                    .map(|colour| {
                        colour.map(|c| {
                            problem
                                .add_color(full.color_name(c))
                                .expect("colours of a valid problem")
                        })
                    })
                    .collect();
                let items: Vec<(ItemId, Option<ColorId>)> =
                    full.option(option).iter().copied().zip(colours).collect();
                problem
                    .add_colored_option(&items)
                    .expect("options of a valid problem");
            }
        }
        // Dropping options keeps every block one to one: the matching rule stays available.
        for (left, right) in full.blocks() {
            problem
                .add_block(left, right)
                .expect("blocks of a valid problem");
        }
        problem
            .add_exclusion_items(full.exclusion_items())
            .expect("exclusion items of a valid problem");
        // The chains and the sums, over the options kept. A term left without options (a
        // given its cell may not hold) leaves its cell without options too: no solution
        // either way.
        let renumber = |pairs: &[(OptionId, i64)]| -> Vec<(OptionId, i64)> {
            pairs
                .iter()
                .filter_map(|&(option, value)| Some((kept[option.0 as usize]?, value)))
                .collect()
        };
        for chain in full.chains() {
            let terms: Vec<_> = chain.terms.iter().map(|term| renumber(term)).collect();
            if terms.iter().all(|term| !term.is_empty()) {
                problem
                    .add_chain(dlx::Chain {
                        terms,
                        moves: chain.moves.clone(),
                    })
                    .expect("chains of a valid problem");
            }
        }
        for sum in full.sums() {
            let terms: Vec<_> = sum.terms.iter().map(|term| renumber(term)).collect();
            if terms.iter().all(|term| !term.is_empty()) {
                problem
                    .add_sum(dlx::Sum {
                        terms,
                        excluded: renumber(&sum.excluded),
                        ..sum.clone()
                    })
                    .expect("sums of a valid problem");
            }
        }
        problem
    }
}

/// Builds the problem: items first, then the options of free cells and of cages.
struct Builder<'s> {
    problem: Problem,
    writes: Vec<Vec<(usize, u8)>>,
    cell_options: Vec<Option<OptionId>>,
    stop: &'s dyn Fn() -> bool,
}

impl Builder<'_> {
    fn build(&mut self, puzzle: &Puzzle) -> Result<(), RulesError> {
        let rules = &puzzle.rules;
        let n = rules.size;
        let count = rules.cell_count();
        let problem = &mut self.problem;
        let cells: Vec<ItemId> = (0..count)
            .map(|i| {
                problem
                    .add_primary(&cell_name((i / n, i % n)))
                    .expect("fresh")
            })
            .collect();
        // unit_items[u][V - 1]; units_of[cell]: the units of each cell.
        let units = rules.units();
        // A unit of fewer cells than symbols (a rectangle's column) holds each at most once.
        let mut units_of: Vec<Vec<usize>> = vec![Vec::new(); count];
        let mut unit_items = Vec::with_capacity(units.len());
        for (u, unit) in units.iter().enumerate() {
            let whole = unit.cells.len() == n;
            let items: Vec<ItemId> = (1..=n)
                .map(|v| {
                    let name = format!("{}v{v}", unit.tag);
                    if whole {
                        problem.add_primary(&name).expect("fresh")
                    } else {
                        problem.add_secondary(&name).expect("fresh")
                    }
                })
                .collect();
            unit_items.push(items);
            for &(row, col) in &unit.cells {
                units_of[row * n + col].push(u);
            }
        }
        // Symbols a cell's pencilmarks rule out get no option (nor a cage filling holding
        // them), nor those a line or a dot leaves without a partner (see `supported`), nor
        // those no filling of a clue read along cells holds there.
        let mut pairs = rules.neighbour_pairs();
        let mut allowed = supported(n, &pairs, rules.allowed());
        // A clue too large to unroll is refused, unless its sums state it whole: then they
        // alone hold it (a set of many counting circles).
        let mut sequences = Vec::new();
        let mut stated_by_sums = Vec::new();
        let mut layers: Vec<Layers> = Vec::new();
        for (sequence, whole) in rules.sequences_and_sums() {
            let unrolled = sequence.layers(
                |at| {
                    let (row, col) = sequence.cells[at];
                    let cell = row * n + col;
                    (1..=n)
                        .filter(|&v| allowed[cell * n + v - 1])
                        .fold(0, |bits, v| bits | 1 << v)
                },
                self.stop,
            );
            match unrolled {
                Ok(unrolled) => {
                    sequences.push(sequence);
                    stated_by_sums.push(whole);
                    layers.push(unrolled);
                }
                Err(error) if whole && error != RulesError::Stopped => {}
                Err(error) => return Err(error),
            }
        }
        for (sequence, unrolled) in sequences.iter().zip(&layers) {
            let mut held = vec![0u128; count];
            let mut seen = vec![false; count];
            for (at, &(row, col)) in sequence.cells.iter().enumerate() {
                let cell = row * n + col;
                let bits = unrolled.supported(at);
                held[cell] = if seen[cell] { held[cell] & bits } else { bits };
                seen[cell] = true;
            }
            for cell in (0..count).filter(|&cell| seen[cell]) {
                for v in 1..=n {
                    if held[cell] & (1 << v) == 0 {
                        allowed[cell * n + v - 1] = false;
                    }
                }
            }
        }
        // What each clue read along cells says of every two of its cells, as pairs: the
        // search sees at once what a symbol in one cell leaves the others, as it does for a
        // line or a dot (see `Layers::pair_tables`). Not for a clue that reads a cell more
        // than once (full rank compares one line with many): its tables would be of positions,
        // thousands of them, and measured on the full rank puzzle they cost 2.3 s of a 2.5 s
        // solve and narrowed the search by no branch point.
        for (sequence, unrolled) in sequences.iter().zip(&layers) {
            if reads_a_cell_twice(&sequence.cells) {
                continue;
            }
            for (i, j, table) in unrolled.pair_tables(n) {
                let (a, b) = (sequence.cells[i], sequence.cells[j]);
                if a != b {
                    pairs.push((a, b, Neighbour::Allowed(table)));
                }
            }
        }
        let allowed = supported(n, &pairs, allowed);
        // The secondary items of neighbour pairs, a biclique of forbidden symbols each
        // (`bicliques.rs`): each cell's (symbols, item) list.
        let symbols_of = |cell: usize| {
            (1..=n)
                .filter(|&v| allowed[cell * n + v - 1])
                .fold(0u128, |set, v| set | 1 << v)
        };
        let mut forbidden: Vec<Vec<(u128, ItemId)>> = vec![Vec::new(); count];
        for (p, &(a, b, rule)) in pairs.iter().enumerate() {
            let (a, b) = (a.0 * n + a.1, b.0 * n + b.1);
            let (first, second) = (symbols_of(a), symbols_of(b));
            let forbids = |x: u8, y: u8| rule.forbids(x, y);
            // The relations that forbid only a few pairs (different, not consecutive, not
            // double, not a sum) leave every symbol partners until a cell is nearly decided,
            // and renban's group of sets reasons on its run of symbols already: those keep an
            // item per forbidden pair (as bicliques, non-consecutive Sudoku and the hard
            // renban puzzles took longer: docs/sums.md).
            let found = if matches!(
                rule,
                Neighbour::Different
                    | Neighbour::NotConsecutive
                    | Neighbour::NotDouble
                    | Neighbour::NotSum(_)
                    | Neighbour::NotBoth(_)
                    | Neighbour::DifferentWithin(_)
            ) {
                one_by_one(n, first, second, forbids)
            } else {
                bicliques(n, first, second, forbids)
            };
            for (k, (xs, ys)) in found.into_iter().enumerate() {
                let name = format!("p{}_{}", p + 1, k + 1);
                let item = problem.add_secondary(&name).expect("fresh");
                forbidden[a].push((xs, item));
                forbidden[b].push((ys, item));
            }
        }
        // A clue that its rule's sums state whole is left to the sums alone, unless the board
        // has more symbols than their filter tracks and the clue few fillings (see
        // `MAX_FILLINGS_BESIDE_SUMS`): a chain of moves would only slow the search.
        let encoded: Vec<bool> = layers
            .iter()
            .zip(&stated_by_sums)
            .map(|(unrolled, &whole)| {
                !whole
                    || n > crate::dlx::MAX_DISTINCT_VALUES
                        && unrolled.fillings(MAX_FILLINGS_BESIDE_SUMS) <= MAX_FILLINGS_BESIDE_SUMS
            })
            .collect();
        // What each position of each clue read along cells reads: a secondary item per
        // position, coloured by the symbol read. A cell's option for symbol v gives colour v
        // to every position that reads the cell, and an option of the clue that reads d there
        // gives it colour d, so that the two agree or exclude each other. (Until 2026-11-30
        // the engine's rules saw no colours, and a position was an item per symbol, the
        // clue's option holding the n - 1 it does not read: ISS's "Skyscaper 2-3" took 15.6 s
        // so and 5.0 s now, `docs/sums.md`.)
        let mut reads_of: Vec<Vec<ItemId>> = vec![Vec::new(); count];
        let mut position_items: Vec<Vec<ItemId>> = Vec::with_capacity(sequences.len());
        // A clue of many fillings and a large machine is left to its chain alone (below): an
        // option per move beside the chain cost more than it pruned (ISS's "Extreme Lunchbox
        // 2", a clue of 3,161 moves: 3.4 s so, 0.08 s without). A smaller machine keeps its
        // moves, which the search branches on (ISS's "Sum lines" example, a clue of 198
        // moves: 0.13 s so, 15 s without; `docs/sums.md`).
        let chain_only: Vec<bool> = layers
            .iter()
            .map(|unrolled| {
                unrolled.fillings(MAX_CLUE_FILLINGS) > MAX_CLUE_FILLINGS
                    && unrolled.moves.iter().map(Vec::len).sum::<usize>() > MAX_MOVES_BESIDE_CHAIN
            })
            .collect();
        for (k, sequence) in sequences.iter().enumerate() {
            if !encoded[k] || chain_only[k] {
                position_items.push(Vec::new());
                continue;
            }
            let mut positions = Vec::with_capacity(sequence.cells.len());
            for (at, &(row, col)) in sequence.cells.iter().enumerate() {
                let item = self
                    .problem
                    .add_secondary(&format!("q{}c{}", k + 1, at + 1))
                    .expect("fresh");
                reads_of[row * n + col].push(item);
                positions.push(item);
            }
            position_items.push(positions);
        }
        // With cages as sums: a secondary item per cage and symbol, held by the cage's cells'
        // options for that symbol (no symbol twice in a cage).
        let mut cage_of: Vec<Option<usize>> = vec![None; count];
        let mut cage_items: Vec<Vec<ItemId>> = Vec::new();
        for (k, cage) in rules.cages().iter().enumerate() {
            cage_items.push(
                (1..=n)
                    .map(|v| {
                        self.problem
                            .add_secondary(&format!("k{}v{v}", k + 1))
                            .expect("fresh")
                    })
                    .collect(),
            );
            for &(row, col) in &cage.cells {
                cage_of[row * n + col] = Some(k);
            }
        }
        // Each group of cells that holds one of a few sets of symbols (a renban line): a
        // primary item for the group, covered by the option of the set it holds, and one per
        // symbol, covered by the group's cell that holds it or, for a symbol of no set the
        // group holds, by that set's option.
        let set_groups = rules.set_groups();
        let mut groups_of: Vec<Vec<usize>> = vec![Vec::new(); count];
        let mut group_items: Vec<(ItemId, Vec<ItemId>)> = Vec::with_capacity(set_groups.len());
        for (g, group) in set_groups.iter().enumerate() {
            let whole = self
                .problem
                .add_primary(&format!("s{}", g + 1))
                .expect("fresh");
            let symbols: Vec<ItemId> = (1..=n)
                .map(|v| {
                    self.problem
                        .add_primary(&format!("s{}v{v}", g + 1))
                        .expect("fresh")
                })
                .collect();
            if group.exclusions {
                (self.problem)
                    .add_exclusion_items(&[whole])
                    .and_then(|()| self.problem.add_exclusion_items(&symbols))
                    .expect("primary items without bounds");
            }
            group_items.push((whole, symbols));
            for &(row, col) in &group.cells {
                groups_of[row * n + col].push(g);
            }
        }
        // The colour of each symbol at the positions that read it (none where no clue is read
        // along cells: a problem without colours keeps the engine's simpler paths).
        let symbol_colours: Vec<ColorId> = if position_items.iter().any(|p| !p.is_empty()) {
            (1..=n)
                .map(|v| {
                    self.problem
                        .add_color(&format!("v{v}"))
                        .expect("a valid name")
                })
                .collect()
        } else {
            Vec::new()
        };
        let problem = &mut self.problem;
        // The items of symbol `v` in `cell`, added to `items`.
        let items_of = |cell: usize, v: u8, items: &mut Vec<(ItemId, Option<ColorId>)>| {
            items.push((cells[cell], None));
            for &u in &units_of[cell] {
                items.push((unit_items[u][usize::from(v) - 1], None));
            }
            for &(symbols, item) in &forbidden[cell] {
                if symbols & 1 << v != 0 {
                    items.push((item, None));
                }
            }
            for &position in &reads_of[cell] {
                items.push((position, Some(symbol_colours[usize::from(v) - 1])));
            }
            if let Some(k) = cage_of[cell] {
                items.push((cage_items[k][usize::from(v) - 1], None));
            }
            for &g in &groups_of[cell] {
                items.push((group_items[g].1[usize::from(v) - 1], None));
            }
        };
        let mut items = Vec::new();
        for cell in 0..count {
            for v in 1..=n as u8 {
                if !allowed[cell * n + usize::from(v) - 1] {
                    continue;
                }
                items.clear();
                items_of(cell, v, &mut items);
                let option = problem.add_colored_option(&items).expect("distinct items");
                self.cell_options[cell * n + usize::from(v) - 1] = Some(option);
                self.writes.push(vec![(cell, v)]);
            }
        }
        for (group, (whole, symbols)) in set_groups.iter().zip(&group_items) {
            for &set in &group.sets {
                items.clear();
                items.push((*whole, None));
                for v in (1..=n).filter(|&v| set & (1 << v) == 0) {
                    items.push((symbols[v - 1], None));
                }
                problem.add_colored_option(&items).expect("distinct items");
                self.writes.push(Vec::new());
            }
        }
        // Each unit's cells and its symbols are matched one to one, and each symbol's
        // rows and its columns. The units open with the rows, the columns and the
        // boxes, n of each (see `houses::units`); their blocks go in the order row i,
        // column i, box i, symbol i, then the other units'.
        let houses = if rules.boxes.is_some() { 3 } else { 2 };
        let block = |unit: usize, problem: &mut Problem| {
            let unit_cells: Vec<ItemId> = units[unit]
                .cells
                .iter()
                .map(|&(row, col)| cells[row * n + col])
                .collect();
            problem
                .add_block(&unit_cells, &unit_items[unit])
                .expect("primary items, one per symbol");
        };
        if rules.house_rows() == n {
            let (rows_of, columns_of) = (&unit_items[..n], &unit_items[n..2 * n]);
            for i in 0..n {
                for house in 0..houses {
                    block(house * n + i, &mut self.problem);
                }
                let rows: Vec<ItemId> = rows_of.iter().map(|items| items[i]).collect();
                let columns: Vec<ItemId> = columns_of.iter().map(|items| items[i]).collect();
                self.problem
                    .add_block(&rows, &columns)
                    .expect("primary items, one per row and column");
            }
            for unit in houses * n..units.len() {
                block(unit, &mut self.problem);
            }
        } else {
            // A rectangle: the units that hold every symbol (its rows and boxes) alone.
            for unit in (0..units.len()).filter(|&u| units[u].cells.len() == n) {
                block(unit, &mut self.problem);
            }
        }
        // Each cage a sum over its cells' options, valued by their symbols; then the sums the
        // cages imply in the units and in runs of rows or columns. A cell that sees every cell
        // of a sum in one unit cannot repeat a symbol that every way of making the sum uses.
        {
            let options = &self.cell_options;
            let apart_groups = |terms: &[(Cell, Vec<i64>)]| apart_groups(terms, &units_of, n);
            let terms_of = |cells: &[Cell], sign: i64| -> Vec<Vec<(OptionId, i64)>> {
                cells
                    .iter()
                    .map(|&(row, col)| {
                        let cell = row * n + col;
                        (1..=n)
                            .filter_map(|v| Some((options[cell * n + v - 1]?, sign * v as i64)))
                            .collect()
                    })
                    .collect()
            };
            let excluded_by = |cells: &[Cell]| -> Vec<(OptionId, i64)> {
                let mut seen_by_all: Option<Vec<usize>> = None;
                for &(row, col) in cells {
                    let mut peers: Vec<usize> = units_of[row * n + col]
                        .iter()
                        .flat_map(|&u| units[u].cells.iter().map(|&(r, c)| r * n + c))
                        .collect();
                    peers.sort_unstable();
                    peers.dedup();
                    seen_by_all = Some(match seen_by_all {
                        None => peers,
                        Some(before) => before
                            .into_iter()
                            .filter(|p| peers.binary_search(p).is_ok())
                            .collect(),
                    });
                }
                let inside: Vec<usize> = cells.iter().map(|&(r, c)| r * n + c).collect();
                seen_by_all
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|cell| !inside.contains(cell))
                    .flat_map(|cell| {
                        (1..=n).filter_map(move |v| Some((options[cell * n + v - 1]?, v as i64)))
                    })
                    .collect()
            };
            let mut sums = Vec::new();
            for cage in rules.cages() {
                let total = i64::from(cage.sum);
                sums.push(dlx::Sum {
                    terms: terms_of(&cage.cells, 1),
                    min: total,
                    max: total,
                    distinct: true,
                    apart: Vec::new(),
                    excluded: excluded_by(&cage.cells),
                });
            }
            let killer = crate::sudoku::rules::Killer {
                cages: rules.cages().to_vec(),
            };
            for implied in killer.implied_sums(&units, n) {
                let mut terms = terms_of(&implied.plus, 1);
                terms.extend(terms_of(&implied.minus, -1));
                sums.push(dlx::Sum {
                    terms,
                    min: implied.total,
                    max: implied.total,
                    distinct: implied.in_one_unit,
                    // Where cells are both added and taken off, their groups are not tracked:
                    // on the killers measured it cost more than it pruned (`docs/sums.md`).
                    apart: if implied.in_one_unit
                        || !implied.plus.is_empty() && !implied.minus.is_empty()
                    {
                        Vec::new()
                    } else {
                        let by_symbol = |sign: i64| (1..=n as i64).map(|v| sign * v).collect();
                        let weighted: Vec<(Cell, Vec<i64>)> = (implied.plus.iter())
                            .map(|&cell| (cell, by_symbol(1)))
                            .chain(implied.minus.iter().map(|&cell| (cell, by_symbol(-1))))
                            .collect();
                        apart_groups(&weighted)
                    },
                    excluded: if implied.in_one_unit {
                        excluded_by(&implied.plus)
                    } else {
                        Vec::new()
                    },
                });
            }
            // Each switch of the rules' sums: a primary item with two options, off and on,
            // that write nothing (the grid decides which one a solution holds).
            let switches: Vec<[OptionId; 2]> = (0..rules.switches())
                .map(|s| {
                    let item = self
                        .problem
                        .add_primary(&format!("switch{}", s + 1))
                        .expect("fresh");
                    let on = self
                        .problem
                        .add_secondary(&format!("switch{}on", s + 1))
                        .expect("fresh");
                    let off = self.problem.add_option(&[item]).expect("an item");
                    let on = self.problem.add_option(&[item, on]).expect("two items");
                    self.writes.push(Vec::new());
                    self.writes.push(Vec::new());
                    [off, on]
                })
                .collect();
            // The sums the other rules imply (arrows, little killers, equal sums...), beside
            // their own encoding. Their values differ where every cell has the same weight,
            // every two of them share a unit and different symbols have different values.
            let mut unweighed = Vec::new();
            // The sums each of whose cells adds its symbol, for their unions below.
            let identity: Vec<i64> = (1..=n as i64).collect();
            let mut plain = Vec::new();
            for (implied, weighed) in rules.sums() {
                // Each cell's value for every symbol, its weights added up.
                let mut values: Vec<(Cell, Vec<i64>)> = Vec::new();
                for (cell, weight) in &implied.terms {
                    let index = match values.iter().position(|(c, _)| c == cell) {
                        Some(index) => index,
                        None => {
                            values.push((*cell, vec![0; n]));
                            values.len() - 1
                        }
                    };
                    for v in 1..=n {
                        values[index].1[v - 1] += weight.of(v as u8);
                    }
                }
                values.retain(|(_, of)| of.iter().any(|&value| value != 0));
                let mut switched: Vec<(usize, i64)> = Vec::new();
                for &(switch, value) in &implied.switches {
                    match switched.iter_mut().find(|(s, _)| *s == switch) {
                        Some((_, total)) => *total += value,
                        None => switched.push((switch, value)),
                    }
                }
                if values.is_empty() && switched.is_empty() {
                    continue;
                }
                let groups = apart_groups(&values);
                let distinct = groups
                    .first()
                    .is_some_and(|group| group.len() == values.len());
                if weighed && switched.is_empty() && values.iter().all(|(_, of)| *of == identity) {
                    plain.push(combined_sums::PlainSum {
                        cells: values.iter().map(|&(cell, _)| cell).collect(),
                        min: implied.min,
                        max: implied.max,
                    });
                }
                let mut terms: Vec<Vec<(OptionId, i64)>> = values
                    .iter()
                    .map(|&((row, col), ref of)| {
                        let cell = row * n + col;
                        (1..=n)
                            .filter_map(|v| Some((options[cell * n + v - 1]?, of[v - 1])))
                            .collect()
                    })
                    .collect();
                terms.extend(
                    switched
                        .iter()
                        .map(|&(s, value)| vec![(switches[s][0], 0), (switches[s][1], value)]),
                );
                let sum = dlx::Sum {
                    terms,
                    min: implied.min,
                    max: implied.max,
                    distinct,
                    apart: if distinct { Vec::new() } else { groups },
                    excluded: Vec::new(),
                };
                if weighed {
                    sums.push(sum);
                } else {
                    unweighed.push(sum);
                }
            }
            // Unions of those sums whose cells see each other across them (`combined_sums.rs`).
            let groups_of = |cells: &[Cell]| -> Vec<Vec<usize>> {
                let terms: Vec<(Cell, Vec<i64>)> =
                    cells.iter().map(|&cell| (cell, identity.clone())).collect();
                apart_groups(&terms)
            };
            for (union, groups) in
                combined_sums::combined_sums(&plain, &groups_of, n, COMBINED_SUMS_MAX)
            {
                let terms = terms_of(&union.cells, 1);
                let distinct = groups.first().is_some_and(|g| g.len() == terms.len());
                sums.push(dlx::Sum {
                    terms,
                    min: union.min,
                    max: union.max,
                    distinct,
                    apart: if distinct { Vec::new() } else { groups },
                    excluded: Vec::new(),
                });
            }
            // A cell with no symbol left: the puzzle has no solution, and the cell's primary
            // item, with no option, says so.
            let has_options = |sum: &dlx::Sum| sum.terms.iter().all(|term| !term.is_empty());
            let valid = "options of the problem, up to n values a term";
            for sum in sums.into_iter().filter(has_options) {
                self.problem.add_sum(sum).expect(valid);
            }
            for sum in unweighed.into_iter().filter(has_options) {
                self.problem.add_sum_checked_at_solutions(sum).expect(valid);
            }
        }
        // The colour of each state of a machine's inner layers (the first, second... state of
        // a layer), as many as the largest layer needs.
        let mut state_colours: Vec<ColorId> = Vec::new();
        // Each clue read along cells: its fillings, or a primary item per step that one move
        // covers (see the module's documentation).
        for (k, (sequence, unrolled)) in sequences.iter().zip(&layers).enumerate() {
            if !encoded[k] {
                continue;
            }
            // The machine over the cells' own options, filtered where the search branches:
            // the options below state it only move by move, so that a symbol no whole path
            // reads would go only once the search chose moves around it.
            if let Some(chain) = chain_of(&sequence.cells, unrolled, &self.cell_options, n) {
                (self.problem)
                    .add_chain(chain)
                    .expect("a term per cell, of its options");
            }
            if chain_only[k] {
                continue;
            }
            // A clue with few fillings: one option per filling, as a cage, holding the items
            // of the symbols its cells do not hold (fillings that break a unit or a pair
            // relation left out).
            if unrolled.fillings(MAX_CLUE_FILLINGS) <= MAX_CLUE_FILLINGS {
                let clue = self
                    .problem
                    .add_primary(&format!("q{}", k + 1))
                    .expect("fresh");
                let mut options = Vec::new();
                unrolled.each_filling(&mut |symbols| {
                    let mut written: Vec<(usize, u8)> = sequence
                        .cells
                        .iter()
                        .map(|&(r, c)| r * n + c)
                        .zip(symbols.iter().copied())
                        .collect();
                    written.sort_unstable();
                    written.dedup();
                    // A cell read twice with two symbols, a symbol its cell may not hold.
                    if written.windows(2).any(|w| w[0].0 == w[1].0)
                        || written
                            .iter()
                            .any(|&(cell, v)| !allowed[cell * n + usize::from(v) - 1])
                    {
                        return;
                    }
                    let mut items = Vec::new();
                    for &(cell, v) in &written {
                        items_of(cell, v, &mut items);
                    }
                    let mut shared: Vec<ItemId> = items
                        .iter()
                        .map(|&(item, _)| item)
                        .filter(|item| !cells.contains(item))
                        .collect();
                    shared.sort_unstable();
                    if shared.windows(2).any(|pair| pair[0] == pair[1]) {
                        return;
                    }
                    let mut option = vec![(clue, None)];
                    for (at, &symbol) in symbols.iter().enumerate() {
                        option.push((
                            position_items[k][at],
                            Some(symbol_colours[usize::from(symbol) - 1]),
                        ));
                    }
                    options.push(option);
                });
                for option in options {
                    self.problem
                        .add_colored_option(&option)
                        .expect("distinct items");
                    self.writes.push(Vec::new());
                }
                continue;
            }
            let m = sequence.cells.len();
            // A secondary item per inner layer of more than one state, coloured by the state: a
            // move gives the layer before it the colour of the state it leaves from, and the
            // layer after it that of the state it goes to. (Until 2026-11-30, an item per state,
            // a move holding the one it leaves from and every other of the next layer but the
            // one it goes to: ISS's "Hazy Rellik" took over 40 s so, about 26 s now.)
            let layer_items: Vec<Option<ItemId>> = (0..=m)
                .map(|at| {
                    (at != 0 && at != m && unrolled.states[at] > 1).then(|| {
                        self.problem
                            .add_secondary(&format!("q{}s{at}", k + 1))
                            .expect("fresh")
                    })
                })
                .collect();
            let most_states = unrolled.states.iter().copied().max().unwrap_or(0);
            while state_colours.len() < most_states {
                let t = state_colours.len();
                state_colours.push(
                    self.problem
                        .add_color(&format!("t{t}"))
                        .expect("a valid name"),
                );
            }
            for (at, &(row, col)) in sequence.cells.iter().enumerate() {
                let cell = row * n + col;
                let step = self
                    .problem
                    .add_primary(&format!("q{}_{}", k + 1, at + 1))
                    .expect("fresh");
                for mv in &unrolled.moves[at] {
                    if !allowed[cell * n + usize::from(mv.symbol) - 1] {
                        continue;
                    }
                    let mut items = vec![
                        (step, None),
                        (
                            position_items[k][at],
                            Some(symbol_colours[usize::from(mv.symbol) - 1]),
                        ),
                    ];
                    for (layer, state) in [(at, mv.from), (at + 1, mv.to)] {
                        if let Some(item) = layer_items[layer] {
                            items.push((item, Some(state_colours[state as usize])));
                        }
                    }
                    self.problem
                        .add_colored_option(&items)
                        .expect("distinct items");
                    self.writes.push(Vec::new());
                }
            }
        }
        Ok(())
    }
}

/// The chain of a clue read along `cells` by the machine unrolled as `layers`: a term per
/// cell, of its options (`cell_options`, per cell and symbol) valued by their symbols, and the
/// layers' moves. `None` where a cell has no option (no solution either way).
fn chain_of(
    cells: &[Cell],
    layers: &Layers,
    cell_options: &[Option<OptionId>],
    n: usize,
) -> Option<dlx::Chain> {
    let terms: Vec<Vec<(OptionId, i64)>> = cells
        .iter()
        .map(|&(row, col)| {
            let cell = row * n + col;
            (1..=n)
                .filter_map(|v| Some((cell_options[cell * n + v - 1]?, v as i64)))
                .collect()
        })
        .collect();
    if terms.iter().any(|term| term.is_empty()) {
        return None;
    }
    let moves = (layers.moves.iter())
        .map(|step| {
            step.iter()
                .map(|m| dlx::Move {
                    from: m.from,
                    value: i64::from(m.symbol),
                    to: m.to,
                })
                .collect()
        })
        .collect();
    Some(dlx::Chain { terms, moves })
}

/// The groups of a sum's terms (each a cell and its value for each symbol, 1 to `n`) whose
/// values must differ: cells that share a unit two by two (`units_of[cell]`, its units), each
/// giving every symbol the same value and different symbols different values, two terms or
/// more a group, no term in two.
///
/// The unit holding the most such terms alike is taken first, then the one holding the most
/// of those left, and so on: the sums' filter bounds a sum by its groups (eight cells of a long
/// arrow in one box add up to 36 at least), so the largest groups bound it best. Taken in the
/// order of the clue, a line that crosses a box along a row and back along another made
/// groups of the row's cells, which let the box's cells repeat symbols in the filter: two of
/// ISS's "Long sums" arrows took over 20 seconds instead of milliseconds (`docs/sums.md`).
/// It ends where no unit holds two of the terms left with the same values: none of those
/// sees another, and they stay out of every group.
fn apart_groups(terms: &[(Cell, Vec<i64>)], units_of: &[Vec<usize>], n: usize) -> Vec<Vec<usize>> {
    let units = |(row, col): Cell| &units_of[row * n + col];
    let one_to_one = |values: &[i64]| {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        sorted.windows(2).all(|pair| pair[0] != pair[1])
    };
    let mut left: Vec<usize> = (0..terms.len())
        .filter(|&t| one_to_one(&terms[t].1))
        .collect();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    loop {
        // The largest group of terms left that one unit holds, with the same values.
        let mut best: Vec<usize> = Vec::new();
        for &t in &left {
            let (cell, values) = &terms[t];
            for &u in units(*cell) {
                let members: Vec<usize> = (left.iter().copied())
                    .filter(|&o| terms[o].1 == *values && units(terms[o].0).contains(&u))
                    .collect();
                if members.len() > best.len() {
                    best = members;
                }
            }
        }
        if best.len() < 2 {
            break;
        }
        left.retain(|t| !best.contains(t));
        groups.push(best);
    }
    groups
}

/// Whether a clue's cells name some cell twice.
fn reads_a_cell_twice(cells: &[Cell]) -> bool {
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).any(|pair| pair[0] == pair[1])
}

/// `allowed` (whether each cell may hold each symbol, `allowed[cell * n + v - 1]`) less every
/// symbol that a pair relation leaves without a partner: a symbol of one cell of a pair that
/// no symbol still allowed in the other cell goes with, until none is left (on 9x9 a whisper
/// cell never holds 5, a thermometer's bulb never more than the side less its length, plus
/// one). Such a symbol is in no solution, so its option is left out: the search need not
/// find that out at every node.
fn supported(n: usize, pairs: &[(Cell, Cell, Neighbour)], mut allowed: Vec<bool>) -> Vec<bool> {
    let index = |(row, col): Cell, v: u8| (row * n + col) * n + usize::from(v) - 1;
    let mut changed = true;
    while changed {
        changed = false;
        // Different symbols and not consecutive ones always have partners (but on a grid of
        // side 2 or less): only lines and dots are looked at, which keeps large grids quick.
        let lines_and_dots = pairs.iter().filter(|(_, _, relation)| {
            !matches!(relation, Neighbour::Different | Neighbour::NotConsecutive)
        });
        for &(a, b, relation) in lines_and_dots {
            for v in 1..=n as u8 {
                let partner_of_a =
                    |v: u8| (1..=n as u8).any(|w| allowed[index(b, w)] && !relation.forbids(v, w));
                if allowed[index(a, v)] && !partner_of_a(v) {
                    allowed[index(a, v)] = false;
                    changed = true;
                }
                let partner_of_b =
                    |w: u8| (1..=n as u8).any(|v| allowed[index(a, v)] && !relation.forbids(v, w));
                if allowed[index(b, v)] && !partner_of_b(v) {
                    allowed[index(b, v)] = false;
                    changed = true;
                }
            }
        }
    }
    allowed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The units of each cell of a 9x9 grid: its row, its column (9 on) and its box (18 on).
    fn units_9x9() -> Vec<Vec<usize>> {
        (0..81)
            .map(|cell| {
                let (row, col) = (cell / 9, cell % 9);
                vec![row, 9 + col, 18 + row / 3 * 3 + col / 3]
            })
            .collect()
    }

    #[test]
    fn apart_groups_take_the_unit_holding_most_terms_first() {
        // A shaft from r1c4 along row 1 into box 1, then back along row 2: in the clue's
        // order row 1 (four cells) and row 2 (three) would be the groups; box 1 holds six.
        let path: Vec<Cell> = vec![(0, 3), (0, 2), (0, 1), (0, 0), (1, 0), (1, 1), (1, 2)];
        let digits: Vec<i64> = (1..=9).collect();
        let terms: Vec<(Cell, Vec<i64>)> = path.iter().map(|&c| (c, digits.clone())).collect();
        let groups = apart_groups(&terms, &units_9x9(), 9);
        assert_eq!(groups, vec![vec![1, 2, 3, 4, 5, 6]]);
        // Terms valued otherwise (a pill's tens) are not grouped with the shaft's.
        let mut mixed = terms.clone();
        mixed[1].1 = digits.iter().map(|d| -10 * d).collect();
        let groups = apart_groups(&mixed, &units_9x9(), 9);
        assert_eq!(groups, vec![vec![2, 3, 4, 5, 6]]);
        // A term whose values repeat (a weight that sends two symbols to one value) is never
        // in a group.
        let mut flat = terms;
        flat[2].1 = vec![1; 9];
        let groups = apart_groups(&flat, &units_9x9(), 9);
        assert_eq!(groups, vec![vec![1, 3, 4, 5, 6]]);
    }
}
