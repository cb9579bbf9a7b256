//! Sums over choices: a constraint that options alone state only by listing every way to meet
//! it (a killer cage of four cells summing to 20 is 48 such ways, and choosing one fills the
//! whole cage at once), so the search can neither see a cell's digits on their own nor reason
//! across constraints. Here a sum stays arithmetic: the search checks it at every solution
//! and, where it branches, removes the options that no way of meeting the sum still allows
//! (the propagation of constraint solvers, done on dancing links' live options).
//!
//! A [`Sum`] is a list of terms, each a set of options with a value: exactly one option of
//! each term is in a solution, and the values of the chosen ones add up to a total within a
//! range; optionally the terms' values are pairwise different. Nothing here knows what an
//! option means: a Sudoku cage is a term per cell, holding the cell's options, each valued by
//! its digit.
//!
//! Filtering ([`SumFilter::support`]) is exact on each sum alone (every value it keeps is part
//! of some way to meet the sum from the terms' current values): by reachable partial totals,
//! as bit sets, and for distinct values over at most [`MAX_DISTINCT_VALUES`] values, by the
//! sets of values the first terms can use. Where those grow past their limits it keeps more
//! (the bounds of the totals), never less, so it stays sound; the check at each solution
//! ([`Sum::holds`]) is what makes a count exact, and it shares no code with the filtering.

use super::problem::OptionId;

/// At most this many different values over all terms of a sum with distinct values (over its
/// grouped terms, for a sum with groups of distinct terms) for the filter that tracks the sets
/// of values used (2^16 bits of marks, 8 KiB): a Sudoku of side 16 at most. Above it the
/// filter treats the values as not distinct (sound, weaker).
pub const MAX_DISTINCT_VALUES: usize = 16;

/// At most this many sets of values in the filter's layers before it falls back to the
/// totals alone (a cage of 8 cells on 16x16 reaches 12,870 in its middle layer).
const MAX_VALUE_SETS: usize = 20_000;

/// At most this many bits in the partial totals (the sum of the terms' value spans); above
/// it the filter keeps to the bounds of the totals.
const MAX_TOTAL_SPAN: i64 = 1 << 14;

/// At most this many values tracked as sets for the filter that holds every set of them as a
/// bit of a map (2^10 bits, 16 words a layer): each layer of sets is then reached from the
/// one before by a shift of the map per value, 64 sets at a time (a 9x9 Sudoku's cages).
const MAX_MAPPED_VALUES: usize = 10;

/// At most this many words in the maps of sets by total (512 KiB), for values whose totals
/// span widely (large weights); above it the filter keeps to its lists of sets.
const MAX_MAPPED_WORDS: usize = 1 << 16;

/// At most this many different values in one term: a term's live values are a 64-bit mask.
pub const MAX_TERM_VALUES: usize = 64;

/// A sum over choices, as given to [`Problem::add_sum`](super::Problem::add_sum).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sum {
    /// Each term: its options, each with the value it adds when chosen.
    pub terms: Vec<Vec<(OptionId, i64)>>,
    /// The least total allowed.
    pub min: i64,
    /// The greatest total allowed.
    pub max: i64,
    /// Whether the terms' values must be pairwise different.
    pub distinct: bool,
    /// Groups of terms (by index in `terms`) whose values must be pairwise different, when
    /// not all are (`distinct`): the cells of a little killer's diagonal inside one box.
    pub apart: Vec<Vec<usize>>,
    /// Options, each with a value, that are in no solution whose terms take that value (with
    /// `distinct`, a Sudoku cell that sees every cell of a cage cannot repeat a digit the
    /// cage holds): the search removes them once every way of meeting the sum uses the value.
    pub excluded: Vec<(OptionId, i64)>,
}

impl Sum {
    /// Whether the options of `chosen` (a solution, in any order, as `is_chosen` tells) meet
    /// the sum: one option chosen in each term, the total in range, and with `distinct` no
    /// value twice.
    pub fn holds(&self, is_chosen: impl Fn(OptionId) -> bool) -> bool {
        let mut total = 0i64;
        let mut values = Vec::with_capacity(self.terms.len());
        for term in &self.terms {
            let mut chosen = term.iter().filter(|&&(option, _)| is_chosen(option));
            let (Some(&(_, value)), None) = (chosen.next(), chosen.next()) else {
                return false;
            };
            total += value;
            values.push(value);
        }
        if self
            .excluded
            .iter()
            .any(|&(option, value)| is_chosen(option) && values.contains(&value))
        {
            return false;
        }
        for group in &self.apart {
            for (i, &a) in group.iter().enumerate() {
                if group[i + 1..]
                    .iter()
                    .any(|&b| a != b && values.get(a) == values.get(b))
                {
                    return false;
                }
            }
        }
        if self.distinct {
            values.sort_unstable();
            if values.windows(2).any(|pair| pair[0] == pair[1]) {
                return false;
            }
        }
        (self.min..=self.max).contains(&total)
    }
}

/// One term compiled for filtering: its different values, ascending, and for each option the
/// index of its value there.
#[derive(Debug, Clone)]
pub(crate) struct FilterTerm {
    pub values: Vec<i64>,
    pub value_of: Vec<u8>,
    /// With distinct values tracked as sets: the bit of each value among all the sum's values.
    global_bit: Vec<u8>,
}

impl FilterTerm {
    /// A term whose options have the values `values` (in option order), tracked on its own.
    pub fn plain(values: impl Iterator<Item = i64> + Clone) -> FilterTerm {
        let mut distinct: Vec<i64> = values.clone().collect();
        distinct.sort_unstable();
        distinct.dedup();
        FilterTerm {
            value_of: values
                .map(|value| distinct.binary_search(&value).unwrap_or(0) as u8)
                .collect(),
            values: distinct,
            global_bit: Vec::new(),
        }
    }
}

