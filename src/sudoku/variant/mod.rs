//! Sudoku variants: the same grid with more rules, solved by the same engine.
//!
//! A variant is a set of [`Rules`] on an N x N grid: rows and columns always; boxes of any
//! shape, or irregular regions (jigsaw); the two main diagonals (X); the windows of Windoku;
//! cells a knight's move or a king's diagonal step apart that differ (anti-knight, anti-king);
//! orthogonal neighbours that never differ by one (non-consecutive); and killer cages whose
//! digits differ and add up to a sum. Rules combine freely (an X-jigsaw, a killer with
//! anti-knight).
//!
//! The layers follow the classic Sudoku's: this module holds the model, plain data that knows
//! the rules and checks a puzzle's structure ([`Rules::validate`], [`Puzzle::clashes`]);
//! [`text`] reads and writes the files people write by hand; [`VariantEncoding`] turns a
//! puzzle into exact cover and back (how each rule is encoded is said there); [`check`] judges
//! a filled grid by the rules directly, sharing no code with the encoding; [`backtrack`] is a
//! second solver, plain backtracking, that checks the engine's answers; [`generate`] (feature
//! `generate`) makes new unique, minimal puzzles.

pub mod backtrack;
pub mod check;
mod encode;
#[cfg(feature = "generate")]
pub mod generate;
pub mod text;

use std::fmt;

pub use encode::VariantEncoding;

use super::BoxShape;

/// The largest side of a variant grid, as of a plain one. Up to side 25 a grid row may be
/// written one character a cell (1-9, then A-P); any row may be written as numbers separated
/// by spaces, and rows of larger sides are.
pub const MAX_VARIANT_SIZE: usize = crate::sudoku::MAX_SIZE;

/// A cell as row and column, from 0.
pub type Cell = (usize, usize);

/// Writes a cell as people do, `r1c1` for the top-left.
pub fn cell_name((row, col): Cell) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

/// A killer cage: its cells hold different digits that add up to `sum`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cage {
    pub sum: u32,
    pub cells: Vec<Cell>,
}

/// The rules of a variant: every cell holds one symbol from 1 to `size`, and every row and
/// column holds each once; then each rule present adds its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    pub size: usize,
    /// Boxes of this shape hold each symbol once.
    pub boxes: Option<BoxShape>,
    /// Irregular regions (jigsaw): the region of each cell, row by row, from 0; each of the
    /// `size` regions holds each symbol once.
    pub regions: Option<Vec<u8>>,
    /// Both main diagonals hold each symbol once (X-Sudoku).
    pub diagonals: bool,
    /// The windows of Windoku hold each symbol once: with square boxes of side k, the k x k
    /// squares whose top-left corners are one cell in from each box corner (on 9x9, r2c2,
    /// r2c6, r6c2 and r6c6).
    pub windows: bool,
    /// Two cells a knight's move apart never hold the same symbol.
    pub anti_knight: bool,
    /// Two cells diagonally touching never hold the same symbol.
    pub anti_king: bool,
    /// Two orthogonally adjacent cells never hold consecutive symbols.
    pub non_consecutive: bool,
    /// Killer cages, disjoint.
    pub cages: Vec<Cage>,
}

/// The names of the rules in files, in the order they are written.
pub const RULE_NAMES: [&str; 10] = [
    "rows",
    "columns",
    "boxes",
    "regions",
    "diagonals",
    "windows",
    "anti-knight",
    "anti-king",
    "non-consecutive",
    "cages",
];

/// Why a variant's structure is not valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// A side outside 1..=[`MAX_VARIANT_SIZE`], or boxes that do not tile it.
    BadSize(String),
    /// Windows need square boxes.
    WindowsNeedSquareBoxes,
    /// A region with the wrong number of cells (region letter, cells it has).
    RegionSize(String, usize),
    /// A region whose cells are not connected (region letter).
    RegionNotConnected(String),
    /// A cage cell outside the grid (cage number from 1, cell).
    CageCellOutside(usize, Cell),
    /// A cell in two cages (cage number from 1, cell).
    CageOverlap(usize, Cell),
    /// A cage whose sum no distinct symbols can make (cage number from 1, why).
    CageSum(usize, String),
    /// The encoding was stopped before it was built (a deadline or a cancellation).
    Stopped,
}

