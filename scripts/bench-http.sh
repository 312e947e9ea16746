#!/usr/bin/env bash
# Side-by-side load test of Cloner's HTTP routes with wrk, against peers on the same 2 cores:
#
#   GET /healthz                  cloner | hbgrdb | nginx (a static `return 200` location)
#   GET /notes/1                  cloner | hbgrdb
#   GET /items?note=1&limit=50    cloner | hbgrdb
#
# hbgrdb is a Hummingbird 2 + GRDB 7 package kept outside this repository (HBGRDB_SOURCE names its
# folder; it is not part of Cloner) serving the same JSON from Cloner's own SQLite file; its
# /healthz is the same handler as a plain Hummingbird 2 peer.
#
#   HBGRDB_SOURCE=/path/to/hbgrdb scripts/bench-http.sh    ROUNDS=3 DURATION=8s CONNECTIONS="50 500"
#   ACCESS_LOG=/tmp/access.log scripts/bench-http.sh     log to a real file instead of /dev/null
#   ROUTES="notes items" scripts/bench-http.sh           only some routes (healthz notes items)
#   CLONER_BIN=/path/to/cloner scripts/bench-http.sh     measure another build (an earlier commit)
#
# Cloner's side is the release `cloner serve` itself on a scratch database: its real parser,
# router, request ids, JSON access log and request metrics. The data is one Note with 120 Items
# (two ItemData each) and 3 Memos, created through Cloner's API; hbgrdb reads the same file. The
# peer is built in a copy under /tmp ($HBGRDB_BUILD) so its .build/ never enters a tree.
#
# Every peer gets a port nothing listens on (picked by the kernel, or the *_PORT variables, which
# must be free: the script stops if one is taken). Before measuring, each server must be alive
# (its pid), own its listening socket (ss) and give an answer only it gives: Cloner an
# X-Request-ID header, hbgrdb a `charset=utf-8` JSON page without one, nginx its Server header — a stranger on a default port was once measured as "Hummingbird".
#
# Runs alternate between servers and routes, round after round, so a noisy neighbour on this
# shared machine hurts all alike; the summary takes each median over the rounds (the lower middle
# one for an even count) and prints the load average with each table. Goals: beside
# /healthz in the same run, /notes/{id} >= 0.6x and /items?note=N&limit=50 >= 0.25x its req/s.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-3}
duration=${DURATION:-8s}
connections=${CONNECTIONS:-"50 500"}
routes=${ROUTES:-"healthz notes items"}
access_log=${ACCESS_LOG:-/dev/null}
hbgrdb_source=${HBGRDB_SOURCE:-}
hbgrdb_build=${HBGRDB_BUILD:-/tmp/hbgrdb-build}

work=$(mktemp -d /tmp/bench-http.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "bench-http: $*" >&2; exit 1; }

build_peer() { # name source build-dir
    if [[ ! -x "$3/.build/release/$1" ]]; then
        echo "building $1 in $3 (3-4 minutes the first time)" >&2
        rm -rf "$3"
        cp -r "$2" "$3"
        chmod -R u+w "$3"
        (cd "$3" && swift build -c release >&2)
    fi
}
if [[ ! -x "$hbgrdb_build/.build/release/hbgrdb" ]]; then
    [[ -n "$hbgrdb_source" ]] || fail "set HBGRDB_SOURCE to the folder of the hbgrdb peer package (Hummingbird 2 + GRDB 7, kept outside this repository), or HBGRDB_BUILD to a folder where it is already built"
    [[ -f "$hbgrdb_source/Package.swift" ]] || fail "HBGRDB_SOURCE=$hbgrdb_source has no Package.swift: it must name the hbgrdb peer package's folder"
fi
build_peer hbgrdb "$hbgrdb_source" "$hbgrdb_build"
if [[ -n "${CLONER_BIN:-}" ]]; then
    cloner_bin=$CLONER_BIN   # another build (e.g. of an earlier commit) to compare
else
    echo "building cloner (release)" >&2
    swift build -c release --product cloner >&2
    cloner_bin="$(swift build -c release --show-bin-path)/cloner"
fi

listening() { ss -Hltn "sport = :$1" | grep -q .; }

# A port from the variable if given (it must be free), else one the kernel picks.
port_for() { # variable-value
    if [[ -n "$1" ]]; then
        if listening "$1"; then fail "port $1 is taken: $(ss -Hltnp "sport = :$1")"; fi
        echo "$1"
    else
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
    fi
}
cloner_port=$(port_for "${CLONER_PORT:-}")
hbgrdb_port=$(port_for "${HBGRDB_PORT:-}")
nginx_port=$(port_for "${NGINX_PORT:-}")

wait_for_port() { # port pid name
    for _ in $(seq 1 150); do
        kill -0 "$2" 2>/dev/null || fail "$3 (pid $2) exited before listening on $1"
        if listening "$1"; then return 0; fi
        sleep 0.1
    done
    fail "$3 (pid $2) does not listen on port $1"
}