/// A sum compiled for filtering (the options themselves are the caller's, in term order).
#[derive(Debug, Clone)]
pub(crate) struct SumFilter {
    pub terms: Vec<FilterTerm>,
    min: i64,
    max: i64,
    /// The values of all terms, ascending, when the filter tracks sets of distinct values
    /// (of every term, or of groups of terms).
    global_values: Vec<i64>,
    /// Every term, when all are distinct and tracked as sets; else empty.
    all_terms: Vec<usize>,
    /// With at most [`MAX_MAPPED_VALUES`] values tracked as sets: for each total a set of
    /// them can make, from `least_set_total` up, the map of the sets (a bit each, the set's
    /// values' bits as its index) that make it, `set_words` words each; else empty.
    sets_by_total: Vec<u64>,
    least_set_total: i64,
    set_words: usize,
    /// With `sets_by_total`: each set's row there (its total less `least_set_total`).
    set_rows: Vec<u32>,
    /// When only some terms are distinct ([`Sum::apart`]) and tracked as sets: the groups of
    /// two terms or more (no term in two), then the terms in none.
    groups: Vec<Vec<usize>>,
    loose: Vec<usize>,
}

/// Scratch space of the filters, kept by each search so that filtering allocates nothing
/// once it has grown to the largest sum.
#[derive(Debug, Clone, Default)]
pub(crate) struct FilterScratch {
    /// Partial totals reachable from the front and from the back, a bit set per term.
    forward: Vec<u64>,
    backward: Vec<u64>,
    sets: SetScratch,
    /// With groups: the totals each group can reach, ascending, then for each group and
    /// loose term its values still possible and those kept.
    group_totals: Vec<Vec<i64>>,
    unit_domains: Vec<u64>,
    unit_support: Vec<u64>,
}

/// Scratch space of the filtering by sets of values.
#[derive(Debug, Clone, Default)]
struct SetScratch {
    /// With a map of sets (`SumFilter::sets_by_total`): the sets of each layer, then the
    /// sets that can be completed, a layer at a time, then the sets kept.
    layers: Vec<u64>,
    completed: Vec<u64>,
    next_completed: Vec<u64>,
    kept_sets: Vec<u64>,
    /// The rows of `SumFilter::sets_by_total` that the sets kept make, a bit each.
    kept_rows: Vec<u64>,
    /// Sets of values reached, and those that can still be completed, as bits over all sets.
    reached: Vec<u64>,
    completes: Vec<u64>,
    /// The sets of each layer, one layer after another, and where each layer starts.
    sets: Vec<u32>,
    /// The total of each set in `sets`.
    totals: Vec<i64>,
    /// Per open term, the least and greatest totals of the open terms from it on.
    rest: Vec<(i64, i64)>,
    /// The terms with more than one value left.
    open: Vec<usize>,
    layer_starts: Vec<usize>,
}

/// Which totals a filtering by sets keeps: those in a range, or those whose index among a
/// group's reachable totals is marked in a bit set.
#[derive(Clone, Copy)]
enum Accept<'a> {
    Range(i64, i64),
    Marked(&'a [i64], u64),
}

impl Accept<'_> {
    fn accepts(self, total: i64) -> bool {
        match self {
            Accept::Range(low, high) => (low..=high).contains(&total),
            Accept::Marked(totals, bits) => totals
                .binary_search(&total)
                .is_ok_and(|i| bits & 1 << i != 0),
        }
    }

    /// The least and greatest totals kept.
    fn bounds(self) -> (i64, i64) {
        match self {
            Accept::Range(low, high) => (low, high),
            Accept::Marked(totals, bits) if bits != 0 => (
                totals[bits.trailing_zeros() as usize],
                totals[63 - bits.leading_zeros() as usize],
            ),
            Accept::Marked(..) => (1, 0),
        }
    }
}

