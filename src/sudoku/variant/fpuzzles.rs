//! f-puzzles: the JSON object that f-puzzles saves (and SudokuPad opens), and the link that
//! carries it, LZString-compressed in base64 after `load=`. Setters draw their puzzles there;
//! this reads what they paste and writes any puzzle of the rules both sides know, so that it
//! opens in f-puzzles or SudokuPad.
//!
//! ```text
//! {"size": 9, "grid": [[{"value": 5, "given": true}, {}, ...], ...],
//!  "diagonal+": true, "antiknight": true,
//!  "thermometer": [{"lines": [["R1C1", "R1C2", "R1C3"]]}],
//!  "killercage": [{"cells": ["R2C2", "R2C3"], "value": "15"}],
//!  "difference": [{"cells": ["R4C4", "R4C5"]}], "ratio": [...], "xv": [{"cells": [...], "value": "X"}]}
//! ```
//!
//! Read: the side (1 to 16) with its default boxes, or the regions the cells name (a jigsaw);
//! givens (`given: true`) and given pencilmarks; odd and even cells (as pencilmarks);
//! minimum and maximum cells (as greater-than signs to their neighbours); both diagonals;
//! anti-knight, anti-king, non-consecutive, disjoint groups; thermometers, palindromes, renban, whispers, modular and entropic lines
//! (`modularline`, `entropicline`, as Rangsk's solver extends the format); killer cages with
//! sums; white (difference 1) and black (ratio 2) kropki dots; XV; their negative rules
//! (`negative: ["ratio", "xv"]`, and `nonconsecutive` beside white dots: every white dot is
//! given); the windows of windoku written as extra regions; arrows (a pill too), double
//! arrows, between, zipper and region sum lines, clones, quadruples, little killers,
//! sandwiches, X-sums and skyscrapers; the stated `solution`. A constraint f-puzzles names
//! that this reader does not know (a single diagonal, slow thermometers...) is an error
//! naming it: a puzzle is never
//! solved with a rule left out. Cosmetic keys (titles, text, lines, shapes drawn without a
//! rule) are passed over.
//!
//! A link's compressed text is limited to [`MAX_COMPRESSED_CHARS`] before it is expanded:
//! LZString's output can grow with the square of its input, and a crafted link must not
//! fill memory.

use serde_json::{Map, Value, json};

use super::text::{Entry, ReadError};
use super::{Cage, Cell, Fault, Puzzle, Rules};
use crate::sudoku::BoxShape;
use crate::sudoku::rules::{
    AntiKing, AntiKnight, Arrow, Arrows, BetweenLines, Clones, Constraint, DEFAULT_MODULUS,
    Diagonals, DisjointGroups, Dot, DoubleArrows, EntropicLines, GreaterThan, Killer, Kropki,
    LittleKillers, ModularLines, Negated, NegativeClues, NonConsecutive, Outside, Palindromes,
    Pencilmarks, Quadruples, RegionSumLines, Regions, Renban, Sandwiches, Side, Skyscrapers,
    SumlessCages, Thermometers, Whispers, Windows, XSums, Xv, ZipperLines, german_difference,
};
use crate::sudoku::text::FaultKind;

/// The most characters of compressed text a link may carry. A 16x16 puzzle with many rules
/// takes a few thousand; at this size the expanded text cannot pass about 100 MB.
pub const MAX_COMPRESSED_CHARS: usize = 20_000;

/// The largest side f-puzzles draws.
pub const MAX_FPUZZLES_SIZE: usize = 16;

/// Keys of the f-puzzles object that draw without adding a rule, or say who made it.
const COSMETIC: [&str; 12] = [
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "text",
    "line",
    "rectangle",
    "circle",
    "cage",
    "highlightConflicts",
];

/// Settings of the f-puzzles solver itself, not rules of the puzzle.
const SOLVER_SETTINGS: [&str; 2] = ["disabledlogic", "truecandidatesoptions"];

fn layout(message: String) -> Fault {
    (FaultKind::Layout, message, Vec::new())
}

fn value(message: String) -> Fault {
    (FaultKind::Value, message, Vec::new())
}

fn unsupported(message: String) -> Fault {
    (FaultKind::Unsupported, message, Vec::new())
}

/// Whether `text` holds f-puzzles puzzles: its first meaningful line is an f-puzzles link (or
/// any link with `load=`), a bare compressed puzzle (LZString's base64 of `{"`, which starts
/// `N4Ig`), or a JSON object with `size` and `grid`.
pub fn is_fpuzzles_text(text: &str) -> bool {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        // f-puzzles' grid is a list of rows of cell objects (`"grid": [[{...`); the grids of
        // the `sudoku-variants` JSON are lists of strings.
        let head: String = trimmed.chars().take(4096).collect();
        let cells_grid = head.match_indices("\"grid\"").any(|(at, key)| {
            let rest: String = head[at + key.len()..]
                .chars()
                .filter(|c| !c.is_whitespace())
                .take(3)
                .collect();
            rest == ":[["
        });
        return cells_grid && head.contains("\"size\"");
    }
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
        .is_some_and(|line| line.contains("load=") || line.starts_with("N4Ig"))
}

/// Every puzzle of `text`: one JSON object (the whole text), or one link or compressed
/// puzzle per line (blank lines and `#` comments skipped), each read or why it cannot be.
pub fn read(text: &str) -> Vec<Result<Entry, ReadError>> {
    let error = |line: usize, (kind, message, cells): Fault| ReadError {
        kind,
        line,
        message,
        cells,
    };
    if text.trim_start().starts_with('{') {
        let read = serde_json::from_str::<Value>(text)
            .map_err(|e| (e.line(), layout(format!("not JSON: {e}"))))
            .and_then(|object| parse(&object, "fpuzzles-1").map_err(|fault| (1, fault)));
        return vec![
            read.map(|(puzzle, solution)| Entry {
                line: 1,
                puzzle,
                solution,
            })
            .map_err(|(line, fault)| error(line, fault)),
        ];
    }
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim().starts_with('#'))
        .map(|(index, line)| {
            let line_number = index + 1;
            expand(line.trim())
                .and_then(|json| {
                    serde_json::from_str::<Value>(&json)
                        .map_err(|e| layout(format!("the link does not hold JSON: {e}")))
                })
                .and_then(|object| parse(&object, &format!("fpuzzles-{line_number}")))
                .map(|(puzzle, solution)| Entry {
                    line: line_number,
                    puzzle,
                    solution,
                })
                .map_err(|fault| error(line_number, fault))
        })
        .collect()
}