impl RulesError {
    /// The cells of the grid the error is about (row, column from 0): a cell in two cages;
    /// none for the others, which are about a whole region, cage or grid, or a cell outside
    /// it.
    pub fn cells(&self) -> Vec<Cell> {
        match self {
            RulesError::CageOverlap(_, cell) => vec![*cell],
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::BadSize(why) => write!(f, "{why}"),
            RulesError::WindowsNeedSquareBoxes => {
                write!(
                    f,
                    "windows need square boxes (a side that is a square: 4, 9, 16, 25)"
                )
            }
            RulesError::RegionSize(region, cells) => {
                write!(f, "region {region} has {cells} cells")
            }
            RulesError::RegionNotConnected(region) => {
                write!(f, "region {region} is not connected")
            }
            RulesError::CageCellOutside(cage, (row, col)) => {
                write!(
                    f,
                    "cage {cage}: r{}c{} is outside the grid",
                    row + 1,
                    col + 1
                )
            }
            RulesError::CageOverlap(cage, cell) => {
                write!(
                    f,
                    "cage {cage}: {} is already in another cage",
                    cell_name(*cell)
                )
            }
            RulesError::CageSum(cage, why) => write!(f, "cage {cage}: {why}"),
            RulesError::Stopped => write!(f, "stopped while the cages' options were built"),
        }
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// Plain Sudoku rules with boxes of `shape`.
    pub fn classic(shape: BoxShape) -> Rules {
        Rules {
            boxes: Some(shape),
            ..Rules::latin(shape.size())
        }
    }

    /// Rows and columns only (a Latin square of side `size`).
    pub fn latin(size: usize) -> Rules {
        Rules {
            size,
            boxes: None,
            regions: None,
            diagonals: false,
            windows: false,
            anti_knight: false,
            anti_king: false,
            non_consecutive: false,
            cages: Vec::new(),
        }
    }

    /// The names of the rules present, as files write them.
    pub fn names(&self) -> Vec<&'static str> {
        let present = [
            true,
            true,
            self.boxes.is_some(),
            self.regions.is_some(),
            self.diagonals,
            self.windows,
            self.anti_knight,
            self.anti_king,
            self.non_consecutive,
            !self.cages.is_empty(),
        ];
        RULE_NAMES
            .iter()
            .zip(present)
            .filter(|(_, present)| *present)
            .map(|(name, _)| *name)
            .collect()
    }

