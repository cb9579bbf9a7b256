//! Variant puzzles in files people write by hand: blocks of `key: value` lines.
//!
//! ```text
//! puzzle: x-1                  an id for messages and records
//! size: 9
//! box: 3x3                     or none (a jigsaw)
//! rules: rows columns boxes diagonals
//! grid:                        N lines of N symbols, . for an empty cell
//! .........
//! ...
//! regions:                     with the rule regions: N lines of N letters (A is r1c1's)
//! cages: 23                    with the rule cages: K lines SUM rRcC rRcC ...
//! 15 r1c1 r1c2 r2c1
//! thermometers: 2              with the rule thermometers: K lines of cells from the bulb
//! r1c1 r1c2 r1c3
//! kropki: 1                    with the rule kropki: K lines white|black rRcC rRcC
//! white r4c4 r4c5
//! xv: 1                        with the rule xv: K lines x|v rRcC rRcC (sum 10 or 5)
//! x r9c1 r9c2
//! whispers: 1                  likewise whispers (an optional difference first), renban and
//! 5 r1c5 r2c5 r3c6             palindromes: K lines of cells
//! solution:                    optional: the stated solution, N lines
//! end
//! ```
//!
//! This is the plain format of the shared variant collection: lines starting with `#` are
//! comments, blank lines are skipped, a file may open with `puzzles: K` (then it must hold K
//! blocks), and the keys `variant`, `seed`, `mode`, `target_clues`, `clues` and `minimal` are
//! read and kept only as they are. The rules are named as in [`super::RULE_NAMES`]. A block
//! that cannot be read is reported with its line and skipped; the blocks after it are still
//! read. The same puzzles as JSON (`{"format": "sudoku-variants", "puzzles": [...]}`, the
//! same keys, grids as lists of rows) are read by [`read_json`].

use std::fmt;

use super::{Cage, Cell, MAX_VARIANT_SIZE, Puzzle, Rules, region_letter};
use crate::sudoku::rules::{Constraint, Killer, LISTED, Regions};
use crate::sudoku::text::FaultKind;
use crate::sudoku::{BoxShape, symbol_name};

/// A puzzle read from a file, with where it starts and the solution the file states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The line of its `puzzle:` key (for JSON, its index in the list, from 1).
    pub line: usize,
    pub puzzle: Puzzle,
    /// The solution the file states, if any.
    pub solution: Option<Vec<u8>>,
}

/// Why a block could not be read: the line, what kind of fault it is, and what is wrong
/// (naming the cell, the cage or the region when one is at fault).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub kind: FaultKind,
    pub line: usize,
    pub message: String,
    /// The cells the message is about (row, column from 0), for a page to mark: the clashing
    /// givens, the cell of a symbol that cannot be read, a cage's bad cell.
    pub cells: Vec<Cell>,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ReadError {}

/// Whether `text` looks like a file of variant puzzles (plain, JSON, ISS constraint strings
/// or f-puzzles) rather than plain grids: its first meaningful line is a `puzzles:` or
/// `puzzle:` key, an ISS string or link ([`super::iss`]) or an f-puzzles link (feature
/// `fpuzzles`), or it is JSON whose format is `sudoku-variants`, or an f-puzzles object.
pub fn is_variant_text(text: &str) -> bool {
    let first = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'));
    #[cfg(feature = "fpuzzles")]
    if super::fpuzzles::is_fpuzzles_text(text) {
        return true;
    }
    match first {
        Some(line) if line.starts_with('{') => {
            text.contains("\"sudoku-variants\"") || text.contains("\"rules\"")
        }
        Some(line) => {
            line.starts_with("puzzle:")
                || line.starts_with("puzzles:")
                || super::iss::is_iss_text(text)
        }
        None => false,
    }
}

/// Every puzzle of a text in any variant form, each read or why it cannot be: f-puzzles
/// objects and links (feature `fpuzzles`), JSON of the `sudoku-variants` format (feature
/// `json`; a file-level fault is then the one error), ISS constraint strings
/// ([`super::iss`]) or blocks of the plain format.
pub fn read_any(text: &str) -> Vec<Result<Entry, ReadError>> {
    #[cfg(feature = "fpuzzles")]
    if super::fpuzzles::is_fpuzzles_text(text) {
        return super::fpuzzles::read(text);
    }
    #[cfg(feature = "json")]
    if text.trim_start().starts_with(['{', '[']) {
        return read_json(text).unwrap_or_else(|error| vec![Err(error)]);
    }
    if super::iss::is_iss_text(text) {
        super::iss::read(text)
    } else {
        read(text)
    }
}

