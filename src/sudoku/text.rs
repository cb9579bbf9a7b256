//! Reading and writing Sudoku puzzles in the text formats people actually use.
//!
//! One file may hold many puzzles, in any of four layouts:
//!
//! - **line**: a whole puzzle on one line, one character per cell (`.` or `0` blank, `1`-`9`
//!   then `A`-`Z` for sides up to 35), as in the standard 9x9 collections;
//! - **grid**: one row per line, where box separators such as `|`, `-`, `+`, box-drawing
//!   characters and spaces are allowed (`53.|.7.|...`), grids separated by blank lines;
//! - **numbers**: rows of whitespace-, comma- or semicolon-separated numbers, `0` blank, the
//!   usual layout for 16x16 and larger. Blank lines between bands of boxes are allowed;
//! - **JSON**: a line holding an object with a `puzzle` (rows of numbers, or a string in the
//!   line layout) and optionally `boxes` (`"3x2"`), as `sudoku generate --format json` writes.
//!
//! `#` starts a comment. The side N comes from the number of cells. The boxes come, in this
//! order, from the caller (`--box`), from a `# boxes RxC` comment (on the puzzle's own line, or
//! alone on a line for every puzzle after it), from the grid's own separators (a `|` every C
//! columns, a rule or blank line every R rows), and otherwise from the default shape for N; two
//! of these that disagree are an error, never a silent choice. What [`write()`] prints reads back
//! as the same puzzle, boxes included.
//!
//! The [`Reader`] streams: it pulls lines only as it needs them (a one-line puzzle is handed
//! out as soon as its line is complete), keeps at most a grid's worth of lines, and gives every
//! puzzle, readable or not, exactly one item, so output records stay aligned with the input.
//! Errors name the line, and the cell or column where there is one.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead};
use std::str::FromStr;

use super::model::{BoxShape, Cell, Clash, Grid, MAX_SIZE, symbol_name};

/// The longest line read, in bytes; a longer one is an error (the rest of it is skipped
/// without being held in memory). A 64x64 puzzle on one line in numbers takes about 12 KiB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// How many lines past the current one the reader may look at to tell a one-line puzzle from
/// the first row of a grid.
const LOOKAHEAD_LINES: usize = 4 * MAX_SIZE + 8;

/// How a puzzle was laid out, so that its answer can be written the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One line, one character per cell.
    Line,
    /// One line of separated numbers.
    NumberLine,
    /// One row per line, one character per cell.
    Grid,
    /// One row per line, separated numbers.
    Numbers,
}

/// Where a puzzle's box shape came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeSource {
    /// The default (most square) shape for the side: nothing in the input said otherwise.
    Default,
    /// The caller's shape (`--box`).
    Given,
    /// A `# boxes RxC` comment on this 1-based line.
    Comment(usize),
    /// The grid's own separators (`|` columns, rule or blank lines between bands).
    Separators,
}

/// Which characters a puzzle's symbols were written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symbols {
    /// `1`-`9` then `A`-`Z`, with `.` or `0` for a blank: the usual way.
    FromOne,
    /// A 16x16 written in hexadecimal, `0`-`9` and `A`-`F`, blanks `.`: `0` is the sixteenth
    /// symbol (held as 16, written back as `0`). Recognised when a character grid of side 16
    /// holds `0`s, `.`s and letters up to `F` but no `G`; or is full, with sixteen `0`s.
    Hexadecimal,
    /// Read as [`Symbols::FromOne`] (`0` blank), but the grid uses `0` with `A`-`F` and never
    /// `G`, as hexadecimal grids do: [`Puzzle::symbols_hint`] says how to mean hexadecimal.
    ZerosReadAsBlanks,
}

/// A puzzle read from text, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The clues.
    pub grid: Grid,
    /// The 1-based line where the puzzle starts.
    pub line: usize,
    /// For puzzles written over several lines, the line of each row.
    pub row_lines: Vec<usize>,
    /// How the puzzle was written.
    pub layout: Layout,
    /// Where the box shape came from.
    pub shape_source: ShapeSource,
    /// The characters of the symbols, so that answers are written in them.
    pub symbols: Symbols,
    /// Whether the puzzle came as a JSON record, so that its answer is one too.
    pub json: bool,
}

/// A puzzle that could not be read, or whose clues break the rules: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleError {
    /// The 1-based line of the fault.
    pub line: usize,
    /// What is wrong, with the column or cell where there is one.
    pub kind: PuzzleErrorKind,
}

/// What kind of fault makes a puzzle unreadable, the same for every reader (plain grids,
/// variant blocks, JSON, ISS strings), for a program (the page, a script reading the API's
/// errors) to act on without reading the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// The text's structure: a key, a count of lines, a block without its end, text that is
    /// not of the format, JSON that does not parse.
    Layout,
    /// A value that cannot be read: a symbol, a region letter, a size, a cell's name.
    Value,
    /// Clues that break what their rule asks of them (a cage's cells, a line's path, a
    /// region's size); the cells are the clue's.
    Rule,
    /// Givens that break a rule together (or one that breaks a cage alone); the cells are
    /// theirs.
    Clash,
    /// A rule that the format names and this reader does not support yet.
    Unsupported,
}

impl FaultKind {
    /// Its name in records: `layout`, `value`, `rule`, `clash` or `unsupported`.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Layout => "layout",
            FaultKind::Value => "value",
            FaultKind::Rule => "rule",
            FaultKind::Clash => "clash",
            FaultKind::Unsupported => "unsupported",
        }
    }
}

/// What is wrong with a puzzle; its `Display` says what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleErrorKind {
    /// A character that is not a cell, at a 1-based column of its line.
    NotACell { column: usize, found: char },
    /// A minus sign before a number, at a 1-based column.
    Negative { column: usize },
    /// A word that is not a whole number in a row written in numbers (`10 11 a 12`,
    /// `10 0.5 3`), at a 1-based column.
    NotANumber { column: usize, word: String },
    /// A symbol larger than the side of the grid.
    TooLarge { cell: Cell, value: u32, side: usize },
    /// Two clues with the same symbol in a unit; `hint` says how to give the boxes when they
    /// were only assumed.
    Clash { clash: Clash, hint: Option<String> },
    /// A row whose length differs from the first row of its grid.
    RowLength {
        found: usize,
        expected: usize,
        first_line: usize,
    },
    /// A grid that ends before its last row, at a blank line or at the next puzzle.
    ShortGrid {
        width: usize,
        rows: usize,
        blank_line: Option<usize>,
    },
    /// A line whose cells are neither a whole puzzle nor a row of a grid.
    CellCount { found: usize, spaces: bool },
    /// The box shape: given ways that disagree, or one that does not fit the side.
    BoxShape(String),
    /// A JSON record that is not a puzzle.
    Json(String),
    /// A line that cannot be read at all: not UTF-8, too long, or a read error.
    Unreadable(String),
}

