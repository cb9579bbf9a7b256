#!/usr/bin/env bash
# The engine beside Knuth's exact-cover programs, on the problems of the table in
# `docs/performance.md` ("Engine, counting every solution, against Knuth's programs"): every
# solution counted, one thread, whole processes, the best of a few runs each, and the counts
# compared.
#
#   benches/knuth_table.sh [DIR] [RUNS]
#
# DIR holds Knuth's programs as you built them from his CWEB sources (`dlx1`, `dlx2`, `dlx3`,
# `ssxc1`, `ssxcc1`; any of them may be missing): this project ships neither them nor a way to
# build them. Without DIR, or for a program not in it, the table has this project's figures
# alone. RUNS (default 3) is how many runs each figure is the best of. XCOVER names another
# build of this project to measure instead of the one this script builds (an older commit's,
# for a before and after).
set -euo pipefail
cd "$(dirname "$0")/.."
knuth="${1:-}"
runs="${2:-3}"

if [ -z "${XCOVER:-}" ]; then
    cargo build --release --quiet
fi
xcover="${XCOVER:-$PWD/target/release/xcover}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# name | file | published count | Knuth's programs for it
"$xcover" example pentominoes 10x6 >"$work/pentominoes.dlx"
"$xcover" example queens 14 >"$work/queens.dlx"
"$xcover" example langford 12 >"$work/langford.dlx"
"$xcover" example word-squares 3 >"$work/words.dlx"
"$xcover" example partial-queens 12 10 >"$work/partial-queens.dlx"
rows=(
    "pentominoes 6x10|pentominoes.dlx|9356|dlx1 ssxc1"
    "14 queens|queens.dlx|365596|dlx1 ssxc1"
    "Langford 12|langford.dlx|216288|dlx1 ssxc1"
    "word squares 3 (colours)|words.dlx||dlx2 ssxcc1"
    "10 queens on 12x12 (multiplicities)|partial-queens.dlx||dlx3"
)

# Seconds of the fastest of `runs` runs of a command reading file $1 (its output in
# $work/out, its errors in $work/err); "-" if it fails.
best_of() {
    local input="$1" best="" start end took
    shift
    for _ in $(seq "$runs"); do
        start=$(date +%s.%N)
        if ! "$@" <"$input" >"$work/out" 2>"$work/err"; then
            echo "-"
            return
        fi
        end=$(date +%s.%N)
        took=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$took < $best" | bc)" = 1 ]; then
            best=$took
        fi
    done
    printf '%.3f' "$best"
}

echo "| problem | solutions | xcover | xcover --engine links | xcover --engine cells | xcover --engine bits | Knuth's programs |"
echo "|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
    IFS='|' read -r name file published programs <<<"$row"
    ours=$(best_of "$work/$file" "$xcover" cover count -j 1 -)
    count=$(cat "$work/out")
    links=$(best_of "$work/$file" "$xcover" cover count -j 1 --engine links -)
    if [ "$(cat "$work/out")" != "$count" ]; then
        echo "error: $name: $count solutions by default, $(cat "$work/out") by dancing links" >&2
        exit 1
    fi
    # Dancing cells and bit sets take plain exact covers only: "-" where a problem has
    # colours or multiplicities.
    plain=()
    for engine in cells bits; do
        took=$(best_of "$work/$file" "$xcover" cover count -j 1 --engine "$engine" -)
        if [ "$took" != "-" ]; then
            if [ "$(cat "$work/out")" != "$count" ]; then
                echo "error: $name: $count solutions by default, $(cat "$work/out") by $engine" >&2
                exit 1
            fi
            took="$took s"
        fi
        plain+=("$took")
    done
    if [ -n "$published" ] && [ "$count" != "$published" ]; then
        echo "error: $name: $count solutions, published $published" >&2
        exit 1
    fi
    theirs=""
    for program in $programs; do
        if [ -n "$knuth" ] && [ -x "$knuth/$program" ]; then
            took=$(best_of "$work/$file" "$knuth/$program")
            # Knuth's programs end with "Altogether N solutions, ..." on stderr.
            found=$(grep -o 'Altogether [0-9]* solution' "$work/err" | grep -o '[0-9]*' || true)
            if [ "$found" != "$count" ]; then
                echo "error: $name: $program counted '$found', xcover $count" >&2
                exit 1
            fi
            theirs="$theirs $program ${took} s,"
        else
            theirs="$theirs $program not built,"
        fi
    done
    echo "| $name | $count | ${ours} s | ${links} s | ${plain[0]} | ${plain[1]} |${theirs%,} |"
done
