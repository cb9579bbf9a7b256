//! The constraint strings of the Interactive Sudoku Solver (ISS): what its links carry after
//! `q=`, and what its users paste.
//!
//! ```text
//! .Shape~6x6.~R1C5_4~R2C2_1.Thermo~R1C1~R1C2~R1C3.Cage~15~R2C2~R2C3.WhiteDot~R4C4~R4C5
//! ```
//!
//! A string is a sequence of items `.Type~arg~arg...`; cells are `R1C1` (rows and columns
//! from 1; on grids past 9x9, `a` to `g` also stand for 10 to 16), givens are items of no type
//! (`.~R1C1_5`; several symbols, `.~R1C1_2_4`, are pencilmarks: the cell holds one of them).
//! Each line of a file holds one puzzle: a string, or a whole ISS link. The
//! types read are the rules of [`crate::sudoku::rules`] that ISS names: `Shape`, `NoBoxes`,
//! `Jigsaw`, `Diagonal` (both of them), `Windoku`, `DisjointSets`, `AntiKnight`, `AntiKing`,
//! `AntiConsecutive`, `Thermo`, `Whisper`, `Renban`, `Palindrome`, `Modular`, `Entropic`,
//! `GreaterThan`, `WhiteDot`,
//! `BlackDot`, `X`, `V` and `Cage` (with a sum). Any other type is an error that names the
//! item and its place: a puzzle is never solved with a rule left out.

use super::text::{Entry, ReadError};
use super::{Cage, Cell, Fault, Puzzle, Rules};
use crate::sudoku::BoxShape;
use crate::sudoku::rules::{
    AntiKing, AntiKnight, Constraint, Diagonals, DisjointGroups, Dot, EntropicLines, GreaterThan,
    Killer, Kropki, ModularLines, NonConsecutive, Palindromes, Pencilmarks, Regions, Renban,
    Thermometers, Whispers, Windows, Xv,
};
use crate::sudoku::text::FaultKind;

/// Whether `text` holds ISS constraint strings: its first meaningful line is one (`.Type~...`
/// or `.~R1C1_5...`) or an ISS link with one after `q=`.
pub fn is_iss_text(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
        .is_some_and(|line| looks_like_constraints(&constraints_of(line)))
}

fn looks_like_constraints(text: &str) -> bool {
    text.starts_with('.')
        && text.contains('~')
        && text[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '~')
}

/// The constraint string of a line: the line itself, or the `q=` part of a link, its `%XX`
/// escapes decoded.
fn constraints_of(line: &str) -> String {
    let Some(at) = line.find("q=") else {
        return expand_shorthand(line).unwrap_or_else(|| line.to_string());
    };
    let query = &line[at + 2..];
    let query = &query[..query.find(['&', '#']).unwrap_or(query.len())];
    let mut decoded = Vec::with_capacity(query.len());
    let bytes = query.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(high), Some(low)) => {
                    decoded.push((high * 16 + low) as u8);
                    i += 3;
                    continue;
                }
                _ => decoded.push(b'%'),
            },
            b'+' => decoded.push(b' '),
            other => decoded.push(other),
        }
        i += 1;
    }
    let decoded = String::from_utf8_lossy(&decoded).into_owned();
    expand_shorthand(&decoded).unwrap_or(decoded)
}

