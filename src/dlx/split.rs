//! Splitting one search into parts that can be searched apart: on other threads
//! ([`super::Solver::enumerate_parallel`](Solver)), in other processes or on other machines
//! (shards: part K of N), or later (a checkpoint's remainder).
//!
//! A part is a [`Subtree`]: the subtree below a path of choices from the root. The split is
//! a pure function of the search (problem, chosen options, inference setting) and the number
//! of parts, so processes that never talk to each other agree on it, and
//! [`Solver::fingerprint`] lets whoever adds their results up check that they belong to the
//! same search.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;
use std::str::FromStr;

use super::matrix::Fingerprint;
use super::problem::OptionId;
use super::search::{PathError, Solver, Subtree};

/// How many subtrees each shard gets (dealt round-robin from a split into this many times
/// the number of shards), so that one unlucky subtree does not make one shard much longer
/// than the others.
pub const SUBTREES_PER_SHARD: usize = 8;

impl Solver<'_> {
    /// Whether this search can be split into parts: not on a problem with multiplicities,
    /// whose search (Algorithm M) stays whole, nor with [`Branching::Conflicts`](super::Branching::Conflicts)
    /// (see [`Solver::set_branching`]). Its [`Solver::subtrees`] is then the root alone, and
    /// a stopped search cannot hand back what it has not explored
    /// ([`Search::remainder`](super::Search::remainder) gives the whole search again).
    pub fn can_split(&self) -> bool {
        !self.links.whole()
    }

    /// The children of a node of the search tree: the subtrees below `subtree.path` extended
    /// by each option the search would try there. `None` when the path ends at a solution (a
    /// leaf); no children at a dead end.
    pub fn children(&mut self, subtree: &Subtree) -> Result<Option<Vec<Subtree>>, PathError> {
        let firsts = self.path_nodes(&subtree.path)?;
        self.links.restart(self.matrix);
        let descended = self.links.descend(&firsts);
        let children = descended.map(|_| self.links.children());
        self.links.unwind();
        let options = children.map_err(|index| PathError {
            index,
            option: subtree.path[index],
        })?;
        Ok(options.map(|options| self.below(subtree, options)))
    }

    /// The subtrees below `parent` extended by each of `options` (first nodes).
    fn below(&self, parent: &Subtree, options: Vec<u32>) -> Vec<Subtree> {
        let share = parent.share / options.len().max(1) as f64;
        options
            .into_iter()
            .map(|first| {
                let mut path = Vec::with_capacity(parent.path.len() + 1);
                path.extend_from_slice(&parent.path);
                path.push(OptionId(self.matrix.node_option[first as usize]));
                Subtree { path, share }
            })
            .collect()
    }

    /// The search split into at least `parts` disjoint subtrees when the tree is big enough
    /// (otherwise into its leaves), in the order the search visits them. The split is a
    /// function of the problem, the chosen options, the inference setting and `parts` alone,
    /// so separate processes that make it agree on it: the biggest subtree (by
    /// [`Subtree::share`], the first in search order of equals) is replaced by its children
    /// until there are enough. Costs a walk down the top of the tree for each subtree split,
    /// and a logarithmic step to find the biggest.
    pub fn subtrees(&mut self, parts: usize) -> Vec<Subtree> {
        let mut splittable = BinaryHeap::from([BySize(Subtree::root(), Vec::new())]);
        // Leaves and dead ends, which cannot be split further.
        let mut whole = Vec::new();
        let mut count = 1;
        // The links stay at the path of the last subtree split: the next one, often its
        // sibling or cousin, is reached by undoing only the levels below their common part.
        self.links.restart(self.matrix);
        let mut at: Vec<u32> = Vec::new();
        while count < parts {
            let Some(BySize(biggest, rank)) = splittable.pop() else {
                break;
            };
            let children = self.path_nodes(&biggest.path).ok().and_then(|firsts| {
                let common = at.iter().zip(&firsts).take_while(|(a, b)| a == b).count();
                self.links.retreat(common);
                at.truncate(common);
                self.links.descend_further(&firsts[common..]).ok()?;
                at = firsts;
                self.links.children()
            });
            match children {
                Some(children) if !children.is_empty() => {
                    count += children.len() - 1;
                    let below = self.below(&biggest, children).into_iter();
                    splittable.extend(below.enumerate().map(|(k, child)| {
                        let mut child_rank = rank.clone();
                        child_rank.push(k as u32);
                        BySize(child, child_rank)
                    }));
                }
                // A solution or a dead end; paths made here are always valid.
                _ => whole.push(BySize(biggest, rank)),
            }
        }
        self.links.unwind();
        whole.extend(splittable);
        whole.sort_unstable_by(|a, b| a.1.cmp(&b.1));
        whole
            .into_iter()
            .map(|BySize(subtree, _)| subtree)
            .collect()
    }

    /// A fingerprint of the search: the problem ([`super::Matrix::fingerprint`]), the options chosen
    /// before it and how much inference it makes. Two solvers with equal fingerprints search
    /// the same tree, so their subtrees and counts can be combined.
    pub fn fingerprint(&self) -> u64 {
        let mut hash = Fingerprint::new();
        hash.add(self.matrix.fingerprint());
        let mut chosen: Vec<u32> = self.chosen().map(|o| o.0).collect();
        chosen.sort_unstable();
        hash.add(chosen.len() as u64);
        for option in chosen {
            hash.add(u64::from(option));
        }
        hash.add(self.links.resolved_inference() as u64);
        hash.finish()
    }

    /// Part `k` of `n` (`k` from 1 to `n`) of the search: every `n`-th subtree of a split
    /// into [`SUBTREES_PER_SHARD`] times `n` subtrees, starting at the `k`-th. The `n` parts
    /// are disjoint and together hold every solution; any `n` works (parts beyond the size
    /// of a small tree are empty).
    pub fn shard(&mut self, k: usize, n: usize) -> Vec<Subtree> {
        assert!((1..=n).contains(&k), "shard {k} of {n}");
        self.subtrees(n.saturating_mul(SUBTREES_PER_SHARD))
            .into_iter()
            .skip(k - 1)
            .step_by(n)
            .collect()
    }
}