impl SumFilter {
    /// Compiles `sum` (already checked by `Problem::add_sum`: non-empty terms, at most
    /// [`MAX_TERM_VALUES`] values each, groups naming terms).
    pub fn new(sum: &Sum) -> SumFilter {
        // Groups of two terms or more, each term in the first group naming it.
        let mut grouped = vec![false; sum.terms.len()];
        let mut groups = Vec::new();
        if !sum.distinct {
            for group in &sum.apart {
                let mut members: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|&t| t < grouped.len() && !grouped[t])
                    .collect();
                members.sort_unstable();
                members.dedup();
                if members.len() >= 2 {
                    for &t in &members {
                        grouped[t] = true;
                    }
                    groups.push(members);
                }
            }
        }
        // The values tracked as sets: of every term where all are distinct, else of the
        // grouped terms alone (an arrow's shaft, beside its circle valued in tens).
        let mut all: Vec<i64> = sum
            .terms
            .iter()
            .enumerate()
            .filter(|&(t, _)| sum.distinct || grouped[t])
            .flat_map(|(_, term)| term.iter().map(|&(_, value)| value))
            .collect();
        all.sort_unstable();
        all.dedup();
        let small = all.len() <= MAX_DISTINCT_VALUES;
        if !small {
            groups.clear();
        }
        let loose = if groups.is_empty() {
            Vec::new()
        } else {
            (0..grouped.len()).filter(|&t| !grouped[t]).collect()
        };
        let tracked = (sum.distinct || !groups.is_empty()) && small;
        let terms = sum
            .terms
            .iter()
            .map(|term| {
                let mut values: Vec<i64> = term.iter().map(|&(_, value)| value).collect();
                values.sort_unstable();
                values.dedup();
                let value_of = term
                    .iter()
                    .map(|&(_, value)| values.binary_search(&value).unwrap_or(0) as u8)
                    .collect();
                let global_bit = if tracked {
                    values
                        .iter()
                        .map(|value| all.binary_search(value).unwrap_or(0) as u8)
                        .collect()
                } else {
                    Vec::new()
                };
                FilterTerm {
                    values,
                    value_of,
                    global_bit,
                }
            })
            .collect();
        let (mut sets_by_total, mut least_set_total, mut set_words) = (Vec::new(), 0, 0);
        let mut set_rows = Vec::new();
        // The totals a set can make, from the least to the greatest (in i128: no overflow).
        let least: i128 = all.iter().filter(|&&v| v < 0).map(|&v| i128::from(v)).sum();
        let most: i128 = all.iter().filter(|&&v| v > 0).map(|&v| i128::from(v)).sum();
        let words = (1usize << all.len().min(MAX_MAPPED_VALUES)).div_ceil(64) as i128;
        if tracked
            && all.len() <= MAX_MAPPED_VALUES
            && (most - least + 1) * words <= MAX_MAPPED_WORDS as i128
        {
            let sets = 1usize << all.len();
            least_set_total = least as i64;
            set_words = sets.div_ceil(64);
            sets_by_total = vec![0; (most - least + 1) as usize * set_words];
            // Each set's row, its total less the least: the set without its lowest value's
            // row, plus that value.
            set_rows.reserve_exact(sets);
            set_rows.push((-least_set_total) as u32);
            for set in 1..sets {
                let lowest = set.trailing_zeros() as usize;
                let row = i64::from(set_rows[set & (set - 1)]) + all[lowest];
                set_rows.push(row as u32);
            }
            for (set, &row) in set_rows.iter().enumerate() {
                sets_by_total[row as usize * set_words + set / 64] |= 1 << (set % 64);
            }
        }
        SumFilter {
            terms,
            min: sum.min,
            max: sum.max,
            all_terms: if tracked && sum.distinct {
                (0..sum.terms.len()).collect()
            } else {
                Vec::new()
            },
            sets_by_total,
            least_set_total,
            set_words,
            set_rows,
            global_values: if tracked { all } else { Vec::new() },
            groups,
            loose,
        }
    }

    /// From the values each term may still take (`domains[t]`, bits over
    /// `terms[t].values`), the values each keeps in some way of meeting the sum, into
    /// `support`; `false` when there is none. Into `required`, the values (bits by
    /// [`SumFilter::value_bit`]) that every way uses, where the filter tracks sets of values
    /// of every term (else 0).
    pub fn support(
        &self,
        domains: &[u64],
        scratch: &mut FilterScratch,
        support: &mut Vec<u64>,
        required: &mut u32,
    ) -> bool {
        support.clear();
        support.resize(self.terms.len(), 0);
        *required = 0;
        if domains.contains(&0) {
            return false;
        }
        let feasible = if !self.all_terms.is_empty() {
            self.support_by_sets(
                &self.all_terms,
                domains,
                Accept::Range(self.min, self.max),
                &mut scratch.sets,
                support,
                Some(required),
                None,
            )
        } else if !self.groups.is_empty() {
            self.support_by_groups(domains, scratch, support)
        } else {
            None
        };
        if let Some(feasible) = feasible {
            if !feasible {
                support.fill(0);
            }
            return feasible;
        }
        support.fill(0);
        *required = 0;
        let values = |t: usize| self.terms[t].values.as_slice();
        let (forward, backward) = (&mut scratch.forward, &mut scratch.backward);
        support_by_totals(
            &values,
            domains,
            (self.min, self.max),
            forward,
            backward,
            support,
        )
    }

    /// Exact support for groups of distinct values among terms that may otherwise repeat:
    /// the totals each group can reach (by sets), then which of them, and which values of
    /// the loose terms, meet the range with the rest (by totals, each group one term valued
    /// by its totals), then each group's values that make a total kept (by sets again).
    /// `None` when a group's sets or totals outgrow their limits.
    fn support_by_groups(
        &self,
        domains: &[u64],
        scratch: &mut FilterScratch,
        support: &mut [u64],
    ) -> Option<bool> {
        let FilterScratch {
            forward,
            backward,
            sets,
            group_totals,
            unit_domains,
            unit_support,
        } = scratch;
        let g = self.groups.len();
        if group_totals.len() < g {
            group_totals.resize(g, Vec::new());
        }
        unit_domains.clear();
        for (group, totals) in self.groups.iter().zip(group_totals.iter_mut()) {
            totals.clear();
            if !self.support_by_sets(
                group,
                domains,
                Accept::Range(i64::MIN / 4, i64::MAX / 4),
                sets,
                support,
                None,
                Some(totals),
            )? {
                return Some(false);
            }
            totals.sort_unstable();
            totals.dedup();
            if totals.len() > MAX_TERM_VALUES {
                return None;
            }
            unit_domains.push(if totals.len() == 64 {
                u64::MAX
            } else {
                (1 << totals.len()) - 1
            });
        }
        unit_domains.extend(self.loose.iter().map(|&t| domains[t]));
        let values = |u: usize| {
            if u < g {
                group_totals[u].as_slice()
            } else {
                self.terms[self.loose[u - g]].values.as_slice()
            }
        };
        unit_support.clear();
        unit_support.resize(unit_domains.len(), 0);
        if !support_by_totals(
            &values,
            unit_domains,
            (self.min, self.max),
            forward,
            backward,
            unit_support,
        ) {
            return Some(false);
        }
        for (i, &t) in self.loose.iter().enumerate() {
            support[t] = unit_support[g + i];
        }
        for (u, group) in self.groups.iter().enumerate() {
            let accept = Accept::Marked(&group_totals[u], unit_support[u]);
            if !self.support_by_sets(group, domains, accept, sets, support, None, None)? {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Exact support for the distinct values of the terms `terms`: the sets of values the
    /// first of them can use (a set of `t` values is reached at layer `t` only, so one bit
    /// map holds every layer), then, backwards, those that can be completed to a set whose
    /// total `accept` keeps. Writes the support of `terms` only, and into `required` (where
    /// asked) the values every such set holds. With `finals`, only the totals kept, into it:
    /// no support, none required. `None` when the sets outgrow [`MAX_VALUE_SETS`].
    #[allow(clippy::too_many_arguments)]
    fn support_by_sets(
        &self,
        terms: &[usize],
        domains: &[u64],
        accept: Accept<'_>,
        scratch: &mut SetScratch,
        support: &mut [u64],
        required: Option<&mut u32>,
        mut finals: Option<&mut Vec<i64>>,
    ) -> Option<bool> {
        if !self.sets_by_total.is_empty() {
            return Some(
                self.support_by_set_maps(
                    terms, domains, accept, scratch, support, required, finals,
                ),
            );
        }
        let words = (1usize << self.global_values.len()).div_ceil(64);
        if scratch.reached.len() < words {
            scratch.reached.resize(words, 0);
            scratch.completes.resize(words, 0);
        }
        let as_global = |t: usize, domain: u64| self.global_bits(t, domain);
        let SetScratch {
            reached,
            completes,
            sets,
            totals,
            rest,
            layer_starts,
            open,
            ..
        } = scratch;
        let (least, most) = accept.bounds();
        let mark = |bits: &mut Vec<u64>, set: u32| bits[set as usize / 64] |= 1 << (set % 64);
        let marked = |bits: &Vec<u64>, set: u32| bits[set as usize / 64] & 1 << (set % 64) != 0;
        // Terms down to one value are settled: the sets start from their values, and the
        // layers are those of the open terms alone (deep in a search, most terms are settled).
        let (mut base, mut base_total) = (0u32, 0i64);
        open.clear();
        for &t in terms {
            let domain = domains[t];
            if domain.is_power_of_two() {
                let bit = as_global(t, domain);
                if base & bit != 0 {
                    return Some(false);
                }
                base |= bit;
                base_total += self.terms[t].values[domain.trailing_zeros() as usize];
                support[t] = domain;
            } else {
                open.push(t);
            }
        }
        // Fewest values first: the layers of sets then grow late, if at all.
        open.sort_unstable_by_key(|&t| domains[t].count_ones());
        let k = open.len();
        layer_starts.clear();
        // The least and greatest totals the open terms from the `o`-th on can still add (as
        // if values could repeat): a set whose total cannot reach the range with them is not
        // kept.
        rest.clear();
        rest.resize(k + 1, (0, 0));
        for o in (0..k).rev() {
            let (t, domain) = (open[o], domains[open[o]]);
            let values = &self.terms[t].values;
            let (low, high) = (
                values[domain.trailing_zeros() as usize],
                values[63 - domain.leading_zeros() as usize],
            );
            rest[o] = (rest[o + 1].0 + low, rest[o + 1].1 + high);
        }
        sets.clear();
        totals.clear();
        sets.push(base);
        totals.push(base_total);
        mark(reached, base);
        layer_starts.push(0);
        let mut overflow = false;
        for o in 0..k {
            let t = open[o];
            let (start, end) = (layer_starts[o], sets.len());
            layer_starts.push(end);
            let values = as_global(t, domains[t]);
            let (low, high) = rest[o + 1];
            for i in start..end {
                let (set, total) = (sets[i], totals[i]);
                let mut free = values & !set;
                while free != 0 {
                    let bit = free.trailing_zeros();
                    free &= free - 1;
                    let next = set | 1 << bit;
                    let next_total = total + self.global_values[bit as usize];
                    if next_total + low > most || next_total + high < least {
                        continue;
                    }
                    if !marked(reached, next) {
                        mark(reached, next);
                        sets.push(next);
                        totals.push(next_total);
                    }
                }
            }
            if sets.len() > MAX_VALUE_SETS {
                overflow = true;
                break;
            }
        }
        let mut feasible = false;
        let mut all_use = u32::MAX;
        let mut any_kept = false;
        if !overflow {
            layer_starts.push(sets.len());
            for i in layer_starts[k]..layer_starts[k + 1] {
                let (set, total) = (sets[i], totals[i]);
                if accept.accepts(total) {
                    mark(completes, set);
                    any_kept = true;
                    all_use &= set;
                    if let Some(finals) = finals.as_deref_mut() {
                        finals.push(total);
                    }
                }
            }
            // The backward pass, for the support: none where only the totals are asked for.
            let totals_only = finals.is_some();
            let backward = if totals_only { 0 } else { k };
            for o in (0..backward).rev() {
                let t = open[o];
                let values = as_global(t, domains[t]);
                let mut kept = 0u32;
                for &set in &sets[layer_starts[o]..layer_starts[o + 1]] {
                    let mut free = values & !set;
                    let mut completed = false;
                    while free != 0 {
                        let bit = free.trailing_zeros();
                        free &= free - 1;
                        if marked(completes, set | 1 << bit) {
                            kept |= 1 << bit;
                            completed = true;
                        }
                    }
                    if completed {
                        mark(completes, set);
                    }
                }
                support[t] = self.term_bits(t, domains[t], kept);
            }
            // Without the backward pass, a set kept at the last layer is one reached from
            // the base.
            feasible = if totals_only {
                any_kept
            } else {
                marked(completes, base)
            };
            if let Some(required) = required.filter(|_| feasible) {
                *required = all_use;
            }
        }
        for &set in sets.iter() {
            reached[set as usize / 64] &= !(1 << (set % 64));
            completes[set as usize / 64] &= !(1 << (set % 64));
        }
        if overflow {
            return None;
        }
        Some(feasible)
    }

    /// The values of term `t` in `domain` (bits over its values), as bits over all the
    /// sum's values tracked as sets.
    fn global_bits(&self, t: usize, domain: u64) -> u32 {
        let term = &self.terms[t];
        let mut bits = 0u32;
        let mut rest = domain;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            bits |= 1 << term.global_bit[i];
        }
        bits
    }

    /// The values of term `t` in `domain` whose bits among all the sum's values are in
    /// `kept`, as bits over the term's values: [`SumFilter::global_bits`] back.
    fn term_bits(&self, t: usize, domain: u64, kept: u32) -> u64 {
        let term = &self.terms[t];
        (0..term.values.len())
            .filter(|&i| domain & 1 << i != 0 && kept & 1 << term.global_bit[i] != 0)
            .fold(0, |bits, i| bits | 1 << i)
    }

    /// [`SumFilter::support_by_sets`] with every set of values a bit of a map: the sets the
    /// first `o` open terms can use make layer `o`, each layer the one before shifted once
    /// for each value of the next term (a set without value `v` at index `i` reaches
    /// `i + 2^v`); the last layer keeps the sets whose total `accept` keeps; then, backwards,
    /// a value of a term is kept where a set of its layer that lacks it reaches a kept set
    /// of the next layer with it, and those sets are kept in turn.
    #[allow(clippy::too_many_arguments)]
    fn support_by_set_maps(
        &self,
        terms: &[usize],
        domains: &[u64],
        accept: Accept<'_>,
        scratch: &mut SetScratch,
        support: &mut [u64],
        required: Option<&mut u32>,
        finals: Option<&mut Vec<i64>>,
    ) -> bool {
        let words = self.set_words;
        let as_global = |t: usize, domain: u64| self.global_bits(t, domain);
        let SetScratch {
            layers,
            completed,
            next_completed,
            kept_sets,
            kept_rows,
            open,
            ..
        } = scratch;
        // Terms down to one value are settled: every set starts from their values.
        let mut base = 0u32;
        open.clear();
        for &t in terms {
            let domain = domains[t];
            if domain.is_power_of_two() {
                let bit = as_global(t, domain);
                if base & bit != 0 {
                    return false;
                }
                base |= bit;
                support[t] = domain;
            } else {
                open.push(t);
            }
        }
        let k = open.len();
        layers.clear();
        layers.resize((k + 1) * words, 0);
        layers[base as usize / 64] |= 1 << (base % 64);
        for (o, &t) in open.iter().enumerate() {
            let (done, next) = layers.split_at_mut((o + 1) * words);
            let (from, to) = (&done[o * words..], &mut next[..words]);
            let mut values = as_global(t, domains[t]) & !base;
            while values != 0 {
                let v = values.trailing_zeros();
                values &= values - 1;
                shift_up(to, from, v);
            }
        }
        // The last layer's sets whose totals are kept.
        kept_sets.clear();
        kept_sets.resize(words, 0);
        let rows = self.sets_by_total.len() / words;
        let mut keep_total = |total: i64| {
            let row = total - self.least_set_total;
            if (0..rows as i64).contains(&row) {
                let row = &self.sets_by_total[row as usize * words..][..words];
                for (kept, &sets) in kept_sets.iter_mut().zip(row) {
                    *kept |= sets;
                }
            }
        };
        match accept {
            // Every total: every set (the totals of a group's sets, `support_by_groups`).
            Accept::Range(low, high)
                if low <= self.least_set_total
                    && high >= self.least_set_total + rows as i64 - 1 =>
            {
                kept_sets.fill(u64::MAX);
            }
            Accept::Range(low, high) => {
                let low = low.max(self.least_set_total);
                let high = high.min(self.least_set_total + rows as i64 - 1);
                for total in low..=high {
                    keep_total(total);
                }
            }
            Accept::Marked(totals, mut bits) => {
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    keep_total(totals[i]);
                }
            }
        }
        completed.clear();
        completed.extend(
            (kept_sets.iter())
                .zip(&layers[k * words..])
                .map(|(kept, reached)| kept & reached),
        );
        if completed.iter().all(|&sets| sets == 0) {
            return false;
        }
        if let Some(finals) = finals {
            // The totals of the sets kept, from each set's row: few sets of a group are kept.
            kept_rows.clear();
            kept_rows.resize(rows.div_ceil(64), 0);
            for (w, &word) in completed.iter().enumerate() {
                let mut sets = word;
                while sets != 0 {
                    let row = self.set_rows[w * 64 + sets.trailing_zeros() as usize];
                    sets &= sets - 1;
                    kept_rows[row as usize / 64] |= 1 << (row % 64);
                }
            }
            for (w, &word) in kept_rows.iter().enumerate() {
                let mut marked = word;
                while marked != 0 {
                    let row = w * 64 + marked.trailing_zeros() as usize;
                    marked &= marked - 1;
                    finals.push(self.least_set_total + row as i64);
                }
            }
            return true;
        }
        // The values every kept set holds.
        if let Some(required) = required {
            *required = (0..self.global_values.len() as u32)
                .filter(|&v| every_set_holds(completed, v))
                .fold(0, |bits, v| bits | 1 << v);
        }
        for o in (0..k).rev() {
            let t = open[o];
            let reached = &layers[o * words..][..words];
            next_completed.clear();
            next_completed.resize(words, 0);
            let mut kept = 0u32;
            let mut values = as_global(t, domains[t]) & !base;
            while values != 0 {
                let v = values.trailing_zeros();
                values &= values - 1;
                if shift_down_into(next_completed, completed, reached, v) {
                    kept |= 1 << v;
                }
            }
            support[t] = self.term_bits(t, domains[t], kept);
            std::mem::swap(completed, next_completed);
        }
        true
    }

    /// Whether [`SumFilter::support`] is exact on every input, with no fallback to a weaker
    /// filter that the next filtering might not take: the maps of sets (distinct values, or
    /// groups whose totals are few enough to be values), or totals over a span within
    /// [`MAX_TOTAL_SPAN`] (values that may repeat, or distinct ones not tracked). Such a
    /// filtering is idempotent: each value kept is in some way of meeting the sum whose
    /// other values are kept too, so filtering again keeps everything.
    pub fn exact_in_one_pass(&self) -> bool {
        let span = |values: &[i64]| values[values.len() - 1] - values[0];
        let rows = self.sets_by_total.len() / self.set_words.max(1);
        if !self.all_terms.is_empty() {
            !self.sets_by_total.is_empty()
        } else if !self.groups.is_empty() {
            !self.sets_by_total.is_empty()
                && rows <= MAX_TERM_VALUES
                && self.groups.len() as i64 * rows as i64
                    + self
                        .loose
                        .iter()
                        .map(|&t| span(&self.terms[t].values))
                        .sum::<i64>()
                    <= MAX_TOTAL_SPAN
        } else {
            self.terms
                .iter()
                .map(|term| span(&term.values))
                .sum::<i64>()
                <= MAX_TOTAL_SPAN
        }
    }

    /// The bit of `value` in [`SumFilter::support`]'s `required`, where the filter tracks sets
    /// of values and some term has the value.
    pub fn value_bit(&self, value: i64) -> Option<u8> {
        self.global_values
            .binary_search(&value)
            .ok()
            .map(|bit| bit as u8)
    }
}

