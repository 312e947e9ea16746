#!/usr/bin/env bash
# PostgreSQL's own time for one small clone: one replica behind haproxy (scripts/replicas.sh, with
# pg_stat_statements loaded), a 5-object note that links a tag (the note, 3 items and a memo, as
# scripts/bench-concurrency.sh seeds it), cloned by wrk for a warm-up and then for the measured
# run. Prints the clones per second and the server's execution time per clone (the sum of every
# statement's total_exec_time over the clones run), and with --top N the N statements that took
# the most, with their mean time in microseconds and their calls.
#
#   scripts/pg-clone-profile.sh [--clients C] [--duration S] [--top N]
#
# CLONER_BIN picks the binary (default: the release build, built when missing), so two builds can
# be measured in turn on the same machine. Everything it starts is stopped on exit, by pid.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
clients=1 duration=8 top=0
while [ $# -gt 0 ]; do
    case "$1" in
        --clients) clients=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --top) top=$2; shift 2 ;;
        *) echo "usage: $0 [--clients C] [--duration S] [--top N]" >&2; exit 2 ;;
    esac
done
command -v wrk >/dev/null || { echo "pg-clone-profile.sh: needs wrk (apt-get install wrk)" >&2; exit 2; }
cloner=${CLONER_BIN:-$ROOT/.build/release/cloner}
[ -x "$cloner" ] || (cd "$ROOT" && swift build -c release --product cloner >&2)

state=$(mktemp -d /tmp/pg-clone-profile-XXXXXX)
rmdir "$state"  # replicas.sh makes it
trap '"$ROOT/scripts/replicas.sh" stop "$state" >/dev/null 2>&1 || true' EXIT
CLONER_BIN=$cloner "$ROOT/scripts/replicas.sh" --detach --dir "$state" \
    --pg-conf shared_preload_libraries=pg_stat_statements --pg-conf pg_stat_statements.track=all 1 >/dev/null
# shellcheck disable=SC1091
source "$state/env"
database=$(sed -n 's|.*/\([^?]*\)?.*|\1|p' <<<"$DATABASE_URI")
sql() { psql -h "$PGHOST" -p "$PGPORT" -U postgres -d "$database" -qAt -F ' ' -c "$1"; }
sql "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null

items='{"name":"item 1"},{"name":"item 2"},{"name":"item 3"}'
body=$(printf '{"id":"%s","createDate":"2026-01-02T03:04:05.678Z","name":"template","items":[%s],"memos":[{"text":"m","createDate":"2026-01-02T03:04:05.678Z","tags":[{"name":"profiled"}]}]}' \
    "$(cat /proc/sys/kernel/random/uuid)" "$items")
note=$(curl -sf -X POST -H 'Content-Type: application/json' -d "$body" "$URL/notes" | sed -n 's/^{"_id":\([0-9]*\).*/\1/p')
[ -n "$note" ] || { echo "pg-clone-profile.sh: seeding the note failed" >&2; exit 1; }
printf 'wrk.method = "POST"\n' >"$state/post.lua"

wrk -t1 -c"$clients" -d3s -s "$state/post.lua" "$URL/notes/$note/clone" >/dev/null
sql "SELECT pg_stat_statements_reset()" >/dev/null
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
wrk -t1 -c"$clients" -d"${duration}s" -s "$state/post.lua" "$URL/notes/$note/clone" | grep -E "Requests/sec|Non-2xx"
# A clone is one transaction: its BEGINs count the clones.
sql "SELECT 'server µs per clone', round((sum(total_exec_time) * 1000 / (SELECT max(calls) FROM pg_stat_statements WHERE query LIKE 'BEGIN%'))::numeric)
     FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'"
if [ "$top" -gt 0 ]; then
    sql "SELECT round((total_exec_time / calls * 1000)::numeric) AS µs, calls, left(regexp_replace(query, '\s+', ' ', 'g'), 100)
         FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT $top"
fi
