//! Multiplicities (Knuth's DLX3, Algorithm M of TAOCP 7.2.2.1): a primary item must be
//! covered between a lower and an upper number of times, not exactly once.
//!
//! An item `i` keeps `bound[i]`, how many more times it may be covered, and `slack[i]`, its
//! upper minus its lower bound. The search branches on the item with the smallest branching
//! degree `len + s - bound + 1` (with `s = min(slack, bound)`; ties go to the smaller `s`, then
//! the longer list). A level that branches on `i` spends one of its covers, in one of three
//! ways (TAOCP's steps M4-M5 with `tweak` and its primed form):
//! - the last cover and no slack: `i` is covered as in plain dancing links;
//! - the last cover, with slack: `i` is covered (its options leave the other columns and it
//!   leaves the active list), and its options are tried top to bottom, each tried one unlinked
//!   from `i`'s column only (`tweak'`);
//! - covers remain: its options are tried top to bottom, each tried one taken out of the
//!   problem (`tweak`), so that a later level cannot choose the same set again in another
//!   order; the item stays active.
//!
//! In both tweaking forms, once every option has been tried and the lower bound allows it,
//! the level ends with the *null move*: no more options for `i`, which leaves the active list.
//! An option chosen covers its other primary items once each (an item is covered outright
//! when its bound reaches 0) and commits its secondary items as usual (colours included).
//!
//! Unlike DLX3, this search never stops at a "core" solution whose remaining options could be
//! added freely: it branches on every item until none is active, so it finds each set of
//! options exactly once, as the brute-force property test checks. It is safe code on the
//! moves of `dance.rs` (`tweak` and `untweak` among them); it is not split into subtrees and
//! makes no inference.

use super::{Event, Links, Step, Work};
use crate::dlx::dance::COVERED;

impl Links {
    /// [`Links::run`] for problems with multiplicities: Knuth's Algorithm M.
    pub(super) fn run_multi<const C: bool>(&mut self, budget: u64) -> (Event, Work) {
        let headers = self.dance.item_count();
        let mut level = self.level;
        let mut step = self.step;
        let mut work = Work::default();
        let event = loop {
            match step {
                Step::Enter => {
                    if work.nodes == budget {
                        break Event::Paused;
                    }
                    work.nodes += 1;
                    if self.all_covered() {
                        step = Step::Backtrack;
                        break Event::Solution;
                    }
                    let (item, degree) = self.best_bounded();
                    if degree <= 0 {
                        step = Step::Backtrack;
                        continue;
                    }
                    work.branches += u64::from(degree >= 2);
                    let i = item as usize;
                    self.bound[i] -= 1;
                    self.stack[level] = self.dance.down(item);
                    self.frames[level].first_tweak = if self.bound[i] == 0 && self.slack[i] == 0 {
                        0
                    } else {
                        self.dance.down(item)
                    };
                    if self.bound[i] == 0 {
                        work.updates += self.cover::<C, true>(item);
                    }
                    step = Step::Try;
                }
                Step::Try => {
                    let x = self.stack[level];
                    let item = if x <= headers { x } else { self.dance.top(x) };
                    let i = item as usize;
                    if self.frames[level].first_tweak == 0 {
                        if x == item {
                            step = Step::Backup;
                            continue;
                        }
                    } else if i64::from(self.dance.top(item) & !COVERED)
                        <= i64::from(self.bound[i]) - i64::from(self.slack[i])
                    {
                        // Too few options left to reach the lower bound.
                        step = Step::Backup;
                        continue;
                    } else if x != item && self.bound[i] == 0 {
                        self.dance.unlink_from_column(x);
                    } else if x != item {
                        work.updates += self.dance.tweak::<C>(x);
                    } else if self.bound[i] != 0 {
                        // The null move: no more options for this item (with its last cover
                        // spent, the cover took it off the active list already).
                        self.dance.deactivate(item);
                    }
                    if x > headers {
                        work.updates += self.cover_others_multi::<C>(x);
                    }
                    level += 1;
                    step = Step::Enter;
                }
                Step::Backup => {
                    self.restore_branch_item::<C>(level);
                    step = Step::Backtrack;
                }
                Step::Backtrack => {
                    if level == self.base {
                        step = Step::Done;
                        break Event::Exhausted;
                    }
                    level -= 1;
                    let x = self.stack[level];
                    if x <= headers {
                        // The null move was made here: the item comes back (unless its cover
                        // took it off the list), and the level is over.
                        if self.bound[x as usize] != 0 {
                            self.dance.reactivate(x);
                        }
                        step = Step::Backup;
                        continue;
                    }
                    self.uncover_others_multi::<C>(x);
                    self.stack[level] = self.dance.down(x);
                    step = Step::Try;
                }
                Step::Done => break Event::Exhausted,
            }
        };
        self.level = level;
        self.step = step;
        (event, work)
    }

