#!/usr/bin/env bash
# Concurrent clones of one template, as a busy mobile backend makes them: 1, 8 and 32 clients
# cloning the same note, on SQLite (one process, direct), PostgreSQL with 1 replica and with 3
# replicas behind haproxy (scripts/replicas.sh), for a 5-object note and a 100-item note (each
# linking one shared tag, whose version every clone steps) and, with `--sizes 5u`, a 5-object note
# that links nothing — each beside a one-row create (POST /memos) on the same store with the same
# clients.
#
#   scripts/bench-concurrency.sh [--duration S] [--clients "1 8 32"] [--setups "sqlite pg1 pg3"]
#                                [--sizes "5 100 5u"] [--rounds R] [--max-clones M] [--pg-conf K=V]…
#
# --max-clones and --pg-conf go to scripts/replicas.sh for pg1/pg3 (clones per replica; a
# PostgreSQL setting, repeatable).
#
# Prints one line per (setup, work, clients): requests/s, p50 and p99 latency (wrk), refusals
# (answers that are not 2xx), and CPU milliseconds per request of the whole server side (cloner
# processes, PostgreSQL's processes, haproxy), read from /proc before and after. Rounds alternate
# the clone and the create so both see the same machine; the load average is printed with each
# round. Needs wrk and haproxy (`apt-get install wrk haproxy`) and PostgreSQL for pg1/pg3. Uses the
# release binary (built when missing). Everything it starts is stopped by pid on exit.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
duration=5 clients="1 8 32" setups="sqlite pg1 pg3" sizes="5 100" rounds=1
replica_options=()
while [ $# -gt 0 ]; do
    case $1 in
        --duration) duration=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --setups) setups=$2; shift 2 ;;
        --sizes) sizes=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --max-clones) replica_options+=(--max-clones "$2"); shift 2 ;;
        --pg-conf) replica_options+=(--pg-conf "$2"); shift 2 ;;
        *) echo "usage: $0 [--duration S] [--clients LIST] [--setups LIST] [--sizes LIST] [--rounds R] [--max-clones M] [--pg-conf K=V]" >&2; exit 2 ;;
    esac
done
command -v wrk >/dev/null || { echo "bench-concurrency.sh: needs wrk (apt-get install wrk)" >&2; exit 1; }
cloner=${CLONER_BIN:-$ROOT/.build/release/cloner}
[ -x "$cloner" ] || (cd "$ROOT" && swift build -c release --product cloner >&2)

work=$(mktemp -d /tmp/bench-concurrency.XXXXXX)
sqlite_pid= replicas_dir=
cleanup() {
    [ -n "$sqlite_pid" ] && kill "$sqlite_pid" 2>/dev/null && wait "$sqlite_pid" 2>/dev/null
    [ -n "$replicas_dir" ] && "$ROOT/scripts/replicas.sh" stop "$replicas_dir" >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
    local p
    for _ in $(seq 1 100); do
        p=$((20000 + RANDOM % 12000))
        port_in_use "$p" || { echo "$p"; return; }
    done
    echo "bench-concurrency.sh: no free port" >&2; exit 1
}

# Each request's status is counted per wrk thread; `done` adds them up.
cat > "$work/bench.lua" <<'LUA'
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) refused = 0 end
function response(status, headers, body)
    if status < 200 or status > 299 then refused = refused + 1 end
end
function done(summary, latency, requests)
    local refusals = 0
    for _, thread in ipairs(threads) do refusals = refusals + thread:get("refused") end
    io.write(string.format("RESULT %d %.1f %.2f %.2f %d %d\n", summary.requests,
        summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, refusals, summary.errors.connect + summary.errors.read
        + summary.errors.write + summary.errors.timeout))
end
LUA

# CPU ticks (user + system) of the given pids and all their descendants.
cpu_ticks() {
    local total=0 pid
    for pid in $(for root in "$@"; do echo "$root"; pgrep -P "$root" 2>/dev/null || true; done | sort -u); do
        if [ -r "/proc/$pid/stat" ]; then
            set -- $(sed 's/^.*) //' "/proc/$pid/stat")
            total=$((total + ${12} + ${13}))
        fi
    done
    echo "$total"
}
ticks_per_second=$(getconf CLK_TCK)

# note_json ITEMS [TAG]: a note with ITEMS items and a memo linking a new tag named TAG (none
# without one).
note_json() {
    local items=$1 tag=${2:-} list="" i tags=""
    for i in $(seq 1 "$items"); do list+="${list:+,}{\"name\":\"item $i\"}"; done
    [ -n "$tag" ] && tags=",\"tags\":[{\"name\":\"$tag\"}]"
    printf '{"id":"%s","createDate":"2026-01-02T03:04:05.678Z","name":"template","items":[%s],"memos":[{"text":"m","createDate":"2026-01-02T03:04:05.678Z"%s}]}' \
        "$(cat /proc/sys/kernel/random/uuid)" "$list" "$tags"
}

