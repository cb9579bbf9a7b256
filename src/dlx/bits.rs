//! Exact covers searched in rows of bits: for problems small enough that every option's
//! clashes fit in memory as a bit set, a level of the search is a few AND-NOTs of machine
//! words instead of a walk through linked lists (dancing links) or sparse sets (dancing
//! cells), and going back is free, since each level keeps its own copy of the state.
//!
//! The options that hold a primary item are numbered 0 to n-1 and the state of a level is
//! two bit sets: the live options (n bits) and the primary items still to cover. Built once
//! per problem:
//! - for each primary item, the options that hold it (`holds`), with the range of words
//!   where they lie;
//! - for each option, every option that shares an item with it, itself included (`clash`),
//!   and the primary items it covers (`covers`).
//!
//! Choosing option `o` is `live &= !clash[o]` and `active &= !covers[o]`. The item to branch
//! on is the first active primary item with the fewest live options, each counted as the
//! population of `live & holds[i]` (stopping at the first with one option or none): the
//! links' choice without inference, so the same branch points. Options that hold no primary
//! item are never chosen (by any engine) and are left out. The memory is n x n bits for the clashes, so the problem's size is checked before
//! anything is allocated ([`MAX_WORDS`]).
//!
//! It counts ([`count`], or on every thread: [`count_parallel`]) and lists
//! ([`for_each_solution`]) solutions, within the same [`Limits`] as dancing cells, and refuses
//! what they refuse (colours, multiplicities, sums, chains) and problems too large. It wins
//! where the problem has a few thousand options or fewer and a choice removes many of them
//! (pentominoes, Langford pairs, queens): the figures are in `docs/design/search.md`.

use std::ops::ControlFlow;

#[cfg(feature = "parallel")]
use super::cells::count_in_parts;
use super::cells::{Counted, Limits, Unsupported, check_plain};
use super::problem::{ItemKind, OptionId, Problem};

/// The most words of 64 bits the tables and one search's levels may take (32 MiB): the
/// clashes take n x n bits for n options; the items' options, the options' items and the
/// levels (one per primary item) the rest.
pub const MAX_WORDS: usize = 1 << 22;

/// Runs `$body` with `$walk` a new [`Walk`] of `$table`, compiled for its number of words
/// where that is 1 to 8 (the loops over a set then unrolled), for any number otherwise.
macro_rules! with_walk {
    ($table:expr, $walk:ident => $body:expr) => {
        match $table.words {
            1 => with_walk!(@ 1, $table, $walk => $body),
            2 => with_walk!(@ 2, $table, $walk => $body),
            3 => with_walk!(@ 3, $table, $walk => $body),
            4 => with_walk!(@ 4, $table, $walk => $body),
            5 => with_walk!(@ 5, $table, $walk => $body),
            6 => with_walk!(@ 6, $table, $walk => $body),
            7 => with_walk!(@ 7, $table, $walk => $body),
            8 => with_walk!(@ 8, $table, $walk => $body),
            _ => with_walk!(@ 0, $table, $walk => $body),
        }
    };
    (@ $n:literal, $table:expr, $walk:ident => $body:expr) => {{
        #[allow(unused_mut)]
        let mut $walk = Walk::<$n>::new($table);
        $body
    }};
}

/// Counts the exact covers of `problem` in bit sets, one thread, within `limits`.
pub fn count(problem: &Problem, limits: &Limits) -> Result<Counted, Unsupported> {
    let table = Table::new(problem)?;
    Ok(with_walk!(&table, walk => walk.search::<false>(limits, |_| ControlFlow::Continue(()))))
}

/// [`count`] on every thread of rayon's pool, the tree cut into parts as
/// [`cells::count_parallel`](super::cells::count_parallel) cuts it: at least 32 a thread
/// where the tree is that wide, at most 8 levels down. A limit of solutions or nodes holds for
/// each part, and the total is capped at the limit of solutions.
#[cfg(feature = "parallel")]
pub fn count_parallel(problem: &Problem, limits: &Limits) -> Result<Counted, Unsupported> {
    let table = Table::new(problem)?;
    let plain = |_: &[OptionId]| ControlFlow::Continue(());
    Ok(count_in_parts(
        limits,
        |cutoff| {
            with_walk!(&table, walk => {
                walk.cutoff = cutoff;
                let top = walk.search::<false>(limits, plain);
                (top, walk.paths)
            })
        },
        |path| {
            with_walk!(&table, walk => {
                walk.descend(path);
                walk.search::<false>(limits, plain)
            })
        },
    ))
}

