//! Exact covers searched in rows of bits: for problems small enough that every option's
//! clashes fit in memory as a bit set, a level of the search is a few AND-NOTs of machine
//! words instead of a walk through linked lists (dancing links) or sparse sets (dancing
//! cells), and going back is free, since each level keeps its own copy of the state.
//!
//! The options that hold a primary item are numbered 0 to n-1 (in the order of their first
//! primary item, so that an item's options lie in few words) and the state of a level is
//! two bit sets: the live options (n bits) and the primary items still to cover. Built once
//! per problem:
//! - for each primary item, the options that hold it (`holds`), with the range of words
//!   where they lie;
//! - for each option, every option it cannot be chosen with (`clash`): itself and those
//!   that share an item with it, except where both give a secondary item the same colour;
//!   and the primary items it covers (`covers`).
//!
//! Choosing option `o` is `live &= !clash[o]` and `active &= !covers[o]`. The item to branch
//! on is an active primary item with the fewest live options, each counted as the
//! population of `live & holds[i]`, the first in the order of the items' options at the root,
//! from the fewest (stopping at the first with one option or none, which that order meets
//! sooner). Options that hold no primary
//! item are never chosen (by any engine) and are left out. The memory is n x n bits for the
//! clashes, so the problem's size is checked before anything is allocated ([`MAX_WORDS`]).
//!
//! Colours are pairwise, so the clashes hold them whole. Multiplicities (Knuth's DLX3: a
//! primary item covered between a lower and an upper number of times) are not: an item that
//! may be covered twice or more is counted level by level instead ([`Table::counted`]); it
//! is to cover until it reaches its lower bound, its options are dropped when it reaches the
//! upper, and its branches take its options in turn, each branch excluding those before it,
//! so that each set of options is found once. Where every item has its lower bound, the
//! options still live may be added one by one, each set a further solution.
//!
//! It counts ([`count`], or on every thread: [`count_parallel`]) and lists
//! ([`for_each_solution`]) solutions, within the same [`Limits`] as dancing cells, and
//! refuses sums, chains and problems too large. It wins where the problem has a few
//! thousand options or fewer and a choice removes many of them (pentominoes, Langford pairs,
//! queens, word squares, partial queens): the figures are in `docs/design/search.md`.

use std::ops::ControlFlow;

#[cfg(feature = "parallel")]
use super::cells::count_in_parts;
use super::cells::{Counted, Limits, Unsupported};
use super::problem::{ItemId, ItemKind, OptionId, Problem};

/// The most words of 64 bits the tables and one search's levels may take (32 MiB): the
/// clashes take n x n bits for n options; the items' options, the options' items and the
/// levels (one per primary item) the rest.
pub const MAX_WORDS: usize = 1 << 22;

/// Runs `$body` with `$walk` a new [`Walk`] of `$table`, compiled for its number of words
/// where that is 1 to 8 (the loops over a set then unrolled), for any number otherwise, and
/// with the work of counted items and options that may be added (`MORE`) only where the
/// problem has them.
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
        if $table.optional || !$table.counted.is_empty() {
            #[allow(unused_mut)]
            let mut $walk = Walk::<$n, true>::new($table);
            $body
        } else {
            #[allow(unused_mut)]
            let mut $walk = Walk::<$n, false>::new($table);
            $body
        }
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
    let counted = problem
        .items()
        .filter(|&item| problem.kind(item) == ItemKind::Primary && problem.bounds(item).1 >= 2)
        .count();
    let words = options.div_ceil(64);
    let item_words = primary.div_ceil(64);
    // The clashes and the options' items; the items' options; and per level the live
    // options, the options untried, the items left and the counts of the counted items.
    let levels = depth(problem, options).checked_add(1)?;
    options
        .checked_mul(words.checked_add(item_words)?)?
        .checked_add(primary.checked_mul(words)?)?
        .checked_add(
            levels.checked_mul(
                words
                    .checked_mul(2)?
                    .checked_add(item_words)?
                    .checked_add(counted.div_ceil(2))?,
            )?,
        )
}

/// The most options a solution of `problem` (of `options` options that hold a primary item)
/// can hold: each holds a primary item, which its upper bound lets be covered so many times.
fn depth(problem: &Problem, options: usize) -> usize {
    let covers: u64 = problem
        .items()
        .filter(|&item| problem.kind(item) == ItemKind::Primary)
        .map(|item| u64::from(problem.bounds(item).1))
        .sum();
    usize::try_from(covers).map_or(options, |covers| covers.min(options))
}