/// The value of a symbol character in a grid of side `n`: `1`-`9`, then `A`-`P` for 10-25
/// (lower case too); 0 for `.` or `0` (an empty cell); `None` for anything else.
fn symbol_value(ch: char, n: usize) -> Option<u8> {
    let value = match ch {
        '.' | '0' => return Some(0),
        '1'..='9' => ch as u8 - b'0',
        'A'..='Z' => ch as u8 - b'A' + 10,
        'a'..='z' => ch as u8 - b'a' + 10,
        _ => return None,
    };
    (usize::from(value) <= n).then_some(value)
}

/// Reads a cell written as `rRcC` (from 1).
pub fn parse_cell(text: &str) -> Option<Cell> {
    let rest = text.strip_prefix(['r', 'R'])?;
    let (row, col) = rest.split_once(['c', 'C'])?;
    let row: usize = row.parse().ok()?;
    let col: usize = col.parse().ok()?;
    (row >= 1 && col >= 1).then(|| (row - 1, col - 1))
}

/// Lines of a block with their numbers in the file.
type Lines = Vec<(usize, String)>;

/// The parts of a block before they make a puzzle.
#[derive(Default)]
struct Block {
    line: usize,
    id: String,
    size: Option<usize>,
    /// The rows of a rectangle (`rows: 6` of a 6x9 grid), when fewer than `size`.
    rows: Option<usize>,
    boxes: Option<Option<BoxShape>>,
    rules: Option<(usize, Vec<String>)>,
    grid: Option<(usize, Vec<String>)>,
    regions: Option<(usize, Vec<String>)>,
    cages: Option<(usize, Vec<(usize, String)>)>,
    /// The clues of the rules given as lists (thermometers, kropki, xv): the rule's name, the
    /// line of its key, and each clue with its line.
    lists: Vec<(String, usize, Lines)>,
    solution: Option<(usize, Vec<String>)>,
}

/// Reads every block of a file in the plain format: each a puzzle or the error that made it
/// unreadable, in file order. A file-level fault (a `puzzles:` count that does not match)
/// comes last.
pub fn read(text: &str) -> Vec<Result<Entry, ReadError>> {
    let mut results = Vec::new();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .peekable();
    // Each `puzzles: K` announces the puzzles up to the next one (files written one after
    // the other, `generate --variant ... >> file`, are read as they were written).
    let mut announced: Option<(usize, usize, usize)> = None; // line, count, first result
    let mut last_line = 0;
    let check = |announced: Option<(usize, usize, usize)>,
                 results: &mut Vec<Result<Entry, ReadError>>,
                 last_line: usize| {
        let Some((line, count, first)) = announced else {
            return;
        };
        let section = &results[first..];
        let found = section.iter().filter(|r| r.is_ok()).count();
        let blocks = section.len();
        if blocks != count {
            results.push(Err(ReadError {
                kind: FaultKind::Layout,
                cells: Vec::new(),
                line: line.max(last_line),
                message: format!(
                    "'puzzles: {count}' but {} {blocks} puzzles ({found} readable)",
                    if first == 0 {
                        "the file holds"
                    } else {
                        "the puzzles after it are"
                    }
                ),
            }));
        }
    };
    while let Some((line, content)) = lines.next() {
        let (key, value) = split_key(content);
        match key {
            "puzzles" => match value.parse::<usize>() {
                Ok(count) => {
                    check(announced, &mut results, last_line);
                    announced = Some((line, count, results.len()));
                }
                Err(_) => results.push(Err(ReadError {
                    kind: FaultKind::Layout,
                    cells: Vec::new(),
                    line,
                    message: format!("'puzzles: {value}': expected one count of puzzles"),
                })),
            },
            "puzzle" => {
                last_line = line;
                let block = read_block(line, value, &mut lines, &mut last_line);
                results.push(block.and_then(build));
            }
            _ => {
                last_line = line;
                results.push(Err(ReadError {
                    kind: FaultKind::Layout,
                    cells: Vec::new(),
                    line,
                    message: format!("expected 'puzzle: ID' to start a puzzle, found '{content}'"),
                }));
                // Skip to the end of whatever this was.
                for (line, content) in lines.by_ref() {
                    last_line = line;
                    if content == "end" {
                        break;
                    }
                }
            }
        }
    }
    check(announced, &mut results, last_line);
    results
}