/// Exact support for values that may repeat, over terms whose values (ascending) `values`
/// gives and whose live ones `domains` marks: the partial totals reachable from the front
/// and from the back as bit sets (offset by each term's least value); a value is kept where
/// a total before it and one after it meet in `range`. Past [`MAX_TOTAL_SPAN`], the bounds
/// of the totals. `support` comes in zeroed, one word a term.
fn support_by_totals<'v>(
    values: &dyn Fn(usize) -> &'v [i64],
    domains: &[u64],
    (min, max): (i64, i64),
    forward: &mut Vec<u64>,
    backward: &mut Vec<u64>,
    support: &mut [u64],
) -> bool {
    let k = domains.len();
    let offset: i64 = (0..k).map(|t| values(t)[0]).sum();
    let span: i64 = (0..k)
        .map(|t| values(t)[values(t).len() - 1] - values(t)[0])
        .sum();
    let (lo, hi) = (min - offset, max - offset);
    if hi < 0 || lo > span {
        return false;
    }
    if span > MAX_TOTAL_SPAN {
        return support_by_bounds(values, domains, (min, max), support);
    }
    let words = (span as usize + 1).div_ceil(64);
    forward.clear();
    forward.resize(words * (k + 1), 0);
    backward.clear();
    backward.resize(words * (k + 1), 0);
    forward[0] = 1;
    for (t, &domain) in domains.iter().enumerate() {
        let term = values(t);
        let (before, after) = forward.split_at_mut(words * (t + 1));
        let from = &before[words * t..];
        let to = &mut after[..words];
        let mut rest = domain;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            or_shifted_up(to, from, (term[i] - term[0]) as usize);
        }
    }
    let last = &mut backward[words * k..];
    for total in lo.max(0)..=hi.min(span) {
        last[total as usize / 64] |= 1 << (total % 64);
    }
    for t in (0..k).rev() {
        let term = values(t);
        let (before, after) = backward.split_at_mut(words * (t + 1));
        let to = &mut before[words * t..];
        let from = &after[..words];
        let mut rest = domains[t];
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let shift = (term[i] - term[0]) as usize;
            if meets_shifted_down(&forward[words * t..words * (t + 1)], from, shift) {
                support[t] |= 1 << i;
            }
            or_shifted_down(to, from, shift);
        }
    }
    if support.contains(&0) {
        support.fill(0);
        return false;
    }
    true
}