impl fmt::Display for PuzzleErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleErrorKind::NotACell { column, found } => write!(
                f,
                "column {column}: '{}' is not a cell (expected '.', '0', '1'-'9' or 'A'-'Z')",
                found.escape_debug()
            ),
            PuzzleErrorKind::NotANumber { column, word } => write!(
                f,
                "column {column}: '{}' is not a whole number (this row is written in numbers: \
                 1 to the side, 0 or '.' for blank)",
                word.escape_debug()
            ),
            PuzzleErrorKind::Negative { column } => write!(
                f,
                "column {column}: '-' before a digit: negative numbers are not symbols"
            ),
            PuzzleErrorKind::TooLarge { cell, value, side } => {
                // A number as a number; a letter with the number it stands for ('H' is 17).
                let shown = match *value {
                    u32::MAX => "a number of too many digits".to_string(),
                    10..=35 => format!("symbol '{}' ({value})", symbol_name(*value as u8)),
                    _ => format!("symbol {value}"),
                };
                write!(
                    f,
                    "{cell}: {shown} is too large for {} (1 to {side}, \
                     0 or '.' for blank)",
                    a_grid(*side)
                )
            }
            PuzzleErrorKind::Clash { clash, hint } => match hint {
                Some(hint) => write!(f, "{clash}; {hint}"),
                None => write!(f, "{clash}"),
            },
            PuzzleErrorKind::RowLength {
                found,
                expected,
                first_line,
            } => write!(
                f,
                "this row has {found} cells, but the grid that starts at line {first_line} has \
                 rows of {expected}"
            ),
            PuzzleErrorKind::ShortGrid {
                width,
                rows,
                blank_line,
            } => {
                write!(
                    f,
                    "this grid has rows of {width} cells but only {rows} rows before "
                )?;
                match blank_line {
                    Some(line) => write!(f, "the blank line {line}"),
                    None => write!(f, "the next puzzle or the end of the input"),
                }
            }
            PuzzleErrorKind::CellCount { found, spaces } => {
                write!(
                    f,
                    "{found} cells is neither a whole puzzle (a square number of cells, such as \
                     81 for 9x9) nor a row of a grid (4 to {MAX_SIZE} cells)"
                )?;
                if *spaces {
                    write!(f, "; blank cells are written '.' or '0', not as spaces")?;
                }
                Ok(())
            }
            PuzzleErrorKind::BoxShape(message)
            | PuzzleErrorKind::Json(message)
            | PuzzleErrorKind::Unreadable(message) => f.write_str(message),
        }
    }
}

impl PuzzleErrorKind {
    /// Its kind in the vocabulary every reader shares.
    pub fn fault_kind(&self) -> FaultKind {
        match self {
            PuzzleErrorKind::NotACell { .. }
            | PuzzleErrorKind::Negative { .. }
            | PuzzleErrorKind::NotANumber { .. }
            | PuzzleErrorKind::TooLarge { .. } => FaultKind::Value,
            PuzzleErrorKind::Clash { .. } => FaultKind::Clash,
            PuzzleErrorKind::BoxShape(_) => FaultKind::Rule,
            PuzzleErrorKind::RowLength { .. }
            | PuzzleErrorKind::ShortGrid { .. }
            | PuzzleErrorKind::CellCount { .. }
            | PuzzleErrorKind::Json(_)
            | PuzzleErrorKind::Unreadable(_) => FaultKind::Layout,
        }
    }
}

impl PuzzleError {
    /// The cells the error is about (row, column from 0), for a page to mark: a symbol too
    /// large, the two clues of a clash; none for errors of a line or a layout.
    pub fn cells(&self) -> Vec<(usize, usize)> {
        match &self.kind {
            PuzzleErrorKind::TooLarge { cell, .. } => vec![(cell.row, cell.col)],
            PuzzleErrorKind::Clash { clash, .. } => vec![
                (clash.first.row, clash.first.col),
                (clash.second.row, clash.second.col),
            ],
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for PuzzleError {}

impl Puzzle {
    /// Checks the clues: no symbol twice in a row, column or box. The error names both cells
    /// and the line of the second; when the boxes were only assumed (the default shape of a
    /// side whose boxes are not square) and the clash is in a box, it says how to give them.
    pub fn validate(&self) -> Result<(), PuzzleError> {
        let Some(clash) = self.grid.clash() else {
            return Ok(());
        };
        let same_box = clash.first.row != clash.second.row && clash.first.col != clash.second.col;
        let hint = if same_box { self.shape_hint() } else { None };
        Err(PuzzleError {
            line: self.line_of(clash.second),
            kind: PuzzleErrorKind::Clash { clash, hint },
        })
    }

    /// The line a cell was written on.
    pub fn line_of(&self, cell: Cell) -> usize {
        self.row_lines.get(cell.row).copied().unwrap_or(self.line)
    }

    /// For a 16x16 whose `0`s were read as blanks although it writes letters up to `F` and
    /// no `G` (as hexadecimal grids do), a sentence that says so and how to mean `0`-`F`.
    pub fn symbols_hint(&self) -> Option<String> {
        (self.symbols == Symbols::ZerosReadAsBlanks).then(|| {
            "the 0s of this 16x16 were read as blanks (symbols 1-9 and A-G); if its symbols \
             are 0-F, write its blanks as '.'"
                .to_string()
        })
    }

    /// When the box shape was assumed and the other orientation exists, a sentence that says
    /// so and how to give it, for messages about puzzles that turn out invalid or improper.
    pub fn shape_hint(&self) -> Option<String> {
        let shape = self.grid.shape();
        if self.shape_source != ShapeSource::Default || shape.box_rows() == shape.box_cols() {
            return None;
        }
        Some(format!(
            "boxes {shape} were assumed; if this puzzle has {}x{} boxes, give --box {}x{} or \
             a '# boxes {}x{}' comment",
            shape.box_cols(),
            shape.box_rows(),
            shape.box_cols(),
            shape.box_rows(),
            shape.box_cols(),
            shape.box_rows()
        ))
    }
}

/// One puzzle from text in any layout (`"53..7....6..195...".parse::<Grid>()`); more or fewer
/// than one puzzle is an error. The clues are not checked against each other (see
/// [`Grid::clash`]).
impl FromStr for Grid {
    type Err = PuzzleError;

    fn from_str(text: &str) -> Result<Grid, PuzzleError> {
        let mut puzzles = Reader::new(text.as_bytes(), None);
        let first = puzzles.next().unwrap_or(Err(PuzzleError {
            line: 1,
            kind: PuzzleErrorKind::CellCount {
                found: 0,
                spaces: false,
            },
        }))?;
        if let Some(next) = puzzles.next() {
            let line = match next {
                Ok(puzzle) => puzzle.line,
                Err(error) => error.line,
            };
            return Err(PuzzleError {
                line,
                kind: PuzzleErrorKind::Unreadable(
                    "a second puzzle: the text must hold exactly one".to_string(),
                ),
            });
        }
        Ok(first.grid)
    }
}

/// A grid shown in the line layout (with `# boxes RxC` where the shape is not the default);
/// see [`Grid::display`] for the others.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self, Layout::Line))
    }
}

/// A grid shown in one layout, from [`Grid::display`].
#[derive(Debug, Clone, Copy)]
pub struct Shown<'g> {
    grid: &'g Grid,
    layout: Layout,
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(write(self.grid, self.layout).trim_end_matches('\n'))
    }
}

impl Grid {
    /// The grid shown in `layout`: `format!("{}", grid.display(Layout::Grid))` gives rows
    /// with box separators, [`Layout::Numbers`] rows of numbers. What is shown reads back as
    /// the same grid.
    pub fn display(&self, layout: Layout) -> Shown<'_> {
        Shown { grid: self, layout }
    }
}

/// Reads every puzzle of a text, in order: each a puzzle or the reason it could not be read.
/// `shape` overrides the default box shape (it must fit the side of each puzzle).
///
/// ```
/// use xcover::sudoku::text;
///
/// let text = "# two puzzles\n1.3.\n..1.\n.1..\n.4.1\n\n..3.2...........\n";
/// let puzzles = text::parse(text, None);
/// assert_eq!(puzzles.len(), 2);
/// assert_eq!(puzzles[0].as_ref().unwrap().grid.get(3, 1), 4);
/// assert_eq!(puzzles[1].as_ref().unwrap().line, 7);
/// ```
pub fn parse(text: &str, shape: Option<BoxShape>) -> Vec<Result<Puzzle, PuzzleError>> {
    Reader::new(text.as_bytes(), shape).collect()
}