/// `key: value`, trimmed; a line without a colon is all key.
fn split_key(line: &str) -> (&str, &str) {
    match line.split_once(':') {
        Some((key, value)) => (key.trim(), value.trim()),
        None => (line, ""),
    }
}

/// Reads the lines of one block, up to its `end`. On an error, skips to the `end`.
fn read_block<'a>(
    line: usize,
    id: &str,
    lines: &mut std::iter::Peekable<impl Iterator<Item = (usize, &'a str)>>,
    last_line: &mut usize,
) -> Result<Block, ReadError> {
    let mut block = Block {
        line,
        id: id.to_string(),
        ..Block::default()
    };
    let result = read_keys(&mut block, lines, last_line);
    if result.is_err() {
        for (line, content) in lines.by_ref() {
            *last_line = line;
            if content == "end" {
                break;
            }
            if content.starts_with("puzzle:") {
                // A block that lost its end: do not swallow the next one.
                break;
            }
        }
    }
    result.map(|()| block)
}

fn read_keys<'a>(
    block: &mut Block,
    lines: &mut std::iter::Peekable<impl Iterator<Item = (usize, &'a str)>>,
    last_line: &mut usize,
) -> Result<(), ReadError> {
    if block.id.is_empty() {
        return Err(ReadError {
            kind: FaultKind::Layout,
            cells: Vec::new(),
            line: block.line,
            message: "'puzzle:' needs an id".into(),
        });
    }
    loop {
        // A new block before `end`: this one ends here, unfinished.
        if let Some(&(line, content)) = lines.peek()
            && content.starts_with("puzzle:")
        {
            return Err(ReadError {
                kind: FaultKind::Layout,
                cells: Vec::new(),
                line,
                message: format!("puzzle {} has no 'end' line", block.id),
            });
        }
        let Some((line, content)) = lines.next() else {
            return Err(ReadError {
                kind: FaultKind::Layout,
                cells: Vec::new(),
                line: *last_line,
                message: format!("puzzle {} has no 'end' line", block.id),
            });
        };
        *last_line = line;
        let fail = |message: String| ReadError {
            kind: FaultKind::Value,
            cells: Vec::new(),
            line,
            message,
        };
        let (key, value) = split_key(content);
        // The `count` lines after the key (`label` names it in the error when they run
        // short), each with its line.
        let mut numbered = |count: usize, label: &str, lines: &mut std::iter::Peekable<_>| {
            let mut taken = Vec::with_capacity(count);
            for _ in 0..count {
                match lines.next() {
                    Some((line, text)) if text != "end" => {
                        *last_line = line;
                        taken.push((line, String::from(text)));
                    }
                    _ => {
                        return Err(ReadError {
                            kind: FaultKind::Layout,
                            ..fail(format!(
                                "'{label}' needs {count} lines after it, found {}",
                                taken.len()
                            ))
                        });
                    }
                }
            }
            Ok(taken)
        };
        let size = || {
            block.size.ok_or_else(|| ReadError {
                kind: FaultKind::Layout,
                cells: Vec::new(),
                line,
                message: format!("'size:' must come before '{key}:'"),
            })
        };
        match key {
            "end" => return Ok(()),
            "size" => {
                let size = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_VARIANT_SIZE).contains(n))
                    .ok_or_else(|| {
                        fail(format!(
                            "'size: {value}': expected a side from 1 to {MAX_VARIANT_SIZE}"
                        ))
                    })?;
                block.size = Some(size);
            }
            "rows" => {
                let n = size()?;
                let rows = value
                    .parse::<usize>()
                    .ok()
                    .filter(|rows| (1..=n).contains(rows))
                    .ok_or_else(|| {
                        fail(format!(
                            "'rows: {value}': expected 1 to {n} rows (a rectangle of rows of {n})"
                        ))
                    })?;
                block.rows = Some(rows);
            }
            "box" => {
                block.boxes = Some(if value == "none" {
                    None
                } else {
                    Some(value.parse::<BoxShape>().map_err(|_| {
                        fail(format!("'box: {value}': expected ROWSxCOLS (3x3) or none"))
                    })?)
                });
            }
            "rules" => {
                block.rules = Some((line, value.split_whitespace().map(String::from).collect()));
            }
            "grid" | "solution" | "regions" => {
                // A grid and a solution have the rectangle's rows; a region map is square.
                let count = match key {
                    "regions" => size()?,
                    _ => block.rows.unwrap_or(size()?),
                };
                let rows = numbered(count, &format!("{key}:"), lines)?;
                let rows = Some((line, rows.into_iter().map(|(_, row)| row).collect()));
                match key {
                    "grid" => block.grid = rows,
                    "solution" => block.solution = rows,
                    _ => block.regions = rows,
                }
            }
            "cages" => {
                let n = size()?;
                let count: usize = value.parse().ok().filter(|&k| k <= n * n).ok_or_else(|| {
                    fail(format!("'cages: {value}': expected the number of cages"))
                })?;
                let cages = numbered(count, &format!("cages: {count}"), lines)?;
                block.cages = Some((line, cages));
            }
            listed if LISTED.contains(&listed) => {
                let n = size()?;
                let count: usize =
                    value
                        .parse()
                        .ok()
                        .filter(|&k| k <= 4 * n * n)
                        .ok_or_else(|| {
                            fail(format!("'{key}: {value}': expected the number of clues"))
                        })?;
                let clues = numbered(count, &format!("{key}: {count}"), lines)?;
                block.lists.retain(|(name, _, _)| name != key);
                block.lists.push((key.to_string(), line, clues));
            }
            "variant" | "seed" | "mode" | "target_clues" | "clues" | "minimal" | "title"
            | "difficulty" => {}
            _ => {
                return Err(ReadError {
                    kind: FaultKind::Layout,
                    ..fail(format!("unknown key '{key}'"))
                });
            }
        }
    }
}

