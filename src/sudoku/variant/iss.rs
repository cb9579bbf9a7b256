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
//! `GreaterThan`, `WhiteDot`, `BlackDot`, `X`, `V`, `Cage` (the sum 0: a cage without a sum), `StrictKropki`,
//! `StrictXV`, and the clues read along cells: `Arrow`, `PillArrow`, `DoubleArrow`, `Between`,
//! `Lockout`, `Zipper`, `RegionSumLine`, `SumLine`, `Sum`, `EqualSum`, `EqualityCage`,
//! `CountingCircles`, `RellikCage`, `Quad`, `SameValues`, `ValueIndexing`, `LittleKiller`,
//! `Sandwich`, `Lunchbox`, `XSum`, `Skyscraper`, `NumberedRoom`, `FullRank`; `Indexing`, `Pair`, `PairX`,
//! `AntiTaxicab`, `GlobalEntropy`, `GlobalMod`, `DutchFlatmates`. Any other type is an error
//! that names the item and its place: a puzzle is never solved with a rule left out.

use super::text::{Entry, ReadError};
use super::{Cage, Cell, Fault, Puzzle, Rules};
use crate::sudoku::BoxShape;
use crate::sudoku::rules::{
    AntiKing, AntiKnight, AntiTaxicab, Arrow, Arrows, BetweenLines, Clones, Constraint,
    CountingCircles, Diagonals, DisjointGroups, Doppelganger, Dot, DoubleArrows, DutchFlatmates,
    EntropicLines, EqualSums, EqualityCages, FullRank, GlobalGroups, GreaterThan, Indexing, Killer,
    Kropki, LittleKillers, LockoutLines, Lunchboxes, ModularLines, Negated, NegativeClues,
    NonConsecutive, NumberedRooms, Outside, PairRelation, PairRelations, Palindromes, Pencilmarks,
    Quadruples, RegionSumLines, Regions, RellikCages, Renban, Sandwiches, Side, Skyscrapers,
    SumLine, SumLines, SumlessCages, Sums, Thermometers, ValueIndexing, Whispers, Windows, XSums,
    Xv, ZipperLines,
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
/// - a killer, one character a cell (the "snarfable" form of the killer forums): at one cell
///   of each cage its sum (`0`-`9`, then `A`-`Z` for 10 to 35 and `a`-`z` for 36 to 61, but
///   `v`), at the others an arrow to a neighbour in the same cage: `<`, `>`, `^` or `v`, or
///   a diagonal one, `` ` `` (up and left), `'` (up and right), `,` (down and left) or `.`
///   (down and right); at least one arrow is not `.`, so that a plain puzzle is never read
///   as a killer;
/// - a killer in SudoCue's long form ([`expand_sudocue_killer`]);
/// - a jigsaw, its givens (`.` for empty; past 9x9, `A` is 1) then its regions (a character
///   each), one character a cell each: 2 x N x N characters, never a square number, so never
///   a plain puzzle's line.
fn expand_shorthand(text: &str) -> Option<String> {
    if let Some(killer) = expand_sudocue_killer(text.trim()) {
        return Some(killer);
    }
    let chars: Vec<char> = text.trim().chars().collect();
    let len = chars.len();
    let arrow = |c: char| matches!(c, '<' | '>' | '^' | 'v' | '`' | '\'' | ',' | '.');
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
        && chars.iter().any(|&c| c != '.' && arrow(c))
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
                    '`' if r > 0 && c > 0 => cell - n - 1,
                    '\'' if r > 0 && c + 1 < n => cell - n + 1,
                    ',' if r + 1 < n && c > 0 => cell + n - 1,
                    '.' if r + 1 < n && c + 1 < n => cell + n + 1,
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

/// The constraint string of a 9x9 killer in SudoCue's long form, `None` for anything else:
/// `3x3:d:k:` (`3x3::k:` without the diagonals) then a number per cell, each ended by `:`,
/// 256 times the sum of the cell's cage plus the cage's number (a number under 256: a cell in
/// no cage).
///
/// ```text
/// 3x3::k:3595:3595:3844:3844:3090:3336:3336:2575:2575:3595:4620:...
/// ```
fn expand_sudocue_killer(text: &str) -> Option<String> {
    let rest = text.strip_prefix("3x3:")?;
    let (diagonals, rest) = match rest.strip_prefix("d:") {
        Some(rest) => (true, rest),
        None => (false, rest.strip_prefix(':')?),
    };
    let rest = rest.strip_prefix("k:")?;
    let fields: Vec<&str> = rest.strip_suffix(':').unwrap_or(rest).split(':').collect();
    if fields.len() != 81 {
        return None;
    }
    // Cages by number, in the order their first cells come.
    let mut cages: Vec<(u32, u32, Vec<usize>)> = Vec::new();
    for (cell, field) in fields.iter().enumerate() {
        let value: u32 = field.trim().parse().ok()?;
        let (sum, number) = (value / 256, value % 256);
        if sum == 0 {
            continue;
        }
        match cages.iter_mut().find(|(n, _, _)| *n == number) {
            // A cage's cells all carry its sum; two sums under one number are two cages.
            Some((_, s, cells)) if *s == sum => cells.push(cell),
            Some(_) => return None,
            None => cages.push((number, sum, vec![cell])),
        }
    }
    let mut constraints = String::new();
    if diagonals {
        constraints.push_str(".Diagonal~1.Diagonal~-1");
    }
    for (_, sum, cells) in cages {
        constraints.push_str(&format!(".Cage~{sum}"));
        for cell in cells {
            constraints.push_str(&format!("~R{}C{}", cell / 9 + 1, cell % 9 + 1));
        }
    }
    Some(constraints)
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
    // The shape first: every cell name depends on it.
    let (mut rows, mut cols) = (9, 9);
    let mut from_zero = false;
    let mut boxes = true;
    let doppelganger = items.iter().any(|(_, args)| args[0] == "Doppelganger");
    for (k, args) in &items {
        match args[0] {
            "Shape" => {
                let spec = args.get(1).copied().unwrap_or("");
                (rows, cols) = spec
                    .split_once('x')
                    .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
                    .filter(|&(r, c)| (1..=16).contains(&r) && (1..=16).contains(&c))
                    .ok_or_else(|| {
                        fault(format!(
                            "item {k}: Shape~{spec}: a grid of 1 to 16 rows by 1 to 16 columns \
                             (9x9, 6x9)"
                        ))
                    })?;
                if rows > cols {
                    return Err(unsupported(format!(
                        "item {k}: Shape~{spec}: a grid taller than wide is not supported yet"
                    )));
                }
                // The digits: 1 to the longer side, or 0 to it on a square (doppelganger).
                match args.get(2).copied() {
                    None => {}
                    Some(values)
                        if [format!("{cols}"), format!("1-{cols}")]
                            .contains(&values.to_string()) => {}
                    Some(values) if rows == cols && values == format!("0-{cols}") => {
                        from_zero = true;
                    }
                    Some(values) => {
                        return Err(unsupported(format!(
                            "item {k}: Shape~{spec}~{values}: a range of digits other than 1 \
                             to {cols} (or 0 to {cols} with doppelganger) is not supported yet"
                        )));
                    }
                }
            }
            "NoBoxes" => boxes = false,
            _ => {}
        }
    }
    if doppelganger && !boxes {
        return Err(unsupported(
            "doppelganger on a grid without boxes is not supported yet".into(),
        ));
    }
    // The symbols: as many as a row's cells, one more from 0; a row of cells beyond the
    // grid for doppelganger's missing digits (see `Doppelganger`).
    let n = if from_zero { cols + 1 } else { cols };
    let board_rows = if from_zero { n + 1 } else { rows };
    let shape = if boxes {
        Some(BoxShape::for_size(cols).ok_or_else(|| fault(format!("no boxes fit side {cols}")))?)
    } else {
        None
    };
    let mut rules = Rules::latin(n).with_rows(board_rows);
    if from_zero {
        rules = rules.with_symbols_from_zero();
    } else {
        rules = rules.with_boxes(shape);
    }
    // The digit a symbol is written as: from 0 or from 1.
    let first_digit = u8::from(!from_zero);
    let cell = |word: &str| -> Option<Cell> {
        grid_cell(word, rows, cols).or_else(|| doppelganger_cell(word, cols).filter(|_| from_zero))
    };
    let mut givens = vec![0u8; board_rows * n];
    let mut diagonals = [false; 2];
    let (mut thermometers, mut whispers, mut renban, mut palindromes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut dots, mut sums, mut cages) = (Vec::new(), Vec::new(), Vec::new());
    let mut greater = Vec::new();
    let mut marks = Vec::new();
    let (mut modular, mut entropic) = (Vec::new(), Vec::new());
    let mut more = More::default();
    for (k, args) in &items {
        let at = |why: String| fault(format!("item {k} ({}): {why}", args[0]));
        // A cell's name or a symbol that cannot be read.
        let value_at = |why: String| (FaultKind::Value, at(why).1, Vec::new());
        let cells = |from: usize| -> Result<Vec<Cell>, Fault> {
            args[from..]
                .iter()
                .map(|word| cell(word).ok_or_else(|| value_at(format!("'{word}' is not a cell"))))
                .collect()
        };
        match args[0] {
            "Shape" | "NoBoxes" => {}
            "" => {
                for word in &args[1..] {
                    let mut parts = word.split('_');
                    let place = parts.next().unwrap_or("");
                    let (row, col) =
                        cell(place).ok_or_else(|| value_at(format!("'{place}' is not a cell")))?;
                    let last_digit = usize::from(first_digit) + n - 1;
                    let values = parts
                        .map(|value| {
                            value
                                .parse::<u8>()
                                .ok()
                                .filter(|&v| v >= first_digit && usize::from(v) <= last_digit)
                                .map(|v| v - first_digit + 1)
                                .ok_or_else(|| {
                                    value_at(format!(
                                        "'{word}': not a digit from {first_digit} to {last_digit}"
                                    ))
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
            "Doppelganger" => rules.add(Constraint::Doppelganger(Doppelganger)),
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
                    more.sumless_cages.push(cells(2)?);
                    continue;
                }
                cages.push(Cage {
                    sum,
                    cells: cells(2)?,
                });
            }
            "Arrow" | "PillArrow" => {
                let (pill, from) = if args[0] == "PillArrow" {
                    let pill = args
                        .get(1)
                        .and_then(|arg| arg.parse::<usize>().ok())
                        .filter(|&pill| pill >= 1)
                        .ok_or_else(|| at("a pill arrow is its pill's size, then cells".into()))?;
                    (pill, 2)
                } else {
                    (1, 1)
                };
                let cells = cells(from)?;
                if cells.len() <= pill {
                    return Err(at("an arrow needs cells beyond its circle".into()));
                }
                // A pill is read left to right, top to bottom.
                let mut circle = cells[..pill].to_vec();
                circle.sort_unstable();
                more.arrows.push(Arrow {
                    circle,
                    line: cells[pill..].to_vec(),
                });
            }
            "DoubleArrow" => more.double_arrows.push(cells(1)?),
            "Between" => more.between.push(cells(1)?),
            "Lockout" => {
                let least = number_arg(args, 1).ok_or_else(|| {
                    at("a lockout line is its least difference, then cells".into())
                })?;
                more.lockout.push((least.min(255) as u8, cells(2)?));
            }
            "Zipper" => more.zippers.push(cells(1)?),
            "ValueIndexing" => more.value_indexing.push(cells(1)?),
            "RegionSumLine" => more.region_sums.push(cells(1)?),
            "SumLine" => {
                let sum = number_arg(args, 1)
                    .ok_or_else(|| at("a sum line is its sum, then cells".into()))?;
                let is_loop = args.last() == Some(&"LOOP");
                let end = if is_loop { args.len() - 1 } else { args.len() };
                let cells = args[2..end]
                    .iter()
                    .map(|word| {
                        cell(word).ok_or_else(|| value_at(format!("'{word}' is not a cell")))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                more.sum_lines.push(SumLine {
                    sum,
                    cells,
                    is_loop,
                });
            }
            "Sum" => {
                let sum = number_arg(args, 1).ok_or_else(|| {
                    unsupported(format!(
                        "item {k} (Sum): only a plain sum (no coefficients) is supported yet"
                    ))
                })?;
                more.sums.push((sum, cells(2)?));
            }
            "EqualSum" => {
                let sets = args[1..]
                    .split(|&arg| arg == "-")
                    .map(|set| {
                        set.iter()
                            .map(|word| {
                                cell(word)
                                    .ok_or_else(|| value_at(format!("'{word}' is not a cell")))
                            })
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                more.equal_sums.push(sets);
            }
            "EqualityCage" => more.equality_cages.push(cells(1)?),
            "CountingCircles" => more.counting_circles.push(cells(1)?),
            "Lunchbox" => {
                let sum = number_arg(args, 1)
                    .ok_or_else(|| at("a lunchbox is its number, then cells".into()))?;
                more.lunchboxes.push((sum, cells(2)?));
            }
            "RellikCage" => {
                let sum = number_arg(args, 1)
                    .ok_or_else(|| at("a rellik cage is its number, then cells".into()))?;
                more.rellik_cages.push((sum, cells(2)?));
            }
            "Quad" => {
                let corner = args
                    .get(1)
                    .and_then(|word| cell(word))
                    .ok_or_else(|| value_at("a quadruple is a cell, then symbols".into()))?;
                let symbols = args[2..]
                    .iter()
                    .map(|v| {
                        v.parse::<u8>()
                            .map_err(|_| value_at(format!("'{v}' is not a symbol")))
                    })
                    .collect::<Result<_, _>>()?;
                more.quadruples.push((corner, symbols));
            }
            "SameValues" => {
                let sets = args
                    .get(1)
                    .and_then(|arg| arg.parse::<usize>().ok())
                    .filter(|&sets| sets >= 1)
                    .ok_or_else(|| at("same values are a number of sets, then cells".into()))?;
                let cells = cells(2)?;
                if cells.len() % sets != 0 {
                    return Err(at(format!(
                        "{} cells do not split into {sets} sets",
                        cells.len()
                    )));
                }
                let size = cells.len() / sets;
                more.clones
                    .push(cells.chunks(size).map(<[Cell]>::to_vec).collect());
            }
            "LittleKiller" => {
                let sum = number_arg(args, 1)
                    .ok_or_else(|| at("a little killer is its sum, then a cell".into()))?;
                let start = args
                    .get(2)
                    .and_then(|word| cell(word))
                    .ok_or_else(|| value_at("a little killer is its sum, then a cell".into()))?;
                let cells = little_killer_cells(n, start)
                    .ok_or_else(|| at("no little killer diagonal starts there".into()))?;
                more.little_killers.push((sum, cells));
            }
            "Sandwich" => {
                let sum = number_arg(args, 1)
                    .ok_or_else(|| at("a sandwich is its sum, then R or C and a number".into()))?;
                let line = args.get(2).copied().unwrap_or("");
                let (at_line, _) = outside_of(line, n)
                    .ok_or_else(|| value_at(format!("'{line}' is not a row or column")))?;
                more.sandwiches.push((at_line, sum));
            }
            "XSum" | "Skyscraper" | "NumberedRoom" | "FullRank" => {
                let line = args.get(1).copied().unwrap_or("");
                let (front, back) = outside_of(line, n)
                    .ok_or_else(|| value_at(format!("'{line}' is not a row or column")))?;
                for (place, arg) in [(front, args.get(2)), (back, args.get(3))] {
                    let Some(arg) = arg.filter(|arg| !arg.is_empty()) else {
                        continue;
                    };
                    let clue = arg
                        .parse::<u32>()
                        .map_err(|_| value_at(format!("'{arg}' is not a number")))?;
                    match args[0] {
                        "XSum" => more.x_sums.push((place, clue)),
                        "Skyscraper" => more.skyscrapers.push((place, clue)),
                        "FullRank" => more.full_rank.push((place, clue)),
                        _ => more.numbered_rooms.push((place, clue)),
                    }
                }
            }
            "AntiTaxicab" => rules.add(Constraint::AntiTaxicab(AntiTaxicab)),
            "GlobalEntropy" => rules.add(Constraint::GlobalGroups(GlobalGroups { modular: false })),
            "GlobalMod" => rules.add(Constraint::GlobalGroups(GlobalGroups { modular: true })),
            "DutchFlatmates" => rules.add(Constraint::DutchFlatmates(DutchFlatmates)),
            "StrictKropki" => more.negated.extend([Negated::White, Negated::Black]),
            "StrictXV" => more.negated.push(Negated::Xv),
            "Indexing" => match args.get(1).copied() {
                Some("C") => more.indexing.columns.extend(cells(2)?),
                Some("R") => more.indexing.rows.extend(cells(2)?),
                other => return Err(at(format!("indexing {other:?}: C or R"))),
            },
            "Pair" | "PairX" => {
                let key = args.get(1).copied().unwrap_or("").to_string();
                // Groups end at an empty argument or at a name (`_name`).
                let mut groups: Vec<Vec<Cell>> = vec![Vec::new()];
                for word in &args[2..] {
                    if word.is_empty() || word.starts_with('_') {
                        groups.push(Vec::new());
                    } else {
                        let at_cell = cell(word)
                            .ok_or_else(|| value_at(format!("'{word}' is not a cell")))?;
                        groups.last_mut().expect("one at least").push(at_cell);
                    }
                }
                groups.retain(|group| !group.is_empty());
                more.pairs.push(PairRelation {
                    key,
                    every_two: args[0] == "PairX",
                    groups,
                });
            }
            other => {
                return Err(unsupported(format!(
                    "item {k}: the rule '{other}' is not supported yet"
                )));
            }
        }
    }
    more.add_to(&mut rules);
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

/// The clues of the rules read along cells and the others added with this reader, gathered
/// over the items and added at the end.
#[derive(Default)]
struct More {
    arrows: Vec<Arrow>,
    double_arrows: Vec<Vec<Cell>>,
    between: Vec<Vec<Cell>>,
    lockout: Vec<(u8, Vec<Cell>)>,
    zippers: Vec<Vec<Cell>>,
    value_indexing: Vec<Vec<Cell>>,
    region_sums: Vec<Vec<Cell>>,
    sum_lines: Vec<SumLine>,
    sums: Vec<(u32, Vec<Cell>)>,
    equal_sums: Vec<Vec<Vec<Cell>>>,
    equality_cages: Vec<Vec<Cell>>,
    sumless_cages: Vec<Vec<Cell>>,
    counting_circles: Vec<Vec<Cell>>,
    rellik_cages: Vec<(u32, Vec<Cell>)>,
    lunchboxes: Vec<(u32, Vec<Cell>)>,
    quadruples: Vec<(Cell, Vec<u8>)>,
    clones: Vec<Vec<Vec<Cell>>>,
    little_killers: Vec<(u32, Vec<Cell>)>,
    sandwiches: Vec<(Outside, u32)>,
    x_sums: Vec<(Outside, u32)>,
    skyscrapers: Vec<(Outside, u32)>,
    full_rank: Vec<(Outside, u32)>,
    numbered_rooms: Vec<(Outside, u32)>,
    negated: Vec<Negated>,
    indexing: Indexing,
    pairs: Vec<PairRelation>,
}

impl More {
    fn add_to(self, rules: &mut Rules) {
        let mut add = |present: bool, constraint: Constraint| {
            if present {
                rules.add(constraint);
            }
        };
        add(
            !self.arrows.is_empty(),
            Constraint::Arrows(Arrows {
                arrows: self.arrows,
            }),
        );
        add(
            !self.double_arrows.is_empty(),
            Constraint::DoubleArrows(DoubleArrows {
                lines: self.double_arrows,
            }),
        );
        add(
            !self.between.is_empty(),
            Constraint::BetweenLines(BetweenLines {
                lines: self.between,
            }),
        );
        add(
            !self.lockout.is_empty(),
            Constraint::LockoutLines(LockoutLines {
                lines: self.lockout,
            }),
        );
        add(
            !self.zippers.is_empty(),
            Constraint::ZipperLines(ZipperLines {
                lines: self.zippers,
            }),
        );
        add(
            !self.value_indexing.is_empty(),
            Constraint::ValueIndexing(ValueIndexing {
                lines: self.value_indexing,
            }),
        );
        add(
            !self.region_sums.is_empty(),
            Constraint::RegionSumLines(RegionSumLines {
                lines: self.region_sums,
            }),
        );
        add(
            !self.sum_lines.is_empty(),
            Constraint::SumLines(SumLines {
                lines: self.sum_lines,
            }),
        );
        add(
            !self.sums.is_empty(),
            Constraint::Sums(Sums { clues: self.sums }),
        );
        add(
            !self.equal_sums.is_empty(),
            Constraint::EqualSums(EqualSums {
                clues: self.equal_sums,
            }),
        );
        add(
            !self.counting_circles.is_empty(),
            Constraint::CountingCircles(CountingCircles {
                sets: self.counting_circles,
            }),
        );
        add(
            !self.sumless_cages.is_empty(),
            Constraint::SumlessCages(SumlessCages {
                cages: self.sumless_cages,
            }),
        );
        add(
            !self.equality_cages.is_empty(),
            Constraint::EqualityCages(EqualityCages {
                cages: self.equality_cages,
            }),
        );
        add(
            !self.rellik_cages.is_empty(),
            Constraint::RellikCages(RellikCages {
                cages: self.rellik_cages,
            }),
        );
        add(
            !self.lunchboxes.is_empty(),
            Constraint::Lunchboxes(Lunchboxes {
                boxes: self.lunchboxes,
            }),
        );
        add(
            !self.quadruples.is_empty(),
            Constraint::Quadruples(Quadruples {
                clues: self.quadruples,
            }),
        );
        add(
            !self.clones.is_empty(),
            Constraint::Clones(Clones { clues: self.clones }),
        );
        add(
            !self.little_killers.is_empty(),
            Constraint::LittleKillers(LittleKillers {
                clues: self.little_killers,
            }),
        );
        add(
            !self.sandwiches.is_empty(),
            Constraint::Sandwiches(Sandwiches {
                clues: self.sandwiches,
            }),
        );
        add(
            !self.x_sums.is_empty(),
            Constraint::XSums(XSums { clues: self.x_sums }),
        );
        add(
            !self.skyscrapers.is_empty(),
            Constraint::Skyscrapers(Skyscrapers {
                clues: self.skyscrapers,
            }),
        );
        add(
            !self.full_rank.is_empty(),
            Constraint::FullRank(FullRank {
                clues: self.full_rank,
            }),
        );
        add(
            !self.numbered_rooms.is_empty(),
            Constraint::NumberedRooms(NumberedRooms {
                clues: self.numbered_rooms,
            }),
        );
        add(
            !self.negated.is_empty(),
            Constraint::NegativeClues(NegativeClues {
                kinds: self.negated,
            }),
        );
        add(
            !self.indexing.columns.is_empty() || !self.indexing.rows.is_empty(),
            Constraint::Indexing(self.indexing),
        );
        add(
            !self.pairs.is_empty(),
            Constraint::PairRelations(PairRelations {
                relations: self.pairs,
            }),
        );
    }
}

/// The number in argument `at` of an item.
fn number_arg(args: &[&str], at: usize) -> Option<u32> {
    args.get(at)?.parse().ok()
}

/// A row (`R3`) or column (`C5`) as the outside clues at its two ends: the one reading it
/// forward (from the left, from the top), then the one reading it backward.
fn outside_of(word: &str, n: usize) -> Option<(Outside, Outside)> {
    let (forward, backward, rest) = match word.as_bytes().first()? {
        b'R' | b'r' => (Side::Left, Side::Right, &word[1..]),
        b'C' | b'c' => (Side::Top, Side::Bottom, &word[1..]),
        _ => return None,
    };
    let index = rest.parse::<usize>().ok().filter(|i| (1..=n).contains(i))? - 1;
    Some((
        Outside {
            side: forward,
            index,
        },
        Outside {
            side: backward,
            index,
        },
    ))
}

/// The diagonal of the little killer that ISS names by its first cell: from the left edge
/// down and right, from the right edge up and left, from the top edge down and left, from the
/// bottom edge up and right (a diagonal of one cell, or one already named, is none).
fn little_killer_cells(n: usize, start: Cell) -> Option<Vec<Cell>> {
    let mut seen: Vec<Vec<Cell>> = Vec::new();
    let mut named = None;
    let mut try_one = |from: Cell, step: (isize, isize)| {
        let cells = LittleKillers::diagonal(n, from, step);
        if cells.len() <= 1 {
            return;
        }
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        if seen.contains(&sorted) {
            return;
        }
        seen.push(sorted);
        if named.is_none() && cells[0] == start {
            named = Some(cells);
        }
    };
    for row in 0..n.saturating_sub(1) {
        try_one((row, 0), (1, 1));
    }
    for row in 1..n.saturating_sub(1) {
        try_one((row, n - 1), (-1, -1));
    }
    for col in 1..n {
        try_one((0, col), (1, -1));
    }
    for col in 1..n.saturating_sub(1) {
        try_one((n - 1, col), (-1, 1));
    }
    named
}

/// One of doppelganger's cells beyond a grid of side `side` (see `Doppelganger`): `DGC3`
/// the digit row 3 misses, `DGR3` column 3's, `DGB3` box 3's, `DGZ` the cell fixed at 0.
fn doppelganger_cell(word: &str, side: usize) -> Option<Cell> {
    if word == "DGZ" {
        return Some((side, side));
    }
    let (kind, index) = word.strip_prefix("DG")?.split_at_checked(1)?;
    let i = index
        .parse::<usize>()
        .ok()
        .filter(|i| (1..=side).contains(i))?
        - 1;
    match kind {
        "C" => Some((i, side)),
        "R" => Some((side, i)),
        "B" => Some((side + 1, i)),
        _ => None,
    }
}

/// A cell written `R1C1` (`r1c1` too; past 9, `a` to `g` stand for 10 to 16) in a grid of
/// `rows` by `cols`.
fn grid_cell(word: &str, rows: usize, cols: usize) -> Option<Cell> {
    let rest = word.strip_prefix(['R', 'r'])?;
    let index = |part: &str, n: usize| -> Option<usize> {
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
        .find_map(|(split, _)| {
            Some((
                index(&rest[..split], rows)?,
                index(&rest[split + 1..], cols)?,
            ))
        })
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
    fn sudocue_killers_stand_for_constraint_strings() {
        // Each row a cage of 45 (cage number: the row), the last cell of row 9 in no cage.
        let fields = |last: u32| {
            (0..81u32)
                .map(|cell| {
                    if cell == 80 {
                        last
                    } else {
                        45 * 256 + cell / 9 + 1
                    }
                })
                .map(|value| format!("{value}:"))
                .collect::<String>()
        };
        let rows = |diagonals: &str| {
            let mut text = diagonals.to_string();
            for row in 1..=9 {
                text.push_str(".Cage~45");
                for column in 1..=if row == 9 { 8 } else { 9 } {
                    text.push_str(&format!("~R{row}C{column}"));
                }
            }
            text
        };
        assert_eq!(
            expand_sudocue_killer(&format!("3x3::k:{}", fields(7))),
            Some(rows(""))
        );
        assert_eq!(
            expand_shorthand(&format!("3x3:d:k:{}", fields(0))),
            Some(rows(".Diagonal~1.Diagonal~-1"))
        );
        // A cage's number under two sums, a field short, a field not a number, another kind.
        assert_eq!(
            expand_sudocue_killer(&format!("3x3::k:{}", fields(44 * 256 + 9))),
            None
        );
        let short = fields(0);
        assert_eq!(
            expand_sudocue_killer(&format!(
                "3x3::k:{}",
                &short[short.find(':').unwrap() + 1..]
            )),
            None
        );
        assert_eq!(
            expand_sudocue_killer(&format!("3x3::k:x{}", fields(0))),
            None
        );
        assert_eq!(
            expand_sudocue_killer(&format!("3x3::j:{}", fields(0))),
            None
        );
        // A file of such lines is read as ISS's strings are.
        let entries = read(&format!("3x3::k:{}\n", fields(45 * 256 + 9)));
        assert!(entries[0].is_ok(), "{:?}", entries[0].as_ref().err());
    }

    #[test]
    fn shorthands_stand_for_constraint_strings() {
        // A 4x4 killer: two cages across each half of the grid.
        let killer = "A<<<^<<<A<<<^<<<";
        assert_eq!(
            expand_shorthand(killer).unwrap(),
            ".Shape~4x4.Cage~10~R1C1~R1C2~R1C3~R1C4~R2C1~R2C2~R2C3~R2C4\
             .Cage~10~R3C1~R3C2~R3C3~R3C4~R4C1~R4C2~R4C3~R4C4"
        );
        // The same cages drawn with the four diagonal arrows too.
        assert_eq!(
            expand_shorthand("A<<,'<<<.<<<A<<<"),
            expand_shorthand(killer)
        );
        // An arrow off the grid, or a cage without a sum, is no shorthand.
        assert_eq!(expand_shorthand("<<<<<<<<<<<<<<<<"), None);
        assert_eq!(expand_shorthand("A<<<`<<<A<<<^<<<"), None);
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
                ".FullRankTies~any",
                FaultKind::Unsupported,
                "item 1: the rule 'FullRankTies' is not supported yet",
            ),
            (".Arrow~R1C1", FaultKind::Layout, "cells beyond its circle"),
            (".Arrow~R1C1~R1C1", FaultKind::Rule, "r1c1 comes twice"),
            (".~R1C1_0", FaultKind::Value, "not a digit from 1 to 9"),
            (".Shape~9x6", FaultKind::Unsupported, "taller than wide"),
            (".Shape~6x6~9", FaultKind::Unsupported, "a range of digits"),
            (".Shape~9x9~0-9", FaultKind::Rule, "only with doppelganger"),
            (
                ".Shape~6x9.AntiTaxicab",
                FaultKind::Rule,
                "not read on a 6x9 grid",
            ),
            (
                ".Shape~6x9.Thermo~R6C1~R7C1",
                FaultKind::Value,
                "'R7C1' is not a cell",
            ),
            (
                ".Shape~9x9~0-9.Doppelganger.Cage~10~R1C1~R1C2",
                FaultKind::Rule,
                "'cages'",
            ),
            (
                ".Shape~9x9~0-9.Doppelganger.~R1C1_10",
                FaultKind::Value,
                "from 0 to 9",
            ),
            (".Thermo~R1C1~R9C9", FaultKind::Rule, "does not touch"),
            (".~R1C1_5~R1C2_5", FaultKind::Clash, "break row 1"),
            (".Thermo~R1C1~Z", FaultKind::Value, "'Z' is not a cell"),
            (".Diagonal~1", FaultKind::Unsupported, "a single diagonal"),
        ] {
            let (found, error, _) = parse(text, "t").unwrap_err();
            assert!(error.contains(said), "{text}: {error}");
            assert_eq!(found, kind, "{text}");
        }
        // Doppelganger's cells beyond the grid, and its digits from 0.
        let puzzle = parse(".Shape~9x9~0-9.Doppelganger.~R1C1_0~DGC2_7", "t").unwrap();
        assert_eq!(puzzle.rules.rows(), 11);
        assert_eq!(puzzle.given((0, 0)), 1);
        assert_eq!(puzzle.given((1, 9)), 8);
        assert_eq!(doppelganger_cell("DGB9", 9), Some((10, 8)));
        assert_eq!(doppelganger_cell("DGR1", 9), Some((9, 0)));
        assert_eq!(doppelganger_cell("DGZ", 9), Some((9, 9)));
        assert_eq!(doppelganger_cell("DGB10", 9), None);
        assert_eq!(cell_name(grid_cell("R1Cg", 16, 16).unwrap()), "r1c16");
        assert_eq!(grid_cell("R7C1", 6, 9), None);
        assert_eq!(grid_cell("R1Cg", 9, 9), None);
        assert_eq!(grid_cell("RcC3", 16, 16), Some((11, 2)));
        assert_eq!(grid_cell("r10c1", 16, 16), Some((9, 0)));
    }
}