/// A subtree ordered by its share, the first in search order being the bigger of equals: the
/// order in which [`Solver::subtrees`] splits them. With it, its rank: at each level of its
/// path, the position of the path's option among the options the search tries there, in
/// the order it tries them. Disjoint subtrees are visited in the order of their ranks. (Not
/// of their paths: where probing finds that the second option of an item leaves the other
/// items more freedom, the search tries it first.)
struct BySize(Subtree, Vec<u32>);

impl Ord for BySize {
    fn cmp(&self, other: &BySize) -> Ordering {
        (self.0.share)
            .total_cmp(&other.0.share)
            .then_with(|| other.1.cmp(&self.1))
    }
}

impl PartialOrd for BySize {
    fn partial_cmp(&self, other: &BySize) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for BySize {
    fn eq(&self, other: &BySize) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for BySize {}

/// A subtree as text: its share, a colon, then its path as option numbers joined by dots
/// (`0.125:12.57.301`; the whole search is `1:`). Shares print exactly (they read back to
/// the same `f64`), so files that hold subtrees keep their estimates.
impl fmt::Display for Subtree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.share)?;
        for (i, option) in self.path.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{}", option.0)?;
        }
        Ok(())
    }
}

/// Why text is not a subtree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtreeSyntaxError(String);

impl fmt::Display for SubtreeSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a subtree (a share from 0 to 1, a colon, then option numbers joined \
             by dots, such as 0.125:12.57.301)",
            self.0
        )
    }
}

impl std::error::Error for SubtreeSyntaxError {}

impl FromStr for Subtree {
    type Err = SubtreeSyntaxError;

    fn from_str(text: &str) -> Result<Subtree, SubtreeSyntaxError> {
        let error = || SubtreeSyntaxError(text.chars().take(80).collect());
        let (share, path) = text.split_once(':').ok_or_else(error)?;
        let share: f64 = share.parse().map_err(|_| error())?;
        if !(0.0..=1.0).contains(&share) {
            return Err(error());
        }
        let path = if path.is_empty() {
            Vec::new()
        } else {
            path.split('.')
                .map(|option| option.parse().map(OptionId).map_err(|_| error()))
                .collect::<Result<_, _>>()?
        };
        Ok(Subtree { path, share })
    }
}