/// The cells of one row of a grid or region map: its words, when there are exactly `n` of
/// them (a row written as numbers separated by spaces: `10 . 3 16`), else its characters
/// without spaces (`A.3G`, or `12.4 5678`, spaced between boxes).
fn row_cells(row: &str, n: usize) -> Vec<&str> {
    let words: Vec<&str> = row.split_whitespace().collect();
    if n > 1 && words.len() == n {
        return words;
    }
    row.char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(at, c)| &row[at..at + c.len_utf8()])
        .collect()
}

/// The symbol a cell is written as: a number (`0` or `.` for empty) or one character (1-9,
/// then A-Z from 10).
fn cell_value(cell: &str, n: usize) -> Option<u8> {
    let value = match cell {
        "." => 0,
        digits if digits.bytes().all(|b| b.is_ascii_digit()) => {
            digits.parse::<usize>().ok().filter(|&v| v <= n)? as u8
        }
        _ => {
            let mut chars = cell.chars();
            match (chars.next(), chars.next()) {
                (Some(ch), None) => symbol_value(ch, n)?,
                _ => return None,
            }
        }
    };
    Some(value)
}

/// The grid rows of a block as symbols (0 for empty).
fn symbols(
    n: usize,
    (line, rows): &(usize, Vec<String>),
    what: &str,
) -> Result<Vec<u8>, ReadError> {
    let mut values = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let line = line + r + 1;
        let cells = row_cells(row, n);
        if cells.len() != n {
            return Err(ReadError {
                kind: FaultKind::Layout,
                cells: Vec::new(),
                line,
                message: format!("{what} row {} has {} cells, not {n}", r + 1, cells.len()),
            });
        }
        for (c, &cell) in cells.iter().enumerate() {
            let value = cell_value(cell, n).ok_or_else(|| ReadError {
                kind: FaultKind::Value,
                cells: vec![(r, c)],
                line,
                message: format!(
                    "r{}c{}: '{}' is not a symbol of a grid of side {n} (1 to {}, or . for empty)",
                    r + 1,
                    c + 1,
                    cell.chars().take(20).collect::<String>(),
                    if n <= 25 {
                        symbol_name(n as u8)
                    } else {
                        n.to_string()
                    }
                ),
            })?;
            values.push(value);
        }
    }
    Ok(values)
}

