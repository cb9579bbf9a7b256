//! An exact-cover problem as a user describes it: named items and options.
//!
//! This is the mutable, checked description a caller builds (by hand, from an encoder such as
//! the Sudoku layer, or by reading Knuth's text format). It knows nothing about links or search;
//! [`Matrix::new`](super::Matrix::new) compiles it into the flat arrays the search dances on.
//! Every check a problem needs (duplicate names, an option naming an item twice, no primary
//! item) happens here, so a compiled matrix is always well formed.

use std::collections::HashMap;
use std::fmt;

use super::chains::Chain;
use super::sums::{MAX_TERM_VALUES, Sum};

/// Index of an item in the order it was added to its [`Problem`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(pub u32);

/// Index of an option in the order it was added to its [`Problem`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OptionId(pub u32);

/// Whether an item must be covered exactly once or at most once.
/// A colour that options give secondary items (Knuth's DLX2): options that give an item the
/// same colour may both be in a solution; options that give it different colours, or one of
/// them none, may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColorId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// Covered exactly once by every solution.
    Primary,
    /// Covered at most once.
    Secondary,
}

/// What can go wrong while building a problem through the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// An item name was given twice.
    DuplicateItem(String),
    /// An item name is empty, contains white space or `|`.
    InvalidName(String),
    /// An option names an [`ItemId`] that does not exist.
    UnknownItem(ItemId),
    /// An option names an item by a name that was never declared.
    UnknownName(String),
    /// An option names the same item twice.
    RepeatedItem(String),
    /// An option with no items at all.
    EmptyOption,
    /// A colour on a primary item (only secondary items take colours).
    ColoredPrimary(String),
    /// A colour name that cannot be used (empty, or with spaces, `|` or `:`).
    InvalidColor(String),
    /// Bounds that no count can meet (lower above upper, or upper 0), or bounds on a
    /// secondary item.
    BadBounds(String),
    /// A one-to-one block ([`Problem::add_block`]) with sides of different sizes, an empty
    /// side, a secondary item, an item with bounds, or an item named twice.
    BadBlock(String),
    /// An item the exclusion rule is asked to examine ([`Problem::add_exclusion_items`])
    /// that is secondary or has bounds.
    BadExclusionItem(String),
    /// A sum ([`Problem::add_sum`]) with an empty term, an unknown option, or a term of more
    /// than [`MAX_TERM_VALUES`](super::MAX_TERM_VALUES) values.
    BadSum(String),
    /// A chain ([`Problem::add_chain`]) with a term without options or of more than
    /// [`MAX_TERM_VALUES`](super::MAX_TERM_VALUES) values, an unknown option, or not one list
    /// of moves a term.
    BadChain(String),
    /// Too many items or nodes for the `u32` indices of the matrix.
    TooLarge,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::DuplicateItem(name) => write!(f, "item '{name}' is declared twice"),
            BuildError::InvalidName(name) => write!(
                f,
                "'{name}' is not a valid item name (it must be non-empty, without spaces or '|')"
            ),
            BuildError::UnknownItem(id) => write!(f, "no item has id {}", id.0),
            BuildError::UnknownName(name) => write!(f, "unknown item '{name}'"),
            BuildError::RepeatedItem(name) => write!(f, "the option names item '{name}' twice"),
            BuildError::EmptyOption => write!(f, "an option must name at least one item"),
            BuildError::ColoredPrimary(name) => write!(
                f,
                "primary item '{name}' has a colour (only secondary items, after '|', take \
                 colours)"
            ),
            BuildError::BadBounds(why)
            | BuildError::BadBlock(why)
            | BuildError::BadExclusionItem(why)
            | BuildError::BadSum(why)
            | BuildError::BadChain(why) => write!(f, "{why}"),
            BuildError::InvalidColor(name) => write!(
                f,
                "'{name}' is not a valid colour (it must be non-empty, without spaces, '|' or \
                 ':')"
            ),
            BuildError::TooLarge => write!(f, "the problem is too large for 32-bit indices"),
        }
    }
}