    /// Checks the structure: sizes, regions (each of `size` connected cells), windows (square
    /// boxes), cages (inside the grid, disjoint, with a sum their cells can make).
    pub fn validate(&self) -> Result<(), RulesError> {
        let n = self.size;
        if n == 0 || n > MAX_VARIANT_SIZE {
            return Err(RulesError::BadSize(format!(
                "the side must be from 1 to {MAX_VARIANT_SIZE}, found {n}"
            )));
        }
        if let Some(shape) = self.boxes
            && shape.size() != n
        {
            return Err(RulesError::BadSize(format!(
                "boxes of {shape} do not tile a grid of side {n}"
            )));
        }
        if self.windows && self.window_side().is_none() {
            return Err(RulesError::WindowsNeedSquareBoxes);
        }
        if let Some(regions) = &self.regions {
            if regions.len() != n * n || regions.iter().any(|&r| usize::from(r) >= n) {
                return Err(RulesError::BadSize(format!(
                    "the region map must give each of the {} cells one of {n} regions",
                    n * n
                )));
            }
            for region in 0..n {
                let cells: Vec<usize> = (0..n * n)
                    .filter(|&i| usize::from(regions[i]) == region)
                    .collect();
                if cells.len() != n {
                    return Err(RulesError::RegionSize(region_name(region), cells.len()));
                }
                if !connected(n, &cells) {
                    return Err(RulesError::RegionNotConnected(region_name(region)));
                }
            }
        }
        let mut caged = vec![false; n * n];
        for (k, cage) in self.cages.iter().enumerate() {
            for &(row, col) in &cage.cells {
                if row >= n || col >= n {
                    return Err(RulesError::CageCellOutside(k + 1, (row, col)));
                }
                if std::mem::replace(&mut caged[row * n + col], true) {
                    return Err(RulesError::CageOverlap(k + 1, (row, col)));
                }
            }
            let cells = cage.cells.len();
            if cells == 0 || cells > n {
                return Err(RulesError::CageSum(
                    k + 1,
                    format!("a cage holds 1 to {n} cells, this one {cells}"),
                ));
            }
            // The smallest and largest sums of `cells` distinct symbols; every sum between
            // them can be made.
            let least = (cells * (cells + 1) / 2) as u32;
            let most = (cells * (2 * n + 1 - cells) / 2) as u32;
            if !(least..=most).contains(&cage.sum) {
                return Err(RulesError::CageSum(
                    k + 1,
                    format!(
                        "{cells} different symbols add up to {least} to {most}, not {}",
                        cage.sum
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The side of the windows: the side of square boxes.
    fn window_side(&self) -> Option<usize> {
        let shape = self.boxes?;
        (shape.box_rows() == shape.box_cols() && shape.box_rows() >= 2).then(|| shape.box_rows())
    }

    /// The units (sets of `size` cells that hold each symbol once): rows, columns, boxes,
    /// regions, diagonals, windows.
    pub fn units(&self) -> Vec<Unit> {
        let n = self.size;
        let mut units = Vec::new();
        let mut add = |tag: String, name: String, cells: Vec<Cell>| {
            units.push(Unit { tag, name, cells });
        };
        for row in 0..n {
            let cells = (0..n).map(|c| (row, c)).collect();
            add(format!("r{}", row + 1), format!("row {}", row + 1), cells);
        }
        for col in 0..n {
            let cells = (0..n).map(|r| (r, col)).collect();
            add(
                format!("c{}", col + 1),
                format!("column {}", col + 1),
                cells,
            );
        }
        if let Some(shape) = self.boxes {
            for b in 0..n {
                let cells = all_cells(n)
                    .filter(|&(r, c)| shape.box_of(r, c) == b)
                    .collect();
                add(format!("b{}", b + 1), format!("box {}", b + 1), cells);
            }
        }
        if let Some(regions) = &self.regions {
            for region in 0..n {
                let cells = all_cells(n)
                    .filter(|&(r, c)| usize::from(regions[r * n + c]) == region)
                    .collect();
                let letter = region_letter(region);
                add(format!("g{letter}"), format!("region {letter}"), cells);
            }
        }
        if self.diagonals {
            let main = (0..n).map(|i| (i, i)).collect();
            add("d1".into(), "the main diagonal".into(), main);
            let anti = (0..n).map(|i| (i, n - 1 - i)).collect();
            add("d2".into(), "the anti-diagonal".into(), anti);
        }
        if self.windows
            && let Some(k) = self.window_side()
        {
            let corners = || (1..n).step_by(k + 1).take(k - 1);
            for (w, (top, left)) in corners()
                .flat_map(|top| corners().map(move |left| (top, left)))
                .enumerate()
            {
                let cells = (top..top + k)
                    .flat_map(|r| (left..left + k).map(move |c| (r, c)))
                    .collect();
                let name = format!("the window at {}", cell_name((top, left)));
                add(format!("w{}", w + 1), name, cells);
            }
        }
        units
    }

    /// The pairs of cells that the neighbour rules relate, each once (first cell first in
    /// reading order), with the rule: cells a knight's move apart, diagonal neighbours (that
    /// must differ) and orthogonal neighbours (that must not be consecutive).
    pub fn neighbour_pairs(&self) -> Vec<(Cell, Cell, Neighbour)> {
        let n = self.size as isize;
        let mut pairs = Vec::new();
        let mut add = |steps: &[(isize, isize)], rule: Neighbour| {
            for (r, c) in all_cells(self.size) {
                for &(dr, dc) in steps {
                    let (r2, c2) = (r as isize + dr, c as isize + dc);
                    if (0..n).contains(&r2) && (0..n).contains(&c2) {
                        pairs.push(((r, c), (r2 as usize, c2 as usize), rule));
                    }
                }
            }
        };
        // Steps that go forward in reading order, so that each pair comes once.
        if self.anti_knight {
            add(&[(1, -2), (1, 2), (2, -1), (2, 1)], Neighbour::Different);
        }
        if self.anti_king {
            add(&[(1, -1), (1, 1)], Neighbour::Different);
        }
        if self.non_consecutive {
            add(&[(0, 1), (1, 0)], Neighbour::NotConsecutive);
        }
        pairs
    }
}

/// A set of cells that holds each symbol once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// A short tag for item names: `r1`, `c1`, `b1`, `gA`, `d1`, `d2`, `w1`.
    pub tag: String,
    /// What people call it, for messages: `row 1`, `region A`, `the main diagonal`.
    pub name: String,
    pub cells: Vec<Cell>,
}

/// What a neighbour rule asks of two cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Neighbour {
    /// They hold different symbols.
    Different,
    /// Their symbols do not differ by one.
    NotConsecutive,
}

impl Neighbour {
    /// Whether symbols `a` and `b` in the two cells break the rule.
    pub fn forbids(self, a: u8, b: u8) -> bool {
        match self {
            Neighbour::Different => a == b,
            Neighbour::NotConsecutive => a.abs_diff(b) == 1,
        }
    }
}

/// The letter of region `index` (from 0) in region maps: A, B, ...
pub fn region_letter(index: usize) -> char {
    char::from(b'A' + index as u8)
}

/// The name of region `index` (from 0) in messages and maps: its letter up to Z, else its
/// number from 1 (27 for the 27th), as maps of more than 26 regions write them.
pub fn region_name(index: usize) -> String {
    if index < 26 {
        region_letter(index).to_string()
    } else {
        (index + 1).to_string()
    }
}

fn all_cells(n: usize) -> impl Iterator<Item = Cell> {
    (0..n).flat_map(move |r| (0..n).map(move |c| (r, c)))
}

/// The cells (indices row * n + col) above, below, left and right of `cell` in a grid of side
/// `n`.
fn orthogonal_neighbours(n: usize, cell: usize) -> Vec<usize> {
    let (r, c) = (cell / n, cell % n);
    let mut neighbours = Vec::with_capacity(4);
    if r > 0 {
        neighbours.push(cell - n);
    }
    if r + 1 < n {
        neighbours.push(cell + n);
    }
    if c > 0 {
        neighbours.push(cell - 1);
    }
    if c + 1 < n {
        neighbours.push(cell + 1);
    }
    neighbours
}

/// Whether `cells` (indices row * n + col) are connected through orthogonal neighbours.
fn connected(n: usize, cells: &[usize]) -> bool {
    let Some(&start) = cells.first() else {
        return true;
    };
    let mut seen = vec![start];
    let mut stack = vec![start];
    while let Some(cell) = stack.pop() {
        for other in orthogonal_neighbours(n, cell) {
            if cells.contains(&other) && !seen.contains(&other) {
                seen.push(other);
                stack.push(other);
            }
        }
    }
    seen.len() == cells.len()
}

/// A variant puzzle: its rules and its givens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// A name for messages and records (a file's `puzzle:` id).
    pub id: String,
    pub rules: Rules,
    /// The givens, row by row: 0 for an empty cell, else the symbol.
    pub givens: Vec<u8>,
}

/// Two givens that break a rule together (or one that breaks a cage alone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clash {
    pub cells: Vec<Cell>,
    pub rule: String,
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells: Vec<String> = self.cells.iter().map(|&cell| cell_name(cell)).collect();
        write!(
            f,
            "the givens at {} break {}",
            cells.join(" and "),
            self.rule
        )
    }
}

impl Puzzle {
    /// The symbol given at a cell, 0 if none.
    pub fn given(&self, (row, col): Cell) -> u8 {
        self.givens[row * self.rules.size + col]
    }