/// Whether the search in bit sets is expected to beat dancing links on `problem`: it takes it
/// (no sums or chains, within [`MAX_WORDS`]) and its scan of a node, a word of the live
/// options per active primary item, costs at most 16 times what a choice costs the links,
/// estimated from the root as the options an option's items hide times their length.
///
/// Measured (`cover count -j 1 --stats`, both engines): the bit sets won on pentominoes (0.29
/// to 0.44 of the links' time; scan / links' cost about 0.5), queens of 12 to 14 (0.41 to
/// 0.49; about 1), Langford pairs of 11 to 13 (0.50 to 0.66) and Latin squares of orders 5
/// and 6 (0.59, 0.64; 6 and 14), and lost on Latin squares of order 7 (1.13; 25), order 10
/// (1.16; 89) and the Sudoku of 3,828,403 solutions as a plain cover (1.11; 47). Order 8
/// (0.88; 37) is the one the rule misses. With colours and multiplicities the bit sets won on
/// every problem measured: word squares of 3 letters (0.1 of the links' time), partial
/// queens (8 on 10x10 0.27, 10 on 12x12 0.33, 5 on 14x14 0.07, 3 on 20x20 0.02). Where the
/// rule holds, `cover count` and `cover solve` take the bit sets unless told otherwise.
pub fn preferred(problem: &Problem) -> bool {
    if check_supported(problem).is_err()
        || words_needed(problem).is_none_or(|words| words > MAX_WORDS)
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

/// What the bit sets cannot take: sums and chains. (Colours they take: two options that give
/// a secondary item different colours, or one of them none, clash. Multiplicities too: see
/// [`Table::counted`].)
fn check_supported(problem: &Problem) -> Result<(), Unsupported> {
    if !problem.sums().is_empty() {
        return Err(Unsupported::Sums);
    }
    if !problem.chains().is_empty() {
        return Err(Unsupported::Chains);
    }
    Ok(())
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
    /// Per option, `item_words` words: the primary items covered once at most that it
    /// covers.
    covers: Vec<u64>,
    /// The problem's option of each bit.
    options: Vec<OptionId>,
    /// The primary items with bounds (Knuth's multiplicities) that let them be covered twice
    /// or more: these are counted, level by level, instead of clashing. Such an item stays
    /// to cover (active) until its count reaches its lower bound, and its options are
    /// dropped when it reaches the upper.
    counted: Vec<CountedItem>,
    /// Per primary item, its index in `counted`, or `u32::MAX`.
    counted_index: Vec<u32>,
    /// Per option, the indices in `counted` of its counted items: those of option `o` are
    /// `counted_of[counted_starts[o]..counted_starts[o + 1]]`.
    counted_of: Vec<u32>,
    counted_starts: Vec<u32>,
    /// Whether some primary item may be covered more often than its lower bound: then once
    /// none is left to cover, the live options may still be added, and every such set is a
    /// solution too (else nothing is live there).
    optional: bool,
    /// The most options a solution can hold: the levels of a search are one more.
    depth: usize,
    /// `item_words` words: the primary items to cover at the root, those of a lower bound of
    /// 1 or more.
    to_cover: Vec<u64>,
}

/// What a level of the search branches on ([`Walk::branch_set`]).
enum Branching {
    /// No item is left to cover: a solution, with `more` options that may be added.
    Solution { more: bool },
    /// An item with no branch: a dead end.
    None,
    /// The options of an item, `size` branches.
    Branch { size: u32 },
}

/// A primary item of [`Table::counted`]: its number and bounds.
#[derive(Clone, Copy)]
struct CountedItem {
    item: u32,
    lower: u32,
    upper: u32,
}

impl Table {
    /// The tables of `problem`, once its size is checked against [`MAX_WORDS`].
    fn new(problem: &Problem) -> Result<Table, Unsupported> {
        check_supported(problem)?;
        match words_needed(problem) {
            Some(words) if words <= MAX_WORDS => {}
            _ => return Err(Unsupported::TooLarge),
        }
        // Primary items numbered from the fewest options to the most (ties in the problem's
        // order), secondary ones after them. The item to branch on is the first of the
        // fewest in this order: a node with an item of one option or none (four in five on
        // pentominoes, queens and Langford pairs) meets it sooner.
        let primary = problem.primary_count();
        let mut degree = vec![0usize; problem.item_count()];
        for option in problem.options() {
            for &item in problem.option(option) {
                degree[item.0 as usize] += 1;
            }
        }
        let mut by_degree: Vec<ItemId> = problem
            .items()
            .filter(|&item| problem.kind(item) == ItemKind::Primary)
            .collect();
        by_degree.sort_by_key(|&item| degree[item.0 as usize]);
        let mut number = vec![0usize; problem.item_count()];
        for (at, &item) in by_degree.iter().enumerate() {
            number[item.0 as usize] = at;
        }
        let mut next_secondary = primary;
        for item in problem.items() {
            if problem.kind(item) == ItemKind::Secondary {
                number[item.0 as usize] = next_secondary;
                next_secondary += 1;
            }
        }
        // The options in the order of their first primary item, so that each item's options
        // lie close together and a count of them reads few words (`spans`).
        let first_primary = |option: OptionId| {
            problem
                .option(option)
                .iter()
                .map(|&item| number[item.0 as usize])
                .filter(|&i| i < primary)
                .min()
        };
        let mut options: Vec<OptionId> = problem
            .options()
            .filter(|&option| holds_primary(problem, option))
            .collect();
        options.sort_by_cached_key(|&option| first_primary(option));
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
        // Parallel to `members`: the option's colour code at the item (0: none).
        let mut member_colors = vec![0u32; members.len()];
        let mut filled = starts.clone();
        // The bounds of the primary items, by number.
        let mut bounds = vec![(1, 1); primary];
        for item in problem.items() {
            if problem.kind(item) == ItemKind::Primary {
                bounds[number[item.0 as usize]] = problem.bounds(item);
            }
        }
        let mut counted = Vec::new();
        let mut counted_index = vec![u32::MAX; primary];
        let mut to_cover = vec![0u64; item_words];
        for (i, &(lower, upper)) in bounds.iter().enumerate() {
            if upper >= 2 {
                counted_index[i] = counted.len() as u32;
                counted.push(CountedItem {
                    item: i as u32,
                    lower,
                    upper,
                });
            }
            if lower >= 1 {
                to_cover[i / 64] |= 1 << (i % 64);
            }
        }
        let mut holds = vec![0u64; primary * words];
        let mut covers = vec![0u64; options.len() * item_words];
        let mut counted_of = Vec::new();
        let mut counted_starts = vec![0u32];
        for (bit, &option) in options.iter().enumerate() {
            for (&item, color) in problem
                .option(option)
                .iter()
                .zip(problem.option_colors(option))
            {
                let i = number[item.0 as usize];
                members[filled[i]] = bit as u32;
                member_colors[filled[i]] = color.map_or(0, |color| color.0 + 1);
                filled[i] += 1;
                if i < primary {
                    holds[i * words + bit / 64] |= 1 << (bit % 64);
                    if counted_index[i] == u32::MAX {
                        covers[bit * item_words + i / 64] |= 1 << (i % 64);
                    } else {
                        counted_of.push(counted_index[i]);
                    }
                }
            }
            counted_starts.push(counted_of.len() as u32);
        }
        let mut clash = vec![0u64; options.len() * words];
        // An option clashes with itself (a solution holds it once), even where its items are
        // all counted.
        for bit in 0..options.len() {
            clash[bit * words + bit / 64] |= 1 << (bit % 64);
        }
        let mut scratch = Vec::new();
        for i in 0..number.len() {
            if i < primary && counted_index[i] != u32::MAX {
                continue;
            }
            let range = starts[i]..starts[i + 1];
            add_clashes(
                &mut clash,
                words,
                &members[range.clone()],
                &member_colors[range],
                &mut scratch,
            );
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
            depth: depth(problem, options.len()),
            options,
            optional: bounds.iter().any(|&(lower, upper)| lower < upper),
            to_cover,
            counted,
            counted_index,
            counted_of,
            counted_starts,
        })
    }
}

