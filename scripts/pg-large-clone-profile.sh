#!/usr/bin/env bash
# PostgreSQL's own time for one large clone, statement by statement, for builds side by side: a
# throwaway cluster (bench-clone.sh's settings, pg_stat_statements loaded), one database seeded
# with the benchmark's note (`clone-bench pg-setup`), and for every run a fresh copy of it
# (CREATE DATABASE … TEMPLATE), so that each copy meets the same tables and statistics. Each round
# runs every build once, in an order rotated round by round; `sql` stands for the hand-written
# copy. Prints each run, then per build the medians of the wall time and of the server's
# execution time (walk, map fill, source lock, row inserts, the foreign-key checks at commit, the
# linked objects, ANALYZE, and all statements), in milliseconds.
#
#   scripts/pg-large-clone-profile.sh [--items N] [--rounds R] [--grow] BUILD…
#
# A BUILD is a clone-bench binary (say the release build before and after a change) or `sql`.
# --grow clones into one database throughout instead, as the clone benchmark does, so the tables
# grow run by run. PG_BINDIR picks the PostgreSQL binaries. The cluster is stopped on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
items=10000 rounds=8 grow=0 builds=()
while [ $# -gt 0 ]; do
    case "$1" in
        --items) items=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --grow) grow=1; shift ;;
        -*) echo "usage: $0 [--items N] [--rounds R] [--grow] BUILD…" >&2; exit 2 ;;
        *) builds+=("$1"); shift ;;
    esac
done
[ ${#builds[@]} -gt 0 ] || { echo "usage: $0 [--items N] [--rounds R] [--grow] BUILD…" >&2; exit 2; }
seeder=""
for build in "${builds[@]}"; do
    if [ "$build" != sql ]; then
        [ -x "$build" ] || { echo "pg-large-clone-profile.sh: $build is not a clone-bench binary" >&2; exit 2; }
        seeder=${seeder:-$build}
    fi
done
if [ -z "$seeder" ]; then
    (cd "$ROOT" && swift build -c release --product clone-bench >&2)
    seeder="$(cd "$ROOT" && swift build -c release --show-bin-path)/clone-bench"
fi

# shellcheck source=scripts/bench-cluster.sh
source "$ROOT/scripts/bench-cluster.sh"
start_bench_cluster pg-large-clone all
psql_in() { "$bindir/psql" -h "$cluster" -p 5432 -U postgres -X -q -d "$1" "${@:2}"; }
model="$ROOT/config/model.json"

psql_in postgres -c "CREATE DATABASE seeded"
"$seeder" pg-setup --model "$model" --uri "$(bench_cluster_uri seeded)" --items "$items" --blob-bytes 4096 >/dev/null
psql_in seeded -c "CREATE EXTENSION pg_stat_statements" -c "VACUUM ANALYZE"
[ "$grow" = 1 ] && psql_in postgres -c "CREATE DATABASE measured TEMPLATE seeded"

# The server's time by kind of statement; the deferred foreign-key checks run at COMMIT.
categories="SELECT
  round(coalesce(sum(total_exec_time) FILTER (WHERE (query LIKE 'WITH RECURSIVE%' OR query LIKE 'WITH p0 AS%')), 0)),
  round(coalesce(sum(total_exec_time) FILTER (WHERE query LIKE 'INSERT INTO pg_temp.\"_clone_map\"%'), 0)),
  round(coalesce(sum(total_exec_time) FILTER (WHERE query LIKE 'WITH s% AS (SELECT t.\"_version\" <> w.ver AS moved%'), 0)),
  round(coalesce(sum(total_exec_time) FILTER (WHERE query LIKE 'INSERT INTO \"%'), 0)),
  round(coalesce(sum(total_exec_time) FILTER (WHERE query LIKE '% FOR KEY SHARE OF x'), 0)),
  round(coalesce(sum(total_exec_time) FILTER (WHERE query LIKE '%_clone_linked\" AS l%'), 0)),
  round(coalesce(sum(total_exec_time) FILTER (WHERE query LIKE 'ANALYZE%'), 0)),
  round(sum(total_exec_time))
FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE 'SELECT (SELECT count(*)%'"

runs=$(mktemp /tmp/pg-large-clone-runs-XXXXXX)
trap 'stop_bench_cluster; rm -f "$runs"' EXIT
echo "run    build    wall_ms walk map lock inserts fk linked analyze total"
for round in $(seq 1 "$rounds"); do
    count=${#builds[@]}
    for index in $(seq 0 $((count - 1))); do
        build=${builds[$(((index + round) % count))]}
        if [ "$grow" = 0 ]; then
            psql_in postgres -c "DROP DATABASE IF EXISTS measured" -c "CREATE DATABASE measured TEMPLATE seeded"
        fi
        psql_in measured -c "SELECT pg_stat_statements_reset()" >/dev/null
        if [ "$build" = sql ]; then binary=$seeder mode=sql; else binary=$build mode=cloner; fi
        seconds=$("$binary" pg-run --model "$model" --uri "$(bench_cluster_uri measured)" --mode "$mode" --root 1 | sed -n 's/.* seconds=\([0-9.]*\).*/\1/p')
        line="$build $(awk -v s="$seconds" 'BEGIN { printf "%.0f", s * 1000 }') $(psql_in measured -At -F ' ' -c "$categories")"
        echo "$line" >>"$runs"
        echo "$round      $line"
    done
done
python3 - "$runs" <<'EOF'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    build, *figures = line.split()
    runs[build].append([float(figure) for figure in figures])
print("medians (ms):   wall   walk    map   lock inserts     fk linked analyze  total  build")
for build, rows in runs.items():
    print("             " + " ".join(f"{statistics.median(column):6.0f}" for column in zip(*rows)) + f"  {build}")
EOF
