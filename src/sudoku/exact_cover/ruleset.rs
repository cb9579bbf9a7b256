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
//!   two cells may not           pP_X_Y per related pair P        every pP_X_Y whose first
//!     hold X and Y                and forbidden symbols            cell is (I, J) with X = V,
//!     (anti-knight, anti-king,    (secondary: at most one of       or second cell with Y = V
//!     non-consecutive, lines,     the two options)
//!     dots, XV)
//! ```
//!
//! A symbol a cell's pencilmarks rule out has no option, nor one that a line or a dot leaves
//! without a partner in the other cell of a pair (no 5 on a whisper on 9x9): those are in no
//! solution, and leaving them out spares the search from finding that out at every node.
//!
//! A killer cage is not one more item but another kind of option: the cells of a cage have
//! no options of their own; instead each way of writing different symbols with the cage's sum
//! into its cells is one option, holding for every cell of the cage what that cell's own
//! option would hold (its cell item, its units' items, its neighbour items). The sum and the
//! no-repeat rule hold by construction, and choosing a cage's option fills the whole cage at
//! once, so the engine needs no arithmetic and no colours. Fillings that break a neighbour
//! rule inside the cage, or a given in it, are left out.
//!
//! A clue read along cells (an arrow, a sum, a sandwich; see
//! [`crate::sudoku::rules::sequences`]) is read by a machine, unrolled into layers of states.
//! Each position of such a clue has a secondary item per symbol: a cell's option for symbol v
//! holds item v of every position that reads the cell, and an option of the clue that reads
//! d there holds the items of every other symbol, so that the two agree or exclude each other
//! (what colours would say, but colours turn the engine's inference off). A clue with at most
//! [`MAX_CLUE_FILLINGS`] fillings is one primary item and an option per filling (fillings
//! that put equal symbols in a unit or break a pair relation are left out); a larger one is a
//! primary item per step and an option per move of its machine, with a secondary item per
//! state of each inner layer of several states: a move holds the item of the state it leaves
//! from and the items of every other state than the one it goes to. What a clue allows of
//! every two of its cells is added as pairs (`Layers::pair_tables`), which the search sees at
//! once.
//!
//! Options are numbered in the order cells and cages are listed; [`VariantEncoding::grid_of`]
//! decodes them through a table of what each writes.

use crate::dlx::{self, ColorId, ItemId, Matrix, OptionId, Problem, Solver, Stats};

use crate::sudoku::rules::sequences::Layers;
use crate::sudoku::rules::{Cell, Neighbour, RulesError, cell_name};
use crate::sudoku::variant::Puzzle;

/// How many cage options one puzzle may have: a cage of 9 cells summing to 45 alone has
/// 9! = 362,880 ways; the limit keeps a strange file from filling memory.
pub const MAX_CAGE_OPTIONS: usize = 2_000_000;

/// How many nodes (an option's items, added up) the cage options of one puzzle may have: the
/// memory they take is about 60 bytes a node, so this keeps a puzzle's encoding under about
/// 250 MB. A 9-cell cage summing to 45 in a 9x9 (362,880 fillings of 36 items each, 13
/// million nodes) is over it; a cage that large says nothing its units do not.
pub const MAX_CAGE_NODES: usize = 4_000_000;

/// The most fillings a clue read along cells (an arrow, a sum) may have to be encoded as one
/// option per filling, as a cage is; past it, as one option per step of its machine.
const MAX_CLUE_FILLINGS: usize = 3000;

/// Fillings built between two looks at the stop condition.
const STOP_EVERY: usize = 4096;

/// The exact-cover problem of one variant puzzle (its rules, and the givens in its cages),
/// compiled.
#[derive(Debug, Clone)]
pub struct VariantEncoding {
    size: usize,
    matrix: Matrix,
    /// What each option writes: (cell index row * N + col, symbol) pairs.
    writes: Vec<Vec<(usize, u8)>>,
    /// The option of each symbol in each cell outside the cages: `cell_options[cell * N + V -
    /// 1]`.
    cell_options: Vec<Option<OptionId>>,
    /// Whether each cell is in a cage (its givens are built into the cage's options).
    caged: Vec<bool>,
}