    /// The givens that break a rule among themselves: the same symbol twice in a unit, two
    /// neighbours the neighbour rules forbid, a cage whose givens repeat or overshoot its sum.
    /// (No clash does not mean a solution exists.)
    pub fn clashes(&self) -> Vec<Clash> {
        let mut clashes = Vec::new();
        for unit in self.rules.units() {
            for (i, &a) in unit.cells.iter().enumerate() {
                for &b in &unit.cells[i + 1..] {
                    if self.given(a) != 0 && self.given(a) == self.given(b) {
                        clashes.push(Clash {
                            cells: vec![a, b],
                            rule: unit.name.clone(),
                        });
                    }
                }
            }
        }
        for (a, b, rule) in self.rules.neighbour_pairs() {
            let (x, y) = (self.given(a), self.given(b));
            if x != 0 && y != 0 && rule.forbids(x, y) {
                clashes.push(Clash {
                    cells: vec![a, b],
                    rule: match rule {
                        Neighbour::Different
                            if a.0.abs_diff(b.0) == 1 && a.1.abs_diff(b.1) == 1 =>
                        {
                            "the anti-king rule".into()
                        }
                        Neighbour::Different => "the anti-knight rule".into(),
                        Neighbour::NotConsecutive => "the non-consecutive rule".into(),
                    },
                });
            }
        }
        for (k, cage) in self.rules.cages.iter().enumerate() {
            let given: Vec<Cell> = cage
                .cells
                .iter()
                .copied()
                .filter(|&c| self.given(c) != 0)
                .collect();
            for (i, &a) in given.iter().enumerate() {
                for &b in &given[i + 1..] {
                    if self.given(a) == self.given(b) {
                        clashes.push(Clash {
                            cells: vec![a, b],
                            rule: format!("cage {} (no symbol twice in a cage)", k + 1),
                        });
                    }
                }
            }
            let sum: u32 = given.iter().map(|&c| u32::from(self.given(c))).sum();
            let open = cage.cells.len() - given.len();
            // The open cells add at least 1 + 2 + ... + open.
            if sum + (open * (open + 1) / 2) as u32 > cage.sum || (open == 0 && sum != cage.sum) {
                clashes.push(Clash {
                    cells: given,
                    rule: format!("the sum {} of cage {}", cage.sum, k + 1),
                });
            }
        }
        clashes
    }

    /// The same puzzle under the rules every Sudoku of its shape shares: rows, columns and
    /// boxes (a jigsaw keeps rows and columns only), to show that the variant's own rules
    /// matter.
    pub fn without_extra_rules(&self) -> Puzzle {
        let mut plain = self.clone();
        let rules = &mut plain.rules;
        rules.regions = None;
        rules.diagonals = false;
        rules.windows = false;
        rules.anti_knight = false;
        rules.anti_king = false;
        rules.non_consecutive = false;
        rules.cages.clear();
        plain
    }
}