# Seeds the templates on $url; sets note_5, note_100 and note_5u (a 5-object note: the note, 3
# items and a memo, linking a tag; a 100-item note: 102 objects; the 5-object note without the
# tag). Tag names are unique in the sample model.
seed() {
    local url=$1
    note_5=$(curl -sf -X POST -H 'Content-Type: application/json' -d "$(note_json 3 shared-5)" "$url/notes" | sed -n 's/^{"_id":\([0-9]*\).*/\1/p')
    note_100=$(curl -sf -X POST -H 'Content-Type: application/json' -d "$(note_json 100 shared-100)" "$url/notes" | sed -n 's/^{"_id":\([0-9]*\).*/\1/p')
    note_5u=$(curl -sf -X POST -H 'Content-Type: application/json' -d "$(note_json 3)" "$url/notes" | sed -n 's/^{"_id":\([0-9]*\).*/\1/p')
    [ -n "$note_5" ] && [ -n "$note_100" ] && [ -n "$note_5u" ] || { echo "bench-concurrency.sh: seeding $url failed" >&2; exit 1; }
}

# run SETUP WORK CLIENTS URL PATH BODY PIDS...
run() {
    local setup=$1 what=$2 c=$3 url=$4 path=$5 body=$6; shift 6
    local threads=$((c < 2 ? 1 : 2))
    sed "s|^function setup|wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = '$body'\nfunction setup|" \
        "$work/bench.lua" > "$work/run.lua"
    local before after result
    before=$(cpu_ticks "$@")
    result=$(wrk -t "$threads" -c "$c" -d "${duration}s" --timeout 60s -s "$work/run.lua" "$url$path" | sed -n 's/^RESULT //p')
    after=$(cpu_ticks "$@")
    set -- $result
    local requests=$1 rps=$2 p50=$3 p99=$4 refused=$5 socket_errors=$6
    local cpu_ms
    cpu_ms=$(awk -v t=$((after - before)) -v hz="$ticks_per_second" -v n="$requests" 'BEGIN { printf "%.2f", (n > 0 ? t * 1000 / hz / n : 0) }')
    printf '%-7s %-10s %3s  %9s %9s %9s %8s %7s  load %s\n' "$setup" "$what" "$c" "$rps" "$p50" "$p99" \
        "$refused$([ "$socket_errors" = 0 ] || echo "+${socket_errors}e")" "$cpu_ms" "$(cut -d' ' -f1 /proc/loadavg)"
}

bench_setup() {
    local setup=$1 url=$2; shift 2
    seed "$url"
    for size in $sizes; do
        local note_var=note_$size
        for c in $clients; do
            for _ in $(seq 1 "$rounds"); do
                run "$setup" "clone-$size" "$c" "$url" "/notes/${!note_var}/clone" "{}" "$@"
                run "$setup" "create" "$c" "$url" "/memos" '{"text":"x","createDate":"2026-01-02T03:04:05.678Z"}' "$@"
            done
        done
    done
}

printf '%-7s %-10s %3s  %9s %9s %9s %8s %7s\n' setup work c "req/s" "p50 ms" "p99 ms" refused "CPU ms"
for setup in $setups; do
    case $setup in
        sqlite)
            port=$(free_port)
            mkdir -p "$work/sqlite"
            CLONER_HTTP_MAX_CONNECTIONS_PER_CLIENT=4096 setsid "$cloner" serve --host 127.0.0.1 --port "$port" \
                --database "$work/sqlite/cloner.sqlite" --model "$ROOT/config/model.json" > "$work/sqlite/log" 2>&1 &
            sqlite_pid=$!
            for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
            bench_setup sqlite "http://127.0.0.1:$port" "$sqlite_pid"
            kill "$sqlite_pid"; wait "$sqlite_pid" 2>/dev/null || true; sqlite_pid=
            ;;
        pg1|pg3)
            replicas=${setup#pg}
            replicas_dir=$("$ROOT/scripts/replicas.sh" --detach --port "$(free_port)" ${replica_options[@]+"${replica_options[@]}"} \
                "$replicas" 2>"$work/replicas.log") \
                || { cat "$work/replicas.log" >&2; exit 1; }
            # shellcheck disable=SC1091
            source "$replicas_dir/env"
            bench_setup "$setup" "$URL" $REPLICA_PIDS "$HAPROXY_PID" "$POSTMASTER_PID"
            "$ROOT/scripts/replicas.sh" stop "$replicas_dir" >/dev/null 2>&1; replicas_dir=
            ;;
        *) echo "bench-concurrency.sh: unknown setup $setup (sqlite, pg1, pg3)" >&2; exit 2 ;;
    esac
done