impl std::error::Error for BuildError {}

/// An exact-cover problem: items, primary or secondary, and options, each a set of items.
///
/// A solution is a set of options that covers every primary item exactly once and every
/// secondary item at most once (the semantics of Knuth's DLX1).
///
/// ```
/// use xcover::dlx::{Matrix, Problem};
///
/// let mut problem = Problem::new();
/// let [a, b, c] = ["a", "b", "c"].map(|name| problem.add_primary(name).unwrap());
/// problem.add_option(&[a, b]).unwrap();
/// problem.add_option(&[c]).unwrap();
/// problem.add_option(&[a, c]).unwrap();
/// let matrix = Matrix::new(problem).unwrap();
/// assert_eq!(matrix.solver().count(None), 1);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Problem {
    names: Vec<String>,
    kinds: Vec<ItemKind>,
    /// How many times each item must be covered, at least and at most (1 and 1 unless set;
    /// Knuth's DLX3 multiplicities, primary items only).
    bounds: Vec<(u32, u32)>,
    by_name: HashMap<String, ItemId, NameHasher>,
    /// Items of all options, one after another; option `k` is
    /// `option_items[option_starts[k]..option_starts[k + 1]]`.
    option_items: Vec<ItemId>,
    /// Parallel to `option_items`: 0 for no colour, else the colour's index plus one.
    option_colors: Vec<u32>,
    option_starts: Vec<u32>,
    /// One-to-one blocks ([`Problem::add_block`]): the items of one side, then those of the
    /// other.
    blocks: Vec<(Vec<ItemId>, Vec<ItemId>)>,
    /// Items the exclusion rule examines wherever the rules run
    /// ([`Problem::add_exclusion_items`]).
    exclusion_items: Vec<ItemId>,
    /// Sums over choices ([`Problem::add_sum`]).
    sums: Vec<Sum>,
    /// Parallel to `sums`: whether the search weighs each where it branches (else it only
    /// checks solutions, [`Problem::add_sum_checked_at_solutions`]).
    sums_weighed: Vec<bool>,
    /// Chains over choices ([`Problem::add_chain`]).
    chains: Vec<Chain>,
    /// Colour names, in the order first used.
    colors: Vec<String>,
    color_by_name: HashMap<String, ColorId, NameHasher>,
    /// Scratch marks for the repeated-item check, kept to avoid an allocation per option. (A
    /// plain vector: the engine then depends on no crate with `unsafe` code, so Miri's checks
    /// of its property tests speak of this crate alone.)
    seen: Vec<bool>,
}

impl Problem {
    /// An empty problem.
    pub fn new() -> Problem {
        Problem {
            option_starts: vec![0],
            ..Problem::default()
        }
    }