/// The constraint string that one of ISS's shorthands stands for, `None` for anything else:
///
/// - a killer, one character a cell: at one cell of each cage its sum (`0`-`9`, then `A`-`Z`
///   for 10 to 35 and `a`-`z` for 36 to 61, but `v`), at the others an arrow `<`, `>`, `^`
///   or `v` to a neighbour in the same cage;
/// - a jigsaw, its givens (`.` for empty; past 9x9, `A` is 1) then its regions (a character
///   each), one character a cell each: 2 x N x N characters, never a square number, so never
///   a plain puzzle's line.
fn expand_shorthand(text: &str) -> Option<String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let len = chars.len();
    let arrow = |c: char| matches!(c, '<' | '>' | '^' | 'v');
    let side = |n: usize| {
        if n == 9 {
            String::new()
        } else {
            format!(".Shape~{n}x{n}")
        }
    };
    let n = len.isqrt();
    if n * n == len
        && (4..=16).contains(&n)
        && chars.iter().copied().any(arrow)
        && chars.iter().all(|&c| c.is_ascii_alphanumeric() || arrow(c))
    {
        // Each cell's cage: follow the arrows to the cell holding the sum.
        let head = |mut cell: usize| -> Option<usize> {
            for _ in 0..len {
                let (r, c) = (cell / n, cell % n);
                cell = match chars[cell] {
                    '<' if c > 0 => cell - 1,
                    '>' if c + 1 < n => cell + 1,
                    '^' if r > 0 => cell - n,
                    'v' if r + 1 < n => cell + n,
                    ch if arrow(ch) => return None,
                    _ => return Some(cell),
                };
            }
            None
        };
        let mut cages: Vec<(usize, Vec<usize>)> = Vec::new();
        for cell in 0..len {
            let at = head(cell)?;
            match cages.iter_mut().find(|(h, _)| *h == at) {
                Some((_, cells)) => cells.push(cell),
                None => cages.push((at, vec![cell])),
            }
        }
        let mut text = side(n);
        for (at, cells) in cages {
            let sum = match chars[at] {
                d @ '0'..='9' => d as u32 - '0' as u32,
                u @ 'A'..='Z' => u as u32 - 'A' as u32 + 10,
                l => l as u32 - 'a' as u32 + 36,
            };
            text.push_str(&format!(".Cage~{sum}"));
            for cell in cells {
                text.push_str(&format!("~R{}C{}", cell / n + 1, cell % n + 1));
            }
        }
        return Some(text);
    }
    // A stray space is passed over, as ISS's own 16x16 jigsaw example holds one; a line of
    // numbers separated by spaces is a plain puzzle, not a shorthand.
    if chars.iter().filter(|c| c.is_whitespace()).count() > 1 {
        return None;
    }
    let chars: Vec<char> = chars.into_iter().filter(|c| !c.is_whitespace()).collect();
    let len = chars.len();
    let n = (4..=16).find(|&n| 2 * n * n == len)?;
    let (givens, regions) = chars.split_at(n * n);
    let mut names: Vec<char> = regions.to_vec();
    names.sort_unstable();
    names.dedup();
    let fair = names.len() == n
        && names
            .iter()
            .all(|name| regions.iter().filter(|&c| c == name).count() == n);
    if !fair || !chars.iter().all(|c| c.is_ascii_alphanumeric() || *c == '.') {
        return None;
    }
    let mut text = format!(
        "{}.NoBoxes.Jigsaw~{}.",
        side(n),
        regions.iter().collect::<String>()
    );
    for (cell, &ch) in givens.iter().enumerate() {
        let value = match ch {
            '.' | '0' => continue,
            d @ '1'..='9' => d as usize - '0' as usize,
            u @ 'A'..='Z' if n > 9 => u as usize - 'A' as usize + 1,
            _ => return None,
        };
        text.push_str(&format!("~R{}C{}_{value}", cell / n + 1, cell % n + 1));
    }
    Some(text)
}

/// Reads every line of `text` that holds a puzzle (blank lines and `#` comments are skipped):
/// each a puzzle or the error that made it unreadable, with its line.
pub fn read(text: &str) -> Vec<Result<Entry, ReadError>> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim().starts_with('#'))
        .map(|(index, line)| {
            let line_number = index + 1;
            parse(&constraints_of(line.trim()), &format!("iss-{line_number}"))
                .map(|puzzle| Entry {
                    line: line_number,
                    puzzle,
                    solution: None,
                })
                .map_err(|(kind, message, cells)| ReadError {
                    kind,
                    line: line_number,
                    message,
                    cells,
                })
        })
        .collect()
}

/// A string that cannot be read.
fn fault(message: String) -> Fault {
    (FaultKind::Layout, message, Vec::new())
}

/// A rule or a form of one that this reader does not support yet.
fn unsupported(message: String) -> Fault {
    (FaultKind::Unsupported, message, Vec::new())
}

