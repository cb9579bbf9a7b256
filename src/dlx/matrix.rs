//! The compiled, immutable form of a problem: Knuth's node arrays.
//!
//! A [`Matrix`] is built once from a [`Problem`] and never changes afterwards, so one matrix can
//! serve any number of searches, one after another or on several threads at once; the links
//! that dance during a search live in a [`Solver`](super::Solver), which starts from a copy of
//! the arrays kept here. Links are `u32` array indices, as in Knuth's `dlx1`:
//!
//! ```text
//!   items:  0=root  1 .. primary  primary+1 .. n   n+1 = root of the secondary items
//!           (prev, next) links: the primary items in one circle, secondary ones in another
//!
//!   nodes:  0   1 .. n          n+1     ...      spacer  ...     spacer
//!           -   item headers    spacer  option 0 nodes   option 1 ...
//!               (up, down, len) (up = first node of the option before it,
//!                                down = last node of the option after it)
//! ```
//!
//! An option node's `top` is its item; a header's `top` is the item's current length; a
//! spacer's `top` is 0, which no item has.

use super::links::Filter;
use super::problem::{ItemId, ItemKind, OptionId, Problem};
use super::rest::RestCounter;
use super::search::Solver;

/// One cell of the node array: vertical links, the item (or, in a header, the length), and
/// the next node of the same option, cyclically. Knuth's `dlx1` finds that neighbour by
/// stepping to `x + 1` and jumping back at the spacer; the stored link costs four bytes but
/// makes the innermost loop branch-predictable (every option walks a fixed number of steps):
/// 6.5 s to 6.1 s counting the 6x10 pentominoes. The solver's working copy splits these
/// fields into one array each (see `dance.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Node {
    pub up: u32,
    pub down: u32,
    pub top: u32,
    pub right: u32,
}

/// One cell of the item array: horizontal links of the active-item lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ItemLink {
    pub prev: u32,
    pub next: u32,
}

/// A problem compiled into flat link arrays, ready to be searched.
#[derive(Debug, Clone)]
pub struct Matrix {
    problem: Problem,
    /// Initial state of the node array (headers, option nodes and spacers).
    pub(crate) nodes: Vec<Node>,
    /// Initial state of the item lists.
    pub(crate) items: Vec<ItemLink>,
    /// Number of items; headers are nodes `1..=item_count`.
    pub(crate) item_count: u32,
    /// Number of primary items; their headers are nodes `1..=primary_count`.
    pub(crate) primary_count: u32,
    /// For each node, the option it belongs to (meaningless for headers and spacers).
    pub(crate) node_option: Vec<u32>,
    /// For each problem option, its first node, or 0 if the option was dropped.
    pub(crate) option_first: Vec<u32>,
    /// For each problem item, its index `1..=item_count` in the matrix.
    pub(crate) item_index: Vec<u32>,
    /// For each matrix index `0..=item_count`, the problem item (0 for the root).
    pub(crate) item_of: Vec<u32>,
    /// Options dropped because they name only secondary items.
    dropped: Vec<OptionId>,
    /// The colour of each node (0 for none, else the colour's index plus one), or empty
    /// when no option has colours.
    pub(crate) colors: Vec<u32>,
    /// For each matrix item index `0..=item_count`, how many times it must be covered (at
    /// least, at most), or empty when every item is covered exactly once.
    pub(crate) bounds: Vec<(u32, u32)>,
    /// The one-to-one blocks of [`Problem::add_block`] as matrix item indices: block `k` is
    /// `block_items[block_starts[k]..block_starts[k + 1]]`, one side then the other, each
    /// half as long.
    pub(crate) block_items: Vec<u32>,
    pub(crate) block_starts: Vec<u32>,
    /// The items of [`Problem::add_exclusion_items`] as matrix item indices.
    pub(crate) exclusion_items: Vec<u32>,
    /// The weighed sums, then the chains, compiled for filtering where the search branches.
    pub(crate) sums: std::sync::Arc<[super::links::NodeSum]>,
    /// Whether half or more of the options the weighed sums hold lie in sums whose values
    /// are distinct (a killer's cages, not a little killer's diagonals), or there are no
    /// weighed sums (chains alone filter): where [`Inference::Auto`](super::Inference::Auto)
    /// probes.
    pub(crate) sums_mostly_distinct: bool,
    /// [`Matrix::fingerprint`], computed on first use.
    fingerprint: std::sync::OnceLock<u64>,
    /// The blocks whose edges a search keeps as bit sets, and their options' edges:
    /// computed when a first search filters blocks, shared by every solver of the matrix.
    pub(crate) tracked_edges: std::sync::OnceLock<std::sync::Arc<super::links::TrackedEdges>>,
    /// Per item, the most of its options that hold one same other item: computed when a
    /// first search infers, shared by every solver of the matrix (a batch of Sudoku puzzles
    /// makes a solver per slice of the batch).
    pub(crate) most_shared: std::sync::OnceLock<std::sync::Arc<[u32]>>,
    /// The problem's own counter of rests, if its builder gave one (see `rest.rs`).
    pub(crate) rest: Option<std::sync::Arc<dyn RestCounter>>,
}

