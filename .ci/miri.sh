#!/usr/bin/env bash
# Miri on the engine's property tests: the unchecked indexing of `src/dlx/dance.rs` run under
# an interpreter that checks every memory access, on random problems of every kind (plain,
# colours, multiplicities, sums, chains, blocks, restarts, subtrees, resumed searches, rests
# counted in bulk) at every inference setting, and on its safe interface misused (a unit test
# in `dlx/links.rs`). Miri is about a thousand times slower than a native run, so each test
# takes a few cases (`XCOVER_MIRI_CASES`, see `tests/engine/main.rs`). Skipped, with a
# message, where the nightly toolchain or Miri is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup component add --toolchain nightly miri >/dev/null 2>&1 || true
fi
if ! cargo +nightly miri --version >/dev/null 2>&1; then
    echo "skipping Miri: no nightly toolchain with the miri component here" \
        "(rustup toolchain install nightly --component miri)"
    exit 0
fi

# Isolated (so the random cases are the same on every run), but told how many to take.
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-env-forward=XCOVER_MIRI_CASES}"
export XCOVER_MIRI_CASES="${XCOVER_MIRI_CASES:-2}"
cargo +nightly miri test --test engine -- \
    properties:: \
    colors::coloured_solutions_equal_brute_force \
    multiplicities::solutions_with_bounds_equal_brute_force \
    sums::solutions_with_sums_equal_brute_force \
    chains::solutions_with_chains_equal_brute_force \
    candidates::candidates_with \
    candidates::stopped_candidates_are_marked_unknown \
    subtrees::random_problems::every_split_partitions_the_solutions \
    rests::counts_with_rests_equal_counts_without
cargo +nightly miri test --lib -- dlx::links::tests::misused_moves_panic_or_change_nothing