    /// Undoes the branching of `level` on its item: untweaks and uncovers it as the level
    /// did, and gives back the cover the level spent.
    fn restore_branch_item<const C: bool>(&mut self, level: usize) {
        let x = self.stack[level];
        let item = if x <= self.dance.item_count() {
            x
        } else {
            self.dance.top(x)
        };
        let first = self.frames[level].first_tweak;
        let last_cover = self.bound[item as usize] == 0;
        if first != 0 {
            self.dance.untweak::<C>(item, first, !last_cover);
        }
        if last_cover {
            self.uncover::<C, true>(item);
        }
        self.bound[item as usize] += 1;
    }

    /// Undoes every level of a search in progress (see [`Links::unwind`]).
    pub(super) fn unwind_multi(&mut self) {
        for level in (0..self.level).rev() {
            let x = self.stack[level];
            let item = if x <= self.dance.item_count() {
                x
            } else {
                self.dance.top(x)
            };
            if x > self.dance.item_count() {
                if self.dance.colored() {
                    self.uncover_others_multi::<true>(x);
                } else {
                    self.uncover_others_multi::<false>(x);
                }
            }
            // The null move took the item off the active list (when the cover did not).
            if x <= self.dance.item_count() && self.bound[item as usize] != 0 {
                self.dance.reactivate(item);
            }
            if self.dance.colored() {
                self.restore_branch_item::<true>(level);
            } else {
                self.restore_branch_item::<false>(level);
            }
        }
        self.level = 0;
        self.step = Step::Done;
    }

    /// The active primary item with the smallest branching degree, and that degree (at most
    /// 0 when the item can no longer reach its lower bound).
    pub(super) fn best_bounded(&self) -> (u32, i64) {
        let (mut best, mut best_degree, mut best_s, mut best_len) = (0, i64::MAX, u32::MAX, 0);
        for (k, len) in self.dance.active_primary_items() {
            let bound = self.bound[k as usize];
            let s = self.slack[k as usize].min(bound);
            let degree = i64::from(len) + i64::from(s) - i64::from(bound) + 1;
            let better = degree < best_degree
                || (degree == best_degree && (s < best_s || (s == best_s && len > best_len)));
            if better {
                (best, best_degree, best_s, best_len) = (k, degree, s, len);
            }
        }
        (best, best_degree)
    }

    /// Chooses the option of node `x`: its other items each lose one cover, and an item is
    /// covered when it has none left; secondary items are committed as usual.
    fn cover_others_multi<const C: bool>(&mut self, x: u32) -> u64 {
        let mut updates = 0;
        let mut p = self.dance.right(x);
        while p != x {
            let j = self.dance.top(p);
            if j <= self.dance.primary() {
                self.bound[j as usize] -= 1;
                if self.bound[j as usize] == 0 {
                    updates += self.cover::<C, true>(j);
                }
            } else {
                updates += self.commit::<C>(p);
            }
            p = self.dance.right(p);
        }
        updates
    }

    /// Exactly undoes [`Links::cover_others_multi`], right to left.
    fn uncover_others_multi<const C: bool>(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let j = self.dance.top(p);
            if j == 0 {
                p = self.dance.down(p);
                continue;
            }
            if j <= self.dance.primary() {
                if self.bound[j as usize] == 0 {
                    self.uncover::<C, true>(j);
                }
                self.bound[j as usize] += 1;
            } else {
                self.uncommit::<C>(p);
            }
            p -= 1;
        }
    }
}