# The service itself: request ids, the JSON access log (one line per request on stdout, sent to
# $access_log) and the Prometheus request metrics all on. Every wrk connection comes from
# 127.0.0.1: lift the per-client share (256) above 500.
CLONER_HTTP_MAX_CONNECTIONS_PER_CLIENT=4096 "$cloner_bin" serve --port "$cloner_port" --database "$work/cloner.sqlite" --model config/model.json \
    > "$access_log" 2> "$work/cloner.err" &
cloner_pid=$!
pids+=("$cloner_pid")
wait_for_port "$cloner_port" "$cloner_pid" cloner

# The data: Note 1 with 120 Items (two ItemData each) and 3 Memos, in one request.
python3 - "$cloner_port" <<'PY'
import json, sys, urllib.request
items = [{"name": f"item {i}", "noteID": "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7b",
          "itemDatas": [{"createDate": "2026-11-21T10:00:00.250Z", "value": i + 0.5},
                        {"createDate": "2026-11-22T11:30:00Z", "value": -i}]} for i in range(120)]
memos = [{"text": f"memo {i}", "createDate": "2026-11-21T10:05:00Z"} for i in range(3)]
note = {"id": "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7b", "name": "Groceries \u00e9t\u00e9 \"quoted\"",
        "createDate": "2026-11-21T10:00:00Z", "data": "aGVsbG8=", "items": items, "memos": memos}
request = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/notes", data=json.dumps(note).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
with urllib.request.urlopen(request) as answer:
    assert answer.status == 201, answer.status
PY

HBGRDB_SORTED_KEYS=1 "$hbgrdb_build/.build/release/hbgrdb" "$hbgrdb_port" "$work/cloner.sqlite" > "$work/hbgrdb.out" 2>&1 &
hbgrdb_pid=$!
pids+=("$hbgrdb_pid")
command -v nginx > /dev/null || fail "nginx is not installed (the /healthz reference)"
mkdir -p "$work/nginx"
cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
daemon off;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $work/nginx;
    proxy_temp_path $work/nginx;
    fastcgi_temp_path $work/nginx;
    uwsgi_temp_path $work/nginx;
    scgi_temp_path $work/nginx;
    keepalive_requests 100000;
    server {
        listen 127.0.0.1:$nginx_port reuseport backlog=1024;
        location = /healthz { default_type application/json; return 200 '{"status":"ok"}'; }
    }
}
CONF
nginx -c "$work/nginx/nginx.conf" > "$work/nginx.out" 2>&1 &
nginx_pid=$!
pids+=("$nginx_pid")
wait_for_port "$hbgrdb_port" "$hbgrdb_pid" hbgrdb
wait_for_port "$nginx_port" "$nginx_pid" nginx

# Each server: alive, owner of its listening socket (nginx: its master or a worker, children of
# the pid we started), and giving the answer only it gives.
verify() { # name port pid
    local name=$1 port=$2 pid=$3
    kill -0 "$pid" 2>/dev/null || fail "$name (pid $pid) is not running"
    local owners
    owners=$(ss -Hltnp "sport = :$port" | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u)
    local owned=no
    for owner in $owners; do
        if [[ "$owner" == "$pid" || "$(ps -o ppid= -p "$owner" | tr -d ' ')" == "$pid" ]]; then owned=yes; fi
    done
    [[ $owned == yes ]] || fail "port $port is not $name's (pid $pid) but pid(s) $owners's"
    local headers
    case $name in
    cloner)
        headers=$(curl -fsS -D - -o /dev/null "http://127.0.0.1:$port/healthz")
        grep -qi '^x-request-id:' <<< "$headers" || fail "port $port answers /healthz without X-Request-ID: not cloner" ;;
    hbgrdb)
        headers=$(curl -fsS -D "$work/hbgrdb.headers" -o "$work/hbgrdb.body" "http://127.0.0.1:$port/items?note=1&limit=1"; cat "$work/hbgrdb.headers")
        grep -qi '^content-type: application/json; charset=utf-8' <<< "$headers" && grep -q '"data":\[{' "$work/hbgrdb.body" \
            && ! grep -qi '^x-request-id:' <<< "$headers" || fail "port $port does not answer /items as hbgrdb does" ;;
    nginx)
        headers=$(curl -fsS -D - -o /dev/null "http://127.0.0.1:$port/healthz")
        grep -qi '^server: nginx' <<< "$headers" || fail "port $port answers without Server: nginx" ;;
    esac
    echo "verified $name: pid $pid on port $port" >&2
}
verify cloner "$cloner_port" "$cloner_pid"
verify hbgrdb "$hbgrdb_port" "$hbgrdb_pid"
verify nginx "$nginx_port" "$nginx_pid"