/// The JSON text of a link or a bare compressed puzzle: the `load=` value (up to `&` or `#`,
/// its `%XX` escapes decoded), expanded.
fn expand(line: &str) -> Result<String, Fault> {
    let data = match line.find("load=") {
        Some(at) => {
            let query = &line[at + 5..];
            &query[..query.find(['&', '#', ' ']).unwrap_or(query.len())]
        }
        None => line,
    };
    if data.len() > MAX_COMPRESSED_CHARS {
        return Err(layout(format!(
            "the compressed puzzle has {} characters; at most {MAX_COMPRESSED_CHARS} are read",
            data.len()
        )));
    }
    let data = data
        .replace("%2B", "+")
        .replace("%2F", "/")
        .replace("%3D", "=")
        .replace(' ', "+");
    let wide = lz_str::decompress_from_base64(&data)
        .filter(|wide| !wide.is_empty())
        .ok_or_else(|| layout("not an f-puzzles link: its data does not decompress".into()))?;
    String::from_utf16(&wide).map_err(|_| layout("the link's data is not text".into()))
}

/// A cell written `R1C1` (rows and columns from 1) in a grid of side `n`.
fn cell(word: &str, n: usize) -> Option<Cell> {
    let (row, col) = word.strip_prefix(['R', 'r'])?.split_once(['C', 'c'])?;
    let index = |part: &str| {
        part.parse::<usize>()
            .ok()
            .filter(|v| (1..=n).contains(v))
            .map(|v| v - 1)
    };
    Some((index(row)?, index(col)?))
}

/// The cells of a list of `R1C1` names.
fn cells_of(list: Option<&Value>, n: usize, what: &str) -> Result<Vec<Cell>, Fault> {
    let list = list
        .and_then(Value::as_array)
        .ok_or_else(|| layout(format!("{what}: expected a list of cells")))?;
    list.iter()
        .map(|name| {
            let name = name.as_str().unwrap_or("");
            cell(name, n).ok_or_else(|| value(format!("{what}: '{name}' is not a cell")))
        })
        .collect()
}

/// The one cell of an entry that names a cell (`{"cell": "R1C1"}`: odd, even, minimum,
/// maximum).
fn single_cell(entry: &Value, n: usize, key: &str) -> Result<Cell, Fault> {
    let name = entry.get("cell").and_then(Value::as_str).unwrap_or("");
    cell(name, n).ok_or_else(|| value(format!("{key}: '{name}' is not a cell")))
}

/// The entries of a constraint's list (an absent key or `null` is an empty list).
fn entries<'v>(object: &'v Map<String, Value>, key: &str) -> Result<&'v [Value], Fault> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(list)) => Ok(list),
        Some(_) => Err(layout(format!("'{key}': expected a list"))),
    }
}

/// The lines of every entry of a line constraint (`[{"lines": [[cells], ...]}, ...]`).
fn lines_of(object: &Map<String, Value>, key: &str, n: usize) -> Result<Vec<Vec<Cell>>, Fault> {
    let mut lines = Vec::new();
    for entry in entries(object, key)? {
        let list = entry
            .get("lines")
            .and_then(Value::as_array)
            .ok_or_else(|| layout(format!("'{key}': each entry has 'lines'")))?;
        for line in list {
            lines.push(cells_of(Some(line), n, key)?);
        }
    }
    Ok(lines)
}

/// The lines of every entry of a line constraint with a number (`[{"lines": [...], "value":
/// "5"}, ...]`: a whisper's difference, a modular line's modulus), each with its entry's
/// number or `default`.
fn numbered_lines_of(
    object: &Map<String, Value>,
    key: &str,
    n: usize,
    default: u8,
) -> Result<Vec<(u8, Vec<Cell>)>, Fault> {
    let mut lines = Vec::new();
    for entry in entries(object, key)? {
        let number = match number(entry) {
            None => default,
            Some(number) => u8::try_from(number)
                .map_err(|_| value(format!("{key}: the number {number} is too large")))?,
        };
        let list = entry
            .get("lines")
            .and_then(Value::as_array)
            .ok_or_else(|| layout(format!("'{key}': each entry has 'lines'")))?;
        for line in list {
            lines.push((number, cells_of(Some(line), n, key)?));
        }
    }
    Ok(lines)
}

/// An entry's `value` as a number, when it has one.
fn number(entry: &Value) -> Option<u32> {
    match entry.get("value")? {
        Value::String(text) => text.trim().parse().ok(),
        Value::Number(number) => number.as_u64().and_then(|v| u32::try_from(v).ok()),
        _ => None,
    }
}

/// Whether a key is set: `true`, or a list that is not empty.
fn is_set(value: &Value) -> bool {
    match value {
        Value::Bool(set) => *set,
        Value::Array(list) => !list.is_empty(),
        Value::Null => false,
        _ => true,
    }
}

/// The region of each cell when the regions are the boxes of `shape`, numbered in reading
/// order as f-puzzles numbers them.
fn box_map(n: usize, shape: BoxShape) -> Vec<u8> {
    let across = n / shape.box_cols();
    (0..n * n)
        .map(|i| ((i / n) / shape.box_rows() * across + (i % n) / shape.box_cols()) as u8)
        .collect()
}