/// Hands each exact cover of `problem` (its options, in the order they were chosen) to
/// `visit`, one thread, within `limits`, until `visit` breaks (the count is then not
/// `finished`); returns what was found.
pub fn for_each_solution(
    problem: &Problem,
    limits: &Limits,
    visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
) -> Result<Counted, Unsupported> {
    let table = Table::new(problem)?;
    Ok(with_walk!(&table, walk => walk.search::<true>(limits, visit)))
}

/// How many words of 64 bits the tables of `problem` and a search's levels take, or `None`
/// past `usize`: what [`MAX_WORDS`] bounds.
pub fn words_needed(problem: &Problem) -> Option<usize> {
    let options = problem
        .options()
        .filter(|&option| holds_primary(problem, option))
        .count();
    let primary = problem.primary_count();
    let words = options.div_ceil(64);
    let item_words = primary.div_ceil(64);
    // The clashes and the options' items; the items' options; and per level (a level for
    // each primary item and the root) the live options, the options untried and the items
    // left.
    let levels = primary.checked_add(1)?;
    options
        .checked_mul(words.checked_add(item_words)?)?
        .checked_add(primary.checked_mul(words)?)?
        .checked_add(levels.checked_mul(words.checked_mul(2)?.checked_add(item_words)?)?)
}

/// Whether the search in bit sets is expected to beat dancing links on `problem`: it takes it
/// (a plain exact cover within [`MAX_WORDS`]) and its scan of a node, a word of the live
/// options per active primary item, costs at most 16 times what a choice costs the links,
/// estimated from the root as the options an option's items hide times their length.
///
/// Measured (`cover count -j 1 --stats`, both engines): the bit sets won on pentominoes (0.29
/// to 0.44 of the links' time; scan / links' cost about 0.5), queens of 12 to 14 (0.41 to
/// 0.49; about 1), Langford pairs of 11 to 13 (0.50 to 0.66) and Latin squares of orders 5
/// and 6 (0.59, 0.64; 6 and 14), and lost on Latin squares of order 7 (1.13; 25), order 10
/// (1.16; 89) and the Sudoku of 3,828,403 solutions as a plain cover (1.11; 47). Order 8
/// (0.88; 37) is the one the rule misses. Where the rule holds, `cover count` and `cover
/// solve` take the bit sets unless told otherwise.
pub fn preferred(problem: &Problem) -> bool {
    if check_plain(problem).is_err() || words_needed(problem).is_none_or(|words| words > MAX_WORDS)
    {
        return false;
    }
    let mut degree = vec![0u64; problem.item_count()];
    let mut options = 0u64;
    let mut length = 0u64;
    for option in problem
        .options()
        .filter(|&option| holds_primary(problem, option))
    {
        options += 1;
        for &item in problem.option(option) {
            degree[item.0 as usize] += 1;
            length += 1;
        }
    }
    if options == 0 {
        return true;
    }
    // The links' updates of a choice: each item of the option hides its other options,
    // each of which is unlinked from its other items (about the mean length less one).
    let hidden: u64 = degree.iter().map(|&d| d * d.saturating_sub(1)).sum();
    let links = hidden as f64 / options as f64 * (length as f64 / options as f64 - 1.0);
    let scan = problem.primary_count() as f64 * options.div_ceil(64) as f64;
    scan <= 16.0 * links
}

/// Whether `option` holds a primary item (and so can be chosen).
fn holds_primary(problem: &Problem, option: OptionId) -> bool {
    problem
        .option(option)
        .iter()
        .any(|&item| problem.kind(item) == ItemKind::Primary)
}

/// The bit tables of one problem, built once and shared by every part of a search.
struct Table {
    /// Words in a set of options (`n.div_ceil(64)`) and in a set of primary items.
    words: usize,
    item_words: usize,
    /// Per primary item (numbered in the problem's order of primary items), `words` words:
    /// the options that hold it.
    holds: Vec<u64>,
    /// Per primary item, the words of `holds` that may be nonzero: `first..end`.
    spans: Vec<(u32, u32)>,
    /// Per option, `words` words: the options sharing an item with it, itself included.
    clash: Vec<u64>,
    /// Per option, `item_words` words: the primary items it covers.
    covers: Vec<u64>,
    /// The problem's option of each bit.
    options: Vec<OptionId>,
    primary: usize,
}