/// The values each term keeps by the bounds of the totals alone.
fn support_by_bounds<'v>(
    values: &dyn Fn(usize) -> &'v [i64],
    domains: &[u64],
    (min, max): (i64, i64),
    support: &mut [u64],
) -> bool {
    let least = |t: usize| values(t)[domains[t].trailing_zeros() as usize];
    let most = |t: usize| values(t)[63 - domains[t].leading_zeros() as usize];
    let low: i64 = (0..domains.len()).map(least).sum();
    let high: i64 = (0..domains.len()).map(most).sum();
    if high < min || low > max {
        return false;
    }
    for t in 0..domains.len() {
        let (others_low, others_high) = (low - least(t), high - most(t));
        for (i, &value) in values(t).iter().enumerate() {
            if domains[t] & 1 << i != 0 && value + others_high >= min && value + others_low <= max {
                support[t] |= 1 << i;
            }
        }
    }
    true
}

/// `to |= from << shift`, over bit sets of equal length (bits shifted past the end are lost).
/// For each bit `v` below 6, the positions in a word whose index lacks bit `v`.
const WITHOUT_BIT: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// Adds to the map `to` each set of the map `from` that lacks value `v`, with `v`.
fn shift_up(to: &mut [u64], from: &[u64], v: u32) {
    if v < 6 {
        for (to, &from) in to.iter_mut().zip(from) {
            *to |= (from & WITHOUT_BIT[v as usize]) << (1 << v);
        }
    } else {
        let step = 1usize << (v - 6);
        for i in (0..from.len()).filter(|&i| i & step == 0) {
            to[i + step] |= from[i];
        }
    }
}