/// Whether two region maps cut the grid the same way, whatever their numbers.
fn same_partition(a: &[u8], b: &[u8]) -> bool {
    let renumbered = |map: &[u8]| {
        let mut seen: Vec<u8> = Vec::new();
        map.iter()
            .map(|&region| match seen.iter().position(|&r| r == region) {
                Some(k) => k,
                None => {
                    seen.push(region);
                    seen.len() - 1
                }
            })
            .collect::<Vec<usize>>()
    };
    a.len() == b.len() && renumbered(a) == renumbered(b)
}

/// Reads one f-puzzles object as a puzzle named `id`, with its stated solution.
pub fn parse(object: &Value, id: &str) -> Result<(Puzzle, Option<Vec<u8>>), Fault> {
    let object = object
        .as_object()
        .ok_or_else(|| layout("expected an f-puzzles object".into()))?;
    let n = object
        .get("size")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| (1..=MAX_FPUZZLES_SIZE).contains(n))
        .ok_or_else(|| {
            value(format!(
                "'size': expected a side from 1 to {MAX_FPUZZLES_SIZE}"
            ))
        })?;
    // Every key is a rule read below, cosmetic, or refused by name.
    const READ: [&str; 33] = [
        "diagonal+",
        "diagonal-",
        "antiknight",
        "antiking",
        "nonconsecutive",
        "disjointgroups",
        "odd",
        "even",
        "minimum",
        "maximum",
        "thermometer",
        "palindrome",
        "renban",
        "whispers",
        "modularline",
        "entropicline",
        "killercage",
        "difference",
        "ratio",
        "xv",
        "extraregion",
        "negative",
        "arrow",
        "doublearrow",
        "betweenline",
        "zipperline",
        "regionsumline",
        "clone",
        "quadruple",
        "littlekillersum",
        "sandwichsum",
        "xsum",
        "skyscraper",
    ];
    for (key, setting) in object {
        let known = READ.contains(&key.as_str())
            || COSMETIC.contains(&key.as_str())
            || SOLVER_SETTINGS.contains(&key.as_str());
        if !known && is_set(setting) {
            return Err(unsupported(format!(
                "the f-puzzles constraint '{key}' is not supported yet"
            )));
        }
    }
    // A drawn cage is only a drawing, but a value `DR<k>` makes it a rule in the format as
    // Rangsk's solver extends it (its digits' sum has digital root k).
    if entries(object, "cage")?.iter().any(|cage| {
        cage.get("value")
            .and_then(Value::as_str)
            .is_some_and(|value| value.trim().starts_with("DR"))
    }) {
        return Err(unsupported(
            "a cage with a digital root ('DR' value) is not supported yet".into(),
        ));
    }
    // The negative rules f-puzzles has: every black dot given (`ratio`), every X and V given
    // (`xv`); every white dot given is its `nonconsecutive` flag with white dots drawn.
    let mut negated = Vec::new();
    for kind in entries(object, "negative")? {
        match kind.as_str() {
            Some("ratio") => negated.push(Negated::Black),
            Some("xv") => negated.push(Negated::Xv),
            _ => {
                return Err(unsupported(format!(
                    "the f-puzzles negative rule {kind} is not supported yet"
                )));
            }
        }
    }
    let grid = object
        .get("grid")
        .and_then(Value::as_array)
        .filter(|rows| rows.len() == n)
        .ok_or_else(|| layout(format!("'grid': expected {n} rows")))?;
    let mut givens = vec![0u8; n * n];
    let mut regions = vec![None; n * n];
    let mut marks = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|cells| cells.len() == n)
            .ok_or_else(|| layout(format!("'grid' row {}: expected {n} cells", r + 1)))?;
        for (c, cell) in row.iter().enumerate() {
            let at = |why: &str| {
                (
                    FaultKind::Value,
                    format!("r{}c{}: {why}", r + 1, c + 1),
                    vec![(r, c)],
                )
            };
            let symbol = |value: &Value| {
                value
                    .as_u64()
                    .filter(|v| (1..=n as u64).contains(v))
                    .map(|v| v as u8)
            };
            if cell.get("given").and_then(Value::as_bool) == Some(true) {
                let given = cell
                    .get("value")
                    .ok_or_else(|| at("a given without a value"))?;
                givens[r * n + c] =
                    symbol(given).ok_or_else(|| at(&format!("{given} is not a symbol")))?;
            }
            if let Some(region) = cell.get("region").filter(|v| !v.is_null()) {
                let region = region
                    .as_u64()
                    .filter(|&k| k < n as u64)
                    .ok_or_else(|| at(&format!("region {region} is not one of 0 to {}", n - 1)))?;
                regions[r * n + c] = Some(region as u8);
            }
            if let Some(list) = cell
                .get("givenPencilMarks")
                .and_then(Value::as_array)
                .filter(|list| !list.is_empty())
            {
                let values = list
                    .iter()
                    .map(|v| symbol(v).ok_or_else(|| at(&format!("{v} is not a symbol"))))
                    .collect::<Result<Vec<u8>, _>>()?;
                marks.push(((r, c), values));
            }
        }
    }
    // Regions named by some cells only: the others keep their box's number, as f-puzzles
    // does (a box's region is its index).
    let jigsaw = regions.iter().any(Option::is_some);
    let default_boxes = BoxShape::for_size(n);
    let mut rules = if jigsaw {
        let boxes = default_boxes.map(|shape| box_map(n, shape));
        let map = (0..n * n)
            .map(|i| regions[i].or_else(|| boxes.as_ref().map(|boxes| boxes[i])))
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(|| layout("every cell needs a region on a side without boxes".into()))?;
        // Regions that are the boxes after all.
        if boxes.is_some_and(|boxes| same_partition(&boxes, &map)) {
            Rules::latin(n).with_boxes(default_boxes)
        } else {
            Rules::latin(n).with(Constraint::Regions(Regions { map }))
        }
    } else {
        let shape = default_boxes
            .ok_or_else(|| layout(format!("no boxes fit side {n}: name the regions")))?;
        Rules::latin(n).with_boxes(Some(shape))
    };
    let flag = |key: &str| object.get(key).is_some_and(is_set);
    match (flag("diagonal+"), flag("diagonal-")) {
        (true, true) => rules.add(Constraint::Diagonals(Diagonals)),
        (false, false) => {}
        _ => return Err(unsupported("a single diagonal is not supported yet".into())),
    }
    if flag("antiknight") {
        rules.add(Constraint::AntiKnight(AntiKnight));
    }
    if flag("antiking") {
        rules.add(Constraint::AntiKing(AntiKing));
    }
    let white_dots = entries(object, "difference")?
        .iter()
        .any(|dot| number(dot).is_none_or(|v| v == 1));
    if flag("nonconsecutive") && white_dots {
        negated.insert(0, Negated::White);
    } else if flag("nonconsecutive") {
        rules.add(Constraint::NonConsecutive(NonConsecutive));
    }
    if flag("disjointgroups") {
        rules.add(Constraint::DisjointGroups(DisjointGroups));
    }
    // Odd and even cells are pencilmarks of the odd or the even symbols.
    for (key, parity) in [("odd", 1), ("even", 0)] {
        for entry in entries(object, key)? {
            let at = single_cell(entry, n, key)?;
            let values: Vec<u8> = (1..=n as u8).filter(|v| v % 2 == parity).collect();
            marks.push((at, values));
        }
    }
    // A minimum cell is smaller than each orthogonal neighbour that is not a minimum cell
    // itself, a maximum larger than each that is not a maximum: a greater-than sign between
    // it and each.
    let mut signs = Vec::new();
    for (key, largest) in [("minimum", false), ("maximum", true)] {
        let marked = entries(object, key)?
            .iter()
            .map(|entry| single_cell(entry, n, key))
            .collect::<Result<Vec<Cell>, _>>()?;
        for &at in &marked {
            let (r, c) = at;
            let beside = [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, c.wrapping_sub(1)),
                (r, c + 1),
            ];
            for other in beside
                .into_iter()
                .filter(|&(r, c)| r < n && c < n)
                .filter(|other| !marked.contains(other))
            {
                signs.push(if largest {
                    vec![at, other]
                } else {
                    vec![other, at]
                });
            }
        }
    }
    if !signs.is_empty() {
        rules.add(Constraint::GreaterThan(GreaterThan { clues: signs }));
    }
    let extra = entries(object, "extraregion")?
        .iter()
        .map(|entry| cells_of(entry.get("cells"), n, "extraregion"))
        .collect::<Result<Vec<_>, _>>()?;
    if !extra.is_empty() {
        // Read only as the windows of windoku, the one rule of extra regions known here.
        let windows = Rules::latin(n)
            .with_boxes(rules.boxes)
            .with(Constraint::Windows(Windows));
        let mut wanted: Vec<Vec<Cell>> = windows
            .units()
            .into_iter()
            .filter(|unit| unit.tag.starts_with('w'))
            .map(|unit| unit.cells)
            .collect();
        let mut found: Vec<Vec<Cell>> = extra
            .into_iter()
            .map(|mut cells| {
                cells.sort_unstable();
                cells
            })
            .collect();
        wanted.iter_mut().for_each(|cells| cells.sort_unstable());
        wanted.sort();
        found.sort();
        if found != wanted || wanted.is_empty() {
            return Err(unsupported(
                "extra regions other than the windows of windoku are not supported yet".into(),
            ));
        }
        rules.add(Constraint::Windows(Windows));
    }
    if !marks.is_empty() {
        rules.add(Constraint::Pencilmarks(Pencilmarks { cells: marks }));
    }
    let thermometers = lines_of(object, "thermometer", n)?;
    if !thermometers.is_empty() {
        rules.add(Constraint::Thermometers(Thermometers {
            lines: thermometers,
        }));
    }
    let palindromes = lines_of(object, "palindrome", n)?;
    if !palindromes.is_empty() {
        rules.add(Constraint::Palindromes(Palindromes { lines: palindromes }));
    }
    let renban = lines_of(object, "renban", n)?;
    if !renban.is_empty() {
        rules.add(Constraint::Renban(Renban { lines: renban }));
    }
    // German whispers by default: at least half the range apart (5 on 9x9).
    let whispers = numbered_lines_of(object, "whispers", n, german_difference(n))?;
    if !whispers.is_empty() {
        rules.add(Constraint::Whispers(Whispers { lines: whispers }));
    }
    let modular = numbered_lines_of(object, "modularline", n, DEFAULT_MODULUS)?;
    if !modular.is_empty() {
        rules.add(Constraint::ModularLines(ModularLines { lines: modular }));
    }
    let entropic = lines_of(object, "entropicline", n)?;
    if !entropic.is_empty() {
        rules.add(Constraint::EntropicLines(EntropicLines { lines: entropic }));
    }
    let (mut cages, mut sumless) = (Vec::new(), Vec::new());
    for entry in entries(object, "killercage")? {
        let cells = cells_of(entry.get("cells"), n, "killercage")?;
        match number(entry) {
            Some(sum) => cages.push(Cage { sum, cells }),
            None => sumless.push(cells),
        }
    }
    if !sumless.is_empty() {
        rules.add(Constraint::SumlessCages(SumlessCages { cages: sumless }));
    }
    if !cages.is_empty() {
        rules.add(Constraint::Killer(Killer { cages }));
    }
    let mut dots = Vec::new();
    for (key, dot, plain) in [("difference", Dot::White, 1), ("ratio", Dot::Black, 2)] {
        for entry in entries(object, key)? {
            let cells = cells_of(entry.get("cells"), n, key)?;
            if number(entry).is_some_and(|v| v != plain) {
                return Err((
                    FaultKind::Unsupported,
                    format!("a {key} dot of another value than {plain} is not supported yet"),
                    cells,
                ));
            }
            match cells[..] {
                [a, b] => dots.push((dot, a, b)),
                _ => return Err(layout(format!("{key}: a dot is between two cells"))),
            }
        }
    }
    if !dots.is_empty() {
        rules.add(Constraint::Kropki(Kropki { dots }));
    }
    let mut sums = Vec::new();
    for entry in entries(object, "xv")? {
        let cells = cells_of(entry.get("cells"), n, "xv")?;
        let sum = match entry.get("value").and_then(Value::as_str) {
            Some("X" | "x") => 10,
            Some("V" | "v") => 5,
            other => return Err(value(format!("xv: {other:?} is neither X nor V"))),
        };
        match cells[..] {
            [a, b] => sums.push((sum, a, b)),
            _ => return Err(layout("xv: a clue is between two cells".into())),
        }
    }
    if !sums.is_empty() {
        rules.add(Constraint::Xv(Xv { clues: sums }));
    }
    if !negated.is_empty() {
        rules.add(Constraint::NegativeClues(NegativeClues { kinds: negated }));
    }
    read_clues_along_cells(object, n, &mut rules)?;
    let solution = match object.get("solution").and_then(Value::as_array) {
        Some(list) if list.len() == n * n => list
            .iter()
            .map(|v| {
                v.as_u64()
                    .filter(|v| (1..=n as u64).contains(v))
                    .map(|v| v as u8)
            })
            .collect::<Option<Vec<u8>>>(),
        _ => None,
    };
    Ok((Puzzle::checked(id, rules, givens)?, solution))
}

