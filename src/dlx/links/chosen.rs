//! Options chosen before a search: a Sudoku's clues, or the path a shard starts below.
//!
//! An option is chosen as the search would choose it, by covering its items, and taken back
//! by uncovering them, newest first. When that would take many updates (a puzzle's clues,
//! between two puzzles of a batch), the links are instead copied back as they were with
//! nothing chosen, kept when an option is first chosen: the copy reads and writes in order
//! where uncovering jumps about. Putting the clues in by one pass over the columns instead
//! of covering was tried as well, and was slower on 9x9 (`docs/design/search.md`): covering
//! writes only what changes.
//!
//! This file is a child of `links.rs` and shares its invariant: every node index it uses is
//! a stored link or a step along an option, and the copy puts back only stored links.

use super::Links;
use crate::dlx::matrix::ItemLink;

/// What choosing options changes in [`Links`] (without colours), as it was with nothing
/// chosen.
#[derive(Debug, Clone)]
pub(super) struct Unchosen {
    up: Vec<u32>,
    down: Vec<u32>,
    /// The items' lengths: `top` of the item headers.
    lengths: Vec<u32>,
    items: Vec<ItemLink>,
    active_primary: u32,
}

/// Taking back chosen options one by one is kept while it makes fewer updates than the
/// number of nodes over this: copying is sequential, covering jumps about.
const COPY_RATIO: u64 = 8;

impl Links {
    /// Keeps the links as they are with nothing chosen, once, before the first option is
    /// chosen (without colours: purifying changes colours, which the copy does not hold).
    fn keep_unchosen(&mut self) {
        if self.chosen.is_empty() && !self.colored && self.unchosen.is_none() {
            let headers = self.item_count as usize + 1;
            self.unchosen = Some(Box::new(Unchosen {
                up: self.up.clone(),
                down: self.down.clone(),
                lengths: self.top[..headers].to_vec(),
                items: self.items.clone(),
                active_primary: self.active_primary,
            }));
        }
    }

    /// Puts the option whose first node is `first` into every solution, as if the search had
    /// chosen it, and returns the updates made; `None`, changing nothing, if `first` is not
    /// the first node of an option or the option clashes with one chosen already. Only
    /// between searches.
    pub fn choose(&mut self, first: u32) -> Option<u64> {
        assert_eq!(self.level, 0, "options are chosen between searches");
        let n = self.item_count as usize;
        let x = first as usize;
        let is_first = x > n + 1 && x < self.top.len() && self.top[x] != 0 && self.top[x - 1] == 0;
        if !is_first {
            return None;
        }
        let mut p = first;
        while self.top(p) != 0 {
            let item = self.top(p);
            // Without colours, an option is hidden only by covering one of its items. A
            // clash of colours hides an option by unlinking its other nodes.
            let hidden = self.colored && !self.in_column(p, item);
            if !self.is_active(item) || hidden {
                return None;
            }
            p += 1;
        }
        self.keep_unchosen();
        let mut updates = 0;
        let mut p = first;
        while self.top(p) != 0 {
            updates += if self.colored {
                self.commit::<true>(p)
            } else {
                self.commit::<false>(p)
            };
            p += 1;
        }
        self.chosen.push(first);
        self.chosen_updates = self.chosen_updates.saturating_add(updates);
        Some(updates)
    }

    /// Takes back every chosen option: by copying back the links as they were with nothing
    /// chosen, unless taking them back one by one, newest first, makes fewer updates than
    /// an eighth of the nodes (a Sudoku's clues, `docs/design/search.md`). Only between
    /// searches.
    pub fn unchoose_all(&mut self) {
        assert_eq!(self.level, 0, "options are taken back between searches");
        debug_assert!(self.trail.is_empty(), "the search was unwound");
        if !self.copy_unchosen() {
            self.unchoose_one_by_one();
        }
    }

    /// Ends the search in progress and takes back every chosen option: by the copy, without
    /// undoing the search's choices first, where [`Links::unchoose_all`] copies.
    pub fn unwind_unchoosing_all(&mut self) {
        if self.multi || !self.copy_unchosen() {
            self.unwind();
            self.unchoose_all();
            return;
        }
        // The copy put back the links of level 0; what the search kept goes.
        self.level = 0;
        self.trail.clear();
        self.step = super::Step::Done;
        self.base = 0;
        self.root = 0;
        self.plain_from = super::NOT_YET;
        self.in_plain = false;
    }

    /// Takes back the option chosen last, by uncovering it; `false` when none is chosen.
    /// Only between searches.
    pub fn unchoose_last(&mut self) -> bool {
        assert_eq!(self.level, 0, "options are taken back between searches");
        debug_assert!(self.trail.is_empty(), "the search was unwound");
        let Some(first) = self.chosen.pop() else {
            return false;
        };
        self.uncommit_option(first);
        true
    }

    /// Takes back every chosen option by copying back the links as they were with nothing
    /// chosen, if that is kept and choosing made more updates than an eighth of the nodes;
    /// returns whether it did.
    fn copy_unchosen(&mut self) -> bool {
        let Some(unchosen) = &self.unchosen else {
            return false;
        };
        if self.chosen_updates.saturating_mul(COPY_RATIO) < self.top.len() as u64 {
            return false;
        }
        self.up.copy_from_slice(&unchosen.up);
        self.down.copy_from_slice(&unchosen.down);
        self.top[..unchosen.lengths.len()].copy_from_slice(&unchosen.lengths);
        self.items.copy_from_slice(&unchosen.items);
        self.active_primary = unchosen.active_primary;
        // The blocks' tracked edges are not in the copy: the next search reads them afresh.
        self.track_blocks(false);
        self.chosen.clear();
        self.chosen_updates = 0;
        true
    }

    /// Takes back every chosen option, newest first, by uncovering.
    fn unchoose_one_by_one(&mut self) {
        self.chosen_updates = 0;
        while let Some(first) = self.chosen.pop() {
            self.uncommit_option(first);
        }
    }

    /// Uncovers the items of the chosen option whose first node is `first`, last first.
    fn uncommit_option(&mut self, first: u32) {
        let mut last = first;
        while self.top(last + 1) != 0 {
            last += 1;
        }
        for p in (first..=last).rev() {
            if self.colored {
                self.uncommit::<true>(p);
            } else {
                self.uncommit::<false>(p);
            }
        }
    }
}