impl Table {
    /// The tables of `problem`, once its size is checked against [`MAX_WORDS`].
    fn new(problem: &Problem) -> Result<Table, Unsupported> {
        check_plain(problem)?;
        match words_needed(problem) {
            Some(words) if words <= MAX_WORDS => {}
            _ => return Err(Unsupported::TooLarge),
        }
        // Primary items numbered in their order, secondary ones after them.
        let primary = problem.primary_count();
        let mut number = vec![0usize; problem.item_count()];
        let (mut next_primary, mut next_secondary) = (0, primary);
        for item in problem.items() {
            let next = if problem.kind(item) == ItemKind::Primary {
                &mut next_primary
            } else {
                &mut next_secondary
            };
            number[item.0 as usize] = *next;
            *next += 1;
        }
        let options: Vec<OptionId> = problem
            .options()
            .filter(|&option| holds_primary(problem, option))
            .collect();
        let words = options.len().div_ceil(64);
        let item_words = primary.div_ceil(64);
        // The options of every item as lists of bits, item after item (secondary items too:
        // the clashes need them; as lists, their memory is the problem's own size), the
        // primary ones also as rows of bits, and the primary items of every option.
        let mut starts = vec![0usize; number.len() + 1];
        for &option in &options {
            for &item in problem.option(option) {
                starts[number[item.0 as usize] + 1] += 1;
            }
        }
        for at in 1..starts.len() {
            starts[at] += starts[at - 1];
        }
        let mut members = vec![0u32; starts[number.len()]];
        let mut filled = starts.clone();
        let mut holds = vec![0u64; primary * words];
        let mut covers = vec![0u64; options.len() * item_words];
        for (bit, &option) in options.iter().enumerate() {
            for &item in problem.option(option) {
                let i = number[item.0 as usize];
                members[filled[i]] = bit as u32;
                filled[i] += 1;
                if i < primary {
                    holds[i * words + bit / 64] |= 1 << (bit % 64);
                    covers[bit * item_words + i / 64] |= 1 << (i % 64);
                }
            }
        }
        let mut clash = vec![0u64; options.len() * words];
        for (bit, &option) in options.iter().enumerate() {
            let row = &mut clash[bit * words..(bit + 1) * words];
            for &item in problem.option(option) {
                let i = number[item.0 as usize];
                for &other in &members[starts[i]..starts[i + 1]] {
                    row[other as usize / 64] |= 1 << (other % 64);
                }
            }
        }
        let spans = (0..primary)
            .map(|item| {
                let row = &holds[item * words..(item + 1) * words];
                let first = row.iter().position(|&w| w != 0).unwrap_or(0);
                let end = row.iter().rposition(|&w| w != 0).map_or(first, |at| at + 1);
                (first as u32, end as u32)
            })
            .collect();
        Ok(Table {
            words,
            item_words,
            holds,
            spans,
            clash,
            covers,
            options,
            primary,
        })
    }
}

/// One search through a [`Table`]: per level, the live options, the primary items still to
/// cover and the options of the level's item not yet tried, each a stretch of words.
struct Walk<'t, const N: usize> {
    table: &'t Table,
    /// Level `l`'s live options: `live[l * words..][..words]`.
    live: Vec<u64>,
    /// Level `l`'s active primary items: `active[l * item_words..][..item_words]`.
    active: Vec<u64>,
    /// Level `l`'s options still to try: `untried[l * words..][..words]`.
    untried: Vec<u64>,
    /// The option (bit) chosen at each level.
    choice: Vec<u32>,
    /// The level the search starts from and ends at: 0, or the length of the path a part of
    /// a parallel count descends first ([`Walk::descend`]).
    base: usize,
    /// The level at which the search keeps the path, in `paths`, instead of going down:
    /// how a parallel count cuts the tree into parts (`usize::MAX`: nowhere).
    cutoff: usize,
    paths: Vec<Vec<u32>>,
}