    /// Adds an item that every solution covers exactly once.
    pub fn add_primary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.add_item(name, ItemKind::Primary)
    }

    /// Adds an item that every solution covers at most once.
    pub fn add_secondary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.add_item(name, ItemKind::Secondary)
    }

    /// Adds an item of the given kind.
    pub fn add_item(&mut self, name: &str, kind: ItemKind) -> Result<ItemId, BuildError> {
        if !is_valid_name(name) {
            return Err(BuildError::InvalidName(name.to_string()));
        }
        if self.by_name.contains_key(name) {
            return Err(BuildError::DuplicateItem(name.to_string()));
        }
        let id = ItemId(u32::try_from(self.names.len()).map_err(|_| BuildError::TooLarge)?);
        self.names.push(name.to_string());
        self.kinds.push(kind);
        self.bounds.push((1, 1));
        self.by_name.insert(name.to_string(), id);
        self.seen.push(false);
        Ok(id)
    }

    /// Adds an option covering `items`, which must be distinct and exist.
    ///
    /// An option made only of secondary items is accepted here but can never be part of a
    /// solution; [`Matrix::new`](super::Matrix::new) drops it and reports it.
    pub fn add_option(&mut self, items: &[ItemId]) -> Result<OptionId, BuildError> {
        self.add_option_with(items, &[])
    }

    /// Adds an option whose items may carry colours: `(item, Some(colour))` for a coloured
    /// secondary item, `(item, None)` otherwise. Fails, adding nothing, on a colour given to
    /// a primary item, besides the faults of [`Problem::add_option`].
    pub fn add_colored_option(
        &mut self,
        items: &[(ItemId, Option<ColorId>)],
    ) -> Result<OptionId, BuildError> {
        let ids: Vec<ItemId> = items.iter().map(|&(item, _)| item).collect();
        let mut colors = Vec::with_capacity(items.len());
        for &(item, color) in items {
            let code = match color {
                None => 0,
                Some(color) if (color.0 as usize) < self.colors.len() => color.0 + 1,
                Some(color) => return Err(BuildError::InvalidColor(format!("#{}", color.0))),
            };
            if code != 0 && self.kinds.get(item.0 as usize) == Some(&ItemKind::Primary) {
                return Err(BuildError::ColoredPrimary(self.name(item).to_string()));
            }
            colors.push(code);
        }
        self.add_option_with(&ids, &colors)
    }

    /// This problem with one more primary item, covered by `option` alone, so that its
    /// solutions are this one's solutions that hold `option` (each once); `None` for an
    /// option that does not exist. How an option is put into every solution where
    /// [`Solver::choose`](super::Solver::choose) cannot (with multiplicities).
    pub fn forcing(&self, option: OptionId) -> Option<Problem> {
        let k = option.0 as usize;
        if k >= self.option_count() {
            return None;
        }
        let mut forced = self.clone();
        let name = (0..)
            .map(|i| format!("forced{i}"))
            .find(|name| !self.by_name.contains_key(name))?;
        let item = forced.add_primary(&name).ok()?;
        let end = self.option_starts[k + 1] as usize;
        forced.option_items.insert(end, item);
        forced.option_colors.insert(end, 0);
        for start in &mut forced.option_starts[k + 1..] {
            *start += 1;
        }
        Some(forced)
    }

    /// The colour named `name`, added if new.
    pub fn add_color(&mut self, name: &str) -> Result<ColorId, BuildError> {
        if !is_valid_name(name) {
            return Err(BuildError::InvalidColor(name.to_string()));
        }
        if let Some(&id) = self.color_by_name.get(name) {
            return Ok(id);
        }
        let id = ColorId(u32::try_from(self.colors.len()).map_err(|_| BuildError::TooLarge)?);
        self.colors.push(name.to_string());
        self.color_by_name.insert(name.to_string(), id);
        Ok(id)
    }

    /// Makes primary item `item` be covered at least `lower` and at most `upper` times (Knuth's
    /// DLX3 multiplicities; every item starts at exactly once). Fails, changing nothing, on a
    /// secondary item, `lower > upper` or `upper == 0`.
    pub fn set_bounds(&mut self, item: ItemId, lower: u32, upper: u32) -> Result<(), BuildError> {
        let name = self
            .names
            .get(item.0 as usize)
            .ok_or(BuildError::UnknownItem(item))?;
        if self.kinds[item.0 as usize] == ItemKind::Secondary {
            return Err(BuildError::BadBounds(format!(
                "secondary item '{name}' cannot have bounds (it is covered at most once, or by \
                 options of one colour)"
            )));
        }
        if upper == 0 || lower > upper {
            return Err(BuildError::BadBounds(format!(
                "bounds {lower}:{upper} on item '{name}': the lower bound must not exceed the \
                 upper, and the upper must be at least 1"
            )));
        }
        self.bounds[item.0 as usize] = (lower, upper);
        Ok(())
    }

    /// Declares that the primary items `left` and `right` form a one-to-one block: every
    /// option that contains an item of either side contains exactly one item of each. Every
    /// solution then matches the two sides one to one, and a search may remove the options
    /// that are in no such matching (sets of `k` items of one side whose options reach only
    /// `k` items of the other: Sudoku's naked and hidden subsets of any size and its fish).
    /// A promise about the options that [`Matrix::new`](super::Matrix::new) checks (an option
    /// that breaks it is an error there); it changes no solution, only how much a search can
    /// infer (see [`Inference`](super::Inference)).
    ///
    /// Fails, adding nothing, on sides of different sizes or empty, an unknown or secondary
    /// item, an item with bounds ([`Problem::set_bounds`]) or an item named twice.
    ///
    /// ```
    /// use xcover::dlx::{Matrix, Problem};
    ///
    /// // A 3x3 Latin square: cell (r, c) holds a symbol; row r and column c hold each once.
    /// let mut problem = Problem::new();
    /// let mut add = |name: String| problem.add_primary(&name).unwrap();
    /// let cell: Vec<_> = (0..9).map(|k| add(format!("c{k}"))).collect();
    /// let row: Vec<_> = (0..9).map(|k| add(format!("r{k}"))).collect();
    /// let column: Vec<_> = (0..9).map(|k| add(format!("k{k}"))).collect();
    /// for (r, c, v) in itertools::iproduct!(0..3, 0..3, 0..3) {
    ///     let items = [cell[r * 3 + c], row[r * 3 + v], column[c * 3 + v]];
    ///     problem.add_option(&items).unwrap();
    /// }
    /// // In row r, the cells and the symbols are matched one to one.
    /// for r in 0..3 {
    ///     problem.add_block(&cell[r * 3..r * 3 + 3], &row[r * 3..r * 3 + 3]).unwrap();
    /// }
    /// let matrix = Matrix::new(problem).unwrap();
    /// assert_eq!(matrix.solver().count(None), 12);
    /// ```
    pub fn add_block(&mut self, left: &[ItemId], right: &[ItemId]) -> Result<(), BuildError> {
        if left.is_empty() || left.len() != right.len() {
            return Err(BuildError::BadBlock(format!(
                "a one-to-one block needs two sides of the same size, not {} and {}",
                left.len(),
                right.len()
            )));
        }
        let mut error = None;
        for &item in left.iter().chain(right) {
            let Some(seen) = self.seen.get(item.0 as usize).copied() else {
                error = Some(BuildError::UnknownItem(item));
                break;
            };
            let name = self.name(item);
            let why = if seen {
                format!("a one-to-one block names item '{name}' twice")
            } else if self.kind(item) == ItemKind::Secondary {
                format!("item '{name}' of a one-to-one block is secondary (only primary items)")
            } else if self.bounds(item) != (1, 1) {
                format!("item '{name}' of a one-to-one block has bounds (only exactly once)")
            } else {
                self.seen[item.0 as usize] = true;
                continue;
            };
            error = Some(BuildError::BadBlock(why));
            break;
        }
        for &item in left.iter().chain(right) {
            if let Some(mark) = self.seen.get_mut(item.0 as usize) {
                *mark = false;
            }
        }
        if let Some(error) = error {
            return Err(error);
        }
        self.blocks.push((left.to_vec(), right.to_vec()));
        Ok(())
    }

    /// Asks the search to apply the exclusion rule to `items` wherever its inference runs
    /// (every setting but [`Inference::None`](super::Inference::None)), not only under
    /// [`Inference::Exclusion`](super::Inference::Exclusion): an option that shares an item
    /// with every remaining option of one of them is removed, since choosing it would leave
    /// that item no option. The rule walks the columns of every option's items, so it pays
    /// on a few items whose options exclude one another through different items (the
    /// symbols a renban line must hold, placed in cells that see one another through a row
    /// for some and a box for others) and not on all. It changes no solution, only how
    /// much a search infers. Naming an item twice is harmless.
    ///
    /// Fails, adding nothing, on an unknown or secondary item or an item with bounds
    /// ([`Problem::set_bounds`]).
    ///
    /// ```
    /// use xcover::dlx::{Matrix, Problem};
    ///
    /// let mut problem = Problem::new();
    /// let [i, a, b] = ["i", "a", "b"].map(|name| problem.add_primary(name).unwrap());
    /// for items in [&[i, a][..], &[i, b], &[a, b], &[a], &[b]] {
    ///     problem.add_option(items).unwrap();
    /// }
    /// // "a b" shares a with "i a" and b with "i b": choosing it would leave "i" no option.
    /// problem.add_exclusion_items(&[i]).unwrap();
    /// assert_eq!(Matrix::new(problem).unwrap().solver().count(None), 2);
    /// ```
    pub fn add_exclusion_items(&mut self, items: &[ItemId]) -> Result<(), BuildError> {
        for &item in items {
            if self.seen.get(item.0 as usize).is_none() {
                return Err(BuildError::UnknownItem(item));
            }
            let name = self.name(item);
            if self.kind(item) == ItemKind::Secondary {
                return Err(BuildError::BadExclusionItem(format!(
                    "item '{name}' given to the exclusion rule is secondary (only primary items)"
                )));
            }
            if self.bounds(item) != (1, 1) {
                return Err(BuildError::BadExclusionItem(format!(
                    "item '{name}' given to the exclusion rule has bounds (only exactly once)"
                )));
            }
        }
        self.exclusion_items.extend_from_slice(items);
        Ok(())
    }

    /// The items given to [`Problem::add_exclusion_items`].
    pub fn exclusion_items(&self) -> &[ItemId] {
        &self.exclusion_items
    }

    /// Adds a sum over choices (see [`Sum`]). The search checks the sum at every solution and removes, where it
    /// branches, the options that no way of meeting it still allows (see `sums.rs`). Each
    /// option must exist; a term holds at most 64 different values.
    ///
    /// ```
    /// use xcover::dlx::{Matrix, Problem, Sum};
    ///
    /// // Two cells, each a digit 1..=4, adding up to 5 with different digits.
    /// let mut problem = Problem::new();
    /// let cells = ["a", "b"].map(|name| problem.add_primary(name).unwrap());
    /// let mut terms = vec![Vec::new(), Vec::new()];
    /// for (c, &cell) in cells.iter().enumerate() {
    ///     for digit in 1..=4 {
    ///         let tag = problem.add_secondary(&format!("{c}{digit}")).unwrap();
    ///         let option = problem.add_option(&[cell, tag]).unwrap();
    ///         terms[c].push((option, digit));
    ///     }
    /// }
    /// let sum = Sum { terms, min: 5, max: 5, distinct: true, apart: Vec::new(), excluded: Vec::new() };
    /// problem.add_sum(sum).unwrap();
    /// let matrix = Matrix::new(problem).unwrap();
    /// assert_eq!(matrix.solver().count(None), 4); // 1+4, 2+3, 3+2, 4+1
    /// ```
    pub fn add_sum(&mut self, sum: Sum) -> Result<(), BuildError> {
        let options = self.option_count();
        let unknown = sum
            .terms
            .iter()
            .flatten()
            .chain(&sum.excluded)
            .find(|&&(option, _)| option.0 as usize >= options);
        if let Some(&(option, _)) = unknown {
            return Err(BuildError::BadSum(format!(
                "a sum names option {}, which does not exist",
                option.0
            )));
        }
        let terms = &sum.terms;
        if let Some(&t) = sum.apart.iter().flatten().find(|&&t| t >= terms.len()) {
            return Err(BuildError::BadSum(format!(
                "a group of distinct terms names term {}, of {}",
                t + 1,
                terms.len()
            )));
        }
        for (t, term) in terms.iter().enumerate() {
            if term.is_empty() {
                return Err(BuildError::BadSum(format!(
                    "term {} of a sum is empty",
                    t + 1
                )));
            }
            let mut values: Vec<i64> = term.iter().map(|&(_, value)| value).collect();
            values.sort_unstable();
            values.dedup();
            if values.len() > MAX_TERM_VALUES {
                return Err(BuildError::BadSum(format!(
                    "term {} of a sum has {} different values (at most {MAX_TERM_VALUES})",
                    t + 1,
                    values.len()
                )));
            }
        }
        self.sums.push(sum);
        self.sums_weighed.push(true);
        Ok(())
    }

    /// [`Problem::add_sum`] for a sum that the search does not weigh where it branches, but
    /// checks in every solution it finds: the solutions are the same, and a problem with many
    /// sums that seldom remove an option is searched faster (weighing every sum costs the
    /// same at each branch point, whether it prunes or not).
    pub fn add_sum_checked_at_solutions(&mut self, sum: Sum) -> Result<(), BuildError> {
        self.add_sum(sum)?;
        *self.sums_weighed.last_mut().expect("a sum was added") = false;
        Ok(())
    }

    /// Adds a chain over choices ([`Chain`]): every solution chooses exactly one option of
    /// each term, and some path of the chain's moves from state 0 reads their values in
    /// order. The search filters the chain where it branches (as it does sums: a value that
    /// no move of a whole path reads goes) and checks it in every solution. Fails on a term
    /// without options or with more than [`MAX_TERM_VALUES`] values, on a list of moves per
    /// term of another length, or on an option the problem does not have.
    ///
    /// ```
    /// use xcover::dlx::{Chain, Matrix, Move, OptionId, Problem};
    ///
    /// // Two cells, each 1 or 2; the chain accepts the words whose values rise.
    /// let mut problem = Problem::new();
    /// let mut terms = Vec::new();
    /// for cell in ["a", "b"] {
    ///     let item = problem.add_primary(cell).unwrap();
    ///     let options: Vec<(OptionId, i64)> = (1..=2)
    ///         .map(|v| (problem.add_option(&[item]).unwrap(), v))
    ///         .collect();
    ///     terms.push(options);
    /// }
    /// let rise = |from, value, to| Move { from, value, to };
    /// let moves = vec![vec![rise(0, 1, 1), rise(0, 2, 2)], vec![rise(1, 2, 2)]];
    /// problem.add_chain(Chain { terms, moves }).unwrap();
    /// assert_eq!(Matrix::new(problem).unwrap().solver().count(None), 1); // 1 then 2
    /// ```
    pub fn add_chain(&mut self, chain: Chain) -> Result<(), BuildError> {
        let options = self.option_count();
        if let Some(&(option, _)) = chain
            .terms
            .iter()
            .flatten()
            .find(|&&(option, _)| option.0 as usize >= options)
        {
            return Err(BuildError::BadChain(format!(
                "a chain names option {}, which does not exist",
                option.0
            )));
        }
        if chain.moves.len() != chain.terms.len() {
            return Err(BuildError::BadChain(format!(
                "a chain of {} terms has {} lists of moves (one a term)",
                chain.terms.len(),
                chain.moves.len()
            )));
        }
        for (t, term) in chain.terms.iter().enumerate() {
            let mut values: Vec<i64> = term.iter().map(|&(_, value)| value).collect();
            values.sort_unstable();
            values.dedup();
            if values.is_empty() || values.len() > MAX_TERM_VALUES {
                return Err(BuildError::BadChain(format!(
                    "term {} of a chain has {} different values (from 1 to {MAX_TERM_VALUES})",
                    t + 1,
                    values.len()
                )));
            }
        }
        self.chains.push(chain);
        Ok(())
    }

    /// The chains declared with [`Problem::add_chain`].
    pub fn chains(&self) -> &[Chain] {
        &self.chains
    }

    /// The sums declared with [`Problem::add_sum`] and
    /// [`Problem::add_sum_checked_at_solutions`].
    pub fn sums(&self) -> &[Sum] {
        &self.sums
    }

    /// Whether sum `index` (of [`Problem::sums`]) is weighed where the search branches, not
    /// only checked in solutions.
    pub fn is_weighed(&self, index: usize) -> bool {
        self.sums_weighed[index]
    }

    /// The one-to-one blocks declared with [`Problem::add_block`].
    pub fn blocks(&self) -> &[(Vec<ItemId>, Vec<ItemId>)] {
        &self.blocks
    }

    /// The first declared block that the problem breaks, by index, and why: one of its
    /// items was given bounds after it was declared, or an option contains an item of the
    /// block but not exactly one of each side. `None` when every block holds.
    pub fn broken_block(&self) -> Option<(usize, String)> {
        // Per item: the blocks it belongs to, with its side (0 first, 1 second).
        let mut memberships: Vec<Vec<(u32, u8)>> = vec![Vec::new(); self.item_count()];
        for (k, (left, right)) in self.blocks.iter().enumerate() {
            for (side, items) in [(0u8, left), (1u8, right)] {
                for &item in items {
                    if self.bounds(item) != (1, 1) {
                        let why = format!(
                            "item '{}' of a one-to-one block has bounds (only exactly once)",
                            self.name(item)
                        );
                        return Some((k, why));
                    }
                    memberships[item.0 as usize].push((k as u32, side));
                }
            }
        }
        // Per block met in the option at hand: its items of each side.
        let mut counts: Vec<(u32, [u32; 2])> = Vec::new();
        for option in self.options() {
            counts.clear();
            for &item in self.option(option) {
                for &(k, side) in &memberships[item.0 as usize] {
                    match counts.iter_mut().find(|(block, _)| *block == k) {
                        Some((_, count)) => count[side as usize] += 1,
                        None => {
                            let mut count = [0, 0];
                            count[side as usize] = 1;
                            counts.push((k, count));
                        }
                    }
                }
            }
            if let Some(&(k, [first, second])) = counts.iter().find(|(_, c)| *c != [1, 1]) {
                let names: Vec<&str> = self.option(option).iter().map(|&i| self.name(i)).collect();
                let why = format!(
                    "option {} ('{}') breaks a one-to-one block: it contains {first} of its \
                     first side ({}...) and {second} of its second, not one of each",
                    option.0 + 1,
                    names.join(" "),
                    self.name(self.blocks[k as usize].0[0]),
                );
                return Some((k as usize, why));
            }
        }
        None
    }

    /// How many times `item` must be covered: at least, at most.
    pub fn bounds(&self, item: ItemId) -> (u32, u32) {
        self.bounds[item.0 as usize]
    }

    /// Whether some item has bounds other than exactly once.
    pub fn has_multiplicities(&self) -> bool {
        self.bounds.iter().any(|&b| b != (1, 1))
    }

    /// The name of a colour.
    pub fn color_name(&self, color: ColorId) -> &str {
        &self.colors[color.0 as usize]
    }

    /// Whether some option gives an item a colour.
    pub fn has_colors(&self) -> bool {
        self.option_colors.iter().any(|&c| c != 0)
    }

    /// The colours of an option's items, in the order of [`Problem::option`].
    pub fn option_colors(&self, option: OptionId) -> impl Iterator<Item = Option<ColorId>> + '_ {
        let k = option.0 as usize;
        let range = self.option_starts[k] as usize..self.option_starts[k + 1] as usize;
        self.option_colors[range]
            .iter()
            .map(|&code| code.checked_sub(1).map(ColorId))
    }

    /// [`Problem::add_option`] with the items' colour codes (empty: none; else 0 for no colour
    /// and a colour's index plus one), the colours checked by the caller.
    pub(crate) fn add_option_with(
        &mut self,
        items: &[ItemId],
        colors: &[u32],
    ) -> Result<OptionId, BuildError> {
        if items.is_empty() {
            return Err(BuildError::EmptyOption);
        }
        let id = OptionId(
            u32::try_from(self.option_starts.len() - 1).map_err(|_| BuildError::TooLarge)?,
        );
        let mut error = None;
        for &item in items {
            match self.seen.get(item.0 as usize).copied() {
                None => {
                    error = Some(BuildError::UnknownItem(item));
                    break;
                }
                Some(true) => {
                    error = Some(BuildError::RepeatedItem(self.name(item).to_string()));
                    break;
                }
                Some(false) => self.seen[item.0 as usize] = true,
            }
        }
        for &item in items {
            if let Some(mark) = self.seen.get_mut(item.0 as usize) {
                *mark = false;
            }
        }
        if let Some(error) = error {
            return Err(error);
        }
        let end = self.option_items.len() + items.len();
        let end = u32::try_from(end).map_err(|_| BuildError::TooLarge)?;
        self.option_items.extend_from_slice(items);
        if colors.is_empty() {
            self.option_colors
                .extend(std::iter::repeat_n(0, items.len()));
        } else {
            self.option_colors.extend_from_slice(colors);
        }
        self.option_starts.push(end);
        Ok(id)
    }

    /// Adds an option given by item names.
    pub fn add_option_by_names<S: AsRef<str>>(
        &mut self,
        names: &[S],
    ) -> Result<OptionId, BuildError> {
        let mut items = Vec::with_capacity(names.len());
        for name in names {
            let name = name.as_ref();
            match self.item(name) {
                Some(id) => items.push(id),
                None => return Err(BuildError::UnknownName(name.to_string())),
            }
        }
        self.add_option(&items)
    }

    /// The item with this name, if any.
    pub fn item(&self, name: &str) -> Option<ItemId> {
        self.by_name.get(name).copied()
    }

    /// The name of an item.
    pub fn name(&self, item: ItemId) -> &str {
        &self.names[item.0 as usize]
    }

    /// Whether an item is primary or secondary.
    pub fn kind(&self, item: ItemId) -> ItemKind {
        self.kinds[item.0 as usize]
    }

    /// Number of items, primary and secondary.
    pub fn item_count(&self) -> usize {
        self.names.len()
    }

    /// Number of primary items.
    pub fn primary_count(&self) -> usize {
        self.kinds
            .iter()
            .filter(|&&kind| kind == ItemKind::Primary)
            .count()
    }

    /// Number of options.
    pub fn option_count(&self) -> usize {
        self.option_starts.len() - 1
    }

    /// The items of an option, in the order they were given.
    pub fn option(&self, option: OptionId) -> &[ItemId] {
        let k = option.0 as usize;
        &self.option_items[self.option_starts[k] as usize..self.option_starts[k + 1] as usize]
    }

    /// All items in the order they were added.
    pub fn items(&self) -> impl Iterator<Item = ItemId> + '_ {
        (0..self.names.len() as u32).map(ItemId)
    }

    /// All options in the order they were added.
    pub fn options(&self) -> impl Iterator<Item = OptionId> + '_ {
        (0..self.option_count() as u32).map(OptionId)
    }

    /// Total number of item occurrences over all options.
    pub(crate) fn node_count(&self) -> usize {
        self.option_items.len()
    }
}

/// A name is usable in Knuth's format: non-empty, printable, no white space, no `|` and no
/// `:` (which DLX2 uses for colours), and no byte-order mark (U+FEFF), which readers drop at
/// the start of a file; so every name accepted here is written and read back unchanged.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name
            .chars()
            .any(|c| c.is_whitespace() || c == '|' || c == ':' || c.is_control() || c == '\u{feff}')
}

/// Hashes item and colour names with FNV-1a: names are short and come from the user's own
/// files, so a keyed hash buys nothing, and reading a problem spent a fifth of its time in
/// the standard hasher.
#[derive(Debug, Clone, Copy, Default)]
struct NameHasher;

impl std::hash::BuildHasher for NameHasher {
    type Hasher = FnvHasher;

    fn build_hasher(&self) -> FnvHasher {
        FnvHasher(0xcbf2_9ce4_8422_2325)
    }
}

/// The state of one FNV-1a hash.
struct FnvHasher(u64);

impl std::hash::Hasher for FnvHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