/// A block made into a puzzle: rules named, structure validated, givens checked.
fn build(block: Block) -> Result<Entry, ReadError> {
    let at = |line: usize| {
        move |message: String| ReadError {
            kind: FaultKind::Layout,
            cells: Vec::new(),
            line,
            message,
        }
    };
    let rule_at = |line: usize| {
        move |message: String| ReadError {
            kind: FaultKind::Rule,
            ..at(line)(message)
        }
    };
    let n = block
        .size
        .ok_or_else(|| at(block.line)(format!("puzzle {} has no 'size:'", block.id)))?;
    let (rules_line, names) = block
        .rules
        .ok_or_else(|| at(block.line)(format!("puzzle {} has no 'rules:'", block.id)))?;
    let grid = block
        .grid
        .as_ref()
        .ok_or_else(|| at(block.line)(format!("puzzle {} has no 'grid:'", block.id)))?;
    // Each grid has the board's rows (a JSON list may have any number), a region map n.
    let board_rows = block.rows.unwrap_or(n);
    let grids = [
        ("grid", Some(grid), board_rows),
        ("solution", block.solution.as_ref(), board_rows),
        ("regions", block.regions.as_ref(), n),
    ];
    for (what, given, count) in grids {
        if let Some((line, given)) = given
            && given.len() != count
        {
            return Err(at(*line)(format!(
                "'{what}' has {} rows, not {count}",
                given.len()
            )));
        }
    }
    let mut rules = Rules::latin(n).with_rows(board_rows);
    let (mut rows, mut columns) = (false, false);
    for name in &names {
        match name.as_str() {
            "rows" => rows = true,
            "columns" => columns = true,
            "boxes" => {
                let shape = match block.boxes {
                    Some(Some(shape)) => shape,
                    Some(None) => {
                        return Err(at(rules_line)(
                            "the rule boxes needs a 'box:' shape, not none".into(),
                        ));
                    }
                    None => BoxShape::for_size(n).ok_or_else(|| {
                        at(rules_line)(format!("the rule boxes needs a 'box:' shape for side {n}"))
                    })?,
                };
                rules.boxes = Some(shape);
            }
            "regions" => {
                let (line, map) = block.regions.as_ref().ok_or_else(|| {
                    at(rules_line)("the rule regions needs a 'regions:' map".into())
                })?;
                rules.add(Constraint::Regions(Regions {
                    map: region_map(n, *line, map)?,
                }));
            }
            "cages" => {
                let (_, cages) = block.cages.as_ref().ok_or_else(|| {
                    at(rules_line)("the rule cages needs a 'cages: K' list".into())
                })?;
                let cages = cages
                    .iter()
                    .map(|(line, cage)| parse_cage(cage).map_err(rule_at(*line)))
                    .collect::<Result<_, _>>()?;
                rules.add(Constraint::Killer(Killer { cages }));
            }
            other if Constraint::named(other).is_some() => {
                rules.add(Constraint::named(other).expect("a rule known by name"));
            }
            listed if LISTED.contains(&listed) => {
                let (_, _, clues) = block
                    .lists
                    .iter()
                    .find(|(name, _, _)| name == listed)
                    .ok_or_else(|| {
                        at(rules_line)(format!("the rule {listed} needs a '{listed}: K' list"))
                    })?;
                let constraint = Constraint::listed(listed, n, clues)
                    .expect("a listed rule")
                    .map_err(|(line, why)| rule_at(line)(why))?;
                rules.add(constraint);
            }
            other => {
                return Err(at(rules_line)(format!(
                    "unknown rule '{other}' (known: {})",
                    super::RULE_NAMES.join(" ")
                )));
            }
        }
    }
    if !rows || !columns {
        return Err(at(rules_line)(
            "the rules must include rows and columns (every variant keeps them)".into(),
        ));
    }
    if block.regions.is_some() && rules.regions().is_none() {
        return Err(at(block.regions.as_ref().map_or(block.line, |r| r.0))(
            "a 'regions:' map without the rule regions".into(),
        ));
    }
    if let Some((name, line, _)) = block.lists.iter().find(|(name, _, _)| !rules.has(name)) {
        return Err(at(*line)(format!(
            "a '{name}:' list without the rule {name}"
        )));
    }
    if let Err(error) = rules.validate() {
        let line = match &error {
            super::RulesError::Clue { rule, index, .. } => block
                .lists
                .iter()
                .find(|(name, _, _)| name == rule)
                .and_then(|(_, _, clues)| clues.get(index - 1))
                .map_or(rules_line, |(line, _)| *line),
            super::RulesError::RegionSize(..) | super::RulesError::RegionNotConnected(_) => {
                block.regions.as_ref().map_or(rules_line, |r| r.0)
            }
            super::RulesError::CageCellOutside(k, _)
            | super::RulesError::CageOverlap(k, _)
            | super::RulesError::CageSum(k, _) => block
                .cages
                .as_ref()
                .and_then(|(_, cages)| cages.get(*k - 1))
                .map_or(rules_line, |(line, _)| *line),
            _ => rules_line,
        };
        return Err(ReadError {
            cells: error.cells(),
            ..rule_at(line)(error.to_string())
        });
    }
    let givens = symbols(n, grid, "grid")?;
    let solution = block
        .solution
        .as_ref()
        .map(|rows| symbols(n, rows, "solution"))
        .transpose()?;
    let puzzle = Puzzle {
        id: block.id,
        rules,
        givens,
    };
    if let Some(clash) = puzzle.clashes().first() {
        // The line of the first cell's row in the grid.
        let row = clash.cells.first().map_or(0, |&(row, _)| row + 1);
        return Err(ReadError {
            kind: FaultKind::Clash,
            cells: clash.cells.clone(),
            ..at(grid.0 + row)(clash.to_string())
        });
    }
    Ok(Entry {
        line: block.line,
        puzzle,
        solution,
    })
}

