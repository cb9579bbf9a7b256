//! The generic engine through its API and Knuth's format: published counts, search pinned node
//! by node, property tests against brute force (colours, multiplicities, sums, inference,
//! subtrees, true candidates), and the errors of malformed problem files.

mod random_xcc;

mod candidates;
mod colors;
mod format_errors;
mod inference;
mod multiplicities;
mod oracles;
mod properties;
mod search;
mod subtrees;
mod sums;
