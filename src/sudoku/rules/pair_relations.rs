//! Pair relations, as the Interactive Sudoku Solver writes them: a table of the symbol pairs
//! two cells may hold, applied along a chain of cells (each cell and the next) or to every two
//! cells of a group. The table is ISS's key: URL-safe base64, six bits a character, least
//! significant first; bit `(a - 1) * side + (b - 1)` allows the first cell to hold `a` beside
//! the second holding `b`.

use super::Mark;
use super::{
    Cell, Neighbour, PairTable, Rule, Rules, RulesError, cell_name, clue_error, parse_cells,
    path_text,
};

pub(super) const NAME: &str = "pair-relations";

/// The largest side a table is read on.
pub const MAX_PAIR_SIZE: usize = 16;

/// One relation: its key, whether it holds between every two cells of a group (else between
/// each cell and the next), and its groups of cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairRelation {
    pub key: String,
    pub every_two: bool,
    pub groups: Vec<Vec<Cell>>,
}

/// Pair relations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairRelations {
    pub relations: Vec<PairRelation>,
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The table a key stands for on a grid of side `n`; `None` when a character is not base64.
pub fn table_of_key(key: &str, n: usize) -> Option<PairTable> {
    let sixes: Vec<u8> = key
        .bytes()
        .map(|b| BASE64.iter().position(|&c| c == b).map(|v| v as u8))
        .collect::<Option<_>>()?;
    let mut table = PairTable::default();
    for a in 0..n {
        for b in 0..n {
            let bit = a * n + b;
            if sixes
                .get(bit / 6)
                .is_some_and(|six| six >> (bit % 6) & 1 == 1)
            {
                table.allow(a as u8 + 1, b as u8 + 1);
            }
        }
    }
    Some(table)
}

impl PairRelations {
    /// Reads one relation a line: `chain` or `every`, the key, then groups of cells separated
    /// by `|` (`chain EAEBEAAQAAAAE r2c6 r3c6 | r5c5 r5c6`).
    pub fn parse(lines: &[(usize, String)]) -> Result<PairRelations, (usize, String)> {
        let relations = lines
            .iter()
            .map(|(line, text)| {
                let mut words = text.splitn(3, ' ');
                let every_two = match words.next() {
                    Some("chain") => false,
                    Some("every") => true,
                    _ => {
                        return Err((
                            *line,
                            format!(
                                "'{text}': a pair relation is chain or every, a key, then cells"
                            ),
                        ));
                    }
                };
                let key = words.next().unwrap_or("").to_string();
                let groups = words
                    .next()
                    .unwrap_or("")
                    .split('|')
                    .map(|group| parse_cells(group).map_err(|why| (*line, why)))
                    .collect::<Result<_, _>>()?;
                Ok(PairRelation {
                    key,
                    every_two,
                    groups,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(PairRelations { relations })
    }

    /// Each relation's table on side `n` and the pairs of cells it holds between.
    fn tables(&self, n: usize) -> Vec<(PairTable, Vec<(Cell, Cell)>)> {
        self.relations
            .iter()
            .map(|relation| {
                let table = table_of_key(&relation.key, n).unwrap_or_default();
                let mut pairs = Vec::new();
                for group in &relation.groups {
                    for (i, &a) in group.iter().enumerate() {
                        if relation.every_two {
                            pairs.extend(group[i + 1..].iter().map(|&b| (a, b)));
                        } else if let Some(&b) = group.get(i + 1) {
                            pairs.push((a, b));
                        }
                    }
                }
                (table, pairs)
            })
            .collect()
    }
}

impl Rule for PairRelations {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a pair relation"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        for (k, relation) in self.relations.iter().enumerate() {
            let all: Vec<Cell> = relation.groups.iter().flatten().copied().collect();
            let bad = |why: String| clue_error(NAME, k, &all, why);
            if rules.size > MAX_PAIR_SIZE {
                return Err(bad(format!(
                    "pair relations are read up to side {MAX_PAIR_SIZE}"
                )));
            }
            if table_of_key(&relation.key, rules.size).is_none() {
                return Err(bad(format!("'{}' is not a key (base64)", relation.key)));
            }
            for group in &relation.groups {
                super::validate_cells(rules, group).map_err(bad)?;
            }
        }
        Ok(())
    }

    fn pairs(&self, rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        self.tables(rules.size)
            .into_iter()
            .flat_map(|(table, pairs)| {
                pairs
                    .into_iter()
                    .map(move |(a, b)| (a, b, Neighbour::Allowed(table)))
            })
            .collect()
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        let mut marks = Vec::new();
        for relation in &self.relations {
            for group in &relation.groups {
                marks.push(if relation.every_two {
                    Mark::Cage {
                        style: NAME,
                        cells: group.clone(),
                        text: String::new(),
                    }
                } else {
                    Mark::Line {
                        style: NAME,
                        cells: group.clone(),
                    }
                });
            }
        }
        marks
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for relation in &self.relations {
            // The key read afresh, bit by bit, for each pair.
            let sixes: Vec<usize> = relation
                .key
                .bytes()
                .filter_map(|b| BASE64.iter().position(|&c| c == b))
                .collect();
            let allowed = |a: u8, b: u8| {
                let bit = (usize::from(a) - 1) * n + usize::from(b) - 1;
                sixes
                    .get(bit / 6)
                    .is_some_and(|six| six >> (bit % 6) & 1 == 1)
            };
            for group in &relation.groups {
                for i in 0..group.len() {
                    let others: Vec<Cell> = if relation.every_two {
                        group[i + 1..].to_vec()
                    } else {
                        group.get(i + 1).copied().into_iter().collect()
                    };
                    let (r, c) = group[i];
                    for (r2, c2) in others {
                        let (x, y) = (grid[r * n + c], grid[r2 * n + c2]);
                        if !allowed(x, y) {
                            return Some(format!(
                                "{} and {} hold {x} and {y}, which the relation {} does not allow",
                                cell_name((r, c)),
                                cell_name((r2, c2)),
                                relation.key
                            ));
                        }
                    }
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.relations
            .iter()
            .map(|relation| {
                let groups: Vec<String> = relation.groups.iter().map(|g| path_text(g)).collect();
                let kind = if relation.every_two { "every" } else { "chain" };
                format!("{kind} {} {}", relation.key, groups.join(" | "))
            })
            .collect()
    }
}