/// A region map: N rows of N letters, A for the first region.
fn region_map(n: usize, line: usize, rows: &[String]) -> Result<Vec<u8>, ReadError> {
    let mut map = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let cells = row_cells(row, n);
        let line = line + r + 1;
        if cells.len() != n {
            return Err(ReadError {
                kind: FaultKind::Layout,
                cells: Vec::new(),
                line,
                message: format!("regions row {} has {} cells, not {n}", r + 1, cells.len()),
            });
        }
        for (c, cell) in cells.into_iter().enumerate() {
            // A letter (A for the first region), or a number from 1.
            let index = match cell.parse::<usize>() {
                Ok(number) => number.wrapping_sub(1),
                Err(_) if cell.len() == 1 => {
                    (cell.as_bytes()[0].to_ascii_uppercase() as usize).wrapping_sub('A' as usize)
                }
                Err(_) => usize::MAX,
            };
            if index >= n {
                return Err(ReadError {
                    kind: FaultKind::Value,
                    cells: vec![(r, c)],
                    line,
                    message: format!(
                        "r{}c{}: '{}' is not a region (a letter from A to {}, or a number from 1 \
                         to {n})",
                        r + 1,
                        c + 1,
                        cell.chars().take(20).collect::<String>(),
                        region_letter(n.min(26) - 1)
                    ),
                });
            }
            map.push(index as u8);
        }
    }
    Ok(map)
}

/// A cage line: `SUM rRcC rRcC ...`.
pub fn parse_cage(text: &str) -> Result<Cage, String> {
    let mut words = text.split_whitespace();
    let sum = words
        .next()
        .and_then(|word| word.parse::<u32>().ok())
        .ok_or_else(|| format!("'{text}': a cage is its sum, then its cells (15 r1c1 r1c2)"))?;
    let cells = words
        .map(|word| parse_cell(word).ok_or_else(|| format!("'{word}' is not a cell (r1c1)")))
        .collect::<Result<Vec<_>, _>>()?;
    if cells.is_empty() {
        return Err(format!("'{text}': a cage needs cells after its sum"));
    }
    Ok(Cage { sum, cells })
}

/// A grid as N lines of N symbols (`.` for empty), as the plain format writes it.
pub fn grid_lines(n: usize, grid: &[u8]) -> String {
    let mut text = String::with_capacity(n * (n + 1));
    for row in grid.chunks(n) {
        text.push_str(&cells_text(row, n));
        text.push('\n');
    }
    text
}

/// A board's symbols a row a line as its rules write them: [`grid_lines`], or digits from 0
/// on doppelganger's board (`.` for an empty cell).
pub fn board_lines(rules: &Rules, values: &[u8]) -> String {
    if !rules.digits_from_zero() {
        return grid_lines(rules.size, values);
    }
    let symbol = |v: u8| match v {
        0 => ".".to_string(),
        v => rules.symbol_text(v),
    };
    values
        .chunks(rules.size)
        .map(|row| row.iter().map(|&v| symbol(v)).collect::<String>() + "\n")
        .collect()
}

/// A region map as N lines of N letters, A for region 0 (of numbers from 1, separated by
/// spaces, for more than 26 regions).
pub fn region_lines(n: usize, regions: &[u8]) -> String {
    let mut text = String::with_capacity(n * (n + 1));
    for row in regions.chunks(n) {
        if n > 26 {
            let numbers: Vec<String> = row.iter().map(|&r| (r + 1).to_string()).collect();
            text.push_str(&numbers.join(" "));
        } else {
            text.extend(row.iter().map(|&region| region_letter(usize::from(region))));
        }
        text.push('\n');
    }
    text
}

