//! Reading and writing Sudoku puzzles in the text formats people actually use.
//!
//! One file may hold many puzzles, in any of three layouts:
//!
//! - **line**: a whole puzzle on one line, one character per cell (`.` or `0` blank, `1`-`9`
//!   then `A`-`Z` for sides up to 35), as in the standard 9x9 collections;
//! - **grid**: one row per line, where box separators such as `|`, `-`, `+` and spaces are
//!   ignored (`53.|.7.|...`), grids separated by blank lines;
//! - **numbers**: rows of whitespace- or comma-separated numbers, `0` blank, the usual layout
//!   for 16x16 and larger. Blank lines between bands of boxes are allowed inside a grid.
//!
//! `#` starts a comment. The side N comes from the number of cells; the boxes are the default
//! shape for N unless one is given. Errors name the line, and the cell where there is one;
//! a bad puzzle never stops the others from being read.

use std::fmt;

use super::grid::{Cell, Grid, symbol_name};
use super::shape::{BoxShape, MAX_SIZE};

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
}

/// A puzzle that could not be read, or whose clues break the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleError {
    /// The 1-based line of the fault.
    pub line: usize,
    /// What is wrong, naming the cell where there is one.
    pub message: String,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PuzzleError {}

impl Puzzle {
    /// Checks the clues: no symbol twice in a row, column or box. The error names both cells
    /// and the line of the second.
    pub fn validate(&self) -> Result<(), PuzzleError> {
        match self.grid.clash() {
            None => Ok(()),
            Some(clash) => Err(PuzzleError {
                line: self.line_of(clash.second),
                message: clash.to_string(),
            }),
        }
    }

    /// The line a cell was written on.
    pub fn line_of(&self, cell: Cell) -> usize {
        self.row_lines.get(cell.row).copied().unwrap_or(self.line)
    }
}

/// The cells found on one line: values (0 blank) in order, and whether they were numbers.
struct LineCells {
    values: Vec<u8>,
    numeric: bool,
    /// Whether every cell stands alone between separators, as in `0 0 3 0` or `1,0,2`.
    separated: bool,
}

/// Characters that only separate cells or boxes.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '|' | '-' | '+' | ',')
}

/// Reads the cells of one line (comment already removed). Numbers are recognised when every
/// token is a number without a leading zero, at most [`MAX_SIZE`], and at least one has two
/// digits; otherwise every non-separator character is one cell.
fn line_cells(text: &str) -> Result<LineCells, String> {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '|')
        .filter(|t| !t.is_empty())
        .collect();
    let numeric = tokens.iter().any(|t| t.len() >= 2)
        && tokens.iter().all(|t| {
            t.bytes().all(|b| b.is_ascii_digit())
                && !(t.len() >= 2 && t.starts_with('0'))
                && t.len() <= 2
                && t.parse::<usize>().is_ok_and(|v| v <= MAX_SIZE)
        });
    if numeric {
        let values = tokens
            .iter()
            .map(|t| t.parse::<u8>().unwrap_or(0))
            .collect();
        return Ok(LineCells {
            values,
            numeric: true,
            separated: true,
        });
    }
    let mut values = Vec::with_capacity(text.len());
    for (column, c) in text.chars().enumerate() {
        let value = match c {
            c if is_separator(c) => continue,
            '.' | '0' => 0,
            '1'..='9' => c as u8 - b'0',
            'A'..='Z' => c as u8 - b'A' + 10,
            'a'..='z' => c as u8 - b'a' + 10,
            _ => {
                return Err(format!(
                    "column {}: '{}' is not a cell (expected '.', '0', '1'-'9' or 'A'-'Z')",
                    column + 1,
                    c.escape_debug()
                ));
            }
        };
        values.push(value);
    }
    let separated = values.len() > 1 && tokens.len() == values.len();
    Ok(LineCells {
        values,
        numeric: false,
        separated,
    })
}

/// The exact square root of `n`, if `n` is a square.
fn square_root(n: usize) -> Option<usize> {
    let root = (n as f64).sqrt().round() as usize;
    (root * root == n).then_some(root)
}