/// Reads the rules read along cells that f-puzzles (and Rangsk's solver) draw: arrows (each
/// line of an entry one arrow from the circle `cells`), double arrows, between, zipper and
/// region sum lines, clones (each cell and its clone), quadruples, little killers (from the
/// clue's cell outside the grid, in its direction) and the outside clues of sandwiches,
/// X-sums and skyscrapers (`R0C3` above column 3, `R3C0` left of row 3, side + 1 below or
/// right).
fn read_clues_along_cells(
    object: &Map<String, Value>,
    n: usize,
    rules: &mut Rules,
) -> Result<(), Fault> {
    let mut arrows = Vec::new();
    for entry in entries(object, "arrow")? {
        let circle = cells_of(entry.get("cells"), n, "arrow")?;
        for line in entry
            .get("lines")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
        {
            let cells = cells_of(Some(line), n, "arrow")?;
            // The line starts in the circle.
            let line: Vec<Cell> = cells.into_iter().filter(|c| !circle.contains(c)).collect();
            if !line.is_empty() {
                arrows.push(Arrow {
                    circle: circle.clone(),
                    line,
                });
            }
        }
    }
    if !arrows.is_empty() {
        rules.add(Constraint::Arrows(Arrows { arrows }));
    }
    let double = lines_of(object, "doublearrow", n)?;
    if !double.is_empty() {
        rules.add(Constraint::DoubleArrows(DoubleArrows { lines: double }));
    }
    let between = lines_of(object, "betweenline", n)?;
    if !between.is_empty() {
        rules.add(Constraint::BetweenLines(BetweenLines { lines: between }));
    }
    let zippers = lines_of(object, "zipperline", n)?;
    if !zippers.is_empty() {
        rules.add(Constraint::ZipperLines(ZipperLines { lines: zippers }));
    }
    let region_sums = lines_of(object, "regionsumline", n)?;
    if !region_sums.is_empty() {
        rules.add(Constraint::RegionSumLines(RegionSumLines {
            lines: region_sums,
        }));
    }
    let mut clones = Vec::new();
    for entry in entries(object, "clone")? {
        let cells = cells_of(entry.get("cells"), n, "clone")?;
        let copies = cells_of(entry.get("cloneCells"), n, "clone")?;
        if cells.len() != copies.len() {
            return Err(layout("clone: as many clone cells as cells".into()));
        }
        clones.extend(
            cells
                .into_iter()
                .zip(copies)
                .map(|(a, b)| vec![vec![a], vec![b]]),
        );
    }
    if !clones.is_empty() {
        rules.add(Constraint::Clones(Clones { clues: clones }));
    }
    let mut quadruples = Vec::new();
    for entry in entries(object, "quadruple")? {
        let cells = cells_of(entry.get("cells"), n, "quadruple")?;
        let corner = cells
            .iter()
            .copied()
            .min()
            .ok_or_else(|| layout("quadruple: four cells".into()))?;
        let values = entry
            .get("values")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|v| {
                v.as_u64()
                    .or_else(|| v.as_str().and_then(|t| t.parse().ok()))
                    .filter(|v| (1..=n as u64).contains(v))
                    .map(|v| v as u8)
                    .ok_or_else(|| value(format!("quadruple: {v} is not a symbol")))
            })
            .collect::<Result<Vec<u8>, _>>()?;
        quadruples.push((corner, values));
    }
    if !quadruples.is_empty() {
        rules.add(Constraint::Quadruples(Quadruples { clues: quadruples }));
    }
    let mut little = Vec::new();
    for entry in entries(object, "littlekillersum")? {
        let Some(sum) = number(entry) else {
            continue; // a clue drawn without its sum
        };
        let name = entry.get("cell").and_then(Value::as_str).unwrap_or("");
        let (r, c) = outside_cell(name, n)
            .ok_or_else(|| value(format!("littlekillersum: '{name}' is not a cell")))?;
        let step = match entry.get("direction").and_then(Value::as_str) {
            Some("UR") => (-1, 1),
            Some("UL") => (-1, -1),
            Some("DR") => (1, 1),
            Some("DL") => (1, -1),
            other => return Err(value(format!("littlekillersum: direction {other:?}"))),
        };
        // From the clue outside (rows and columns from -1 to n), one step in.
        let start = (r + step.0, c + step.1);
        if !(0..n as isize).contains(&start.0) || !(0..n as isize).contains(&start.1) {
            return Err(value(format!(
                "littlekillersum at '{name}' points outside the grid"
            )));
        }
        let cells = LittleKillers::diagonal(n, (start.0 as usize, start.1 as usize), step);
        little.push((sum, cells));
    }
    if !little.is_empty() {
        rules.add(Constraint::LittleKillers(LittleKillers { clues: little }));
    }
    let outside_clues = |key: &str| -> Result<Vec<(Outside, u32)>, Fault> {
        let mut clues = Vec::new();
        for entry in entries(object, key)? {
            let Some(clue) = number(entry) else {
                continue;
            };
            let name = entry.get("cell").and_then(Value::as_str).unwrap_or("");
            let place = outside_cell(name, n)
                .and_then(|(r, c)| outside_place(r, c, n))
                .ok_or_else(|| value(format!("{key}: '{name}' is not a cell beside the grid")))?;
            clues.push((place, clue));
        }
        Ok(clues)
    };
    let sandwiches = outside_clues("sandwichsum")?;
    if !sandwiches.is_empty() {
        rules.add(Constraint::Sandwiches(Sandwiches { clues: sandwiches }));
    }
    let x_sums = outside_clues("xsum")?;
    if !x_sums.is_empty() {
        rules.add(Constraint::XSums(XSums { clues: x_sums }));
    }
    let skyscrapers = outside_clues("skyscraper")?;
    if !skyscrapers.is_empty() {
        rules.add(Constraint::Skyscrapers(Skyscrapers { clues: skyscrapers }));
    }
    Ok(())
}

