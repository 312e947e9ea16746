#!/usr/bin/env bash
# What one request costs on PostgreSQL, per build: round trips to the database and CPU. A
# throwaway cluster (scripts/bench-cluster.sh); per build, in the order given (name a build twice
# to alternate: A B B A), a fresh database, a `cloner serve` of that build on it and the sample
# 5-object note (scripts/bench-small-note.sh). Then per kind of request:
#   - round trips: libpq's `sendto` calls under `strace -c` over 100 sequential requests (each
#     round trip sends once, whatever it carries);
#   - wrk -t2 -c50 for DURATION: req/s, the median latency, and the CPU per request of Cloner and
#     of the cluster's backends, from /proc (utime + stime) before and after.
#
#   scripts/bench-request-cost.sh BUILD...          KINDS="clone create get update" DURATION=5s
#   DELAY_MS=1 scripts/bench-request-cost.sh BUILD...
#
# DELAY_MS puts a database that far away: Cloner reaches it over TCP through a proxy (python3)
# that hands each chunk on DELAY_MS/2 later in each direction, and wrk runs one client, so the
# latency column shows what the round trips cost (the CPU columns are then left empty).
#
# A BUILD is a folder holding a release `cloner` (say a build before and after a change).
# Kinds: clone (POST /notes/1/clone), create (POST /tags, a one-row create that reads its record
# back), get (GET /notes/1), update (PATCH /notes/1, one row updated and read back with its
# lists: every client on the same row; tag 1 would read back the memos of every clone), delete
# (DELETE of a clone of note 1 made for it: round trips only). Needs wrk and strace; PG_BINDIR picks the PostgreSQL binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -gt 0 ]] || { echo "usage: $0 BUILD..." >&2; exit 2; }
for tool in wrk strace curl; do
    command -v "$tool" > /dev/null || { echo "bench-request-cost.sh: needs $tool" >&2; exit 2; }
done
kinds=${KINDS:-clone create get update}
duration=${DURATION:-5s}
port=${CLONER_PORT:-18096}

# shellcheck source=scripts/bench-cluster.sh
source scripts/bench-cluster.sh
# shellcheck source=scripts/bench-small-note.sh
source scripts/bench-small-note.sh
work=$(mktemp -d /tmp/bench-request-cost.XXXXXX)
pid=
cleanup() {
    if [[ -n "$pid" ]]; then kill "$pid" 2> /dev/null || true; wait "$pid" 2> /dev/null || true; fi
    if [[ -n "${proxy:-}" ]]; then kill "$proxy" 2> /dev/null || true; fi
    rm -rf "$work"
    stop_bench_cluster
}
start_bench_cluster request-cost none
trap cleanup EXIT
postmaster=$(head -1 "$cluster/data/postmaster.pid")
delay=${DELAY_MS:-}
clients=(-t2 -c50)
if [[ -n "$delay" ]]; then
    cat > "$work/delay.py" << 'PY'
import asyncio, sys
port, path, delay = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]) / 2000.0

async def pump(reader, writer):
    loop = asyncio.get_running_loop()
    while data := await reader.read(65536):
        loop.call_later(delay, writer.write, data)  # in order: every chunk waits as long
    await asyncio.sleep(2 * delay)
    writer.close()

async def connection(client_reader, client_writer):
    server_reader, server_writer = await asyncio.open_unix_connection(path)
    await asyncio.gather(pump(client_reader, server_writer), pump(server_reader, client_writer), return_exceptions=True)

async def main():
    async with await asyncio.start_server(connection, "127.0.0.1", port) as server:
        await server.serve_forever()

asyncio.run(main())
PY
    proxy_port=$((port + 100))
    python3 "$work/delay.py" "$proxy_port" "$cluster/.s.PGSQL.5432" "$delay" &
    proxy=$!
    clients=(-t1 -c1)
fi
database_uri() { # database
    if [[ -n "$delay" ]]; then echo "postgresql://postgres@127.0.0.1:$proxy_port/$1?sslmode=disable"; else bench_cluster_uri "$1"; fi
}

write_wrk_scripts "$work"