/// Reads puzzles one at a time from a stream; see the module documentation.
///
/// ```
/// use xcover::sudoku::text::Reader;
///
/// let input = "1.24....3.1......6.413......5.......  # boxes 3x2\n";
/// let puzzle = Reader::new(input.as_bytes(), None).next().unwrap().unwrap();
/// assert_eq!(puzzle.grid.shape().to_string(), "3x2");
/// ```
pub struct Reader<R> {
    lines: Lines<R>,
    given: Option<BoxShape>,
    /// The shape of a `# boxes` comment standing alone, with its line: for every later puzzle.
    file_shape: Option<(BoxShape, usize)>,
    /// The cell count of the previous line when it was a whole puzzle: the lines of a run of
    /// one-line puzzles are read alike, whatever follows them.
    run_of_lines: Option<usize>,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input`; `shape` overrides the box shape of every puzzle.
    pub fn new(input: R, shape: Option<BoxShape>) -> Reader<R> {
        Reader {
            lines: Lines::new(input),
            given: shape,
            file_shape: None,
            run_of_lines: None,
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Puzzle, PuzzleError>;

    fn next(&mut self) -> Option<Result<Puzzle, PuzzleError>> {
        loop {
            let line = self.lines.next()?;
            if let Some(kind) = line.fault {
                self.run_of_lines = None;
                return Some(Err(PuzzleError {
                    line: line.number,
                    kind,
                }));
            }
            if line.content.is_empty() {
                self.run_of_lines = None;
                match line.directive {
                    Some(Ok(shape)) => self.file_shape = Some((shape, line.number)),
                    Some(Err(message)) => {
                        return Some(Err(PuzzleError {
                            line: line.number,
                            kind: PuzzleErrorKind::BoxShape(message),
                        }));
                    }
                    None => {}
                }
                continue;
            }
            if line.content.starts_with('{') {
                self.run_of_lines = None;
                return Some(self.json_puzzle(&line));
            }
            let cells = LineCells::read(&line.content);
            if cells.values.is_empty() {
                continue; // a rule such as ------+------+------
            }
            let count = cells.values.len();
            if self.run_of_lines == Some(count) || self.is_whole_puzzle(&cells) {
                self.run_of_lines = Some(count);
                return Some(self.line_puzzle(&line, cells));
            }
            self.run_of_lines = None;
            if let Some(first) = annotated_puzzle(&line.content) {
                return Some(self.line_puzzle(&line, first));
            }
            if (4..=MAX_SIZE).contains(&count) {
                return Some(self.grid_puzzle(line, cells));
            }
            let kind = PuzzleErrorKind::CellCount {
                found: count,
                spaces: count < 4 && line.content.contains(' '),
            };
            // A line too long to be a row is a faulty one-line puzzle: the lines after it are
            // puzzles of their own, each with its own record. A short one may be the start
            // of a grid, whose other rows would each give an error.
            if count < 4 {
                self.skip_paragraph();
            }
            return Some(Err(PuzzleError {
                line: line.number,
                kind,
            }));
        }
    }
}

/// The cells of a one-line puzzle followed by an annotation (`<puzzle> 162`, `<puzzle>\t3.2`,
/// `<puzzle> SE 9.0`), as collections write a count or a rating after each puzzle: the first
/// word is a whole puzzle, one character per cell, and the rest is not more groups of the
/// same length (which would make the line a row of a grid written in groups).
fn annotated_puzzle(content: &str) -> Option<LineCells> {
    let (first, rest) = content.split_once(char::is_whitespace)?;
    let length = first.chars().count();
    let side = square_root(length).filter(|&side| side >= 4)?;
    if rest
        .split_whitespace()
        .all(|word| word.chars().count() == length)
    {
        return None;
    }
    let cells = LineCells::read(first);
    let whole = cells.values.len() == length
        && !cells.numeric
        && cells.fault.is_none()
        && cells.values.iter().all(|&v| v as usize <= side);
    whole.then_some(cells)
}

/// "a 9x9 grid", "an 8x8 grid": a grid of side `side` in a sentence.
fn a_grid(side: usize) -> String {
    let article = if matches!(side, 8 | 11 | 18) || (80..90).contains(&side) {
        "an"
    } else {
        "a"
    };
    format!("{article} {side}x{side} grid")
}

/// The cell of a 0-based index into a grid of side `side`.
fn cell_at(index: usize, side: usize) -> Cell {
    Cell {
        row: index / side,
        col: index % side,
    }
}

impl<R: BufRead> Reader<R> {
    /// After an unreadable line: skips the rest of its paragraph, up to a blank line or a line
    /// that is a whole puzzle by itself, so that one bad grid gives one error.
    fn skip_paragraph(&mut self) {
        while let Some(next) = self.lines.peek(0) {
            if next.content.is_empty() || next.content.starts_with('{') {
                return;
            }
            let cells = LineCells::read(&next.content);
            if !cells.values.is_empty() && self.is_whole_puzzle_at(&cells, 1) {
                return;
            }
            self.lines.next();
        }
    }

    /// The shape for a puzzle of side `side`, starting at `line`, whose own lines say
    /// `comment` and whose separators say `separators`: the first of the caller's, the
    /// comment's, the separators' and the default, where those that are given agree.
    fn resolve_shape(
        &self,
        side: usize,
        line: usize,
        comment: Option<(BoxShape, usize)>,
        separators: Option<BoxShape>,
    ) -> Result<(BoxShape, ShapeSource), PuzzleError> {
        let fail = |message| {
            Err(PuzzleError {
                line,
                kind: PuzzleErrorKind::BoxShape(message),
            })
        };
        // Described in words only for an error: this runs for every puzzle read.
        let said = |shape: BoxShape, source: ShapeSource| match source {
            ShapeSource::Given => format!("--box {shape}"),
            ShapeSource::Comment(line) => {
                format!("the '# boxes {shape}' comment on line {line}")
            }
            _ => format!("the grid's separators (boxes {shape})"),
        };
        let stated = [
            self.given.map(|shape| (shape, ShapeSource::Given)),
            comment
                .or(self.file_shape)
                .map(|(shape, line)| (shape, ShapeSource::Comment(line))),
            separators.map(|shape| (shape, ShapeSource::Separators)),
        ];
        let mut stated = stated.into_iter().flatten();
        let (shape, source) = match stated.next() {
            Some((first, source)) => {
                if let Some((other, other_source)) = stated.find(|&(shape, _)| shape != first) {
                    return fail(format!(
                        "{} and {} disagree on the box shape",
                        said(first, source),
                        said(other, other_source)
                    ));
                }
                (first, source)
            }
            None => match BoxShape::for_size(side) {
                Some(shape) => (shape, ShapeSource::Default),
                None => return fail(format!("{} is too large", a_grid(side))),
            },
        };
        if shape.size() != side {
            return fail(format!(
                "{} does not fit {}: {} x {} = {}, not {side}",
                said(shape, source),
                a_grid(side),
                shape.box_rows(),
                shape.box_cols(),
                shape.size()
            ));
        }
        Ok((shape, source))
    }

    /// A puzzle written on one line.
    fn line_puzzle(&mut self, line: &Line, cells: LineCells) -> Result<Puzzle, PuzzleError> {
        let fail = |kind| {
            Err(PuzzleError {
                line: line.number,
                kind,
            })
        };
        if let Some(kind) = cells.fault {
            return fail(kind);
        }
        let comment = match &line.directive {
            Some(Ok(shape)) => Some((*shape, line.number)),
            Some(Err(message)) => return fail(PuzzleErrorKind::BoxShape(message.clone())),
            None => None,
        };
        let side = square_root(cells.values.len()).expect("a whole puzzle is square");
        let (shape, source) = self.resolve_shape(side, line.number, comment, None)?;
        let layout = if cells.numeric {
            Layout::NumberLine
        } else {
            Layout::Line
        };
        let mut values = cells.values;
        let symbols = read_symbols(side, &mut values, &cells.zero_cells, cells.dots);
        let grid = grid_of(shape, &values, |_| line.number)?;
        Ok(Puzzle {
            grid,
            line: line.number,
            row_lines: Vec::new(),
            layout,
            shape_source: source,
            symbols,
            json: false,
        })
    }

    /// A puzzle written one row per line, starting with `first`.
    fn grid_puzzle(&mut self, first: Line, cells: LineCells) -> Result<Puzzle, PuzzleError> {
        let width = cells.values.len();
        let mut block = Block {
            width,
            numeric: cells.numeric,
            values: Vec::with_capacity(width * width),
            row_lines: Vec::with_capacity(width),
            fault: None,
            columns: Marks::None,
            bands: Vec::new(),
            gap_before_next: false,
            comment: None,
            zero_cells: Vec::new(),
            dots: false,
        };
        block.add_row(&first, cells);
        while block.row_lines.len() < width {
            let Some(next) = self.lines.peek(0) else {
                return Err(block.short(None));
            };
            if next.fault.is_some() {
                // Reported by the next call, as a puzzle of its own.
                return Err(block.short(None));
            }
            let number = next.number;
            let content = next.content.clone();
            if content.is_empty() {
                let rows = block.row_lines.len();
                let blank = number;
                let band = block.bands.first().copied().unwrap_or(rows);
                let fits_band = band > 1
                    && rows < width
                    && width.is_multiple_of(band)
                    && rows.is_multiple_of(band);
                if !fits_band {
                    self.lines.next();
                    return Err(block.short(Some(blank)));
                }
                block.gap_before_next = true;
                self.lines.next();
                continue;
            }
            let cells = LineCells::read(&content);
            if cells.values.is_empty() {
                block.gap_before_next = true;
                self.lines.next();
                continue;
            }
            if cells.values.len() != width {
                if block.gap_before_next || self.is_whole_puzzle(&cells) {
                    // The grid ended early and a new puzzle starts here.
                    return Err(block.short(None));
                }
                let kind = PuzzleErrorKind::RowLength {
                    found: cells.values.len(),
                    expected: width,
                    first_line: block.row_lines[0],
                };
                self.lines.next();
                self.skip_paragraph();
                return Err(PuzzleError { line: number, kind });
            }
            let next = self.lines.next().expect("peeked");
            block.add_row(&next, cells);
        }
        if let Some(fault) = block.fault {
            return Err(fault);
        }
        let first_line = block.row_lines[0];
        let separators = block.separator_shape().map_err(|message| PuzzleError {
            line: first_line,
            kind: PuzzleErrorKind::BoxShape(message),
        })?;
        let comment = match block.comment {
            Some((Ok(shape), line)) => Some((shape, line)),
            Some((Err(message), line)) => {
                return Err(PuzzleError {
                    line,
                    kind: PuzzleErrorKind::BoxShape(message),
                });
            }
            None => None,
        };
        let (shape, source) = self.resolve_shape(width, first_line, comment, separators)?;
        let symbols = read_symbols(width, &mut block.values, &block.zero_cells, block.dots);
        let grid = grid_of(shape, &block.values, |row| block.row_lines[row])?;
        let layout = if block.numeric {
            Layout::Numbers
        } else {
            Layout::Grid
        };
        Ok(Puzzle {
            grid,
            line: first_line,
            row_lines: block.row_lines,
            layout,
            shape_source: source,
            symbols,
            json: false,
        })
    }

    /// A puzzle written as a JSON object on one line.
    fn json_puzzle(&mut self, line: &Line) -> Result<Puzzle, PuzzleError> {
        let fail = |message: String| PuzzleError {
            line: line.number,
            kind: PuzzleErrorKind::Json(message),
        };
        let record = json_record(&line.raw).map_err(fail)?;
        let comment = match record.boxes {
            Some(text) => Some((
                text.parse::<BoxShape>()
                    .map_err(|e| fail(format!("\"boxes\": {e}")))?,
                line.number,
            )),
            None => None,
        };
        let side = square_root(record.cells.len())
            // The same sides as the other layouts read (found by fuzzing: a 1x1 grid was
            // read from JSON but not from what the writer made of it).
            .filter(|&side| side >= 4)
            .ok_or_else(|| {
                fail(format!(
                    "\"puzzle\" has {} cells: a puzzle has a square number of cells, 16 (4x4) \
                     or more",
                    record.cells.len()
                ))
            })?;
        if let Some(width) = record.row_width
            && width != side
        {
            return Err(fail(format!(
                "\"puzzle\" has rows of {width} cells, but {} rows",
                record.cells.len() / width.max(1)
            )));
        }
        let (shape, source) = self.resolve_shape(side, line.number, comment, None)?;
        let grid = grid_of(shape, &record.cells, |_| line.number)?;
        Ok(Puzzle {
            grid,
            line: line.number,
            row_lines: Vec::new(),
            layout: if record.row_width.is_some() {
                Layout::NumberLine
            } else {
                Layout::Line
            },
            shape_source: source,
            symbols: Symbols::FromOne,
            json: true,
        })
    }

    /// Whether a line of cells (the current line) is a whole puzzle rather than the first row
    /// of a grid.
    fn is_whole_puzzle(&mut self, cells: &LineCells) -> bool {
        self.is_whole_puzzle_at(cells, 0)
    }

    /// [`Reader::is_whole_puzzle`] for a line whose successors start at lookahead `start`.
    ///
    /// A square number of cells of at least 16 is a whole puzzle, unless it could be a row
    /// (at most [`MAX_SIZE`] cells) and either it, or the next line of the same length, holds a
    /// symbol too large for a puzzle of that size (16 cells with a 9 in them are a row of a
    /// 16x16 grid), or its cells are separated (`0 0 0 ...`) and it starts exactly one grid's
    /// worth of such rows, followed by a blank line, the end, or a line of another length (an
    /// empty 16x16 grid written in numbers).
    fn is_whole_puzzle_at(&mut self, cells: &LineCells, start: usize) -> bool {
        let count = cells.values.len();
        let Some(side) = square_root(count).filter(|&s| s >= 4) else {
            return false;
        };
        if count > MAX_SIZE {
            return true;
        }
        let too_large = |values: &[u32]| values.iter().any(|&v| v as usize > side);
        if too_large(&cells.values) {
            return false;
        }
        let mut index = start;
        while let Some(next) = self.lines.peek(index) {
            index += 1;
            if next.content.is_empty() {
                continue;
            }
            let next = LineCells::read(&next.content);
            if next.values.is_empty() {
                continue;
            }
            if next.values.len() == count && too_large(&next.values) {
                return false;
            }
            break;
        }
        !(cells.separated && self.starts_one_grid(count, start))
    }

    /// Whether the lines from lookahead `start` hold the other `width - 1` rows of a grid
    /// (blank lines between them allowed) and then a blank line, the end, or a line of
    /// another length.
    fn starts_one_grid(&mut self, width: usize, start: usize) -> bool {
        let mut rows = 1;
        let mut index = start;
        while index < start + LOOKAHEAD_LINES {
            let Some(line) = self.lines.peek(index) else {
                break;
            };
            index += 1;
            if line.fault.is_some() {
                return false;
            }
            if line.content.is_empty() {
                if rows == width {
                    return true;
                }
                continue;
            }
            let cells = LineCells::read(&line.content);
            if cells.values.is_empty() {
                continue;
            }
            if rows == width {
                return cells.values.len() != width;
            }
            if cells.values.len() != width {
                return false;
            }
            rows += 1;
        }
        rows == width
    }
}

/// Which characters a grid of side `side` was written with (see [`Symbols`]), `zero_cells`
/// being the cells written `0` in a character layout and `dots` whether any cell was `.`; for
/// a hexadecimal grid the `0`s become the sixteenth symbol.
fn read_symbols(side: usize, values: &mut [u32], zero_cells: &[usize], dots: bool) -> Symbols {
    let letters = values.iter().any(|&v| v >= 10);
    if side != 16 || zero_cells.is_empty() || !letters || values.iter().any(|&v| v > 15) {
        return Symbols::FromOne;
    }
    // Without a `.`, the 0s are blanks unless the grid is a full one with sixteen of them.
    let full = zero_cells.len() == 16 && values.iter().filter(|&&v| v == 0).count() == 16;
    if !dots && !full {
        return Symbols::ZerosReadAsBlanks;
    }
    for &i in zero_cells {
        values[i] = 16;
    }
    Symbols::Hexadecimal
}

/// The grid of `values` in reading order, each checked against the side; `line_of_row` names
/// the line of a row for errors.
fn grid_of(
    shape: BoxShape,
    values: &[u32],
    line_of_row: impl Fn(usize) -> usize,
) -> Result<Grid, PuzzleError> {
    let side = shape.size();
    if let Some(index) = values.iter().position(|&v| v as usize > side) {
        let cell = cell_at(index, side);
        return Err(PuzzleError {
            line: line_of_row(cell.row),
            kind: PuzzleErrorKind::TooLarge {
                cell,
                value: values[index],
                side,
            },
        });
    }
    let cells = values.iter().map(|&v| v as u8).collect();
    Ok(Grid::from_cells(shape, cells).expect("size and values checked"))
}

/// Where box marks stand in the rows of a grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marks {
    /// No row has marked a box boundary yet.
    None,
    /// Every marking row marks boxes this many cells wide.
    Every(usize),
    /// Rows mark boundaries that are not boxes of one width: the marks say nothing.
    Irregular,
}

/// A grid being read row by row.
struct Block {
    width: usize,
    numeric: bool,
    values: Vec<u32>,
    row_lines: Vec<usize>,
    /// The first fault in a row; the other rows are still read so that the grid is one error.
    fault: Option<PuzzleError>,
    columns: Marks,
    /// Row indices before which a rule or a blank line stood.
    bands: Vec<usize>,
    gap_before_next: bool,
    /// A `# boxes` comment on one of the grid's lines.
    comment: Option<(Result<BoxShape, String>, usize)>,
    /// Indices of the cells written `0` in a character grid, and whether any was `.`.
    zero_cells: Vec<usize>,
    dots: bool,
}