/// Reads one constraint string as a puzzle named `id`.
pub fn parse(text: &str, id: &str) -> Result<Puzzle, Fault> {
    if !looks_like_constraints(text) {
        return Err(fault(format!(
            "'{}': not an ISS constraint string (.Type~arg~...)",
            text.chars().take(40).collect::<String>()
        )));
    }
    let items: Vec<(usize, Vec<&str>)> = text
        .split('.')
        .map(str::trim)
        .enumerate()
        .skip(1)
        .filter(|(_, item)| !item.is_empty())
        .map(|(k, item)| (k, item.split('~').map(str::trim).collect()))
        .collect();
    // The shape first: every cell name depends on the side.
    let mut size = 9;
    let mut boxes = true;
    for (k, args) in &items {
        match args[0] {
            "Shape" => {
                let spec = args.get(1).copied().unwrap_or("");
                let side = spec
                    .split_once('x')
                    .filter(|(rows, cols)| rows == cols)
                    .and_then(|(rows, _)| rows.parse::<usize>().ok())
                    .filter(|side| (1..=16).contains(side))
                    .ok_or_else(|| {
                        fault(format!(
                            "item {k}: Shape~{spec}: only square grids of side 1 to 16 are read"
                        ))
                    })?;
                size = side;
            }
            "NoBoxes" => boxes = false,
            _ => {}
        }
    }
    let n = size;
    let shape = if boxes {
        Some(BoxShape::for_size(n).ok_or_else(|| fault(format!("no boxes fit side {n}")))?)
    } else {
        None
    };
    let mut rules = Rules::latin(n).with_boxes(shape);
    let mut givens = vec![0u8; n * n];
    let mut diagonals = [false; 2];
    let (mut thermometers, mut whispers, mut renban, mut palindromes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut dots, mut sums, mut cages) = (Vec::new(), Vec::new(), Vec::new());
    let mut greater = Vec::new();
    let mut marks = Vec::new();
    let (mut modular, mut entropic) = (Vec::new(), Vec::new());
    for (k, args) in &items {
        let at = |why: String| fault(format!("item {k} ({}): {why}", args[0]));
        // A cell's name or a symbol that cannot be read.
        let value_at = |why: String| (FaultKind::Value, at(why).1, Vec::new());
        let cells = |from: usize| -> Result<Vec<Cell>, Fault> {
            args[from..]
                .iter()
                .map(|word| {
                    cell(word, n).ok_or_else(|| value_at(format!("'{word}' is not a cell")))
                })
                .collect()
        };
        match args[0] {
            "Shape" | "NoBoxes" => {}
            "" => {
                for word in &args[1..] {
                    let mut parts = word.split('_');
                    let place = parts.next().unwrap_or("");
                    let (row, col) = cell(place, n)
                        .ok_or_else(|| value_at(format!("'{place}' is not a cell")))?;
                    let values = parts
                        .map(|value| {
                            value
                                .parse::<u8>()
                                .ok()
                                .filter(|&v| v >= 1 && usize::from(v) <= n)
                                .ok_or_else(|| {
                                    value_at(format!("'{word}': not a symbol from 1 to {n}"))
                                })
                        })
                        .collect::<Result<Vec<u8>, _>>()?;
                    match values[..] {
                        [] => return Err(at(format!("'{word}': a cell, then _ and its symbol"))),
                        [value] => givens[row * n + col] = value,
                        // Several: the cell holds one of them.
                        _ => marks.push(((row, col), values)),
                    }
                }
            }
            "Jigsaw" => {
                let layout = args.last().copied().unwrap_or("");
                if layout.chars().count() != n * n {
                    return Err(at(format!(
                        "the layout has {} cells, not {}",
                        layout.chars().count(),
                        n * n
                    )));
                }
                // Regions numbered in the order they first appear.
                let mut names: Vec<char> = Vec::new();
                let mut map = Vec::with_capacity(n * n);
                for ch in layout.chars() {
                    let index = names.iter().position(|&c| c == ch).unwrap_or_else(|| {
                        names.push(ch);
                        names.len() - 1
                    });
                    map.push(index.min(255) as u8);
                }
                if names.len() != n {
                    return Err(at(format!("{} regions, not {n}", names.len())));
                }
                rules.add(Constraint::Regions(Regions { map }));
            }
            "Diagonal" => match args.get(1).copied() {
                Some("1") => diagonals[0] = true,
                Some("-1") => diagonals[1] = true,
                other => return Err(at(format!("direction {other:?}: 1 or -1"))),
            },
            "Windoku" => rules.add(Constraint::Windows(Windows)),
            "DisjointSets" => rules.add(Constraint::DisjointGroups(DisjointGroups)),
            "AntiKnight" => rules.add(Constraint::AntiKnight(AntiKnight)),
            "AntiKing" => rules.add(Constraint::AntiKing(AntiKing)),
            "AntiConsecutive" => rules.add(Constraint::NonConsecutive(NonConsecutive)),
            "Thermo" => thermometers.push(cells(1)?),
            "Whisper" => match args.get(1).map(|arg| arg.parse::<u8>()) {
                Some(Ok(difference)) => whispers.push((difference, cells(2)?)),
                _ => whispers.push((5, cells(1)?)),
            },
            "Renban" => renban.push(cells(1)?),
            "Palindrome" => palindromes.push(cells(1)?),
            "Modular" => match args.get(1).map(|arg| arg.parse::<u8>()) {
                Some(Ok(modulus)) => modular.push((modulus, cells(2)?)),
                _ => return Err(at("a modular line is its modulus, then its cells".into())),
            },
            "Entropic" => entropic.push(cells(1)?),
            "GreaterThan" => greater.push(cells(1)?),
            "WhiteDot" | "BlackDot" => {
                let dot = if args[0] == "WhiteDot" {
                    Dot::White
                } else {
                    Dot::Black
                };
                for (a, b) in adjacent_pairs(&cells(1)?) {
                    dots.push((dot, a, b));
                }
            }
            "X" | "V" => {
                let sum = if args[0] == "X" { 10 } else { 5 };
                for (a, b) in adjacent_pairs(&cells(1)?) {
                    sums.push((sum, a, b));
                }
            }
            "Cage" => {
                let sum = args
                    .get(1)
                    .and_then(|sum| sum.parse::<u32>().ok())
                    .ok_or_else(|| at("a cage is its sum, then its cells".into()))?;
                if sum == 0 {
                    return Err(unsupported(format!(
                        "item {k} ({}): a cage without a sum is not supported yet",
                        args[0]
                    )));
                }
                cages.push(Cage {
                    sum,
                    cells: cells(2)?,
                });
            }
            other => {
                return Err(unsupported(format!(
                    "item {k}: the rule '{other}' is not supported yet"
                )));
            }
        }
    }
    match diagonals {
        [true, true] => rules.add(Constraint::Diagonals(Diagonals)),
        [false, false] => {}
        _ => return Err(unsupported("a single diagonal is not supported yet".into())),
    }
    if !thermometers.is_empty() {
        rules.add(Constraint::Thermometers(Thermometers {
            lines: thermometers,
        }));
    }
    if !whispers.is_empty() {
        rules.add(Constraint::Whispers(Whispers { lines: whispers }));
    }
    if !renban.is_empty() {
        rules.add(Constraint::Renban(Renban { lines: renban }));
    }
    if !palindromes.is_empty() {
        rules.add(Constraint::Palindromes(Palindromes { lines: palindromes }));
    }
    if !modular.is_empty() {
        rules.add(Constraint::ModularLines(ModularLines { lines: modular }));
    }
    if !entropic.is_empty() {
        rules.add(Constraint::EntropicLines(EntropicLines { lines: entropic }));
    }
    if !marks.is_empty() {
        rules.add(Constraint::Pencilmarks(Pencilmarks { cells: marks }));
    }
    if !greater.is_empty() {
        rules.add(Constraint::GreaterThan(GreaterThan { clues: greater }));
    }
    if !dots.is_empty() {
        rules.add(Constraint::Kropki(Kropki { dots }));
    }
    if !sums.is_empty() {
        rules.add(Constraint::Xv(Xv { clues: sums }));
    }
    if !cages.is_empty() {
        rules.add(Constraint::Killer(Killer { cages }));
    }
    Puzzle::checked(id, rules, givens)
}

