#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after another on one core, with a
# time limit per input, then minimises each corpus. Needs a nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`). Crashes are written to fuzz/artifacts/TARGET/; the corpus
# replay in `cargo test` (tests/sudoku/fuzz_corpus.rs) runs every corpus and artifact file.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
for target in $(cargo +nightly fuzz list); do
    echo "== $target: $seconds s"
    cargo +nightly fuzz run -O "$target" -- -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 2>&1 | tail -25
done
for target in $(cargo +nightly fuzz list); do
    cargo +nightly fuzz cmin -O "$target" >/dev/null 2>&1 || true
done