/// The blocks a puzzle's rules need after its grid: the `regions:` map of a jigsaw, the
/// `cages:` list of a killer (empty for other rules).
pub fn rule_blocks(rules: &Rules) -> String {
    let n = rules.size;
    let mut text = String::new();
    if let Some(regions) = rules.regions() {
        text.push_str("regions:\n");
        text.push_str(&region_lines(n, regions));
    }
    for constraint in rules.constraints() {
        let rule = constraint.rule();
        let lines = rule.lines();
        if !lines.is_empty() {
            text.push_str(&format!("{}: {}\n", rule.name(), lines.len()));
            for line in lines {
                text.push_str(&line);
                text.push('\n');
            }
        }
    }
    if !rules.cages().is_empty() {
        text.push_str(&format!("cages: {}\n", rules.cages().len()));
        for cage in rules.cages() {
            text.push_str(&cage.sum.to_string());
            for &cell in &cage.cells {
                text.push(' ');
                text.push_str(&super::cell_name(cell));
            }
            text.push('\n');
        }
    }
    text
}

/// A whole block of the plain format: the puzzle's id, size, boxes and rules, then `keys`
/// (more `key: value` lines, each ending in a newline, such as a generator's `seed:`), the
/// grid and rule blocks, the solution when given, and `end`.
pub fn block(puzzle: &Puzzle, keys: &str, solution: Option<&[u8]>) -> String {
    let rules = &puzzle.rules;
    let n = rules.size;
    let boxes = rules
        .boxes
        .map_or("none".to_string(), |shape| shape.to_string());
    // A rectangle's rows (6 of a 6x9 grid) follow its size.
    let rows = if rules.rows() < n {
        format!("rows: {}\n", rules.rows())
    } else {
        String::new()
    };
    let mut text = format!(
        "puzzle: {}\nsize: {n}\n{rows}box: {boxes}\nrules: {}\n{keys}grid:\n{}{}",
        puzzle.id,
        rules.names().join(" "),
        grid_lines(n, &puzzle.givens),
        rule_blocks(rules)
    );
    if let Some(solution) = solution {
        text.push_str("solution:\n");
        text.push_str(&grid_lines(n, solution));
    }
    text.push_str("end\n");
    text
}

/// A whole grid on one line, row after row.
pub fn grid_line(grid: &[u8]) -> String {
    let n = grid.len().isqrt();
    cells_text(grid, n)
}

/// Cells of a grid of side `n` as one character each, `.` for empty; past side 25, as
/// numbers separated by spaces, `0` for empty.
fn cells_text(cells: &[u8], n: usize) -> String {
    if n > 25 {
        let numbers: Vec<String> = cells.iter().map(u8::to_string).collect();
        return numbers.join(" ");
    }
    cells
        .iter()
        .map(|&v| if v == 0 { '.' } else { symbol_char(v) })
        .collect()
}

fn symbol_char(value: u8) -> char {
    symbol_name(value).chars().next().unwrap_or('?')
}

/// Reads the JSON form (`{"format": "sudoku-variants", "puzzles": [...]}`): each puzzle as
/// its keys would be written in a block, grids as lists of rows; the same checks as [`read`].
#[cfg(feature = "json")]
pub fn read_json(text: &str) -> Result<Vec<Result<Entry, ReadError>>, ReadError> {
    use serde_json::Value;
    let value: Value = serde_json::from_str(text).map_err(|error| ReadError {
        kind: FaultKind::Layout,
        cells: Vec::new(),
        line: error.line(),
        message: format!("not JSON: {error}"),
    })?;
    let puzzles = match &value {
        Value::Object(object) => object.get("puzzles").and_then(Value::as_array),
        Value::Array(list) => Some(list),
        _ => None,
    }
    .ok_or_else(|| ReadError {
        kind: FaultKind::Layout,
        cells: Vec::new(),
        line: 1,
        message: "expected an object with a list 'puzzles' (or a list of puzzles)".into(),
    })?;
    Ok(puzzles
        .iter()
        .enumerate()
        .map(|(index, puzzle)| {
            // Errors name the puzzle's place in the list, not a line of the JSON text.
            json_block(index + 1, puzzle)
                .and_then(build)
                .map_err(|error| ReadError {
                    line: index + 1,
                    ..error
                })
        })
        .collect())
}

