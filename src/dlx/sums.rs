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

/// At most this many different values over all terms of a sum with distinct values for the
/// filter that tracks the sets of values used (2^16 bits of marks, 8 KiB): a Sudoku of side
/// 16 at most. Above it the filter treats the values as not distinct (sound, weaker).
pub const MAX_DISTINCT_VALUES: usize = 16;

/// At most this many sets of values in the filter's layers before it falls back to the
/// totals alone (a cage of 8 cells on 16x16 reaches 12,870 in its middle layer).
const MAX_VALUE_SETS: usize = 20_000;

/// At most this many bits in the partial totals (the sum of the terms' value spans); above
/// it the filter keeps to the bounds of the totals.
const MAX_TOTAL_SPAN: i64 = 1 << 14;

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

/// A sum compiled for filtering (the options themselves are the caller's, in term order).
#[derive(Debug, Clone)]
pub(crate) struct SumFilter {
    pub terms: Vec<FilterTerm>,
    min: i64,
    max: i64,
    /// The values of all terms, ascending, when the filter tracks sets of distinct values.
    global_values: Vec<i64>,
}

/// Scratch space of the filters, kept by each search so that filtering allocates nothing
/// once it has grown to the largest sum.
#[derive(Debug, Clone, Default)]
pub(crate) struct FilterScratch {
    /// Partial totals reachable from the front and from the back, a bit set per term.
    forward: Vec<u64>,
    backward: Vec<u64>,
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

impl SumFilter {
    /// Compiles `sum` (already checked by `Problem::add_sum`: non-empty terms, at most
    /// [`MAX_TERM_VALUES`] values each).
    pub fn new(sum: &Sum) -> SumFilter {
        let mut all: Vec<i64> = sum
            .terms
            .iter()
            .flat_map(|term| term.iter().map(|&(_, value)| value))
            .collect();
        all.sort_unstable();
        all.dedup();
        let tracked = sum.distinct && all.len() <= MAX_DISTINCT_VALUES;
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
        SumFilter {
            terms,
            min: sum.min,
            max: sum.max,
            global_values: if tracked { all } else { Vec::new() },
        }
    }

    /// From the values each term may still take (`domains[t]`, bits over
    /// `terms[t].values`), the values each keeps in some way of meeting the sum, into
    /// `support`; `false` when there is none. Into `required`, the values (bits by
    /// [`SumFilter::value_bit`]) that every way uses, where the filter tracks sets of values
    /// (else 0).
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
        if !self.global_values.is_empty()
            && let Some(feasible) = self.support_by_sets(domains, scratch, support, required)
        {
            return feasible;
        }
        support.fill(0);
        self.support_by_totals(domains, scratch, support)
    }