path_of() {
    case $1 in
    healthz) echo "/healthz" ;;
    notes) echo "/notes/1" ;;
    items) echo "/items?note=1&limit=50" ;;
    *) fail "unknown route $1 (healthz, notes, items)" ;;
    esac
}
servers_of() {
    case $1 in
    healthz) echo "cloner:$cloner_port hbgrdb:$hbgrdb_port nginx:$nginx_port" ;;
    *) echo "cloner:$cloner_port hbgrdb:$hbgrdb_port" ;;
    esac
}

# The read routes give the same JSON values on both (hbgrdb's README): equal lengths here.
for route in notes items; do
    a=$(curl -fsS "http://127.0.0.1:$cloner_port$(path_of $route)" | wc -c)
    b=$(curl -fsS "http://127.0.0.1:$hbgrdb_port$(path_of $route)" | wc -c)
    echo "GET $(path_of $route): cloner $a bytes, hbgrdb $b bytes" >&2
    [[ $a == "$b" ]] || echo "warning: the two answers differ in length" >&2
done

# wrk latency "1.23ms" / "456.00us" / "1.02s" -> milliseconds
to_ms() {
    awk -v v="$1" 'BEGIN {
        n = v + 0
        if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000
        printf "%.3f", n }'
}

# The median of sorted numbers on stdin (the lower middle one for an even count).
median() { awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

results="$work/results.tsv"
: > "$results"
for route in $routes; do
    for server in $(servers_of "$route"); do
        wrk -t2 -c50 -d2s "http://127.0.0.1:${server#*:}$(path_of "$route")" > /dev/null   # warm-up
    done
done
echo "load average before the rounds: $(cat /proc/loadavg)" >&2
for round in $(seq 1 "$rounds"); do
    for c in $connections; do
        for route in $routes; do
            for server in $(servers_of "$route"); do
                name=${server%%:*}
                out="$work/wrk-$route-$name-$c-$round.txt"
                wrk -t2 -c"$c" -d"$duration" --latency "http://127.0.0.1:${server#*:}$(path_of "$route")" > "$out"
                rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
                p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$out")")
                errors=$(awk '/Socket errors|Non-2xx/ { printf "%s ", $0 }' "$out")
                printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$round" "$c" "$route" "$name" "$rps" "$p99" "$errors" >> "$results"
                printf "round %s  c=%-4s %-8s %-12s %10s req/s  p99 %8s ms  %s\n" "$round" "$c" "$route" "$name" "$rps" "$p99" "$errors" >&2
            done
        done
    done
    echo "load average after round $round: $(cat /proc/loadavg)" >&2
done
for server in "cloner:$cloner_pid" "hbgrdb:$hbgrdb_pid" "nginx:$nginx_pid"; do
    kill -0 "${server#*:}" 2>/dev/null || fail "${server%%:*} died during the rounds"
done

value() { # column conns route server
    awk -F'\t' -v col="$1" -v c="$2" -v r="$3" -v n="$4" '$2 == c && $3 == r && $4 == n { print $col }' "$results" | sort -n | median
}

echo
echo "median over $rounds round(s), wrk -t2 -d$duration, access log: $access_log"
echo "load average at the end: $(cat /proc/loadavg)"
printf "%-6s %-24s %-12s %12s %10s\n" "conns" "route" "server" "req/s" "p99 ms"
for c in $connections; do
    for route in $routes; do
        for server in $(servers_of "$route"); do
            name=${server%%:*}
            printf "%-6s %-24s %-12s %12.0f %10.2f\n" "$c" "$(path_of "$route")" "$name" "$(value 5 "$c" "$route" "$name")" "$(value 6 "$c" "$route" "$name")"
        done
    done
done
echo
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
for c in $connections; do
    if [[ " $routes " == *" healthz "* ]]; then
        health=$(value 5 "$c" healthz cloner)
        echo "c=$c  cloner /healthz / nginx = $(ratio "$health" "$(value 5 "$c" healthz nginx)")x, / hbgrdb (Hummingbird 2) = $(ratio "$health" "$(value 5 "$c" healthz hbgrdb)")x"
        [[ " $routes " == *" notes "* ]] && echo "c=$c  cloner /notes/1 / cloner /healthz = $(ratio "$(value 5 "$c" notes cloner)" "$health")x (goal 0.6x)"
        [[ " $routes " == *" items "* ]] && echo "c=$c  cloner /items / cloner /healthz = $(ratio "$(value 5 "$c" items cloner)" "$health")x (goal 0.25x)"
    fi
    for route in notes items; do
        [[ " $routes " == *" $route "* ]] || continue
        echo "c=$c  cloner / hbgrdb on $(path_of $route) = $(ratio "$(value 5 "$c" $route cloner)" "$(value 5 "$c" $route hbgrdb)")x req/s, p99 $(value 6 "$c" $route cloner) vs $(value 6 "$c" $route hbgrdb) ms"
    done
done