/// Adds to `to` the sets of `reached` that lack value `v` and are in `completed` with it;
/// whether there was one.
fn shift_down_into(to: &mut [u64], completed: &[u64], reached: &[u64], v: u32) -> bool {
    let mut any = 0;
    if v < 6 {
        for ((to, &completed), &reached) in to.iter_mut().zip(completed).zip(reached) {
            let sets = (completed >> (1 << v)) & WITHOUT_BIT[v as usize] & reached;
            *to |= sets;
            any |= sets;
        }
    } else {
        let step = 1usize << (v - 6);
        for i in (0..reached.len()).filter(|&i| i & step == 0) {
            let sets = completed[i + step] & reached[i];
            to[i] |= sets;
            any |= sets;
        }
    }
    any != 0
}

/// Whether every set of the map `sets` holds value `v`.
fn every_set_holds(sets: &[u64], v: u32) -> bool {
    if v < 6 {
        sets.iter().all(|&word| word & WITHOUT_BIT[v as usize] == 0)
    } else {
        let step = 1usize << (v - 6);
        (0..sets.len()).all(|i| i & step != 0 || sets[i] == 0)
    }
}

fn or_shifted_up(to: &mut [u64], from: &[u64], shift: usize) {
    let (words, bits) = (shift / 64, shift % 64);
    for i in (words..to.len()).rev() {
        let j = i - words;
        let mut value = from[j] << bits;
        if bits != 0 && j > 0 {
            value |= from[j - 1] >> (64 - bits);
        }
        to[i] |= value;
    }
}