/// A cell name that may lie one row or column outside a grid of side `n` (`R0C3`,
/// `R10C3` on 9x9), as row and column from -1 to n.
fn outside_cell(word: &str, n: usize) -> Option<(isize, isize)> {
    let (row, col) = word.strip_prefix(['R', 'r'])?.split_once(['C', 'c'])?;
    let index = |part: &str| {
        part.parse::<isize>()
            .ok()
            .filter(|&v| (0..=n as isize + 1).contains(&v))
            .map(|v| v - 1)
    };
    Some((index(row)?, index(col)?))
}

/// The outside clue at row `r`, column `c` (one of them just outside the grid).
fn outside_place(r: isize, c: isize, n: usize) -> Option<Outside> {
    let n = n as isize;
    let inside = |v: isize| (0..n).contains(&v);
    let (side, index) = match (r, c) {
        (-1, c) if inside(c) => (Side::Top, c),
        (r, c) if r == n && inside(c) => (Side::Bottom, c),
        (r, -1) if inside(r) => (Side::Left, r),
        (r, c) if c == n && inside(r) => (Side::Right, r),
        _ => return None,
    };
    Some(Outside {
        side,
        index: index as usize,
    })
}

/// The f-puzzles name of the cell just outside the grid where an outside clue stands.
fn outside_name(at: Outside, n: usize) -> String {
    let i = at.index + 1;
    match at.side {
        Side::Top => format!("R0C{i}"),
        Side::Bottom => format!("R{}C{i}", n + 1),
        Side::Left => format!("R{i}C0"),
        Side::Right => format!("R{i}C{}", n + 1),
    }
}