/// A JSON puzzle as a block; `line` is its place in the list, from 1.
#[cfg(feature = "json")]
fn json_block(line: usize, puzzle: &serde_json::Value) -> Result<Block, ReadError> {
    use serde_json::Value;
    let fail = |message: String| ReadError {
        kind: FaultKind::Layout,
        cells: Vec::new(),
        line,
        message,
    };
    let rows = |key: &str| -> Result<Option<(usize, Vec<String>)>, ReadError> {
        match puzzle.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(rows)) => rows
                .iter()
                .map(|row| {
                    row.as_str()
                        .map(String::from)
                        .ok_or_else(|| fail(format!("'{key}' must be a list of row strings")))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(|rows| Some((line, rows))),
            Some(_) => Err(fail(format!("'{key}' must be a list of row strings"))),
        }
    };
    let id = match puzzle.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Number(id)) => id.to_string(),
        _ => format!("#{line}"),
    };
    let size = puzzle
        .get("size")
        .and_then(Value::as_u64)
        .map(|n| n as usize)
        .filter(|n| (1..=MAX_VARIANT_SIZE).contains(n))
        .ok_or_else(|| {
            fail(format!(
                "puzzle {id}: 'size' must be a side from 1 to {MAX_VARIANT_SIZE}"
            ))
        })?;
    // A rectangle's rows, fewer than its size (6 of a 6x9 grid).
    let board_rows = match puzzle.get("rows") {
        None | Some(Value::Null) => None,
        Some(value) => Some(
            value
                .as_u64()
                .map(|rows| rows as usize)
                .filter(|rows| (1..=size).contains(rows))
                .ok_or_else(|| fail(format!("puzzle {id}: 'rows' must be 1 to {size}")))?,
        ),
    };
    let boxes = match puzzle.get("box") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(Value::String(shape)) if shape == "none" => Some(None),
        Some(Value::String(shape)) => Some(Some(shape.parse::<BoxShape>().map_err(|_| {
            fail(format!(
                "puzzle {id}: 'box' must be ROWSxCOLS (3x3) or null"
            ))
        })?)),
        Some(_) => {
            return Err(fail(format!(
                "puzzle {id}: 'box' must be ROWSxCOLS or null"
            )));
        }
    };
    let rules = match puzzle.get("rules") {
        Some(Value::Array(names)) => names
            .iter()
            .map(|name| name.as_str().map(String::from))
            .collect::<Option<Vec<_>>>(),
        Some(Value::String(names)) => Some(names.split_whitespace().map(String::from).collect()),
        _ => None,
    }
    .ok_or_else(|| fail(format!("puzzle {id}: 'rules' must be a list of rule names")))?;
    let cages = match puzzle.get("cages") {
        None | Some(Value::Null) => None,
        Some(Value::Array(cages)) => Some(
            cages
                .iter()
                .map(|cage| {
                    let sum = cage.get("sum").and_then(Value::as_u64);
                    let cells = cage.get("cells").and_then(Value::as_array);
                    match (sum, cells) {
                        (Some(sum), Some(cells)) => {
                            let mut text = sum.to_string();
                            for cell in cells {
                                text.push(' ');
                                text.push_str(cell.as_str().unwrap_or("?"));
                            }
                            Ok((line, text))
                        }
                        _ => Err(fail(format!(
                            "puzzle {id}: a cage is {{\"sum\": S, \"cells\": [\"r1c1\", ...]}}"
                        ))),
                    }
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(_) => return Err(fail(format!("puzzle {id}: 'cages' must be a list"))),
    };
    // Thermometers, kropki dots and XV clues: a list of the lines the block format writes
    // (`"thermometers": ["r1c1 r1c2 r1c3"]`, `"kropki": ["white r1c1 r1c2"]`).
    let mut lists = Vec::new();
    for name in LISTED {
        match puzzle.get(name) {
            None | Some(Value::Null) => {}
            Some(Value::Array(clues)) => {
                let clues = clues
                    .iter()
                    .map(|clue| clue.as_str().map(|text| (line, text.to_string())))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| {
                        fail(format!("puzzle {id}: '{name}' must be a list of strings"))
                    })?;
                lists.push((name.to_string(), line, clues));
            }
            Some(_) => return Err(fail(format!("puzzle {id}: '{name}' must be a list"))),
        }
    }
    Ok(Block {
        lists,
        line,
        id,
        size: Some(size),
        rows: board_rows,
        boxes,
        rules: Some((line, rules)),
        grid: rows("grid")?,
        regions: rows("regions")?,
        cages: cages.map(|cages| (line, cages)),
        solution: rows("solution")?,
    })
}