/// `to |= from >> shift`, over bit sets of equal length.
fn or_shifted_down(to: &mut [u64], from: &[u64], shift: usize) {
    let (words, bits) = (shift / 64, shift % 64);
    for i in 0..to.len().saturating_sub(words) {
        let j = i + words;
        let mut value = from[j] >> bits;
        if bits != 0 && j + 1 < from.len() {
            value |= from[j + 1] << (64 - bits);
        }
        to[i] |= value;
    }
}

/// Whether `a & (b >> shift)` has a bit set.
fn meets_shifted_down(a: &[u64], b: &[u64], shift: usize) -> bool {
    let (words, bits) = (shift / 64, shift % 64);
    (0..a.len().saturating_sub(words)).any(|i| {
        let j = i + words;
        let mut value = b[j] >> bits;
        if bits != 0 && j + 1 < b.len() {
            value |= b[j + 1] << (64 - bits);
        }
        a[i] & value != 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of one value per term from the domains, brute force: the values each
    /// term takes in some assignment that meets the sum.
    fn brute(sum: &Sum, domains: &[u64], filter: &SumFilter) -> (Vec<u64>, Vec<i64>) {
        let k = domains.len();
        let mut used: Option<Vec<i64>> = None;
        let mut support = vec![0u64; k];
        let mut pick = vec![0usize; k];
        fn go(
            t: usize,
            pick: &mut Vec<usize>,
            sum: &Sum,
            domains: &[u64],
            filter: &SumFilter,
            support: &mut Vec<u64>,
            used: &mut Option<Vec<i64>>,
        ) {
            if t == domains.len() {
                let values: Vec<i64> = pick
                    .iter()
                    .enumerate()
                    .map(|(t, &i)| filter.terms[t].values[i])
                    .collect();
                let total: i64 = values.iter().sum();
                let mut sorted = values.clone();
                sorted.sort_unstable();
                sorted.dedup();
                let apart = sum.apart.iter().all(|group| {
                    group
                        .iter()
                        .enumerate()
                        .all(|(i, &a)| group[i + 1..].iter().all(|&b| values[a] != values[b]))
                });
                if (sum.min..=sum.max).contains(&total)
                    && (!sum.distinct || sorted.len() == values.len())
                    && apart
                {
                    for (t, &i) in pick.iter().enumerate() {
                        support[t] |= 1 << i;
                    }
                    *used = Some(match used.take() {
                        None => sorted,
                        Some(before) => before.into_iter().filter(|v| values.contains(v)).collect(),
                    });
                }
                return;
            }
            for i in 0..filter.terms[t].values.len() {
                if domains[t] & 1 << i != 0 {
                    pick[t] = i;
                    go(t + 1, pick, sum, domains, filter, support, used);
                }
            }
        }
        go(0, &mut pick, sum, domains, filter, &mut support, &mut used);
        if support.contains(&0) {
            support.fill(0);
        }
        (support, used.unwrap_or_default())
    }

    #[test]
    fn filtering_keeps_exactly_what_brute_force_keeps() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % bound
        };
        let mut scratch = FilterScratch::default();
        let mut support = Vec::new();
        for round in 0..6000 {
            let k = 1 + next(5) as usize;
            let distinct = next(2) == 0;
            // Values: digits, or spread (negative, large) to exercise the shifts. Every
            // third round with three terms or more, the last is valued in tens (an arrow's
            // circle read as a number), so that the values of all terms are too many to
            // track as sets but those of the groups among the others are not.
            let spread = round % 3 == 0;
            let tens = round % 3 == 1 && k >= 3;
            let terms: Vec<Vec<(OptionId, i64)>> = (0..k)
                .map(|t| {
                    let count = 1 + next(6) as usize;
                    let mut values: Vec<i64> = (0..count)
                        .map(|_| {
                            if spread {
                                next(200) as i64 - 100
                            } else if tens && t == k - 1 {
                                -10 * (1 + next(9) as i64)
                            } else {
                                1 + next(9) as i64
                            }
                        })
                        .collect();
                    values.sort_unstable();
                    values.dedup();
                    values
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| (OptionId((t * 10 + i) as u32), v))
                        .collect()
                })
                .collect();
            let centre = if spread {
                0
            } else if tens {
                5 * (k as i64 - 1) - 10 * (1 + next(2) as i64)
            } else {
                5 * k as i64
            };
            let min = centre - next(12) as i64;
            let max = min + next(6) as i64;
            // Without distinct: half the time, disjoint groups of terms whose values differ.
            let mut apart: Vec<Vec<usize>> = Vec::new();
            if !distinct && (tens || next(2) == 0) {
                for t in 0..k - usize::from(tens) {
                    match next(3) {
                        0 => {}
                        1 if !apart.is_empty() => apart.last_mut().unwrap().push(t),
                        _ => apart.push(vec![t]),
                    }
                }
            }
            let sum = Sum {
                terms,
                min,
                max,
                distinct,
                apart,
                excluded: Vec::new(),
            };
            let filter = SumFilter::new(&sum);
            let domains: Vec<u64> = filter
                .terms
                .iter()
                .map(|term| {
                    let all = (1u64 << term.values.len()) - 1;
                    let d = next(1 << term.values.len().min(20)) & all;
                    if d == 0 { all } else { d }
                })
                .collect();
            let mut required = 0;
            let feasible = filter.support(&domains, &mut scratch, &mut support, &mut required);
            let (expected, used) = brute(&sum, &domains, &filter);
            // Distinct values over more than 16 values are filtered as if they could repeat:
            // a superset of the exact support.
            let untracked_groups =
                sum.apart.iter().any(|group| group.len() >= 2) && filter.global_values.is_empty();
            if (distinct && filter.global_values.is_empty()) || untracked_groups {
                for t in 0..k {
                    assert_eq!(support[t] & expected[t], expected[t], "round {round}");
                }
            } else {
                assert_eq!(support, expected, "round {round}: {sum:?} {domains:?}");
                assert_eq!(feasible, !expected.contains(&0), "round {round}");
                if distinct && feasible {
                    let by_bits: Vec<i64> = filter
                        .global_values
                        .iter()
                        .enumerate()
                        .filter(|&(bit, _)| required & 1 << bit != 0)
                        .map(|(_, &value)| value)
                        .collect();
                    assert_eq!(by_bits, used, "round {round}: required values");
                }
            }
            // A filter exact in one pass keeps everything when given what it kept.
            if feasible && filter.exact_in_one_pass() {
                let (mut again, mut required_again) = (Vec::new(), 0);
                let kept = support.clone();
                assert!(filter.support(&kept, &mut scratch, &mut again, &mut required_again));
                assert_eq!(again, kept, "round {round}: {sum:?} {domains:?}");
            }
        }
    }

    #[test]
    fn groups_are_tracked_beside_a_term_of_many_values() {
        // An arrow's shaft of three cells that see one another (digits, pairwise different)
        // and a circle read in tens (-10 to -90): 18 values in all, but only the shaft's 9
        // are tracked as sets. Shaft cells of 1 to 4 add up to 9 at most when different, so
        // the shaft cannot make 10; with repeats (4 + 4 + 2) it could.
        let digit = |t: u32| {
            (1..=9)
                .map(|v| (OptionId(t * 10 + v), i64::from(v)))
                .collect()
        };
        let tens = (1..=9)
            .map(|v| (OptionId(30 + v), -10 * i64::from(v)))
            .collect();
        let sum = Sum {
            terms: vec![digit(0), digit(1), digit(2), tens],
            min: 0,
            max: 0,
            distinct: false,
            apart: vec![vec![0, 1, 2]],
            excluded: Vec::new(),
        };
        let filter = SumFilter::new(&sum);
        let (mut support, mut required) = (Vec::new(), 0);
        let mut scratch = FilterScratch::default();
        let low = 0b1111;
        let domains = [low, low, low, (1 << 9) - 1];
        assert!(!filter.support(&domains, &mut scratch, &mut support, &mut required));
        // With 5 to 9 allowed in one shaft cell, only 1 + 2 + 7, 1 + 3 + 6, 1 + 4 + 5 and
        // 2 + 3 + 5 make 10, and 20 is out of reach: the circle is 1 (-10, the last of its
        // values in ascending order).
        let domains = [low, low, 0b1_1111_0000, (1 << 9) - 1];
        assert!(filter.support(&domains, &mut scratch, &mut support, &mut required));
        assert_eq!(support[3], 1 << 8);
        assert_eq!(support[2], 0b0111_0000);
    }

    #[test]
    fn bounds_alone_are_sound() {
        let sum = Sum {
            terms: vec![
                vec![(OptionId(0), 0), (OptionId(1), 1 << 20)],
                vec![(OptionId(2), 0), (OptionId(3), 5)],
            ],
            min: 5,
            max: 5,
            distinct: false,
            apart: Vec::new(),
            excluded: Vec::new(),
        };
        let filter = SumFilter::new(&sum);
        let mut support = Vec::new();
        let mut required = 0;
        assert!(filter.support(
            &[0b11, 0b11],
            &mut FilterScratch::default(),
            &mut support,
            &mut required
        ));
        // Bounds keep the first term's 0 (with 5) and drop 2^20; the second keeps 5, and 0
        // too (the bounds cannot see that 0 + 0 falls short while 2^20 overshoots).
        assert_eq!(support[0], 0b01);
        assert!(support[1] & 0b10 != 0);
        // Filtering again drops the second term's 0: the bounds are not exact in one pass.
        assert!(!filter.exact_in_one_pass());
        let kept = support.clone();
        assert!(filter.support(
            &kept,
            &mut FilterScratch::default(),
            &mut support,
            &mut required
        ));
        assert_eq!(support, vec![0b01, 0b10]);
    }
}