/// Marks in `clash` (a row of `words` words per option) the clashes through one item: every
/// two of its options `members` (ascending), unless both give it the same colour (`codes`,
/// parallel: 0 for none, else a colour's index plus one). Where the item has more options
/// than its options span words, a row at a time over that span (the options of one colour
/// grouped); else bit by bit. `scratch` is reused from item to item. Each option is marked in
/// its own row too.
pub(super) fn add_clashes(
    clash: &mut [u64],
    words: usize,
    members: &[u32],
    codes: &[u32],
    scratch: &mut Vec<(u32, u32)>,
) {
    let (Some(&lowest), Some(&highest)) = (members.first(), members.last()) else {
        return;
    };
    let (first, end) = (lowest as usize / 64, highest as usize / 64 + 1);
    if members.len() <= end - first {
        for (&bit, &code) in members.iter().zip(codes) {
            let row = &mut clash[bit as usize * words..(bit as usize + 1) * words];
            for (&other, &other_code) in members.iter().zip(codes) {
                if code == 0 || other_code != code || other == bit {
                    row[other as usize / 64] |= 1 << (other % 64);
                }
            }
        }
        return;
    }
    let mut all = vec![0u64; end - first];
    for &bit in members {
        all[bit as usize / 64 - first] |= 1 << (bit % 64);
    }
    // The options grouped by colour: each group clashes with every option of the item
    // outside it, and the uncoloured ones with all.
    scratch.clear();
    scratch.extend(codes.iter().copied().zip(members.iter().copied()));
    scratch.sort_unstable();
    let mut mask = vec![0u64; end - first];
    for group in scratch.chunk_by(|a, b| a.0 == b.0) {
        mask.copy_from_slice(&all);
        if group[0].0 != 0 {
            for &(_, bit) in group {
                mask[bit as usize / 64 - first] &= !(1 << (bit % 64));
            }
        }
        for &(_, bit) in group {
            let row = &mut clash[bit as usize * words + first..bit as usize * words + end];
            for (into, &m) in row.iter_mut().zip(&mask) {
                *into |= m;
            }
            // An option always clashes with itself (it is chosen once).
            row[bit as usize / 64 - first] |= 1 << (bit % 64);
        }
    }
}

