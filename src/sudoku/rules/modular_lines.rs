//! Modular lines: every run of `m` consecutive cells on the line holds symbols that differ
//! modulo `m` (with m = 3, one each of 1 4 7, 2 5 8 and 3 6 9). Two cells of a line fewer
//! than `m` apart differ modulo `m`, and that is the whole rule: any `m` consecutive cells
//! are pairwise fewer than `m` apart.

use super::Mark;
use super::{
    Cell, Neighbour, Rule, Rules, RulesError, cell_name, parse_numbered_paths, path_text,
    validate_path,
};

pub(super) const NAME: &str = "modular";

/// The modulus of a line when its clue gives none, as the Interactive Sudoku Solver's
/// published puzzles use.
pub const DEFAULT_MODULUS: u8 = 3;

/// Modular lines, each a path of cells with its modulus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModularLines {
    pub lines: Vec<(u8, Vec<Cell>)>,
}

impl ModularLines {
    /// Reads one line a clue: its cells, after an optional modulus (`3 r1c1 r1c2 r1c3`).
    pub fn parse(lines: &[(usize, String)]) -> Result<ModularLines, (usize, String)> {
        Ok(ModularLines {
            lines: parse_numbered_paths(lines, DEFAULT_MODULUS)?,
        })
    }
}

impl Rule for ModularLines {
    fn name(&self) -> &'static str {
        NAME
    }

    fn title(&self) -> &'static str {
        "a modular line"
    }

    fn validate(&self, rules: &Rules) -> Result<(), RulesError> {
        let n = rules.size;
        for (k, (modulus, line)) in self.lines.iter().enumerate() {
            validate_path(rules, NAME, k, line, (2, n * n))?;
            if *modulus < 2 || usize::from(*modulus) > n {
                return Err(RulesError::Clue {
                    rule: NAME,
                    index: k + 1,
                    cells: line.clone(),
                    why: format!("a modulus of 2 to {n}, not {modulus}"),
                });
            }
        }
        Ok(())
    }

    fn pairs(&self, _rules: &Rules) -> Vec<(Cell, Cell, Neighbour)> {
        let mut pairs = Vec::new();
        for (modulus, line) in &self.lines {
            let m = usize::from(*modulus);
            for (i, &a) in line.iter().enumerate() {
                for &b in line.iter().skip(i + 1).take(m - 1) {
                    pairs.push((a, b, Neighbour::DifferentModulo(*modulus)));
                }
            }
        }
        pairs
    }

    fn marks(&self, _rules: &Rules) -> Vec<Mark> {
        super::drawing::lines(NAME, self.lines.iter().map(|(_, line)| line))
    }

    fn broken(&self, rules: &Rules, grid: &[u8]) -> Option<String> {
        let n = rules.size;
        for (modulus, line) in &self.lines {
            let m = usize::from(*modulus);
            // Each run of m cells (or the whole line, if shorter) holds m residues.
            for run in line.windows(m.min(line.len())) {
                let mut residues: Vec<u8> = run
                    .iter()
                    .map(|&(r, c)| grid[r * n + c] % modulus)
                    .collect();
                residues.sort_unstable();
                residues.dedup();
                if residues.len() != run.len() {
                    return Some(format!(
                        "the modular line from {} repeats a residue modulo {modulus} within {m} \
                         cells",
                        cell_name(line[0])
                    ));
                }
            }
        }
        None
    }

    fn lines(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|(modulus, line)| format!("{modulus} {}", path_text(line)))
            .collect()
    }
}
