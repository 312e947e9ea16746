#!/usr/bin/env bash
# Side-by-side load test of ClonerHTTP against Hummingbird 2 (and nginx, if installed) on
# GET /healthz -> {"status":"ok"} (application/json), with wrk.
#
#   scripts/bench-http.sh                     ROUNDS=2 DURATION=10s CONNECTIONS="50 500"
#   ACCESS_LOG=/tmp/access.log scripts/bench-http.sh     log to a real file instead of /dev/null
#
# Cloner's side is the release `cloner serve` itself on a scratch database: its real parser,
# router, request ids, JSON access log and request metrics. The peer is /work/shared/bench/hbpeer, built in a copy under
# /tmp so its .build/ never enters this tree. Runs alternate between the servers, round after
# round, so a noisy neighbour on this shared 2-core machine hurts both sides alike; the summary
# takes each side's median over the rounds (the lower middle one for an even count). Goal
# (issue 3): Cloner >= 1.5x Hummingbird's requests/s at every concurrency, with p99 no worse.
#
# Measured 2026-11-21 on the shared 2-core VM, ROUNDS=3 DURATION=10s, access log to /dev/null,
# against the release `cloner serve` (load average ~2 at the start):
#   c=50:  cloner 83,244 req/s p99 2.2 ms  | hummingbird 50,228 p99 2.4 ms  | nginx 119,297 p99 7.3 ms
#   c=500: cloner 77,936 req/s p99 12.0 ms | hummingbird 44,404 p99 23.1 ms | nginx 127,821 p99 8.8 ms
#   ratio 1.66x and 1.76x, p99 no worse at either (goal met).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-2}
duration=${DURATION:-10s}
connections=${CONNECTIONS:-"50 500"}
access_log=${ACCESS_LOG:-/dev/null}
cloner_port=${CLONER_PORT:-18081}
hb_port=${HB_PORT:-18090}
nginx_port=${NGINX_PORT:-18092}
hb_source=/work/shared/bench/hbpeer
hb_build=${HB_BUILD:-/tmp/hbpeer-build}

work=$(mktemp -d /tmp/bench-http.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

if [[ ! -x "$hb_build/.build/release/hbpeer" ]]; then
    echo "building hbpeer in $hb_build (about 4 minutes the first time)" >&2
    rm -rf "$hb_build"
    cp -r "$hb_source" "$hb_build"
    chmod -R u+w "$hb_build"
    (cd "$hb_build" && swift build -c release >&2)
fi
echo "building cloner (release)" >&2
swift build -c release --product cloner >&2
cloner_bin="$(swift build -c release --show-bin-path)/cloner"

wait_for_port() {
    for _ in $(seq 1 100); do
        if curl -fsS -o /dev/null "http://127.0.0.1:$1/healthz" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "nothing answers on port $1" >&2
    return 1
}

# The service itself: its /healthz route, with request ids, the JSON access log (one line per
# request on stdout, sent to $access_log) and the Prometheus request metrics all on.
# Every wrk connection comes from 127.0.0.1: lift the per-client share (256) above 500.
CLONER_HTTP_MAX_CONNECTIONS_PER_CLIENT=4096 "$cloner_bin" serve --port "$cloner_port" --database "$work/cloner.sqlite" --model config/model.json \
    > "$access_log" 2> "$work/cloner.err" &
pids+=($!)
"$hb_build/.build/release/hbpeer" "$hb_port" > "$work/hbpeer.out" 2>&1 &
pids+=($!)
servers=("cloner:$cloner_port" "hummingbird:$hb_port")

if command -v nginx > /dev/null; then
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
    keepalive_requests 1000;
    server {
        listen 127.0.0.1:$nginx_port reuseport backlog=1024;
        location = /healthz { default_type application/json; return 200 '{"status":"ok"}'; }
    }
}
CONF
    nginx -c "$work/nginx/nginx.conf" > "$work/nginx.out" 2>&1 &
    pids+=($!)
    servers+=("nginx:$nginx_port")
fi

for server in "${servers[@]}"; do wait_for_port "${server#*:}"; done

echo "--- one answer from each server" >&2
for server in "${servers[@]}"; do
    echo "[${server%%:*}]" >&2
    curl -si "http://127.0.0.1:${server#*:}/healthz" >&2
    echo >&2
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
for server in "${servers[@]}"; do
    wrk -t2 -c50 -d2s "http://127.0.0.1:${server#*:}/healthz" > /dev/null   # warm-up
done
for round in $(seq 1 "$rounds"); do
    for c in $connections; do
        for server in "${servers[@]}"; do
            name=${server%%:*}
            out="$work/wrk-$name-$c-$round.txt"
            wrk -t2 -c"$c" -d"$duration" --latency "http://127.0.0.1:${server#*:}/healthz" > "$out"
            rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
            p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$out")")
            errors=$(awk '/Socket errors|Non-2xx/ { printf "%s ", $0 }' "$out")
            printf "%s\t%s\t%s\t%s\t%s\t%s\n" "$round" "$c" "$name" "$rps" "$p99" "$errors" >> "$results"
            printf "round %s  c=%-4s %-12s %10s req/s  p99 %8s ms  %s\n" "$round" "$c" "$name" "$rps" "$p99" "$errors" >&2
        done
    done
done

echo
echo "median over $rounds round(s), wrk -t2 -d$duration, access log: $access_log"
printf "%-6s %-12s %12s %10s\n" "conns" "server" "req/s" "p99 ms"
for c in $connections; do
    for server in "${servers[@]}"; do
        name=${server%%:*}
        rps=$(awk -F'\t' -v c="$c" -v n="$name" '$2 == c && $3 == n { print $4 }' "$results" | sort -n | median)
        p99=$(awk -F'\t' -v c="$c" -v n="$name" '$2 == c && $3 == n { print $5 }' "$results" | sort -n | median)
        printf "%-6s %-12s %12.0f %10.2f\n" "$c" "$name" "$rps" "$p99"
    done
done | tee "$work/summary.txt"
echo
while read -r c name rps p99; do
    if [[ "$name" == cloner ]]; then cloner_rps=$rps; cloner_p99=$p99; fi
    if [[ "$name" == hummingbird ]]; then
        awk -v c="$c" -v a="$cloner_rps" -v b="$rps" -v pa="$cloner_p99" -v pb="$p99" 'BEGIN {
            ratio = a / b
            goal = (ratio >= 1.5) ? "met" : "NOT met"
            latency = (pa <= pb) ? "no worse" : "WORSE"
            printf "c=%-4s cloner/hummingbird = %.2fx req/s (goal 1.5x: %s), p99 %.2f vs %.2f ms (%s)\n",
                c, ratio, goal, pa, pb, latency }'
    fi
done < "$work/summary.txt"