/// One search through a [`Table`]: per level, the live options, the primary items still to
/// cover and the options of the level's item not yet tried, each a stretch of words, and the
/// counts of the counted items.
struct Walk<'t, const N: usize, const MORE: bool> {
    table: &'t Table,
    /// Level `l`'s live options: `live[l * words..][..words]`.
    live: Vec<u64>,
    /// Level `l`'s active primary items: `active[l * item_words..][..item_words]`.
    active: Vec<u64>,
    /// Level `l`'s options still to try: `untried[l * words..][..words]`.
    untried: Vec<u64>,
    /// Level `l`'s counts of the counted items: `counts[l * counted..][..counted]`.
    counts: Vec<u32>,
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

impl<'t, const N: usize, const MORE: bool> Walk<'t, N, MORE> {
    /// A search from the root: every option live, every primary item of a lower bound to
    /// cover.
    fn new(table: &'t Table) -> Walk<'t, N, MORE> {
        debug_assert!(N == 0 || N == table.words);
        debug_assert!(MORE || (!table.optional && table.counted.is_empty()));
        // Each level chooses an option: `depth + 1` levels are enough.
        let levels = table.depth + 1;
        let mut live = vec![0u64; levels * table.words];
        let options = table.options.len();
        for (at, word) in live[..table.words].iter_mut().enumerate() {
            let bits = options.saturating_sub(at * 64).min(64);
            *word = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
        }
        let mut active = vec![0u64; levels * table.item_words];
        active[..table.item_words].copy_from_slice(&table.to_cover);
        Walk {
            table,
            live,
            active,
            untried: vec![0u64; levels * table.words],
            counts: vec![0; levels * table.counted.len()],
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
        if MORE && !self.table.counted.is_empty() {
            self.count_up(level, bit);
        }
    }

    /// Level `level + 1`'s counts: level `level`'s with option `bit`'s counted items counted
    /// once more. An item that reaches its lower bound is covered; one that reaches its upper
    /// drops its options from the live ones.
    #[inline(never)]
    fn count_up(&mut self, level: usize, bit: usize) {
        let words = self.words();
        let table = self.table;
        let counted = table.counted.len();
        let (above, below) = self.counts.split_at_mut((level + 1) * counted);
        below[..counted].copy_from_slice(&above[level * counted..]);
        let range = table.counted_starts[bit] as usize..table.counted_starts[bit + 1] as usize;
        for &index in &table.counted_of[range] {
            let count = &mut below[index as usize];
            *count += 1;
            let CountedItem { item, lower, upper } = table.counted[index as usize];
            let item = item as usize;
            if *count == lower {
                self.active[(level + 1) * table.item_words + item / 64] &= !(1 << (item % 64));
            }
            if *count == upper {
                let holds = &table.holds[item * words..(item + 1) * words];
                let live = &mut self.live[(level + 1) * words..(level + 2) * words];
                for (into, &gone) in live.iter_mut().zip(holds) {
                    *into &= !gone;
                }
            }
        }
    }

    /// The first active primary item of `level` with the fewest branches, and how many
    /// (stopping at the first with one or none); `None` when none is left to cover. An item
    /// covered once at most has a branch per live option; a counted item, short of its
    /// lower bound by `need`, one per live option less `need - 1` (the options of the item
    /// are tried in turn, each excluding those before it), none where fewer than `need` are
    /// live.
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
                let size = if MORE {
                    self.branches(level, item, size)
                } else {
                    size
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

    /// How many branches active item `item` of `level` has, with `size` live options.
    fn branches(&self, level: usize, item: usize, size: u32) -> u32 {
        match self.table.counted_index[item] {
            u32::MAX => size,
            index => {
                let counted = self.table.counted.len();
                let count = self.counts[level * counted + index as usize];
                let need = self.table.counted[index as usize].lower - count;
                (size + 1).saturating_sub(need)
            }
        }
    }

    /// Fills level `level`'s untried options with those it branches on: the live options
    /// of the active item with the fewest branches, or where none is left to cover (a
    /// solution) every live option, each of which may be added; `Solution` or `Branch` say
    /// which, `None` that there is no branch.
    #[inline(always)]
    fn branch_set(&mut self, level: usize) -> Branching {
        let words = self.words();
        let (item, size) = match self.fewest(level) {
            None => {
                if !MORE || !self.table.optional {
                    return Branching::Solution { more: false };
                }
                let (live, untried) = (&self.live, &mut self.untried);
                untried[level * words..(level + 1) * words]
                    .copy_from_slice(&live[level * words..(level + 1) * words]);
                let more = untried[level * words..(level + 1) * words]
                    .iter()
                    .any(|&word| word != 0);
                return Branching::Solution { more };
            }
            Some((_, 0)) => return Branching::None,
            Some(found) => found,
        };
        let row = &self.table.holds[item * words..(item + 1) * words];
        let live = &self.live[level * words..(level + 1) * words];
        let untried = &mut self.untried[level * words..(level + 1) * words];
        for ((into, &h), &l) in untried.iter_mut().zip(row).zip(live) {
            *into = h & l;
        }
        if MORE && self.table.counted_index[item] != u32::MAX {
            // A counted item short by `need` never takes one of its last `need - 1` live
            // options first: the branches are its first `size` options.
            let mut excess = untried.iter().map(|word| word.count_ones()).sum::<u32>() - size;
            for word in untried.iter_mut().rev() {
                while excess > 0 && *word != 0 {
                    *word &= !(1 << (63 - word.leading_zeros()));
                    excess -= 1;
                }
            }
        }
        Branching::Branch { size }
    }

    /// Chooses the options of `path` level by level, as the search did (each level's
    /// branches before the one taken excluded, as there); the search then explores the part
    /// below them alone.
    #[cfg(feature = "parallel")]
    fn descend(&mut self, path: &[u32]) {
        let words = self.words();
        for (level, &bit) in path.iter().enumerate() {
            let bit = bit as usize;
            self.branch_set(level);
            for at in 0..words {
                let before = if at < bit / 64 {
                    !0
                } else if at == bit / 64 {
                    (1u64 << (bit % 64)) - 1
                } else {
                    0
                };
                let tried = self.untried[level * words + at] & before;
                self.live[level * words + at] &= !tried;
            }
            self.choice[level] = bit as u32;
            self.choose(level, bit);
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
                match self.branch_set(level) {
                    Branching::Solution { more } => {
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
                        if more {
                            // Options may still be added: each makes another solution.
                            branches += 1;
                            forward = false;
                            continue;
                        }
                    }
                    Branching::None => {}
                    Branching::Branch { size } => {
                        branches += u64::from(size >= 2);
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
                    if MORE {
                        // The branches after this one exclude it: with counted items or
                        // options added at a solution, the clashes do not imply that.
                        self.live[level * words + at] &= !(word & word.wrapping_neg());
                    }
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
