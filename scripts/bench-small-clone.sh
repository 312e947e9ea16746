#!/usr/bin/env bash
# Small-clone benchmark: the fixed cost of a small clone over HTTP. wrk POSTs, at 50 connections,
# `POST /notes/1/clone` of a 5-object note (2 items, a memo with a tag and an attachment) and
# `POST /tags` (a one-row create) against the same release `cloner serve`, alternating the two
# (the order swapped every round), and reports the median req/s of each and their ratio with the
# load average. Goal: clone req/s >= half the create's.
#
#   scripts/bench-small-clone.sh            ROUNDS=3 DURATION=5s CONNECTIONS=50 [CLONER_BIN=path]
#   BENCH_BACKEND=postgresql scripts/bench-small-clone.sh
#
# BENCH_BACKEND=postgresql serves from a throwaway PostgreSQL cluster (scripts/bench-cluster.sh)
# instead of a SQLite file; its goal is clone req/s >= 0.75 of the create's.
#
# Both answer 201 with a small JSON body, through the same parser, router, access log (to
# /dev/null), metrics and write path (one write transaction each); the clone pays for its plan,
# its walk and its statements on top. `maxConcurrentClones` is lifted above the connection count
# so no clone is turned away with 503 (any non-2xx answer is reported and fails the run).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-3}
duration=${DURATION:-5s}
connections=${CONNECTIONS:-50}
port=${CLONER_PORT:-18085}

work=$(mktemp -d /tmp/bench-small-clone.XXXXXX)
pid=
backend=${BENCH_BACKEND:-sqlite}
cleanup() {
    if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
    if [[ $backend == postgresql ]]; then stop_bench_cluster; fi
}
database="$work/cloner.sqlite"
goal=0.5
if [[ $backend == postgresql ]]; then
    # shellcheck source=scripts/bench-cluster.sh
    source scripts/bench-cluster.sh
    start_bench_cluster small-clone none
    database="$(bench_cluster_uri postgres)"
    goal=0.75
fi
trap cleanup EXIT

if [[ -n "${CLONER_BIN:-}" ]]; then
    cloner_bin=$CLONER_BIN   # an already built binary (to compare builds)
else
    echo "building cloner (release)" >&2
    swift build -c release --product cloner >&2
    cloner_bin="$(swift build -c release --show-bin-path)/cloner"
fi

CLONER_HTTP_MAX_CONNECTIONS_PER_CLIENT=4096 CLONER_MAX_CONCURRENT_CLONES=$((connections * 2)) \
    "$cloner_bin" serve --port "$port" --database "$database" --model config/model.json > /dev/null 2> "$work/cloner.err" &
pid=$!
# shellcheck source=scripts/bench-small-note.sh
source scripts/bench-small-note.sh
wait_for_cloner "$port"
seed_small_note "$port"

base="http://127.0.0.1:$port"
echo "one clone: $(curl -fsS -X POST "$base/notes/1/clone" -H 'Content-Type: application/json' -d '{}')" >&2

write_wrk_scripts "$work"

run() { # name lua path prefix -> req/s on stdout
    local out="$work/wrk-$1-$4.txt"
    wrk -t2 -c"$connections" -d"$duration" --latency -s "$2" "$base$3" -- "$4" > "$out"
    if grep -q "Socket errors" "$out"; then echo "$1: $(grep "Socket errors" "$out")" >&2; fi
    if grep -q "Non-2xx" "$out"; then
        echo "$1: $(grep "Non-2xx" "$out")" >&2
        return 1
    fi
    awk '/^Requests\/sec:/ { print $2 }' "$out"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
run tags "$work/tags.lua" /tags warm > /dev/null
run clone "$work/clone.lua" /notes/1/clone warm > /dev/null
: > "$work/results.tsv"
for round in $(seq 1 "$rounds"); do
    order=(tags clone)
    if (( round % 2 == 0 )); then order=(clone tags); fi
    for name in "${order[@]}"; do
        if [[ $name == tags ]]; then rps=$(run tags "$work/tags.lua" /tags "r$round"); else rps=$(run clone "$work/clone.lua" /notes/1/clone "r$round"); fi
        printf "%s\t%s\n" "$name" "$rps" >> "$work/results.tsv"
        printf "round %s  %-6s %10s req/s\n" "$round" "$name" "$rps" >&2
    done
done
tags=$(awk -F'\t' '$1 == "tags" { print $2 }' "$work/results.tsv" | median)
clone=$(awk -F'\t' '$1 == "clone" { print $2 }' "$work/results.tsv" | median)
echo
echo "$backend: median of $rounds alternating rounds, wrk -t2 -c$connections -d$duration; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v t="$tags" -v c="$clone" -v goal="$goal" 'BEGIN {
    printf "POST /tags (one-row create):          %10.0f req/s\n", t
    printf "POST /notes/1/clone (5-object clone): %10.0f req/s\n", c
    ratio = c / t
    printf "clone / create = %.2f (goal >= %s: %s)\n", ratio, goal, (ratio >= goal) ? "met" : "NOT met"
    exit (ratio >= goal) ? 0 : 1 }'
