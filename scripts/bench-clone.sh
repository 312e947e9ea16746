#!/usr/bin/env bash
# Clone benchmark: builds clone-bench in release and runs the suite on SQLite
# (Cloner vs a hand-written SQL copy at 1k/10k/100k items, peak RSS per run, a 1 GiB-of-attachments
# clone), then the same on PostgreSQL in a throwaway cluster this script starts in a temporary
# folder (initdb + pg_ctl, Unix socket inside it, pg_stat_statements to count statements; run as
# the postgres user through runuser when root) and stops on exit.
# Extra arguments go to clone-bench, e.g. `scripts/bench-clone.sh --sizes 1000,10000 --rounds 5`.
# BENCH_BACKENDS=sqlite or BENCH_BACKENDS=postgresql runs one backend only (default: both).
set -euo pipefail
cd "$(dirname "$0")/.."
backends="${BENCH_BACKENDS:-sqlite postgresql}"
swift build -c release --product clone-bench
bench="$(swift build -c release --show-bin-path)/clone-bench"
status=0

if [[ " $backends " == *" sqlite "* ]]; then
    "$bench" suite --model config/model.json "$@" || status=$?
fi

if [[ " $backends " == *" postgresql "* ]]; then
    # shellcheck source=scripts/bench-cluster.sh
    source scripts/bench-cluster.sh
    start_bench_cluster clone-bench top
    "$bench" postgresql --model config/model.json --uri "$(bench_cluster_uri postgres)" "$@" || status=$?
fi
exit "$status"
