#!/usr/bin/env bash
# Two builds of clone-bench side by side (the build before a change and after it): each seeds its
# own store of N items with its own model, then the two clone it in turn, round after round, the
# order swapped every round, so the machine's drift falls on both alike. Prints each round and the
# medians with the ratio after / before. SQLite runs clone a fresh copy of the seeded file each
# time; PostgreSQL runs (a throwaway cluster, scripts/bench-cluster.sh) clone into one database per
# build, which both grow alike.
#
#   scripts/bench-clone-compare.sh BEFORE_DIR AFTER_DIR [SIZES] [ROUNDS]
#
# BEFORE_DIR and AFTER_DIR are checkouts whose clone-bench is built in release
# (`swift build -c release --product clone-bench`, or CLONE_BENCH_BEFORE / CLONE_BENCH_AFTER name the
# binaries); each runs in its own checkout, so it reads that checkout's config/model.json.
# SIZES defaults to 1000,10000,100000, ROUNDS to 5; BENCH_BACKENDS=sqlite or postgresql runs one.
set -euo pipefail
before_dir="$(cd "${1:?usage: bench-clone-compare.sh BEFORE_DIR AFTER_DIR [SIZES] [ROUNDS]}" && pwd)"
after_dir="$(cd "${2:?usage: bench-clone-compare.sh BEFORE_DIR AFTER_DIR [SIZES] [ROUNDS]}" && pwd)"
sizes="${3:-1000,10000,100000}"
rounds="${4:-5}"
backends="${BENCH_BACKENDS:-sqlite postgresql}"
before_bin="${CLONE_BENCH_BEFORE:-$before_dir/.build/release/clone-bench}"
after_bin="${CLONE_BENCH_AFTER:-$after_dir/.build/release/clone-bench}"
cd "$(dirname "$0")/.."
work="$(mktemp -d /tmp/clone-compare-XXXXXX)"
trap 'rm -rf "$work"' EXIT

seconds() { sed -n 's/.*mode=cloner.* seconds=\([0-9.]*\).*/\1/p' | tail -1; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# compare LABEL SETUP_BEFORE SETUP_AFTER RUN_BEFORE RUN_AFTER: each a command line (eval'd).
compare() {
    local label="$1" run_before="$2" run_after="$3" b=() a=()
    for round in $(seq 1 "$rounds"); do
        local order=(before after)
        (( round % 2 == 0 )) && order=(after before)
        for side in "${order[@]}"; do
            if [[ $side == before ]]; then b+=("$(eval "$run_before" | seconds)"); else a+=("$(eval "$run_after" | seconds)"); fi
        done
        echo "  $label round $round: before ${b[-1]} s, after ${a[-1]} s (load $(cut -d' ' -f1 /proc/loadavg))"
    done
    local mb ma
    mb="$(printf '%s\n' "${b[@]}" | median)"
    ma="$(printf '%s\n' "${a[@]}" | median)"
    echo "$label: median before $mb s, after $ma s, after/before $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f", a / b }')"
}

if [[ " $backends " == *" sqlite "* ]]; then
    for n in ${sizes//,/ }; do
        (cd "$before_dir" && "$before_bin" setup --db "$work/before-$n.sqlite" --items "$n" >/dev/null)
        (cd "$after_dir" && "$after_bin" setup --db "$work/after-$n.sqlite" --items "$n" >/dev/null)
        compare "SQLite $n items" \
            "cp '$work/before-$n.sqlite' '$work/copy.sqlite' && (cd '$before_dir' && '$before_bin' run --db '$work/copy.sqlite' --mode cloner)" \
            "cp '$work/after-$n.sqlite' '$work/copy.sqlite' && (cd '$after_dir' && '$after_bin' run --db '$work/copy.sqlite' --mode cloner)"
    done
fi

if [[ " $backends " == *" postgresql "* ]]; then
    # shellcheck source=scripts/bench-cluster.sh
    source scripts/bench-cluster.sh
    start_bench_cluster clone-compare top
    for n in ${sizes//,/ }; do
        for side in before after; do
            "${as_postgres[@]}" "$bindir/createdb" -h "$cluster" -U postgres "${side}_$n"
            # pg-run reports the statements a clone sends, from pg_stat_statements.
            "${as_postgres[@]}" "$bindir/psql" -qh "$cluster" -U postgres -d "${side}_$n" -c "CREATE EXTENSION pg_stat_statements"
        done
        (cd "$before_dir" && "$before_bin" pg-setup --uri "$(bench_cluster_uri "before_$n")" --items "$n" >/dev/null)
        (cd "$after_dir" && "$after_bin" pg-setup --uri "$(bench_cluster_uri "after_$n")" --items "$n" >/dev/null)
        compare "PostgreSQL $n items" \
            "(cd '$before_dir' && '$before_bin' pg-run --uri '$(bench_cluster_uri "before_$n")' --mode cloner)" \
            "(cd '$after_dir' && '$after_bin' pg-run --uri '$(bench_cluster_uri "after_$n")' --mode cloner)"
    done
fi