impl Block {
    fn add_row(&mut self, line: &Line, cells: LineCells) {
        if self.fault.is_none()
            && let Some(kind) = cells.fault
        {
            self.fault = Some(PuzzleError {
                line: line.number,
                kind,
            });
        }
        if self.comment.is_none()
            && let Some(directive) = &line.directive
        {
            self.comment = Some((directive.clone(), line.number));
        }
        let rows = self.row_lines.len();
        if self.gap_before_next && rows > 0 {
            self.bands.push(rows);
        }
        self.gap_before_next = false;
        self.columns = match (self.columns, regular_width(&cells.marks, self.width)) {
            (Marks::Irregular, _) | (_, Marks::Irregular) => Marks::Irregular,
            (marks, Marks::None) => marks,
            (Marks::None, marks) => marks,
            (Marks::Every(a), Marks::Every(b)) if a == b => Marks::Every(a),
            _ => Marks::Irregular,
        };
        let offset = self.values.len();
        self.zero_cells
            .extend(cells.zero_cells.iter().map(|&i| offset + i));
        self.dots |= cells.dots;
        self.values.extend(cells.values);
        self.row_lines.push(line.number);
    }

    /// The box shape the separators show, if they show one; an error if the rows and the
    /// bands they mark cannot be the boxes of this grid.
    fn separator_shape(&self) -> Result<Option<BoxShape>, String> {
        let n = self.width;
        let cols = match self.columns {
            Marks::Every(c) => Some(c),
            _ => None,
        };
        let rows = match regular_width(&self.bands, n) {
            Marks::Every(r) => Some(r),
            _ => None,
        };
        let (r, c) = match (rows, cols) {
            (None, None) => return Ok(None),
            (Some(r), Some(c)) if r * c != n => {
                return Err(format!(
                    "the separators mark boxes {r} rows high and {c} columns wide, but boxes of \
                     a {n}x{n} grid hold {n} cells, not {}",
                    r * c
                ));
            }
            (Some(r), Some(c)) => (r, c),
            (Some(r), None) => (r, n / r),
            (None, Some(c)) => (n / c, c),
        };
        Ok(BoxShape::new(r, c))
    }