impl VariantEncoding {
    /// Builds the problem of `puzzle`'s rules (which [`super::Rules::validate`] must accept);
    /// the givens inside cages are built in, the others are chosen by
    /// [`VariantEncoding::solver`].
    pub fn new(puzzle: &Puzzle) -> Result<VariantEncoding, RulesError> {
        VariantEncoding::new_until(puzzle, &|| false)
    }

    /// [`VariantEncoding::new`], stopped with [`RulesError::Stopped`] as soon as `stop` says
    /// so (it is asked every few thousand cage fillings): a deadline or a cancellation flag
    /// reaches the building of large cages, which can take seconds. Before any cage option
    /// is made, an upper bound of their number (from the cages' sizes, sums and givens) is
    /// checked against [`MAX_CAGE_OPTIONS`] and [`MAX_CAGE_NODES`], so that a puzzle over
    /// them is refused at once, without filling memory first.
    pub fn new_until(
        puzzle: &Puzzle,
        stop: &dyn Fn() -> bool,
    ) -> Result<VariantEncoding, RulesError> {
        puzzle.rules.validate()?;
        check_cage_bound(puzzle)?;
        let n = puzzle.rules.size;
        let mut builder = Builder {
            problem: Problem::new(),
            writes: Vec::new(),
            cell_options: vec![None; n * n * n],
            stop,
        };
        builder.build(puzzle)?;
        let matrix = Matrix::new(builder.problem).expect("the cells are primary items");
        let mut caged = vec![false; n * n];
        for cage in puzzle.rules.cages() {
            for &(row, col) in &cage.cells {
                caged[row * n + col] = true;
            }
        }
        Ok(VariantEncoding {
            size: n,
            matrix,
            writes: builder.writes,
            cell_options: builder.cell_options,
            caged,
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

    /// A solver with the puzzle's givens outside cages chosen; `None` when they leave no
    /// solution at once.
    pub fn solver(&self, puzzle: &Puzzle) -> Option<Solver<'_>> {
        let mut solver = self.matrix.solver();
        let n = self.size;
        for (cell, &value) in puzzle.givens.iter().enumerate() {
            if value == 0 || self.caged[cell] {
                continue;
            }
            // A given its cell's pencilmarks rule out has no option: no solution.
            let option = self.cell_options[cell * n + usize::from(value) - 1]?;
            solver.choose(option).ok()?;
        }
        Some(solver)
    }

    /// The grid (row by row, symbols from 1) that a solution's options fill in, givens
    /// included.
    pub fn grid_of(&self, options: impl IntoIterator<Item = OptionId>) -> Vec<u8> {
        let mut grid = vec![0; self.size * self.size];
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
        for option in full.options() {
            let agrees = self.writes[option.0 as usize]
                .iter()
                .all(|&(cell, value)| puzzle.givens[cell] == 0 || puzzle.givens[cell] == value);
            if agrees {
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
        let problem = &mut self.problem;
        let cells: Vec<ItemId> = (0..n * n)
            .map(|i| {
                problem
                    .add_primary(&cell_name((i / n, i % n)))
                    .expect("fresh")
            })
            .collect();
        // unit_items[u][V - 1]; units_of[cell]: the units of each cell.
        let units = rules.units();
        let mut units_of: Vec<Vec<usize>> = vec![Vec::new(); n * n];
        let mut unit_items = Vec::with_capacity(units.len());
        for (u, unit) in units.iter().enumerate() {
            let items: Vec<ItemId> = (1..=n)
                .map(|v| {
                    problem
                        .add_primary(&format!("{}v{v}", unit.tag))
                        .expect("fresh")
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
        let sequences = rules.sequences();
        let mut layers: Vec<Layers> = Vec::with_capacity(sequences.len());
        for sequence in &sequences {
            let unrolled = sequence.layers(
                |at| {
                    let (row, col) = sequence.cells[at];
                    let cell = row * n + col;
                    (1..=n)
                        .filter(|&v| allowed[cell * n + v - 1])
                        .fold(0, |bits, v| bits | 1 << v)
                },
                self.stop,
            )?;
            layers.push(unrolled);
        }
        for (sequence, unrolled) in sequences.iter().zip(&layers) {
            let mut held = vec![0u128; n * n];
            let mut seen = vec![false; n * n];
            for (at, &(row, col)) in sequence.cells.iter().enumerate() {
                let cell = row * n + col;
                let bits = unrolled.supported(at);
                held[cell] = if seen[cell] { held[cell] & bits } else { bits };
                seen[cell] = true;
            }
            for cell in (0..n * n).filter(|&cell| seen[cell]) {
                for v in 1..=n {
                    if held[cell] & (1 << v) == 0 {
                        allowed[cell * n + v - 1] = false;
                    }
                }
            }
        }
        // What each clue read along cells says of every two of its cells, as pairs: the
        // search sees at once what a symbol in one cell leaves the others, as it does for a
        // line or a dot (see `Layers::pair_tables`).
        for (sequence, unrolled) in sequences.iter().zip(&layers) {
            for (i, j, table) in unrolled.pair_tables(n) {
                let (a, b) = (sequence.cells[i], sequence.cells[j]);
                if a != b {
                    pairs.push((a, b, Neighbour::Allowed(table)));
                }
            }
        }
        let allowed = supported(n, &pairs, allowed);
        // The secondary items of neighbour pairs: each cell's (symbol, item) list.
        let mut forbidden: Vec<Vec<(u8, ItemId)>> = vec![Vec::new(); n * n];
        for (p, &(a, b, rule)) in pairs.iter().enumerate() {
            for x in 1..=n as u8 {
                for y in 1..=n as u8 {
                    if rule.forbids(x, y) {
                        let name = format!("p{}_{x}_{y}", p + 1);
                        let item = problem.add_secondary(&name).expect("fresh");
                        forbidden[a.0 * n + a.1].push((x, item));
                        forbidden[b.0 * n + b.1].push((y, item));
                    }
                }
            }
        }
        // What each position of each clue read along cells reads, as items rather than
        // colours (the engine's inference stays on without colours): a secondary item per
        // position and symbol; a cell's option for symbol v holds item v of every position
        // that reads the cell, and an option of the clue that reads d there holds the items of
        // every other symbol, so that the two agree or exclude each other.
        let mut reads_of: Vec<Vec<Vec<ItemId>>> = vec![Vec::new(); n * n];
        let mut position_items: Vec<Vec<Vec<ItemId>>> = Vec::with_capacity(sequences.len());
        for (k, sequence) in sequences.iter().enumerate() {
            let mut positions = Vec::with_capacity(sequence.cells.len());
            for (at, &(row, col)) in sequence.cells.iter().enumerate() {
                let items: Vec<ItemId> = (1..=n)
                    .map(|v| {
                        self.problem
                            .add_secondary(&format!("q{}c{}v{v}", k + 1, at + 1))
                            .expect("fresh")
                    })
                    .collect();
                reads_of[row * n + col].push(items.clone());
                positions.push(items);
            }
            position_items.push(positions);
        }
        let problem = &mut self.problem;
        // The items of symbol `v` in `cell`, added to `items`.
        let items_of = |cell: usize, v: u8, items: &mut Vec<(ItemId, Option<ColorId>)>| {
            items.push((cells[cell], None));
            for &u in &units_of[cell] {
                items.push((unit_items[u][usize::from(v) - 1], None));
            }
            for &(x, item) in &forbidden[cell] {
                if x == v {
                    items.push((item, None));
                }
            }
            for position in &reads_of[cell] {
                items.push((position[usize::from(v) - 1], None));
            }
        };
        let mut caged = vec![false; n * n];
        for cage in rules.cages() {
            for &(row, col) in &cage.cells {
                caged[row * n + col] = true;
            }
        }
        let mut items = Vec::new();
        for cell in (0..n * n).filter(|&cell| !caged[cell]) {
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
        if rules.cages().is_empty() {
            // Each unit's cells and its symbols are matched one to one, and each symbol's
            // rows and its columns (a cage's options fill several cells of a unit at once,
            // so with cages they are not). The units open with the rows, the columns and the
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
        }
        let mut cage_options = 0usize;
        let mut cage_nodes = 0usize;
        let mut tried = 0usize;
        let stop = self.stop;
        for (k, cage) in rules.cages().iter().enumerate() {
            let cage_cells: Vec<usize> = cage.cells.iter().map(|&(r, c)| r * n + c).collect();
            let mut written = Vec::with_capacity(cage_cells.len());
            let mut too_many = false;
            let mut stopped = false;
            each_filling(
                n as u8,
                cage_cells.len(),
                cage.sum,
                &mut written,
                &mut |values| {
                    tried += 1;
                    if tried.is_multiple_of(STOP_EVERY) && stop() {
                        stopped = true;
                        return false;
                    }
                    let agrees = cage_cells.iter().zip(values).all(|(&cell, &v)| {
                        (puzzle.givens[cell] == 0 || puzzle.givens[cell] == v)
                            && allowed[cell * n + usize::from(v) - 1]
                    });
                    if !agrees {
                        return true;
                    }
                    items.clear();
                    for (&cell, &v) in cage_cells.iter().zip(values) {
                        items_of(cell, v, &mut items);
                    }
                    // Two cells of the cage that a neighbour rule relates share an item when
                    // their symbols break it: such a filling is no solution of the cage.
                    let mut sorted: Vec<ItemId> = items.iter().map(|&(item, _)| item).collect();
                    sorted.sort_unstable();
                    if sorted.windows(2).any(|pair| pair[0] == pair[1]) {
                        return true;
                    }
                    cage_options += 1;
                    cage_nodes += items.len();
                    if cage_options > MAX_CAGE_OPTIONS || cage_nodes > MAX_CAGE_NODES {
                        too_many = true;
                        return false;
                    }
                    self.problem
                        .add_colored_option(&items)
                        .expect("distinct items");
                    self.writes.push(
                        cage_cells
                            .iter()
                            .copied()
                            .zip(values.iter().copied())
                            .collect(),
                    );
                    true
                },
            );
            if stopped {
                return Err(RulesError::Stopped);
            }
            if too_many {
                return Err(too_many_fillings(k + 1));
            }
        }
        // Each clue read along cells: its fillings, or a primary item per step that one move
        // covers (see the module's documentation).
        for (k, (sequence, unrolled)) in sequences.iter().zip(&layers).enumerate() {
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
                        option.extend(
                            (1..=n as u8)
                                .filter(|&w| w != symbol)
                                .map(|w| (position_items[k][at][usize::from(w) - 1], None)),
                        );
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
            // A secondary item per state of each layer of more than one state: a move holds
            // the item of the state it leaves from, and the items of every state of the next
            // layer but the one it goes to.
            let state_items: Vec<Vec<ItemId>> = (0..=m)
                .map(|at| {
                    if at == 0 || at == m || unrolled.states[at] <= 1 {
                        return Vec::new();
                    }
                    (0..unrolled.states[at])
                        .map(|t| {
                            self.problem
                                .add_secondary(&format!("q{}s{at}_{t}", k + 1))
                                .expect("fresh")
                        })
                        .collect()
                })
                .collect();
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
                    let mut items = vec![(step, None)];
                    items.extend(
                        (1..=n as u8)
                            .filter(|&w| w != mv.symbol)
                            .map(|w| (position_items[k][at][usize::from(w) - 1], None)),
                    );
                    if let Some(&item) = state_items[at].get(mv.from as usize) {
                        items.push((item, None));
                    }
                    items.extend(
                        state_items[at + 1]
                            .iter()
                            .enumerate()
                            .filter(|&(t, _)| t != mv.to as usize)
                            .map(|(_, &item)| (item, None)),
                    );
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

fn too_many_fillings(cage: usize) -> RulesError {
    RulesError::CageSum(
        cage,
        format!(
            "the cages can be filled in too many ways to encode (more than {MAX_CAGE_OPTIONS} \
             fillings or {MAX_CAGE_NODES} items in all); smaller cages or more givens, please"
        ),
    )
}

/// Refuses, before anything is built, a puzzle whose cages could have more fillings than
/// [`MAX_CAGE_OPTIONS`] or take more than [`MAX_CAGE_NODES`]: for each cage, the sets of
/// different symbols (other than its givens') that make the rest of its sum, times the orders
/// they can be written in. An upper bound: neighbour rules may leave out more.
fn check_cage_bound(puzzle: &Puzzle) -> Result<(), RulesError> {
    let rules = &puzzle.rules;
    let n = rules.size;
    let units = rules.units();
    let mut units_of = vec![0usize; n * n];
    for unit in &units {
        for &(row, col) in &unit.cells {
            units_of[row * n + col] += 1;
        }
    }
    let (mut options, mut nodes) = (0u128, 0u128);
    for (k, cage) in rules.cages().iter().enumerate() {
        let cells: Vec<usize> = cage.cells.iter().map(|&(r, c)| r * n + c).collect();
        let given: Vec<u8> = cells
            .iter()
            .map(|&cell| puzzle.givens.get(cell).copied().unwrap_or(0))
            .filter(|&v| v != 0)
            .collect();
        let given_sum: u32 = given.iter().map(|&v| u32::from(v)).sum();
        let Some(left) = cage.sum.checked_sub(given_sum) else {
            continue; // no filling at all
        };
        let free = cells.len() - given.len();
        let fillings = subsets_with_sum(n, &given, free, left as usize)
            .saturating_mul((1..=free as u128).product());
        let per_option: usize = cells.iter().map(|&cell| 1 + units_of[cell]).sum();
        options = options.saturating_add(fillings);
        nodes = nodes.saturating_add(fillings.saturating_mul(per_option as u128));
        if options > MAX_CAGE_OPTIONS as u128 || nodes > MAX_CAGE_NODES as u128 {
            return Err(too_many_fillings(k + 1));
        }
    }
    Ok(())
}

/// The number of sets of `size` different symbols from 1 to `n`, none of them in `taken`,
/// that add up to `sum` (dynamic programming over the symbols, at most 64 x 64 x 2080 steps).
fn subsets_with_sum(n: usize, taken: &[u8], size: usize, sum: usize) -> u128 {
    let max_sum = n * (n + 1) / 2;
    if size > n || sum > max_sum {
        return 0;
    }
    // ways[k][s]: sets of k symbols seen so far adding up to s.
    let mut ways = vec![vec![0u128; sum + 1]; size + 1];
    ways[0][0] = 1;
    for v in (1..=n).filter(|&v| !taken.contains(&(v as u8))) {
        for k in (1..=size).rev() {
            for s in (v..=sum).rev() {
                let add = ways[k - 1][s - v];
                ways[k][s] = ways[k][s].saturating_add(add);
            }
        }
    }
    ways[size][sum]
}

/// Calls `visit` with every way of writing `cells` different symbols from 1 to `n` that add
/// up to `sum`, in lexicographic order, until it returns false.
fn each_filling(
    n: u8,
    cells: usize,
    sum: u32,
    written: &mut Vec<u8>,
    visit: &mut dyn FnMut(&[u8]) -> bool,
) -> bool {
    let so_far: u32 = written.iter().map(|&v| u32::from(v)).sum();
    if written.len() == cells {
        return so_far != sum || visit(written);
    }
    let left = cells - written.len() - 1;
    for v in 1..=n {
        if written.contains(&v) {
            continue;
        }
        let total = so_far + u32::from(v);
        // The other cells add at least 1 + 2 + ... + left.
        if total + (left * (left + 1) / 2) as u32 > sum {
            break;
        }
        written.push(v);
        let go_on = each_filling(n, cells, sum, written, visit);
        written.pop();
        if !go_on {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod bound_tests {
    use super::subsets_with_sum;

    /// Against brute force over every subset of the symbols.
    #[test]
    fn subsets_with_sum_counts_what_brute_force_counts() {
        for n in [4usize, 6, 9] {
            let taken: &[u8] = if n == 9 { &[3, 7] } else { &[] };
            for size in 0..=n {
                for sum in 0..=n * (n + 1) / 2 {
                    let brute = (0u32..1 << n)
                        .filter(|mask| mask.count_ones() as usize == size)
                        .filter(|mask| taken.iter().all(|&t| mask & (1 << (t - 1)) == 0))
                        .filter(|mask| {
                            (1..=n)
                                .filter(|v| mask & (1 << (v - 1)) != 0)
                                .sum::<usize>()
                                == sum
                        })
                        .count() as u128;
                    assert_eq!(
                        subsets_with_sum(n, taken, size, sum),
                        brute,
                        "{n} {size} {sum}"
                    );
                }
            }
        }
    }
}