/// A grid being read row by row.
struct Block {
    width: usize,
    numeric: bool,
    rows: Vec<u8>,
    row_lines: Vec<usize>,
    box_rows: usize,
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
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
        .collect();
    let mut results = Vec::new();
    let mut block: Option<Block> = None;
    let mut skipping = false;
    // The cell count of the previous line when it was a whole puzzle: the lines of a run of
    // one-line puzzles are read alike, whatever follows them.
    let mut run_of_lines: Option<usize> = None;
    for (index, &(line, content)) in lines.iter().enumerate() {
        if content.is_empty() {
            skipping = false;
            run_of_lines = None;
            if let Some(b) = &block {
                let inside_band = b.row_lines.len() % b.box_rows != 0;
                if inside_band {
                    results.push(Err(short_grid(b, Some(line))));
                    block = None;
                }
            }
            continue;
        }
        if skipping {
            continue;
        }
        let cells = match line_cells(content) {
            Ok(cells) => cells,
            Err(message) => {
                results.push(Err(PuzzleError { line, message }));
                skipping = block.take().is_some();
                continue;
            }
        };
        if cells.values.is_empty() {
            continue; // a separator line such as ------+------+------
        }
        let count = cells.values.len();
        if let Some(b) = &mut block {
            if count != b.width {
                results.push(Err(PuzzleError {
                    line,
                    message: format!(
                        "this row has {count} cells, but the grid that starts at line {} has \
                         rows of {}",
                        b.row_lines[0], b.width
                    ),
                }));
                block = None;
                skipping = true;
                continue;
            }
            b.rows.extend_from_slice(&cells.values);
            b.row_lines.push(line);
            if b.row_lines.len() == b.width {
                let b = block.take().expect("a block in progress");
                let layout = if b.numeric {
                    Layout::Numbers
                } else {
                    Layout::Grid
                };
                results.push(finish(b.rows, b.row_lines, layout, shape));
            }
            continue;
        }
        if run_of_lines == Some(count) || is_whole_puzzle(&cells, &lines[index + 1..]) {
            run_of_lines = Some(count);
            let layout = if cells.numeric {
                Layout::NumberLine
            } else {
                Layout::Line
            };
            results.push(finish_at(cells.values, line, Vec::new(), layout, shape));
        } else if (4..=MAX_SIZE).contains(&count) {
            run_of_lines = None;
            let box_rows = shape
                .filter(|s| s.size() == count)
                .or_else(|| BoxShape::for_size(count))
                .map_or(1, |s| s.box_rows());
            block = Some(Block {
                width: count,
                numeric: cells.numeric,
                rows: cells.values,
                row_lines: vec![line],
                box_rows,
            });
        } else {
            results.push(Err(PuzzleError {
                line,
                message: format!(
                    "{count} cells is neither a whole puzzle (a square number of cells, such \
                     as 81 for 9x9) nor a row of a grid (4 to {MAX_SIZE} cells)"
                ),
            }));
        }
    }
    if let Some(b) = block {
        results.push(Err(short_grid(&b, None)));
    }
    results
}

/// The error for a grid with too few rows, ended by a blank line or by the end of the text.
fn short_grid(block: &Block, blank_line: Option<usize>) -> PuzzleError {
    let end = match blank_line {
        Some(line) => format!("the blank line {line}"),
        None => "the end of the input".to_string(),
    };
    PuzzleError {
        line: block.row_lines[0],
        message: format!(
            "this grid has rows of {} cells but only {} rows before {end}",
            block.width,
            block.row_lines.len()
        ),
    }
}

/// Whether a line of cells is a whole puzzle rather than the first row of a grid. A square
/// number of cells of at least 16 is a whole puzzle, unless it could be a row (at most
/// [`MAX_SIZE`] cells) and either it, or the next line of the same length, holds a symbol too
/// large for a puzzle of that size (16 cells with a 9 in them are a row of a 16x16 grid), or
/// its cells are separated (`0 0 0 ...`) and it starts exactly one grid's worth of such rows,
/// followed by a blank line, the end, or a line of another length (an empty 16x16 grid
/// written in numbers).
fn is_whole_puzzle(cells: &LineCells, rest: &[(usize, &str)]) -> bool {
    let count = cells.values.len();
    let Some(side) = square_root(count).filter(|&s| s >= 4) else {
        return false;
    };
    if count > MAX_SIZE {
        return true;
    }
    let too_large = |values: &[u8]| values.iter().any(|&v| v as usize > side);
    if too_large(&cells.values) {
        return false;
    }
    let next = rest
        .iter()
        .filter(|(_, content)| !content.is_empty())
        .find_map(|(_, content)| line_cells(content).ok().filter(|c| !c.values.is_empty()));
    if next.is_some_and(|next| next.values.len() == count && too_large(&next.values)) {
        return false;
    }
    !(cells.separated && starts_one_grid(count, rest))
}