    /// The error for a grid with too few rows.
    fn short(&self, blank_line: Option<usize>) -> PuzzleError {
        // A lone line of a square number of cells was taken for a grid's first row only
        // because a symbol is too large for the puzzle it would be: that symbol is the fault.
        if self.row_lines.len() == 1
            && let Some(side) = square_root(self.width).filter(|&side| side >= 4)
            && let Some(index) = self.values.iter().position(|&v| v as usize > side)
        {
            return PuzzleError {
                line: self.row_lines[0],
                kind: PuzzleErrorKind::TooLarge {
                    cell: cell_at(index, side),
                    value: self.values[index],
                    side,
                },
            };
        }
        PuzzleError {
            line: self.row_lines[0],
            kind: PuzzleErrorKind::ShortGrid {
                width: self.width,
                rows: self.row_lines.len(),
                blank_line,
            },
        }
    }
}

/// Whether marks before the given positions (cell indices in a row, or row indices) cut
/// `0..n` into equal parts of more than one and fewer than `n`.
fn regular_width(marks: &[usize], n: usize) -> Marks {
    let Some(&width) = marks.first() else {
        return Marks::None;
    };
    let regular = width > 1
        && n.is_multiple_of(width)
        && marks.len() == n / width - 1
        && marks.iter().enumerate().all(|(i, &m)| m == (i + 1) * width);
    if regular {
        Marks::Every(width)
    } else {
        Marks::Irregular
    }
}

/// The exact square root of `n`, if `n` is a square.
fn square_root(n: usize) -> Option<usize> {
    let root = (n as f64).sqrt().round() as usize;
    (root * root == n).then_some(root)
}

/// A puzzle of the JSON layout, before its shape is known.
struct JsonRecord {
    cells: Vec<u32>,
    /// The length of each row, when the puzzle was given as rows.
    row_width: Option<usize>,
    boxes: Option<String>,
}

/// Without the `json` feature, JSON records are not read.
#[cfg(not(feature = "json"))]
fn json_record(_: &str) -> Result<JsonRecord, String> {
    Err("this build reads no JSON records (the `json` feature is off)".to_string())
}