base="http://127.0.0.1:$port"
one_request() { # kind number
    case $1 in
        clone) curl -fsS -o /dev/null -X POST "$base/notes/1/clone" -H 'Content-Type: application/json' -d '{}' ;;
        create) curl -fsS -o /dev/null -X POST "$base/tags" -H 'Content-Type: application/json' -d "{\"name\": \"seq-$2\"}" ;;
        get) curl -fsS -o /dev/null "$base/notes/1" ;;
        update) curl -fsS -o /dev/null -X PATCH "$base/notes/1" -H 'Content-Type: application/json' -d '{"isPinned": true}' ;;
        delete)
            curl -fsS -o /dev/null -X DELETE "$base/notes/${targets[next_target]}"
            next_target=$((next_target + 1))
            ;;
    esac
}
targets=()
next_target=0
make_targets() { # count: clones of note 1 for the deletes to take
    targets=()
    next_target=0
    for _ in $(seq 1 "$1"); do
        targets+=("$(curl -fsS -X POST "$base/notes/1/clone" -H 'Content-Type: application/json' -d '{}' |
            grep -o '"clone":{"entity":"Note","id":[0-9]*' | grep -o '[0-9]*$')")
    done
}
path_of() { case $1 in clone) echo /notes/1/clone ;; create) echo /tags ;; get) echo /notes/1 ;; update) echo /notes/1 ;; esac; }
script_of() { case $1 in create) echo tags ;; *) echo "$1" ;; esac; }
ticks() { # summed utime + stime of the pids given
    local total=0
    for p in "$@"; do
        if [[ -r /proc/$p/stat ]]; then total=$((total + $(awk '{ print $14 + $15 }' "/proc/$p/stat"))); fi
    done
    echo "$total"
}
hertz=$(getconf CLK_TCK)

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-24s %-7s %12s %10s %12s %12s %14s\n" build request "round trips" "req/s" "p50 latency" "Cloner µs" "database µs"
run=0
for build in "$@"; do
    run=$((run + 1))
    "${as_postgres[@]}" "$bindir/psql" -h "$cluster" -U postgres -d postgres -qc "CREATE DATABASE cost$run" > /dev/null
    CLONER_HTTP_MAX_CONNECTIONS_PER_CLIENT=4096 CLONER_MAX_CONCURRENT_CLONES=100 \
        "$build/cloner" serve --port "$port" --database "$(database_uri "cost$run")" --model config/model.json \
        > /dev/null 2> "$work/cloner.err" &
    pid=$!
    wait_for_cloner "$port"
    seed_small_note "$port"
    for kind in $kinds; do
        if [[ $kind == delete ]]; then make_targets 120; fi
        for i in $(seq 1 20); do one_request "$kind" "warm-$run-$i"; done
        strace -f -p "$pid" -e trace=sendto -c -o "$work/strace.txt" 2> /dev/null &
        tracer=$!
        sleep 0.5
        for i in $(seq 1 100); do one_request "$kind" "trace-$run-$i"; done
        kill -INT "$tracer"
        wait "$tracer" || true
        sends=$(awk '$NF == "sendto" { print $4 }' "$work/strace.txt")
        trips=$(awk -v s="${sends:-0}" 'BEGIN { printf "%.1f", s / 100 }')
        # A delete takes a clone made for it: wrk cannot name a new one each time.
        if [[ $kind == delete ]]; then
            printf "%-24s %-7s %12s %10s %12s %12s %14s\n" "$(basename "$build")" "$kind" "$trips" - - - -
            continue
        fi
        wrk "${clients[@]}" -d2s -s "$work/$(script_of "$kind").lua" "$base$(path_of "$kind")" -- "warm$run" > /dev/null
        backends=$(pgrep -P "$postmaster" | tr '\n' ' ')
        cloner_before=$(ticks "$pid")
        # shellcheck disable=SC2086 # one pid a word
        database_before=$(ticks $backends)
        wrk "${clients[@]}" -d"$duration" --latency -s "$work/$(script_of "$kind").lua" "$base$(path_of "$kind")" -- "run$run" > "$work/wrk.txt"
        cloner_after=$(ticks "$pid")
        # shellcheck disable=SC2086
        database_after=$(ticks $backends)
        if grep -q "Non-2xx" "$work/wrk.txt"; then echo "$kind: $(grep "Non-2xx" "$work/wrk.txt")" >&2; exit 1; fi
        requests=$(awk '/requests in/ { print $1 }' "$work/wrk.txt")
        rate=$(awk '/^Requests\/sec:/ { print $2 }' "$work/wrk.txt")
        median=$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")
        # One client a round trip away makes too few requests for whole clock ticks to say much.
        cloner_cpu=- database_cpu=-
        if [[ -z "$delay" ]]; then
            cloner_cpu=$(((cloner_after - cloner_before) * 1000000 / hertz / requests))
            database_cpu=$(((database_after - database_before) * 1000000 / hertz / requests))
        fi
        printf "%-24s %-7s %12s %10.0f %12s %12s %14s\n" "$(basename "$build")" "$kind" "$trips" \
            "$rate" "$median" "$cloner_cpu" "$database_cpu"
    done
    kill "$pid"
    wait "$pid" 2> /dev/null || true
    pid=
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