impl<'t, const N: usize> Walk<'t, N> {
    /// A search from the root: every option live, every primary item to cover.
    fn new(table: &'t Table) -> Walk<'t, N> {
        debug_assert!(N == 0 || N == table.words);
        // Each level covers a primary item at least: `primary + 1` levels are enough.
        let levels = table.primary + 1;
        let mut live = vec![0u64; levels * table.words];
        let options = table.options.len();
        for (at, word) in live[..table.words].iter_mut().enumerate() {
            let bits = options.saturating_sub(at * 64).min(64);
            *word = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
        }
        let mut active = vec![0u64; levels * table.item_words];
        for (at, word) in active[..table.item_words].iter_mut().enumerate() {
            let bits = table.primary.saturating_sub(at * 64).min(64);
            *word = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
        }
        Walk {
            table,
            live,
            active,
            untried: vec![0u64; levels * table.words],
            choice: vec![0; levels],
            base: 0,
            cutoff: usize::MAX,
            paths: Vec::new(),
        }
    }

    /// Words in a set of options: `N`, where the search was compiled for it.
    #[inline(always)]
    fn words(&self) -> usize {
        if N > 0 { N } else { self.table.words }
    }

    /// Level `level + 1`'s state: level `level`'s with option `bit` chosen.
    #[inline(always)]
    fn choose(&mut self, level: usize, bit: usize) {
        let words = self.words();
        let Table {
            item_words,
            ref clash,
            ref covers,
            ..
        } = *self.table;
        let (above, below) = self.live.split_at_mut((level + 1) * words);
        let clash = &clash[bit * words..(bit + 1) * words];
        for ((next, &now), &gone) in below[..words]
            .iter_mut()
            .zip(&above[level * words..])
            .zip(clash)
        {
            *next = now & !gone;
        }
        let (above, below) = self.active.split_at_mut((level + 1) * item_words);
        let covers = &covers[bit * item_words..(bit + 1) * item_words];
        for ((next, &now), &gone) in below[..item_words]
            .iter_mut()
            .zip(&above[level * item_words..])
            .zip(covers)
        {
            *next = now & !gone;
        }
    }

    /// The first active primary item of `level` with the fewest live options, and how many
    /// it has (stopping at the first with one or none); `None` when all are covered.
    #[inline(always)]
    fn fewest(&self, level: usize) -> Option<(usize, u32)> {
        let words = self.words();
        let Table {
            item_words,
            ref holds,
            ref spans,
            ..
        } = *self.table;
        let live = &self.live[level * words..(level + 1) * words];
        let active = &self.active[level * item_words..(level + 1) * item_words];
        let mut best = None;
        let mut fewest = u32::MAX;
        for (at, &word) in active.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let item = at * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let size: u32 = if N > 0 {
                    // Few words: all of them, unrolled.
                    holds[item * N..(item + 1) * N]
                        .iter()
                        .zip(live)
                        .map(|(&h, &l)| (h & l).count_ones())
                        .sum()
                } else {
                    let (first, end) = spans[item];
                    let (first, end) = (first as usize, end as usize);
                    holds[item * words + first..item * words + end]
                        .iter()
                        .zip(&live[first..end])
                        .map(|(&h, &l)| (h & l).count_ones())
                        .sum()
                };
                if size < fewest {
                    best = Some((item, size));
                    fewest = size;
                    if size <= 1 {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// Chooses the options of `path` level by level, as the search did; the search then
    /// explores the part below them alone.
    #[cfg(feature = "parallel")]
    fn descend(&mut self, path: &[u32]) {
        for (level, &bit) in path.iter().enumerate() {
            self.choice[level] = bit;
            self.choose(level, bit as usize);
        }
        self.base = path.len();
    }

    /// The search: with `LIST`, each solution's options go to `visit` (a count passes none).
    fn search<const LIST: bool>(
        &mut self,
        limits: &Limits,
        mut visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Counted {
        let words = self.words();
        let mut solution = Vec::new();
        let mut solutions: u128 = 0;
        let mut nodes: u64 = 0;
        let mut branches: u64 = 0;
        let mut level = self.base;
        // Entering `level` (true) or trying its next option (false).
        let mut forward = true;
        let finished = loop {
            if forward {
                if level == self.cutoff {
                    self.paths.push(self.choice[..level].to_vec());
                    forward = false;
                    if level == self.base {
                        break true;
                    }
                    level -= 1;
                    continue;
                }
                if limits.stop_before_node(&mut nodes) {
                    break false;
                }
                match self.fewest(level) {
                    None => {
                        solutions += 1;
                        if LIST {
                            solution.clear();
                            for &bit in &self.choice[..level] {
                                solution.push(self.table.options[bit as usize]);
                            }
                            if visit(&solution).is_break() {
                                break false;
                            }
                        }
                        if limits.solutions.is_some_and(|limit| solutions >= limit) {
                            break true;
                        }
                    }
                    Some((_, 0)) => {}
                    Some((item, size)) => {
                        branches += u64::from(size >= 2);
                        let row = &self.table.holds[item * words..(item + 1) * words];
                        let live = &self.live[level * words..(level + 1) * words];
                        let untried = &mut self.untried[level * words..(level + 1) * words];
                        for ((into, &h), &l) in untried.iter_mut().zip(row).zip(live) {
                            *into = h & l;
                        }
                        forward = false;
                        continue;
                    }
                }
                // A leaf: back to the level above.
                forward = false;
                if level == self.base {
                    break true;
                }
                level -= 1;
                continue;
            }
            // The next untried option of `level`, if any.
            let untried = &mut self.untried[level * words..(level + 1) * words];
            match untried.iter().position(|&word| word != 0) {
                Some(at) => {
                    let word = untried[at];
                    let bit = at * 64 + word.trailing_zeros() as usize;
                    untried[at] = word & (word - 1);
                    self.choice[level] = bit as u32;
                    self.choose(level, bit);
                    level += 1;
                    forward = true;
                }
                None => {
                    if level == self.base {
                        break true;
                    }
                    level -= 1;
                }
            }
        };
        Counted {
            solutions,
            nodes,
            branches,
            updates: 0,
            finished,
        }
    }
}
