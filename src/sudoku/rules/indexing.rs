//! Indexing: in a column-indexing cell (row R, column C) holding X, the cell in row R and
//! column X holds C (the 159 rule: columns 1, 5 and 9 index their rows); a row-indexing cell
//! holding X says that row X of its column holds R.
//!
//! Each indexing cell and each other cell of its row (or column) form a pair: when the first
//! holds that cell's position, the second holds the indexing cell's position.

use super::Mark;
use super::{
    Cell, Neighbour, Rule, Rules, RulesError, cell_name, clue_error, parse_cells, path_text,
};

pub(super) const NAME: &str = "indexing";

/// Indexing cells, each indexing its row (by column) or its column (by row).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Indexing {
    /// Cells whose symbol says where their column's number stands in their row.
    pub columns: Vec<Cell>,
    /// Cells whose symbol says where their row's number stands in their column.
    pub rows: Vec<Cell>,
}

impl Indexing {
    /// Reads one kind a line: `columns r1c1 r2c1 ...` or `rows r1c1 r1c2 ...`.
    pub fn parse(lines: &[(usize, String)]) -> Result<Indexing, (usize, String)> {
        let mut indexing = Indexing {
            columns: Vec::new(),
            rows: Vec::new(),
        };
        for (line, text) in lines {
            let (kind, cells) = text.trim().split_once(' ').unwrap_or((text, ""));
            let cells = parse_cells(cells).map_err(|why| (*line, why))?;
            match kind {
                "columns" => indexing.columns.extend(cells),
                "rows" => indexing.rows.extend(cells),
                other => {
                    return Err((*line, format!("'{other}': indexing is of columns or rows")));
                }
            }
        }
        Ok(indexing)
    }
}

impl Rule for Indexing {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "an indexing cell"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        if !self.rows.is_empty() && rules.rows() != rules.size {
            return Err(clue_error(
                NAME,
                1,
                &self.rows,
                "a cell indexing its column needs as many rows as digits".into(),
            ));
        }
        for (k, cells) in [&self.columns, &self.rows].into_iter().enumerate() {
            super::validate_cells(rules, cells).map_err(|why| clue_error(NAME, k, cells, why))?;
        }
        Ok(())
    }

    fn pairs(&self, rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        let n = rules.size;
        let mut pairs = Vec::new();
        let mut relate = |a: Cell, b: Cell, x: usize, y: usize| {
            // a holds x => b holds y.
            let (x, y) = (x as u8, y as u8);
            if a < b {
                pairs.push((a, b, Neighbour::Implies(x, y)));
            } else {
                pairs.push((b, a, Neighbour::ImpliedBy(y, x)));
            }
        };
        for &(r, c) in &self.columns {
            for k in (0..n).filter(|&k| k != c) {
                relate((r, c), (r, k), k + 1, c + 1);
            }
        }
        for &(r, c) in &self.rows {
            for k in (0..n).filter(|&k| k != r) {
                relate((r, c), (k, c), k + 1, r + 1);
            }
        }
        pairs
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        [(0, &self.columns), (1, &self.rows)]
            .into_iter()
            .filter(|(_, cells)| !cells.is_empty())
            .map(|(group, cells)| Mark::Shade {
                style: NAME,
                group,
                cells: cells.clone(),
            })
            .collect()
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for &(r, c) in &self.columns {
            let x = usize::from(grid[r * n + c]);
            if usize::from(grid[r * n + x - 1]) != c + 1 {
                return Some(format!(
                    "{} holds {x}, but column {x} of its row does not hold {}",
                    cell_name((r, c)),
                    c + 1
                ));
            }
        }
        for &(r, c) in &self.rows {
            let x = usize::from(grid[r * n + c]);
            if usize::from(grid[(x - 1) * n + c]) != r + 1 {
                return Some(format!(
                    "{} holds {x}, but row {x} of its column does not hold {}",
                    cell_name((r, c)),
                    r + 1
                ));
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.columns.is_empty() {
            lines.push(format!("columns {}", path_text(&self.columns)));
        }
        if !self.rows.is_empty() {
            lines.push(format!("rows {}", path_text(&self.rows)));
        }
        lines
    }
}