/// Why a problem cannot be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatrixError {
    /// A problem with no primary item has no meaningful exact cover.
    NoPrimaryItem,
    /// More nodes than 32-bit indices can address.
    TooLarge,
    /// An option breaks a one-to-one block ([`Problem::add_block`]): it contains an item of
    /// the block but not exactly one of each side; or a block's item was given bounds.
    BrokenBlock(String),
}

impl std::fmt::Display for MatrixError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatrixError::NoPrimaryItem => write!(f, "the problem has no primary item"),
            MatrixError::TooLarge => write!(f, "the problem is too large for 32-bit indices"),
            MatrixError::BrokenBlock(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for MatrixError {}

impl Matrix {
    /// Compiles a problem. Options that name only secondary items can never be chosen; they
    /// are left out of the matrix and listed by [`Matrix::dropped_options`].
    pub fn new(problem: Problem) -> Result<Matrix, MatrixError> {
        let primary = problem.primary_count();
        if primary == 0 {
            return Err(MatrixError::NoPrimaryItem);
        }
        let n = problem.item_count();
        let total = n as u64 + 1 + problem.node_count() as u64 + problem.option_count() as u64 + 1;
        if total >= u32::MAX as u64 {
            return Err(MatrixError::TooLarge);
        }

        // Primary items first, then secondary ones, each group in the order given.
        let mut item_index = vec![0u32; n];
        let mut next_primary = 1u32;
        let mut next_secondary = primary as u32 + 1;
        for item in problem.items() {
            let slot = match problem.kind(item) {
                ItemKind::Primary => &mut next_primary,
                ItemKind::Secondary => &mut next_secondary,
            };
            item_index[item.0 as usize] = *slot;
            *slot += 1;
        }

        let n32 = n as u32;
        let mut items = vec![ItemLink::default(); n + 2];
        link_circle(&mut items, 0, 1..=primary as u32);
        link_circle(&mut items, n32 + 1, primary as u32 + 1..=n32);

        let mut nodes: Vec<Node> = Vec::with_capacity(total as usize);
        nodes.push(Node::default());
        for i in 1..=n32 {
            nodes.push(Node {
                up: i,
                down: i,
                top: 0,
                right: 0,
            });
        }
        let mut node_option = vec![0u32; n + 1];
        let mut option_first = vec![0u32; problem.option_count()];
        let mut dropped = Vec::new();
        let colored = problem.has_colors();
        let mut colors: Vec<u32> = Vec::new();
        if colored {
            colors.resize(nodes.len(), 0);
        }

        // The first spacer; its `up` is never followed.
        let mut spacer = nodes.len();
        nodes.push(Node::default());
        node_option.push(0);
        if colored {
            colors.push(0);
        }
        for option in problem.options() {
            let option_items = problem.option(option);
            if option_items
                .iter()
                .all(|&item| problem.kind(item) == ItemKind::Secondary)
            {
                dropped.push(option);
                continue;
            }
            let first = nodes.len() as u32;
            option_first[option.0 as usize] = first;
            if colored {
                colors.extend(
                    problem
                        .option_colors(option)
                        .map(|c| c.map_or(0, |c| c.0 + 1)),
                );
            }
            for &item in option_items {
                let i = item_index[item.0 as usize];
                let x = nodes.len() as u32;
                let last = nodes[i as usize].up;
                nodes.push(Node {
                    up: last,
                    down: i,
                    top: i,
                    right: x + 1,
                });
                nodes[last as usize].down = x;
                nodes[i as usize].up = x;
                nodes[i as usize].top += 1;
                node_option.push(option.0);
            }
            let last = nodes.len() as u32 - 1;
            nodes[last as usize].right = first;
            nodes[spacer].down = last;
            spacer = nodes.len();
            nodes.push(Node {
                up: first,
                down: 0,
                top: 0,
                right: 0,
            });
            node_option.push(0);
            if colored {
                colors.push(0);
            }
        }

        let mut item_of = vec![0u32; n + 1];
        for (item, &index) in item_index.iter().enumerate() {
            item_of[index as usize] = item as u32;
        }
        let bounds = if problem.has_multiplicities() {
            (0..=n)
                .map(|index| match index {
                    0 => (1, 1),
                    _ => problem.bounds(ItemId(item_of[index])),
                })
                .collect()
        } else {
            Vec::new()
        };
        let (block_items, block_starts) = compile_blocks(&problem, &item_index)?;
        let exclusion_items = (problem.exclusion_items().iter())
            .map(|&item| item_index[item.0 as usize])
            .collect();
        // The sums the search weighs where it branches; every sum is checked in solutions.
        let weighed: Vec<&super::Sum> = (problem.sums().iter().enumerate())
            .filter(|&(s, _)| problem.is_weighed(s))
            .map(|(_, sum)| sum)
            .collect();
        // Each option of a weighed sum: (in some sum, in some sum of distinct values).
        let mut summed = vec![(false, false); option_first.len()];
        for sum in &weighed {
            for &(option, _) in sum.terms.iter().flatten() {
                let mark = &mut summed[option.0 as usize];
                *mark = (true, mark.1 || sum.distinct);
            }
        }
        let in_sums = summed.iter().filter(|mark| mark.0).count();
        let in_distinct_sums = summed.iter().filter(|mark| mark.1).count();
        // The first node of each option of each term of a sum or a chain.
        let first_nodes = |terms: &[Vec<(super::OptionId, i64)>]| -> Vec<Vec<u32>> {
            terms
                .iter()
                .map(|term| {
                    term.iter()
                        .map(|&(option, _)| option_first[option.0 as usize])
                        .collect()
                })
                .collect()
        };
        let sums = weighed
            .iter()
            .map(|sum| {
                let filter = super::sums::SumFilter::new(sum);
                let excluded = sum
                    .excluded
                    .iter()
                    .filter_map(|&(option, value)| {
                        Some((option_first[option.0 as usize], filter.value_bit(value)?))
                    })
                    .filter(|&(first, _)| first != 0)
                    .collect();
                (filter, excluded)
            })
            .zip(&weighed)
            .map(|((filter, excluded), sum)| super::links::NodeSum {
                filter: Filter::Sum(filter),
                excluded,
                nodes: first_nodes(&sum.terms),
            })
            .chain(problem.chains().iter().map(|chain| super::links::NodeSum {
                filter: Filter::Chain(super::chains::ChainFilter::new(chain)),
                excluded: Vec::new(),
                nodes: first_nodes(&chain.terms),
            }))
            .collect();
        Ok(Matrix {
            sums,
            sums_mostly_distinct: 2 * in_distinct_sums >= in_sums,
            block_items,
            block_starts,
            exclusion_items,
            item_of,
            problem,
            nodes,
            items,
            item_count: n32,
            primary_count: primary as u32,
            node_option,
            option_first,
            item_index,
            dropped,
            colors,
            bounds,
            fingerprint: std::sync::OnceLock::new(),
            tracked_edges: std::sync::OnceLock::new(),
            most_shared: std::sync::OnceLock::new(),
            rest: None,
        })
    }

    /// A 64-bit fingerprint of the compiled problem (its items, options and their order):
    /// equal for equal problems on every machine and every run, so that results computed
    /// apart (shards of one count, checkpoints) can be checked to belong together. FNV-1a
    /// over the node arrays.
    pub fn fingerprint(&self) -> u64 {
        *self.fingerprint.get_or_init(|| self.compute_fingerprint())
    }

    fn compute_fingerprint(&self) -> u64 {
        let mut hash = Fingerprint::new();
        hash.add(u64::from(self.item_count));
        hash.add(u64::from(self.primary_count));
        for node in &self.nodes {
            hash.add(u64::from(node.top));
            hash.add(u64::from(node.right));
        }
        for &option in &self.node_option {
            hash.add(u64::from(option));
        }
        for &color in &self.colors {
            hash.add(u64::from(color));
        }
        for &(lower, upper) in &self.bounds {
            hash.add(u64::from(lower) << 32 | u64::from(upper));
        }
        for (s, sum) in self.problem.sums().iter().enumerate() {
            // (Only a sum left to the solutions counts: fingerprints of problems written
            // before such sums existed stay the same.)
            if !self.problem.is_weighed(s) {
                hash.add(u64::MAX);
            }
            hash.add(sum.terms.len() as u64);
            for term in &sum.terms {
                hash.add(term.len() as u64);
                for &(option, value) in term {
                    hash.add(u64::from(option.0));
                    hash.add(value as u64);
                }
            }
            hash.add(sum.min as u64);
            hash.add(sum.max as u64);
            hash.add(u64::from(sum.distinct));
            for group in &sum.apart {
                hash.add(group.len() as u64);
                for &t in group {
                    hash.add(t as u64);
                }
            }
            for &(option, value) in &sum.excluded {
                hash.add(u64::from(option.0));
                hash.add(value as u64);
            }
        }
        // (Only where there are chains: fingerprints of problems without stay the same.)
        for chain in self.problem.chains() {
            hash.add(u64::MAX - 1);
            hash.add(chain.terms.len() as u64);
            for (term, moves) in chain.terms.iter().zip(&chain.moves) {
                hash.add(term.len() as u64);
                for &(option, value) in term {
                    hash.add(u64::from(option.0));
                    hash.add(value as u64);
                }
                hash.add(moves.len() as u64);
                for m in moves {
                    hash.add(u64::from(m.from));
                    hash.add(m.value as u64);
                    hash.add(u64::from(m.to));
                }
            }
        }
        hash.finish()
    }

    /// The problem this matrix was compiled from.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Options left out because they name only secondary items.
    pub fn dropped_options(&self) -> &[OptionId] {
        &self.dropped
    }

    /// A new search state for this matrix.
    pub fn solver(&self) -> Solver<'_> {
        Solver::new(self)
    }

    /// Gives searches that only count a counter of their rests (see [`RestCounter`]), which
    /// must count exactly this problem's solutions that hold the options it is handed. Ignored
    /// for problems with colours, multiplicities, sums or chains. The solutions, and so the
    /// fingerprint, are the same with it or without it.
    pub fn set_rest_counter(&mut self, counter: std::sync::Arc<dyn RestCounter>) {
        let plain = self.colors.is_empty()
            && self.bounds.is_empty()
            && self.problem.sums().is_empty()
            && self.problem.chains().is_empty();
        self.rest = plain.then_some(counter);
    }

    /// The counter of rests that [`Matrix::set_rest_counter`] gave, if any.
    pub fn rest_counter(&self) -> Option<&std::sync::Arc<dyn RestCounter>> {
        self.rest.as_ref()
    }

    /// How many options contain this item (before any search).
    pub fn item_len(&self, item: ItemId) -> u32 {
        self.nodes[self.item_index[item.0 as usize] as usize].top
    }
}