    /// Exact support for distinct values: the sets of values the first `t` terms can use
    /// (a set of `t` values is reached at layer `t` only, so one bit map holds every layer),
    /// then, backwards, those that can be completed to a set whose total is in range. `None`
    /// when the sets outgrow [`MAX_VALUE_SETS`].
    fn support_by_sets(
        &self,
        domains: &[u64],
        scratch: &mut FilterScratch,
        support: &mut [u64],
        required: &mut u32,
    ) -> Option<bool> {
        let words = (1usize << self.global_values.len()).div_ceil(64);
        if scratch.reached.len() < words {
            scratch.reached.resize(words, 0);
            scratch.completes.resize(words, 0);
        }
        let as_global = |t: usize, domain: u64| -> u32 {
            let term = &self.terms[t];
            let mut bits = 0u32;
            let mut rest = domain;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                bits |= 1 << term.global_bit[i];
            }
            bits
        };
        let FilterScratch {
            reached,
            completes,
            sets,
            totals,
            rest,
            layer_starts,
            open,
            ..
        } = scratch;
        let mark = |bits: &mut Vec<u64>, set: u32| bits[set as usize / 64] |= 1 << (set % 64);
        let marked = |bits: &Vec<u64>, set: u32| bits[set as usize / 64] & 1 << (set % 64) != 0;
        // Terms down to one value are settled: the sets start from their values, and the
        // layers are those of the open terms alone (deep in a search, most terms are settled).
        let (mut base, mut base_total) = (0u32, 0i64);
        open.clear();
        for (t, &domain) in domains.iter().enumerate() {
            if domain.is_power_of_two() {
                let bit = as_global(t, domain);
                if base & bit != 0 {
                    support.fill(0);
                    return Some(false);
                }
                base |= bit;
                base_total += self.terms[t].values[domain.trailing_zeros() as usize];
                support[t] = domain;
            } else {
                open.push(t);
            }
        }
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
                    if next_total + low > self.max || next_total + high < self.min {
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
        if !overflow {
            layer_starts.push(sets.len());
            for i in layer_starts[k]..layer_starts[k + 1] {
                let (set, total) = (sets[i], totals[i]);
                if (self.min..=self.max).contains(&total) {
                    mark(completes, set);
                    all_use &= set;
                }
            }
            for o in (0..k).rev() {
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
                let term = &self.terms[t];
                support[t] = (0..term.values.len())
                    .filter(|&i| domains[t] & 1 << i != 0 && kept & 1 << term.global_bit[i] != 0)
                    .fold(0, |bits, i| bits | 1 << i);
            }
            feasible = marked(completes, base);
            if feasible {
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
        if !feasible {
            support.fill(0);
        }
        Some(feasible)
    }

    /// The bit of `value` in [`SumFilter::support`]'s `required`, where the filter tracks sets
    /// of values and some term has the value.
    pub fn value_bit(&self, value: i64) -> Option<u8> {
        self.global_values
            .binary_search(&value)
            .ok()
            .map(|bit| bit as u8)
    }

    /// Exact support for values that may repeat: the partial totals reachable from the front
    /// and from the back as bit sets (offset by each term's least value); a value is kept
    /// where a total before it and one after it meet in range. Past [`MAX_TOTAL_SPAN`], the
    /// bounds of the totals.
    fn support_by_totals(
        &self,
        domains: &[u64],
        scratch: &mut FilterScratch,
        support: &mut [u64],
    ) -> bool {
        let k = self.terms.len();
        let offset: i64 = self.terms.iter().map(|term| term.values[0]).sum();
        let span: i64 = self
            .terms
            .iter()
            .map(|term| term.values[term.values.len() - 1] - term.values[0])
            .sum();
        let (lo, hi) = (self.min - offset, self.max - offset);
        if hi < 0 || lo > span {
            return false;
        }
        if span > MAX_TOTAL_SPAN {
            return self.support_by_bounds(domains, support);
        }
        let words = (span as usize + 1).div_ceil(64);
        let FilterScratch {
            forward, backward, ..
        } = scratch;
        forward.clear();
        forward.resize(words * (k + 1), 0);
        backward.clear();
        backward.resize(words * (k + 1), 0);
        forward[0] = 1;
        for (t, &domain) in domains.iter().enumerate() {
            let term = &self.terms[t];
            let (before, after) = forward.split_at_mut(words * (t + 1));
            let from = &before[words * t..];
            let to = &mut after[..words];
            let mut rest = domain;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                or_shifted_up(to, from, (term.values[i] - term.values[0]) as usize);
            }
        }
        let last = &mut backward[words * k..];
        for total in lo.max(0)..=hi.min(span) {
            last[total as usize / 64] |= 1 << (total % 64);
        }
        for t in (0..k).rev() {
            let term = &self.terms[t];
            let (before, after) = backward.split_at_mut(words * (t + 1));
            let to = &mut before[words * t..];
            let from = &after[..words];
            let mut rest = domains[t];
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let shift = (term.values[i] - term.values[0]) as usize;
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
    fn support_by_bounds(&self, domains: &[u64], support: &mut [u64]) -> bool {
        let least = |t: usize| self.terms[t].values[domains[t].trailing_zeros() as usize];
        let most = |t: usize| self.terms[t].values[63 - domains[t].leading_zeros() as usize];
        let low: i64 = (0..self.terms.len()).map(least).sum();
        let high: i64 = (0..self.terms.len()).map(most).sum();
        if high < self.min || low > self.max {
            return false;
        }
        for (t, term) in self.terms.iter().enumerate() {
            let (others_low, others_high) = (low - least(t), high - most(t));
            for (i, &value) in term.values.iter().enumerate() {
                if domains[t] & 1 << i != 0
                    && value + others_high >= self.min
                    && value + others_low <= self.max
                {
                    support[t] |= 1 << i;
                }
            }
        }
        true
    }
}

/// `to |= from << shift`, over bit sets of equal length (bits shifted past the end are lost).
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
                if (sum.min..=sum.max).contains(&total)
                    && (!sum.distinct || sorted.len() == values.len())
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
        for round in 0..3000 {
            let k = 1 + next(5) as usize;
            let distinct = next(2) == 0;
            // Values: digits, or spread (negative, large) to exercise the shifts.
            let spread = round % 3 == 0;
            let terms: Vec<Vec<(OptionId, i64)>> = (0..k)
                .map(|t| {
                    let count = 1 + next(6) as usize;
                    let mut values: Vec<i64> = (0..count)
                        .map(|_| {
                            if spread {
                                next(200) as i64 - 100
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
            let centre = if spread { 0 } else { 5 * k as i64 };
            let min = centre - next(12) as i64;
            let max = min + next(6) as i64;
            let sum = Sum {
                terms,
                min,
                max,
                distinct,
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
            if distinct && filter.global_values.is_empty() {
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
        }
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
    }
}