/// Reads `{"puzzle": [[...], ...] or "...", "boxes": "RxC"}` (or `"solution"` in place of
/// `"puzzle"`); other keys are ignored, so the records that `sudoku generate` and `sudoku
/// solve` write with `--format json` read back as their grids.
#[cfg(feature = "json")]
fn json_record(text: &str) -> Result<JsonRecord, String> {
    use serde_json::Value;
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("not a JSON puzzle record: {e}"))?;
    let Value::Object(object) = value else {
        return Err("a JSON puzzle record must be an object".to_string());
    };
    let boxes = match object.get("boxes") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => return Err("\"boxes\" must be a string such as \"3x2\"".to_string()),
    };
    // `sudoku solve --format json` writes the answer as "solution".
    let grid = object.get("puzzle").or_else(|| object.get("solution"));
    let (cells, row_width) = match grid {
        Some(Value::String(line)) => {
            let cells = LineCells::read(line);
            if let Some(fault) = cells.fault {
                return Err(format!("\"puzzle\": {fault}"));
            }
            (cells.values, None)
        }
        Some(Value::Array(rows)) => {
            let mut cells = Vec::new();
            let mut width = None;
            for (r, row) in rows.iter().enumerate() {
                let Value::Array(row) = row else {
                    return Err(format!("\"puzzle\": row {} is not an array", r + 1));
                };
                if *width.get_or_insert(row.len()) != row.len() {
                    return Err(format!(
                        "\"puzzle\": row {} has {} cells, row 1 has {}",
                        r + 1,
                        row.len(),
                        width.unwrap_or(0)
                    ));
                }
                for (c, value) in row.iter().enumerate() {
                    let number = value.as_u64().ok_or_else(|| {
                        format!(
                            "\"puzzle\": r{}c{}: {value} is not a symbol (a whole number, 0 for \
                             blank)",
                            r + 1,
                            c + 1
                        )
                    })?;
                    cells.push(u32::try_from(number).unwrap_or(u32::MAX));
                }
                if cells.len() > MAX_SIZE * MAX_SIZE {
                    return Err(format!("\"puzzle\" is larger than {MAX_SIZE}x{MAX_SIZE}"));
                }
            }
            (cells, Some(width.unwrap_or(0)))
        }
        _ => {
            return Err(
                "a JSON puzzle record needs \"puzzle\" (or \"solution\"): rows of numbers or a \
                 line of cells"
                    .to_string(),
            );
        }
    };
    Ok(JsonRecord {
        cells,
        row_width,
        boxes,
    })
}

/// One line of input, split into its cells' text and its comment.
struct Line {
    /// 1-based.
    number: usize,
    /// The whole line, without its end.
    raw: String,
    /// The text before any `#`, trimmed.
    content: String,
    /// A `# boxes RxC` comment on the line.
    directive: Option<Result<BoxShape, String>>,
    /// Why the line cannot be read at all (not UTF-8, too long, a read error).
    fault: Option<PuzzleErrorKind>,
}

/// The box shape of a comment of the form `boxes RxC` (also `boxes: RxC`), if it is one.
fn directive(comment: &str) -> Option<Result<BoxShape, String>> {
    // Any case: `# Boxes: 3x2` was silently ignored.
    let comment = comment.trim();
    let rest = comment
        .get(..5)
        .filter(|word| word.eq_ignore_ascii_case("boxes"))
        .map(|_| &comment[5..])?;
    let rest = rest.trim_start().trim_start_matches([':', '=']).trim();
    let (r, c) = rest.split_once(['x', 'X'])?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(r.trim()) || !digits(c.trim()) {
        return None;
    }
    Some(rest.parse::<BoxShape>())
}

/// The lines of a stream, numbered, with a window for looking ahead.
struct Lines<R> {
    input: R,
    read: usize,
    ahead: VecDeque<Line>,
    ended: bool,
}

impl<R: BufRead> Lines<R> {
    fn new(input: R) -> Lines<R> {
        Lines {
            input,
            read: 0,
            ahead: VecDeque::new(),
            ended: false,
        }
    }

    fn next(&mut self) -> Option<Line> {
        if self.ahead.is_empty() {
            self.fetch();
        }
        self.ahead.pop_front()
    }

    /// The line `index` places after the next one (0: the next), read in if need be.
    fn peek(&mut self, index: usize) -> Option<&Line> {
        while self.ahead.len() <= index && !self.ended {
            self.fetch();
        }
        self.ahead.get(index)
    }

    /// Reads one more line into the window, or notes the end.
    fn fetch(&mut self) {
        if self.ended {
            return;
        }
        let mut bytes = Vec::new();
        let mut too_long = false;
        let mut failure = None;
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            };
            if buffer.is_empty() {
                break;
            }
            let (taken, done) = match buffer.iter().position(|&b| b == b'\n') {
                Some(end) => (end + 1, true),
                None => (buffer.len(), false),
            };
            if self.read == 0 && buffer[..taken].contains(&0) {
                // A NUL byte on the first line: not a text file (an image, an archive,
                // /dev/zero). One error for the whole input, which is not read further.
                self.input.consume(taken);
                self.read = 1;
                self.ended = true;
                self.ahead.push_back(Line::faulty(
                    1,
                    "not a text file (it holds NUL bytes: binary data, or UTF-16 text); puzzles are \
                     read from UTF-8 text"
                        .into(),
                ));
                return;
            }
            let room = MAX_LINE_BYTES.saturating_sub(bytes.len());
            if taken > room {
                too_long = true;
            }
            if !too_long {
                bytes.extend_from_slice(&buffer[..taken]);
            }
            self.input.consume(taken);
            if done {
                break;
            }
        }
        if bytes.is_empty() && !too_long {
            if let Some(e) = failure {
                self.read += 1;
                self.ahead
                    .push_back(Line::faulty(self.read, format!("read error: {e}")));
            }
            self.ended = true;
            return;
        }
        self.read += 1;
        let number = self.read;
        if too_long {
            self.ahead.push_back(Line::faulty(
                number,
                format!("the line is longer than {MAX_LINE_BYTES} bytes"),
            ));
            return;
        }
        while bytes.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            bytes.pop();
        }
        if number == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3); // a byte-order mark, as Windows editors write
        }
        let line = match String::from_utf8(bytes) {
            Ok(raw) => Line::new(number, raw),
            // A first line that is not text is a file that is not text: one error, not one
            // per line of an image or an archive.
            Err(e) if number == 1 => {
                self.ended = true;
                Line::faulty(
                    number,
                    format!(
                        "not a text file (the first line is not UTF-8: invalid byte at \
                         column {}); puzzles are read from text",
                        e.utf8_error().valid_up_to() + 1
                    ),
                )
            }
            Err(e) => Line::faulty(
                number,
                format!(
                    "not UTF-8 text (invalid byte at column {})",
                    e.utf8_error().valid_up_to() + 1
                ),
            ),
        };
        self.ahead.push_back(line);
    }
}

impl Line {
    fn new(number: usize, raw: String) -> Line {
        let (content, comment) = match raw.split_once('#') {
            Some((content, comment)) => (content, Some(comment)),
            None => (raw.as_str(), None),
        };
        Line {
            number,
            content: content.trim().to_string(),
            directive: comment.and_then(directive),
            fault: None,
            raw: raw.clone(),
        }
    }

    fn faulty(number: usize, fault: String) -> Line {
        Line {
            number,
            raw: String::new(),
            content: String::new(),
            directive: None,
            fault: Some(PuzzleErrorKind::Unreadable(fault)),
        }
    }
}

/// The cells found on one line.
#[derive(Debug)]
struct LineCells {
    /// Values in reading order, 0 blank (not yet checked against the side).
    values: Vec<u32>,
    /// Whether the cells were separated numbers.
    numeric: bool,
    /// Whether every cell stands alone between separators, as in `0 0 3 0` or `1,0,2`.
    separated: bool,
    /// Cell indices before which the line marks a box boundary: a `|` (or a box-drawing
    /// character), or a space between groups of cells written together (`53. .7. ...`).
    marks: Vec<usize>,
    /// The first character that is not a cell, with its column.
    fault: Option<PuzzleErrorKind>,
    /// Indices of the cells written `0`, one character per cell (for [`read_symbols`]).
    zero_cells: Vec<usize>,
    /// Whether a cell was written `.`.
    dots: bool,
}