/// `R1C1`, the name f-puzzles gives a cell.
fn name((r, c): Cell) -> String {
    format!("R{}C{}", r + 1, c + 1)
}

/// The f-puzzles object of `puzzle` (with `solution`, when given), or why f-puzzles cannot
/// draw it: a side past 16, a grid with neither boxes nor regions, or a rule it lacks
/// (greater-than signs).
pub fn to_json(puzzle: &Puzzle, solution: Option<&[u8]>) -> Result<Value, String> {
    let rules = &puzzle.rules;
    let n = rules.size;
    let white_dots = rules.constraints().iter().any(|constraint| {
        matches!(constraint, Constraint::Kropki(kropki) if kropki.dots.iter().any(|d| d.0 == Dot::White))
    });
    if white_dots && rules.has("non-consecutive") {
        return Err(
            "f-puzzles reads non-consecutive beside white dots as 'every white dot is given'"
                .to_string(),
        );
    }
    if n > MAX_FPUZZLES_SIZE {
        return Err(format!(
            "f-puzzles draws sides up to {MAX_FPUZZLES_SIZE}, not {n}"
        ));
    }
    if !rules.is_square() {
        return Err("f-puzzles draws square grids of digits from 1 only".to_string());
    }
    // f-puzzles draws its default boxes unless the cells name their regions.
    let default_boxes = BoxShape::for_size(n).map(|shape| box_map(n, shape));
    let regions: Option<Vec<u8>> = match (rules.regions(), rules.boxes) {
        (Some(map), _) => Some(map.to_vec()),
        (None, Some(shape)) => Some(box_map(n, shape)),
        (None, None) => {
            return Err("f-puzzles has no grid without boxes or regions".to_string());
        }
    }
    .filter(|map| {
        default_boxes
            .as_ref()
            .is_none_or(|boxes| !same_partition(boxes, map))
    });
    // A cell's pencilmarks, all of them: a cell marked twice holds a symbol of both lists.
    let mut marks: Vec<(Cell, Vec<u8>)> = Vec::new();
    for constraint in rules.constraints() {
        let Constraint::Pencilmarks(listed) = constraint else {
            continue;
        };
        for (at, values) in &listed.cells {
            match marks.iter_mut().find(|(cell, _)| cell == at) {
                Some((_, kept)) => kept.retain(|v| values.contains(v)),
                None => marks.push((*at, values.clone())),
            }
        }
    }
    if let Some((at, _)) = marks.iter().find(|(_, values)| values.is_empty()) {
        // f-puzzles reads an empty list as no pencilmarks at all.
        return Err(format!(
            "the pencilmarks of {} allow no symbol, which f-puzzles cannot write",
            super::cell_name(*at)
        ));
    }
    let grid: Vec<Value> = (0..n)
        .map(|r| {
            Value::Array(
                (0..n)
                    .map(|c| {
                        let mut cell = Map::new();
                        let given = puzzle.givens[r * n + c];
                        if given != 0 {
                            cell.insert("value".into(), json!(given));
                            cell.insert("given".into(), json!(true));
                        }
                        if let Some(map) = &regions {
                            cell.insert("region".into(), json!(map[r * n + c]));
                        }
                        if let Some((_, values)) = marks.iter().find(|(at, _)| *at == (r, c)) {
                            cell.insert("givenPencilMarks".into(), json!(values));
                        }
                        Value::Object(cell)
                    })
                    .collect(),
            )
        })
        .collect();
    let mut object = Map::new();
    object.insert("size".into(), json!(n));
    object.insert("title".into(), json!(puzzle.id));
    object.insert("grid".into(), Value::Array(grid));
    let names = |cells: &[Cell]| cells.iter().copied().map(name).collect::<Vec<_>>();
    let line_list = |lines: &[Vec<Cell>]| {
        lines
            .iter()
            .map(|line| json!({"lines": [names(line)]}))
            .collect::<Vec<_>>()
    };
    for constraint in rules.constraints() {
        match constraint {
            Constraint::Pencilmarks(_) | Constraint::Regions(_) => {}
            Constraint::Diagonals(_) => {
                object.insert("diagonal+".into(), json!(true));
                object.insert("diagonal-".into(), json!(true));
            }
            Constraint::Windows(_) => {
                let windows: Vec<Value> = rules
                    .units()
                    .into_iter()
                    .filter(|unit| unit.tag.starts_with('w'))
                    .map(|unit| json!({"cells": names(&unit.cells)}))
                    .collect();
                object.insert("extraregion".into(), json!(windows));
            }
            Constraint::AntiKnight(_) => {
                object.insert("antiknight".into(), json!(true));
            }
            Constraint::AntiKing(_) => {
                object.insert("antiking".into(), json!(true));
            }
            Constraint::NonConsecutive(_) => {
                object.insert("nonconsecutive".into(), json!(true));
            }
            Constraint::DisjointGroups(_) => {
                object.insert("disjointgroups".into(), json!(true));
            }
            Constraint::Thermometers(thermometers) => {
                object.insert("thermometer".into(), json!(line_list(&thermometers.lines)));
            }
            Constraint::Palindromes(palindromes) => {
                object.insert("palindrome".into(), json!(line_list(&palindromes.lines)));
            }
            Constraint::Renban(renban) => {
                object.insert("renban".into(), json!(line_list(&renban.lines)));
            }
            Constraint::Whispers(whispers) => {
                let lines: Vec<Value> = whispers
                    .lines
                    .iter()
                    .map(
                        |(apart, line)| json!({"lines": [names(line)], "value": apart.to_string()}),
                    )
                    .collect();
                object.insert("whispers".into(), json!(lines));
            }
            Constraint::ModularLines(modular) => {
                let lines: Vec<Value> = modular
                    .lines
                    .iter()
                    .map(|(m, line)| json!({"lines": [names(line)], "value": m.to_string()}))
                    .collect();
                object.insert("modularline".into(), json!(lines));
            }
            Constraint::EntropicLines(entropic) => {
                object.insert("entropicline".into(), json!(line_list(&entropic.lines)));
            }
            Constraint::Killer(killer) => {
                let cages = killer.cages.iter().map(
                    |cage| json!({"cells": names(&cage.cells), "value": cage.sum.to_string()}),
                );
                push_all(&mut object, "killercage", cages);
            }
            Constraint::SumlessCages(sumless) => {
                let cages = sumless
                    .cages
                    .iter()
                    .map(|cells| json!({"cells": names(cells)}));
                push_all(&mut object, "killercage", cages);
            }
            Constraint::Kropki(kropki) => {
                for (key, colour) in [("difference", Dot::White), ("ratio", Dot::Black)] {
                    let dots: Vec<Value> = kropki
                        .dots
                        .iter()
                        .filter(|(dot, _, _)| *dot == colour)
                        .map(|&(_, a, b)| json!({"cells": [name(a), name(b)]}))
                        .collect();
                    if !dots.is_empty() {
                        object.insert(key.into(), json!(dots));
                    }
                }
            }
            Constraint::Xv(xv) => {
                let clues: Vec<Value> = xv
                    .clues
                    .iter()
                    .map(|&(sum, a, b)| {
                        json!({"cells": [name(a), name(b)], "value": if sum == 10 { "X" } else { "V" }})
                    })
                    .collect();
                object.insert("xv".into(), json!(clues));
            }
            Constraint::GreaterThan(_)
            | Constraint::AntiTaxicab(_)
            | Constraint::GlobalGroups(_)
            | Constraint::DutchFlatmates(_)
            | Constraint::Indexing(_)
            | Constraint::PairRelations(_)
            | Constraint::LockoutLines(_)
            | Constraint::SumLines(_)
            | Constraint::ValueIndexing(_)
            | Constraint::Sums(_)
            | Constraint::EqualSums(_)
            | Constraint::EqualityCages(_)
            | Constraint::RellikCages(_)
            | Constraint::Lunchboxes(_)
            | Constraint::NumberedRooms(_)
            | Constraint::FullRank(_)
            | Constraint::CountingCircles(_)
            | Constraint::Doppelganger(_) => {
                return Err(format!("f-puzzles has no {}", constraint.rule().name()));
            }
            Constraint::Arrows(arrows) => {
                let list: Vec<Value> = arrows
                    .arrows
                    .iter()
                    .map(|arrow| {
                        let mut line = vec![arrow.circle[arrow.circle.len() - 1]];
                        line.extend(&arrow.line);
                        json!({"lines": [names(&line)], "cells": names(&arrow.circle)})
                    })
                    .collect();
                object.insert("arrow".into(), json!(list));
            }
            Constraint::DoubleArrows(double) => {
                object.insert("doublearrow".into(), json!(line_list(&double.lines)));
            }
            Constraint::BetweenLines(between) => {
                object.insert("betweenline".into(), json!(line_list(&between.lines)));
            }
            Constraint::ZipperLines(zippers) => {
                object.insert("zipperline".into(), json!(line_list(&zippers.lines)));
            }
            Constraint::RegionSumLines(lines) => {
                object.insert("regionsumline".into(), json!(line_list(&lines.lines)));
            }
            Constraint::Clones(clones) => {
                let mut list = Vec::new();
                for sets in &clones.clues {
                    if sets.iter().any(|set| set.len() != 1) {
                        return Err(
                            "f-puzzles' clones are cell by cell, not sets of equal symbols".into(),
                        );
                    }
                    for other in &sets[1..] {
                        list.push(json!({"cells": names(&sets[0]), "cloneCells": names(other)}));
                    }
                }
                object.insert("clone".into(), json!(list));
            }
            Constraint::Quadruples(quadruples) => {
                let list: Vec<Value> = quadruples
                    .clues
                    .iter()
                    .map(|&((r, c), ref values)| {
                        let cells = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
                        json!({"cells": names(&cells), "values": values})
                    })
                    .collect();
                object.insert("quadruple".into(), json!(list));
            }
            Constraint::LittleKillers(little) => {
                let mut list = Vec::new();
                for (sum, cells) in &little.clues {
                    let (r, c) = (cells[0].0 as isize, cells[0].1 as isize);
                    let step = match cells.get(1) {
                        Some(&(r2, c2)) => (r2 as isize - r, c2 as isize - c),
                        // One cell, in a corner: the direction that leaves the grid both
                        // ways.
                        None => [(1, 1), (1, -1), (-1, 1), (-1, -1)]
                            .into_iter()
                            .find(|&(dr, dc)| {
                                let out = |v: isize| !(0..n as isize).contains(&v);
                                (out(r + dr) || out(c + dc)) && (out(r - dr) || out(c - dc))
                            })
                            .unwrap_or((1, 1)),
                    };
                    let direction = match step {
                        (-1, 1) => "UR",
                        (-1, -1) => "UL",
                        (1, 1) => "DR",
                        _ => "DL",
                    };
                    let clue = format!("R{}C{}", r - step.0 + 1, c - step.1 + 1);
                    list.push(
                        json!({"cell": clue, "direction": direction, "value": sum.to_string()}),
                    );
                }
                object.insert("littlekillersum".into(), json!(list));
            }
            Constraint::Sandwiches(clues) => {
                object.insert("sandwichsum".into(), outside_list(&clues.clues, n));
            }
            Constraint::XSums(clues) => {
                object.insert("xsum".into(), outside_list(&clues.clues, n));
            }
            Constraint::Skyscrapers(clues) => {
                object.insert("skyscraper".into(), outside_list(&clues.clues, n));
            }
            Constraint::NegativeClues(negative) => {
                let mut listed = Vec::new();
                for kind in &negative.kinds {
                    match kind {
                        Negated::White => {
                            object.insert("nonconsecutive".into(), json!(true));
                        }
                        Negated::Black => listed.push("ratio"),
                        Negated::Xv => listed.push("xv"),
                    }
                }
                if !listed.is_empty() {
                    object.insert("negative".into(), json!(listed));
                }
            }
        }
    }
    if let Some(solution) = solution {
        object.insert("solution".into(), json!(solution));
    }
    Ok(Value::Object(object))
}