/// The blocks of `problem` as matrix item indices (flat, with starts), checked
/// ([`Problem::broken_block`]).
fn compile_blocks(
    problem: &Problem,
    item_index: &[u32],
) -> Result<(Vec<u32>, Vec<u32>), MatrixError> {
    if let Some((_, why)) = problem.broken_block() {
        return Err(MatrixError::BrokenBlock(why));
    }
    let mut block_items = Vec::new();
    let mut block_starts = vec![0];
    for (left, right) in problem.blocks() {
        block_items.extend(
            left.iter()
                .chain(right)
                .map(|&item| item_index[item.0 as usize]),
        );
        block_starts.push(block_items.len() as u32);
    }
    Ok((block_items, block_starts))
}

/// Links `members` into a doubly linked circle through `head`.
fn link_circle(items: &mut [ItemLink], head: u32, members: std::ops::RangeInclusive<u32>) {
    let mut prev = head;
    for i in members {
        items[prev as usize].next = i;
        items[i as usize].prev = prev;
        prev = i;
    }
    items[prev as usize].next = head;
    items[head as usize].prev = prev;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_follows_knuth() {
        let mut problem = Problem::new();
        let a = problem.add_primary("a").unwrap();
        let b = problem.add_primary("b").unwrap();
        let x = problem.add_secondary("x").unwrap();
        problem.add_option(&[a, x]).unwrap();
        problem.add_option(&[x]).unwrap();
        problem.add_option(&[b, a]).unwrap();
        let matrix = Matrix::new(problem).unwrap();
        // headers 1..=3, spacer 4, option 0 at 5..=6, spacer 7, option 2 at 8..=9, spacer 10
        assert_eq!(matrix.nodes.len(), 11);
        assert_eq!(matrix.dropped_options(), &[OptionId(1)]);
        assert_eq!(matrix.nodes[1].top, 2, "item a is in two options");
        assert_eq!(matrix.nodes[3].top, 1, "item x is in one kept option");
        assert_eq!(
            matrix.nodes[7].up, 5,
            "spacer points back to its option's first node"
        );
        assert_eq!(
            matrix.nodes[4].down, 6,
            "spacer points at the next option's last node"
        );
        assert_eq!(matrix.nodes[10].up, 8);
        assert_eq!(matrix.option_first, vec![5, 0, 8]);
        assert_eq!(matrix.items[0].next, 1);
        assert_eq!(matrix.items[2].next, 0);
        assert_eq!(matrix.items[4].next, 3, "secondary circle has its own head");
    }

    #[test]
    fn no_primary_item_is_an_error() {
        let mut problem = Problem::new();
        problem.add_secondary("x").unwrap();
        assert_eq!(
            Matrix::new(problem).unwrap_err(),
            MatrixError::NoPrimaryItem
        );
    }
}

/// FNV-1a, 64 bits: a hash whose value is fixed by its definition (the standard library's
/// hasher may change between releases), for fingerprints written to files.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fingerprint(u64);

impl Fingerprint {
    pub fn new() -> Fingerprint {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }

    /// Mixes in the eight bytes of `value`, least significant first.
    pub fn add(&mut self, value: u64) {
        for byte in value.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}