/// Characters that separate cells: spaces, commas, semicolons, rules and box drawing.
fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || matches!(c, '|' | '-' | '+' | ',' | ';' | '=' | '!' | ':')
        || ('\u{2500}'..='\u{257F}').contains(&c)
}

/// Separators that mark a box boundary inside a row.
fn is_bar(c: char) -> bool {
    matches!(c, '|' | '!' | ':') || ('\u{2500}'..='\u{257F}').contains(&c)
}

/// A run of non-separator characters and what stood before it.
struct Token<'a> {
    text: &'a str,
    /// 1-based column (in characters) of its first character.
    column: usize,
    /// Whether a bar stood between it and the previous token.
    bar_before: bool,
}

impl LineCells {
    /// Reads the cells of one line (comment already removed). The line is numbers when some
    /// tokens are whole numbers of two or more digits (then `.` is a blank, and any other
    /// token is named as not a number), unless all tokens are
    /// equally long and some start with 0 or exceed the token count (`530 070 000` are groups
    /// of digit cells); otherwise every non-separator character is a cell. A character that
    /// is not a cell still counts as one, so the grid keeps its shape and one error is given.
    fn read(text: &str) -> LineCells {
        let mut tokens = Vec::new();
        let mut fault = None;
        let mut start: Option<(usize, usize)> = None; // byte, column
        let mut bar = false;
        let mut previous: Option<char> = None;
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        for (column0, &(byte, c)) in chars.iter().enumerate() {
            let negative = c == '-'
                && previous.is_none_or(|p| p.is_whitespace() || matches!(p, ',' | ';'))
                && chars
                    .get(column0 + 1)
                    .is_some_and(|&(_, d)| d.is_ascii_digit());
            if negative && fault.is_none() {
                fault = Some(PuzzleErrorKind::Negative {
                    column: column0 + 1,
                });
            }
            if is_separator(c) {
                if let Some((from, column)) = start.take() {
                    tokens.push(Token {
                        text: &text[from..byte],
                        column,
                        bar_before: bar,
                    });
                    bar = false;
                }
                bar |= is_bar(c);
            } else if start.is_none() {
                start = Some((byte, column0 + 1));
            }
            previous = Some(c);
        }
        if let Some((from, column)) = start {
            tokens.push(Token {
                text: &text[from..],
                column,
                bar_before: bar,
            });
        }
        let same_length = tokens.iter().all(|t| t.text.len() == tokens[0].text.len());
        let groups = same_length
            && tokens.iter().any(|t| {
                t.text.starts_with('0') || t.text.parse::<usize>().is_ok_and(|v| v > tokens.len())
            });
        let mut cells = LineCells {
            values: Vec::new(),
            numeric: false,
            separated: false,
            marks: Vec::new(),
            fault,
            zero_cells: Vec::new(),
            dots: false,
        };
        // Numbers of two digits or more among the words: a row written in numbers, in which
        // '.' is a blank and any other word that is not a whole number is an error (the
        // characters of `0.5` or `a` read as cells gave a row of the wrong length instead).
        // So is a row of single characters but for a few longer words (`1 2 0.5 4`): the
        // groups of a row split at its boxes are all longer than one character.
        let number = |t: &Token<'_>| t.text.bytes().all(|b| b.is_ascii_digit());
        let singles = tokens
            .iter()
            .filter(|t| t.text.chars().count() == 1)
            .count();
        let mostly_single = tokens.len() >= 3 && singles * 2 > tokens.len();
        let numbers = tokens.len() >= 2
            && !groups
            && (tokens.iter().any(|t| t.text.len() >= 2 && number(t))
                || (mostly_single && singles < tokens.len()));
        if numbers {
            cells.numeric = true;
            cells.separated = true;
            for token in &tokens {
                if token.bar_before && !cells.values.is_empty() {
                    cells.marks.push(cells.values.len());
                }
                let value = match token.text {
                    "." => 0,
                    text if number(token) => text.parse::<u32>().unwrap_or(u32::MAX),
                    text => {
                        if cells.fault.is_none() {
                            cells.fault = Some(PuzzleErrorKind::NotANumber {
                                column: token.column,
                                word: text.chars().take(20).collect(),
                            });
                        }
                        0
                    }
                };
                cells.values.push(value);
            }
            return cells;
        }
        let grouped = tokens.len() > 1 && tokens.iter().any(|t| t.text.chars().count() > 1);
        for token in &tokens {
            if !cells.values.is_empty() && (token.bar_before || grouped) {
                cells.marks.push(cells.values.len());
            }
            for (offset, c) in token.text.chars().enumerate() {
                match c {
                    '0' => cells.zero_cells.push(cells.values.len()),
                    '.' => cells.dots = true,
                    _ => {}
                }
                let value = match c {
                    '.' | '0' => 0,
                    '1'..='9' => c as u32 - '0' as u32,
                    'A'..='Z' => c as u32 - 'A' as u32 + 10,
                    'a'..='z' => c as u32 - 'a' as u32 + 10,
                    _ => {
                        if cells.fault.is_none() {
                            cells.fault = Some(PuzzleErrorKind::NotACell {
                                column: token.column + offset,
                                found: c,
                            });
                        }
                        0
                    }
                };
                cells.values.push(value);
            }
        }
        cells.separated = cells.values.len() > 1 && tokens.len() == cells.values.len();
        cells
    }
}