/// Outside clues as f-puzzles lists them: the cell beside the grid and the value.
/// Adds `values` to the list under `key` (cages with and without sums share f-puzzles'
/// `killercage`).
fn push_all(object: &mut Map<String, Value>, key: &str, values: impl Iterator<Item = Value>) {
    let list = object.entry(key).or_insert_with(|| json!([]));
    if let Value::Array(list) = list {
        list.extend(values);
    }
}

fn outside_list(clues: &[(Outside, u32)], n: usize) -> Value {
    let list: Vec<Value> = clues
        .iter()
        .map(|&(at, clue)| json!({"cell": outside_name(at, n), "value": clue.to_string()}))
        .collect();
    json!(list)
}

/// An f-puzzles link that opens `puzzle` (with `solution`, when given): its JSON compressed
/// as f-puzzles compresses it.
pub fn link(puzzle: &Puzzle, solution: Option<&[u8]>) -> Result<String, String> {
    let json = to_json(puzzle, solution)?.to_string();
    Ok(format!(
        "https://f-puzzles.com/?load={}",
        lz_str::compress_to_base64(json.as_str())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_named_from_one() {
        assert_eq!(cell("R1C1", 9), Some((0, 0)));
        assert_eq!(cell("r16c12", 16), Some((15, 11)));
        assert_eq!(cell("R10C1", 9), None);
        assert_eq!(cell("R0C1", 9), None);
        assert_eq!(name((15, 11)), "R16C12");
    }

    #[test]
    fn recognises_its_objects_and_links_and_not_other_json() {
        assert!(is_fpuzzles_text(r#"{"size": 4, "grid": [[{}, {}]]}"#));
        assert!(is_fpuzzles_text(
            "# a comment\nhttps://f-puzzles.com/?load=N4Ig"
        ));
        assert!(is_fpuzzles_text("N4IgzglgXgpiBcBOANCA"));
        // The sudoku-variants JSON has sizes and grids too, of row strings.
        let variants =
            r#"{"format": "sudoku-variants", "puzzles": [{"size": 4, "grid": ["1..."]}]}"#;
        assert!(!is_fpuzzles_text(variants));
        assert!(!is_fpuzzles_text("1...\n....\n"));
    }

    #[test]
    fn a_link_too_long_is_refused_before_it_is_expanded() {
        let long = format!(
            "https://f-puzzles.com/?load={}",
            "A".repeat(MAX_COMPRESSED_CHARS + 1)
        );
        let read = read(&long);
        let error = read[0].as_ref().unwrap_err();
        assert_eq!(error.kind, FaultKind::Layout);
        assert!(error.message.contains("at most"), "{}", error.message);
    }
}
