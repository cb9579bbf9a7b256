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
//! The copy is kept and put back by the links themselves ([`Dance::keep_unchosen`]).
//!
//! [`Dance::keep_unchosen`]: crate::dlx::dance::Dance::keep_unchosen

use super::Links;

/// Taking back chosen options one by one is kept while it makes fewer updates than the
/// number of nodes over this: copying is sequential, covering jumps about.
const COPY_RATIO: u64 = 8;

impl Links {
    /// Keeps the links as they are with nothing chosen, once, before the first option is
    /// chosen (without colours: purifying changes colours, which the copy does not hold).
    fn keep_unchosen(&mut self) {
        if self.chosen.is_empty() {
            self.dance.keep_unchosen();
        }
    }

    /// Puts the option whose first node is `first` into every solution, as if the search had
    /// chosen it, and returns the updates made; `None`, changing nothing, if `first` is not
    /// the first node of an option or the option clashes with one chosen already. Only
    /// between searches.
    pub fn choose(&mut self, first: u32) -> Option<u64> {
        assert_eq!(self.level, 0, "options are chosen between searches");
        if !self.is_first_node(first) {
            return None;
        }
        let mut p = first;
        while self.dance.top(p) != 0 {
            let item = self.dance.top(p);
            // Without colours, an option is hidden only by covering one of its items. A
            // clash of colours hides an option by unlinking its other nodes.
            let hidden = self.dance.colored() && !self.in_column(p, item);
            if !self.is_active(item) || hidden {
                return None;
            }
            p += 1;
        }
        self.keep_unchosen();
        let mut updates = 0;
        let mut p = first;
        while self.dance.top(p) != 0 {
            updates += if self.dance.colored() {
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
        if self.chosen_updates.saturating_mul(COPY_RATIO) < self.dance.node_count() as u64
            || !self.dance.copy_unchosen()
        {
            return false;
        }
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
        while self.dance.top(last + 1) != 0 {
            last += 1;
        }
        for p in (first..=last).rev() {
            if self.dance.colored() {
                self.uncommit::<true>(p);
            } else {
                self.uncommit::<false>(p);
            }
        }
    }
}