/// The character for a symbol in the one-character-per-cell layouts.
fn symbol_char(value: u8, symbols: Symbols) -> char {
    match value {
        0 => '.',
        16 if symbols == Symbols::Hexadecimal => '0',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// Writes a grid in the given layout. Sides above 35 have no single-character symbols, so the
/// character layouts fall back to numbers for them. The one-line layouts add a `# boxes RxC`
/// comment when the boxes are not the default shape for the side, so that what is written
/// always reads back as the same puzzle.
pub fn write(grid: &Grid, layout: Layout) -> String {
    write_in(grid, layout, Symbols::FromOne)
}

/// [`write()`] in the symbols a puzzle was read in: a hexadecimal 16x16's answer is written
/// `0`-`F` in the character layouts (numbers are numbers, 1 to 16, in every case).
pub fn write_in(grid: &Grid, layout: Layout, symbols: Symbols) -> String {
    let chars = grid.size() <= 35;
    let shape = grid.shape();
    let comment = if BoxShape::for_size(grid.size()) == Some(shape) {
        String::new()
    } else {
        format!("  # boxes {shape}")
    };
    match layout {
        Layout::Line if chars => {
            let cells: String = grid
                .cells()
                .iter()
                .map(|&v| symbol_char(v, symbols))
                .collect();
            cells + &comment
        }
        Layout::Line | Layout::NumberLine => {
            grid.cells()
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + &comment
        }
        Layout::Grid | Layout::Numbers => {
            // Separators cannot show boxes one cell wide or high.
            let comment = if shape.box_rows() == 1 || shape.box_cols() == 1 {
                comment
            } else {
                String::new()
            };
            let rows = if chars && layout == Layout::Grid {
                write_rows(grid, " | ", true, |v| symbol_char(v, symbols).to_string())
            } else {
                // Other programs read these rows as plain numbers: the boxes show as wider
                // gaps and blank lines between bands, which are what this reader goes by.
                let width = grid.size().to_string().len();
                write_rows(grid, "   ", false, |v| format!("{v:>width$}"))
            };
            match rows.split_once('\n') {
                Some((first, rest)) => format!("{first}{comment}\n{rest}"),
                None => rows,
            }
        }
    }
}

/// Rows of cells separated by spaces, with `box_gap` between boxes; bands of boxes are
/// separated by a rule of dashes in the character layout, by a blank line in the number layout.
/// Every line ends with a newline.
fn write_rows(grid: &Grid, box_gap: &str, rule: bool, show: impl Fn(u8) -> String) -> String {
    let n = grid.size();
    let shape = grid.shape();
    let mut out = String::new();
    for row in 0..n {
        // Boxes one cell high or wide have no bands or columns to show.
        if row > 0 && shape.box_rows() > 1 && row % shape.box_rows() == 0 {
            if rule {
                let band = "-".repeat(shape.box_cols() * 2 - 1);
                out.push_str(&vec![band; n / shape.box_cols()].join("-+-"));
            }
            out.push('\n');
        }
        for col in 0..n {
            if col > 0 {
                out.push_str(if shape.box_cols() > 1 && col % shape.box_cols() == 0 {
                    box_gap
                } else {
                    " "
                });
            }
            out.push_str(&show(grid.get(row, col)));
        }
        out.push('\n');
    }
    out
}
#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Puzzle {
        let mut all = parse(text, None);
        assert_eq!(all.len(), 1, "{all:?}");
        all.remove(0).unwrap()
    }

    #[test]
    fn line_and_grid_layouts_agree() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let grid = "53. | .7. | ...\n6.. | 195 | ...\n.98 | ... | .6.\n------+-------+------\n\
                    8.. | .6. | ..3\n4.. | 8.3 | ..1\n7.. | .2. | ..6\n---+---+---\n\
                    .6. | ... | 28.\n... | 419 | ..5\n... | .8. | .79\n";
        let a = one(line);
        let b = one(grid);
        assert_eq!(a.grid, b.grid);
        assert_eq!(a.layout, Layout::Line);
        assert_eq!(b.layout, Layout::Grid);
        assert_eq!(b.row_lines, vec![1, 2, 3, 5, 6, 7, 9, 10, 11]);
        assert_eq!(write(&a.grid, Layout::Line), line);
        assert_eq!(one(&write(&a.grid, Layout::Grid)).grid, a.grid);
        assert_eq!(one(&write(&a.grid, Layout::Numbers)).grid, a.grid);
    }

    #[test]
    fn numbers_with_commas_and_band_gaps() {
        let text = "1, 0, 0,4\n0,0,2,0\n\n0,3,0,0\n4,0,0,0,\n";
        let p = one(text);
        assert_eq!(p.grid.cells()[..4], [1, 0, 0, 4]);
        assert_eq!(p.layout, Layout::Grid, "single digits read as characters");
        let big = "10 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n".repeat(16);
        let p = one(&big);
        assert_eq!(p.layout, Layout::Numbers);
        assert_eq!(p.grid.get(15, 0), 10);
    }

    #[test]
    fn sixteen_cells_are_a_4x4_puzzle_unless_the_symbols_say_otherwise() {
        let four = parse("1...\n..2.\n", None);
        assert!(
            four.iter().all(|p| p.is_err()),
            "4-cell lines are rows: short grid"
        );
        let puzzles = parse("1..4............\n.2..............\n", None);
        assert_eq!(puzzles.len(), 2);
        assert_eq!(puzzles[0].as_ref().unwrap().grid.size(), 4);
        let row = "1..4...9........\n".repeat(16);
        let p = one(&row);
        assert_eq!(p.grid.size(), 16);
    }

    #[test]
    fn an_empty_grid_written_in_separated_cells_is_one_grid() {
        let empty = format!("{}\n", vec!["0"; 16].join(" ")).repeat(16);
        let p = one(&empty);
        assert_eq!(p.grid.size(), 16);
        let two = format!("{empty}\n{empty}");
        let puzzles = parse(&two, None);
        assert_eq!(puzzles.len(), 2);
        assert!(
            puzzles
                .iter()
                .all(|p| p.as_ref().unwrap().grid.size() == 16)
        );
        // Sixteen 4x4 puzzles, one per line, cells separated: still sixteen puzzles when more
        // lines of the same length follow.
        let many = format!("{}\n", vec!["0"; 16].join(" ")).repeat(20);
        assert_eq!(parse(&many, None).len(), 20);
    }

    #[test]
    fn errors_name_line_and_cell() {
        let results = parse("53..7....\nabc\n\n12?4............\n...\n", None);
        let messages: Vec<String> = results
            .iter()
            .map(|r| r.as_ref().unwrap_err().to_string())
            .collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(
            messages[0].starts_with("line 2: this row has 3 cells"),
            "{}",
            messages[0]
        );
        assert!(
            messages[1].starts_with("line 4: column 3: '?'"),
            "{}",
            messages[1]
        );
        assert!(
            messages[2].starts_with("line 5: 3 cells"),
            "{}",
            messages[2]
        );

        let too_big = parse("5...............\n", None);
        assert!(too_big[0].is_err(), "a 5 in a 4x4 puzzle");
        let bad_box = parse(&".".repeat(81), "2x4".parse().ok());
        assert!(
            bad_box[0]
                .as_ref()
                .unwrap_err()
                .kind
                .to_string()
                .contains("--box 2x4 does not fit a 9x9 grid")
        );
    }

    #[test]
    fn a_grid_parses_from_any_layout_and_displays_back() {
        let line = "1.24....3.1......6.413......5.......  # boxes 3x2";
        let grid: Grid = line.parse().unwrap();
        assert_eq!(grid.shape().to_string(), "3x2");
        assert_eq!(
            grid.to_string(),
            "1.24....3.1......6.413......5.......  # boxes 3x2"
        );
        for layout in [Layout::Grid, Layout::Numbers, Layout::NumberLine] {
            let shown = grid.display(layout).to_string();
            assert_eq!(shown.parse::<Grid>().unwrap(), grid, "{layout:?}: {shown}");
        }
        let error = "1...\n..2.\n\n1...............\n..2.............\n"
            .parse::<Grid>()
            .unwrap_err();
        assert!(
            matches!(error.kind, PuzzleErrorKind::ShortGrid { rows: 2, .. }),
            "{error}"
        );
        let two = "1...............\n..2.............\n"
            .parse::<Grid>()
            .unwrap_err();
        assert_eq!(two.line, 2);
        let bad = "12?4............".parse::<Grid>().unwrap_err();
        assert_eq!(
            bad.kind,
            PuzzleErrorKind::NotACell {
                column: 3,
                found: '?'
            }
        );
        assert!(
            bad.to_string()
                .starts_with("line 1: column 3: '?' is not a cell")
        );
    }

    #[test]
    fn json_records_read_the_sides_the_other_layouts_read() {
        let tiny = parse(r#"{"puzzle":"-,0"}"#, None);
        let message = tiny[0].as_ref().unwrap_err().to_string();
        assert!(message.contains("16 (4x4) or more"), "{message}");
        let four = parse(
            r#"{"puzzle":[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"#,
            None,
        );
        assert_eq!(four[0].as_ref().unwrap().grid.get(0, 0), 1);
    }

    #[test]
    fn clashing_clues_name_both_cells() {
        let mut line = vec!['.'; 81];
        line[2 * 9 + 4] = '7';
        line[2 * 9 + 7] = '7';
        let p = one(&line.iter().collect::<String>());
        let error = p.validate().unwrap_err();
        assert_eq!(
            error.kind.to_string(),
            "r3c5 and r3c8 both hold 7 (same row)"
        );
    }
}