/// Whether the lines after a row of `width` cells hold the other `width - 1` rows of its
/// grid (blank lines between them allowed) and then a blank line, the end, or a line of
/// another length.
fn starts_one_grid(width: usize, rest: &[(usize, &str)]) -> bool {
    let mut rows = 1;
    for (_, content) in rest {
        let cells = match line_cells(content) {
            Ok(cells) => cells,
            Err(_) => return false,
        };
        if content.is_empty() {
            if rows == width {
                return true;
            }
            continue;
        }
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

fn finish(
    cells: Vec<u8>,
    row_lines: Vec<usize>,
    layout: Layout,
    shape: Option<BoxShape>,
) -> Result<Puzzle, PuzzleError> {
    finish_at(cells, row_lines[0], row_lines, layout, shape)
}

/// Builds the puzzle once its cells are all read: chooses the boxes and checks each symbol
/// against the side.
fn finish_at(
    cells: Vec<u8>,
    line: usize,
    row_lines: Vec<usize>,
    layout: Layout,
    shape: Option<BoxShape>,
) -> Result<Puzzle, PuzzleError> {
    let side = square_root(cells.len()).expect("a grid is square");
    let fail = |message| Err(PuzzleError { line, message });
    let shape = match shape {
        Some(shape) if shape.size() != side => {
            return fail(format!(
                "box shape {shape} does not fit a {side}x{side} grid: {} x {} = {}, not {side}",
                shape.box_rows(),
                shape.box_cols(),
                shape.size()
            ));
        }
        Some(shape) => shape,
        None => match BoxShape::for_size(side) {
            Some(shape) => shape,
            None => return fail(format!("a {side}x{side} grid is too large")),
        },
    };
    if let Some(index) = cells.iter().position(|&v| v as usize > side) {
        let cell = Cell {
            row: index / side,
            col: index % side,
        };
        return Err(PuzzleError {
            line: row_lines.get(cell.row).copied().unwrap_or(line),
            message: format!(
                "{cell}: symbol {} is too large for a {side}x{side} grid (1 to {side})",
                symbol_name(cells[index])
            ),
        });
    }
    let grid = Grid::from_cells(shape, cells).expect("size and values checked");
    Ok(Puzzle {
        grid,
        line,
        row_lines,
        layout,
    })
}

/// The character for a symbol in the one-character-per-cell layouts.
fn symbol_char(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// Writes a grid in the given layout. Sides above 35 have no single-character symbols, so the
/// character layouts fall back to numbers for them.
pub fn write(grid: &Grid, layout: Layout) -> String {
    let chars = grid.size() <= 35;
    match layout {
        Layout::Line if chars => grid.cells().iter().map(|&v| symbol_char(v)).collect(),
        Layout::Line | Layout::NumberLine => grid
            .cells()
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        Layout::Grid if chars => write_rows(grid, " | ", true, |v| symbol_char(v).to_string()),
        Layout::Grid | Layout::Numbers => {
            let width = grid.size().to_string().len();
            write_rows(grid, "   ", false, |v| format!("{v:>width$}"))
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
        if row > 0 && row % shape.box_rows() == 0 {
            if rule {
                let band = "-".repeat(shape.box_cols() * 2 - 1);
                out.push_str(&vec![band; n / shape.box_cols()].join("-+-"));
            }
            out.push('\n');
        }
        for col in 0..n {
            if col > 0 {
                out.push_str(if col % shape.box_cols() == 0 {
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
                .message
                .contains("box shape 2x4 does not fit a 9x9 grid")
        );
    }

    #[test]
    fn clashing_clues_name_both_cells() {
        let mut line = vec!['.'; 81];
        line[2 * 9 + 4] = '7';
        line[2 * 9 + 7] = '7';
        let p = one(&line.iter().collect::<String>());
        let error = p.validate().unwrap_err();
        assert_eq!(error.message, "r3c5 and r3c8 both hold 7 (same row)");
    }
}