/// A cell written `R1C1` (`r1c1` too; past 9, `a` to `g` stand for 10 to 16) in a grid of
/// side `n`.
fn cell(word: &str, n: usize) -> Option<Cell> {
    let rest = word.strip_prefix(['R', 'r'])?;
    let index = |part: &str| -> Option<usize> {
        let value = match part.parse::<usize>() {
            Ok(value) => value,
            Err(_) => match part.as_bytes() {
                [letter @ b'a'..=b'g'] => usize::from(letter - b'a') + 10,
                _ => return None,
            },
        };
        (1..=n).contains(&value).then(|| value - 1)
    };
    // `RcC3` is row 12, column 3: the split is where both sides read.
    rest.char_indices()
        .filter(|&(_, ch)| ch == 'C' || ch == 'c')
        .find_map(|(split, _)| Some((index(&rest[..split])?, index(&rest[split + 1..])?)))
}

/// The pairs of `cells` that touch along an edge, each once, in the order given (a dot or an
/// XV clue on more than two cells stands between each such pair).
fn adjacent_pairs(cells: &[Cell]) -> Vec<(Cell, Cell)> {
    let mut pairs = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1 {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::rules::cell_name;

    #[test]
    fn shorthands_stand_for_constraint_strings() {
        // A 4x4 killer: two cages across each half of the grid.
        let killer = "A<<<^<<<A<<<^<<<";
        assert_eq!(
            expand_shorthand(killer).unwrap(),
            ".Shape~4x4.Cage~10~R1C1~R1C2~R1C3~R1C4~R2C1~R2C2~R2C3~R2C4\
             .Cage~10~R3C1~R3C2~R3C3~R3C4~R4C1~R4C2~R4C3~R4C4"
        );
        // An arrow off the grid, or a cage without a sum, is no shorthand.
        assert_eq!(expand_shorthand("<<<<<<<<<<<<<<<<"), None);
        // A 4x4 jigsaw after its dot: givens, then regions.
        let jigsaw = "1............4.. AABBAABBCCDDCCDD";
        assert_eq!(
            expand_shorthand(jigsaw).unwrap(),
            ".Shape~4x4.NoBoxes.Jigsaw~AABBAABBCCDDCCDD.~R1C1_1~R4C2_4"
        );
        // Plain puzzles are neither, in characters or in numbers.
        assert_eq!(expand_shorthand("1...........4..."), None);
        let numbers = "1 2 3 4 5 6 7 8 9 ".repeat(18);
        assert_eq!(expand_shorthand(&numbers), None);
    }

    #[test]
    fn reads_givens_rules_and_links() {
        let text = ".Shape~6x6.~R1C5_4~R2C2_1.Thermo~R1C1~R1C2~R1C3.WhiteDot~R4C4~R4C5";
        let puzzle = parse(text, "t").unwrap();
        assert_eq!(puzzle.rules.size, 6);
        assert_eq!(puzzle.given((0, 4)), 4);
        assert_eq!(
            puzzle.rules.names(),
            ["rows", "columns", "boxes", "thermometers", "kropki"]
        );
        let link = format!(
            "https://sigh.github.io/Interactive-Sudoku-Solver/?q={}",
            text.replace('~', "%7E")
        );
        assert_eq!(parse(&constraints_of(&link), "t").unwrap(), puzzle);
        assert!(is_iss_text(&format!("# a comment\n{link}\n")));
        assert!(!is_iss_text("puzzle: x\n"));
    }

    #[test]
    fn refuses_what_it_cannot_read_by_name() {
        for (text, kind, said) in [
            (
                ".Arrow~R1C1~R1C2",
                FaultKind::Unsupported,
                "item 1: the rule 'Arrow' is not supported yet",
            ),
            (".~R1C1_0", FaultKind::Value, "not a symbol from 1 to 9"),
            (".Thermo~R1C1~R9C9", FaultKind::Rule, "does not touch"),
            (".~R1C1_5~R1C2_5", FaultKind::Clash, "break row 1"),
            (".Thermo~R1C1~Z", FaultKind::Value, "'Z' is not a cell"),
            (".Diagonal~1", FaultKind::Unsupported, "a single diagonal"),
        ] {
            let (found, error, _) = parse(text, "t").unwrap_err();
            assert!(error.contains(said), "{text}: {error}");
            assert_eq!(found, kind, "{text}");
        }
        assert_eq!(cell_name(cell("R1Cg", 16).unwrap()), "r1c16");
        assert_eq!(cell("R1Cg", 9), None);
        assert_eq!(cell("RcC3", 16), Some((11, 2)));
        assert_eq!(cell("r10c1", 16), Some((9, 0)));
    }
}
