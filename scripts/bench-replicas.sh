#!/usr/bin/env bash
# Replicas benchmark: clones/s and objects/s of 1, 2 and 4 `cloner serve` replicas
# behind haproxy on one PostgreSQL database, beside one SQLite `cloner serve` process on the same
# work (direct, and behind the same haproxy configuration), plus GET /notes/{id} req/s — all in
# one run on this machine, the setups alternating round after round (the first setup rotates),
# medians of the rounds, with the load average, the CPU split between postgres, cloner, haproxy
# and the load generator (from /proc/<pid>/stat before and after each run), and what PostgreSQL's
# busy backends were waiting on (pg_stat_activity sampled every 100 ms).
#
#   scripts/bench-replicas.sh [--sizes 100,1000] [--clients 8,32] [--replicas 1,2,4]
#                             [--rounds 3] [--duration 5] [--notes 4] [--get-clients 32]
#                             [--pg-conf K=V]… [--keep] [--dir DIR]
#
#   --sizes      items per seeded note (a clone copies the note and its items: N+1 objects)
#   --clients    concurrent clients (wrk connections, 2 threads) for the clone runs
#   --replicas   replica counts to measure; the largest is started once, the smaller ones are
#                the first replicas of it behind their own haproxy
#   --rounds     rounds (medians are over these); --duration: seconds per wrk run
#   --notes      seeded notes per size; the clients clone them in turn
#   --pg-conf    a PostgreSQL setting (repeatable). Default synchronous_commit=off, which is
#                what SQLite's WAL with synchronous=NORMAL (Cloner's setting) promises: a
#                power cut may lose the last commits, never corrupt. Give
#                --pg-conf synchronous_commit=on to measure a flush per commit.
#   --keep       leave the databases, logs and raw results in the directory (printed)
#
# Every process is started by this script and stopped by its pid. Each replica and the SQLite
# process may run 32 clone jobs at once (CLONER_MAX_CONCURRENT_CLONES=32, so no run is cut by
# Cloner's 503); each PostgreSQL replica holds at most 10 connections (the default pool).
# Default settings take about 8 minutes. Needs wrk, haproxy, curl, PostgreSQL (initdb, psql).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HAPROXY=${HAPROXY:-/usr/sbin/haproxy}
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}

sizes=100,1000 clients=8,32 replica_counts=1,2,4 rounds=3 duration=5 notes=4 get_clients=32 keep=0 base=""
pg_conf=()
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) sizes=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --replicas) replica_counts=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --notes) notes=$2; shift 2 ;;
        --get-clients) get_clients=$2; shift 2 ;;
        --pg-conf) pg_conf+=("$2"); shift 2 ;;
        --keep) keep=1; shift ;;
        --dir) base=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-replicas.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ ${#pg_conf[@]} -gt 0 ] || pg_conf=(synchronous_commit=off)
for tool in wrk curl "$HAPROXY" "$PG_BIN/psql"; do
    command -v "$tool" >/dev/null || { echo "bench-replicas.sh: $tool not found" >&2; exit 1; }
done
IFS=, read -r -a sizes <<< "$sizes"
IFS=, read -r -a clients <<< "$clients"
IFS=, read -r -a replica_counts <<< "$replica_counts"
max_replicas=$(printf '%s\n' "${replica_counts[@]}" | sort -n | tail -1)
max_clones=32
ncores=$(nproc)
hz=$(getconf CLK_TCK)

cloner="$ROOT/.build/release/cloner"
if [ ! -x "$cloner" ]; then
    echo "building the release binary…" >&2
    (cd "$ROOT" && swift build -c release --product cloner >&2)
fi

if [ -z "$base" ]; then base=$(mktemp -d /tmp/cloner-bench.XXXXXX); else mkdir -p "$base"; fi
base=$(cd "$base" && pwd)
chmod 755 "$base"
own_pids=()  # haproxy fronts and the SQLite process: started here, stopped here by pid
pg_dir="$base/pg"

cleanup() {
    local pid
    trap - EXIT INT TERM
    rm -f "$base/sampling"
    for pid in ${own_pids[@]+"${own_pids[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in ${own_pids[@]+"${own_pids[@]}"}; do
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    [ -f "$pg_dir/pids" ] && "$ROOT/scripts/replicas.sh" stop --keep "$pg_dir" 2>/dev/null
    if [ $keep = 1 ]; then echo "files kept in $base" >&2; else rm -rf "$base"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
    local p
    for _ in $(seq 1 100); do p=$((20000 + RANDOM % 12000)); port_in_use "$p" || { echo "$p"; return 0; }; done
    return 1
}
wait_ready() {
    for _ in $(seq 1 300); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "$1/readyz")" = 200 ] && return 0
        sleep 0.1
    done
    echo "bench-replicas.sh: $1 not ready" >&2; return 1
}

# Starts haproxy in front of the given backends; sets front_url (not printed: the pids must be
# recorded in this shell, not in a command substitution's).
start_front() {
    local name=$1; shift
    local port stats
    port=$(free_port); stats=$(free_port)
    "$ROOT/scripts/replicas.sh" haproxy-config --listen "127.0.0.1:$port" --stats-listen "127.0.0.1:$stats" \
        --clone-maxconn $max_clones "$@" > "$base/haproxy-$name.cfg"
    setsid "$HAPROXY" -db -f "$base/haproxy-$name.cfg" >> "$base/haproxy-$name.log" 2>&1 < /dev/null &
    own_pids+=($!); haproxy_pids+=($!)
    front_url="http://127.0.0.1:$port"
    wait_ready "$front_url"
}

echo "== set-up ($(date -u '+%Y-%m-%d %H:%M UTC'), $ncores cores, load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
haproxy_pids=()
pg_args=()
# pg_stat_statements (with planning time) says which statements the database's time went to.
for setting in shared_preload_libraries=pg_stat_statements pg_stat_statements.track_planning=on "${pg_conf[@]}"; do
    pg_args+=(--pg-conf "$setting")
done
"$ROOT/scripts/replicas.sh" --detach --dir "$pg_dir" --keep --max-clones $max_clones "${pg_args[@]}" "$max_replicas" >/dev/null
# shellcheck disable=SC1091
source "$pg_dir/env"
haproxy_pids+=("$HAPROXY_PID")
read -r -a replica_ports <<< "$REPLICA_PORTS"
read -r -a replica_pids <<< "$REPLICA_PIDS"
pg_uri=$DATABASE_URI

declare -A url
setups=()
for n in "${replica_counts[@]}"; do
    if [ "$n" = "$max_replicas" ]; then
        url[pg$n]=$URL
    else
        backends=()
        for i in $(seq 0 $((n - 1))); do backends+=("127.0.0.1:${replica_ports[$i]}"); done
        start_front "pg$n" "${backends[@]}"; url[pg$n]=$front_url
    fi
done

mkdir -p "$base/sqlite"
sqlite_port=$(free_port)
CLONER_MAX_CONCURRENT_CLONES=$max_clones setsid "$cloner" serve --host 127.0.0.1 --port "$sqlite_port" \
    --database "$base/sqlite/cloner.sqlite" --model "$ROOT/config/model.json" \
    >> "$base/sqlite/cloner.log" 2>&1 < /dev/null &
sqlite_pid=$!
own_pids+=("$sqlite_pid")
url[sqlite]="http://127.0.0.1:$sqlite_port"
wait_ready "${url[sqlite]}"
# The SQLite process is also measured direct, so it reads no PROXY protocol header: its front
# sends none.
start_front sqlite --no-proxy-protocol "127.0.0.1:$sqlite_port"; url[sqlite_haproxy]=$front_url
setups=(sqlite sqlite_haproxy)
for n in "${replica_counts[@]}"; do setups+=("pg$n"); done
declare -A label=([sqlite]="SQLite, 1 process, direct" [sqlite_haproxy]="SQLite, 1 process, via haproxy")
for n in "${replica_counts[@]}"; do label[pg$n]="PostgreSQL, $n replica$([ "$n" = 1 ] || echo s), via haproxy"; done

# ---------------------------------------------------------------------------- seed
# Notes of N items each, created through the API (one nested create per note), in both stores.
declare -A ids objects
seed_note() {
    local target=$1 size=$2 body i
    body="{\"id\":\"$(cat /proc/sys/kernel/random/uuid)\",\"name\":\"bench $size\",\"createDate\":\"2026-11-23T10:00:00Z\",\"items\":["
    for i in $(seq 1 "$size"); do body+="{\"name\":\"item $i\"},"; done
    body="${body%,}]}"
    curl -sf -X POST "$target/notes" -H 'Content-Type: application/json' --data-binary "$body" | sed -n 's/^{"_id":\([0-9]*\),.*/\1/p'
}
for store in sqlite pg; do
    target=${url[sqlite]}; [ $store = pg ] && target=$URL
    for size in "${sizes[@]}"; do
        list=""
        for _ in $(seq 1 "$notes"); do
            id=$(seed_note "$target" "$size")
            [ -n "$id" ] || { echo "bench-replicas.sh: seeding a note of $size items failed" >&2; exit 1; }
            list+="$id,"
        done
        ids[$store,$size]=${list%,}
        # Objects a clone creates, from a dry run (nothing written).
        objects[$size]=$(curl -sf -X POST "$target/notes/${list%%,*}/clone" -H 'Content-Type: application/json' \
            -d '{"dryRun": true}' | grep -o '"created":{[^}]*}' | grep -o '[0-9]\+' | awk '{ s += $1 } END { print s }')
    done
done

# Statement statistics from here on (the extension lives in the postgres database, not in the store).
admin_uri=${pg_uri/\/cloner\?/\/postgres?}
"$PG_BIN/psql" -qAt "$admin_uri" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" -c "SELECT pg_stat_statements_reset()" >/dev/null

cat > "$base/notes.lua" <<'LUA'
-- Over the seeded notes in turn (each thread from its own start): GET /notes/{id}, or with
-- "clone" as the second argument POST /notes/{id}/clone.
local ids, n, clone = {}, 0, false
function init(args)
  for id in string.gmatch(args[1], "%d+") do ids[#ids + 1] = id end
  clone = args[2] == "clone"
  n = (tonumber(tostring({}):match("0x(%x+)"), 16) or 0) % #ids
end
function request()
  n = n % #ids + 1
  if clone then
    return wrk.format("POST", "/notes/" .. ids[n] .. "/clone", {["Content-Type"] = "application/json"}, "{}")
  end
  return wrk.format("GET", "/notes/" .. ids[n])
end
LUA

# ---------------------------------------------------------------------------- measuring
postmaster=$POSTMASTER_PID
# CPU ticks (user + system) of a process group. postgres: the postmaster, its reaped children
# (cutime/cstime) and its live children (backends, checkpointer, autovacuum …).
ticks() {
    case $1 in
        postgres) { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v pm="$postmaster" '
            # After "pid (comm) ": state ppid … utime(12) stime(13) cutime(14) cstime(15).
            { pid = $1; line = $0; sub(/^.*\) /, "", line); split(line, f, " ")
              if (pid == pm) t += f[12] + f[13] + f[14] + f[15]; else if (f[2] == pm) t += f[12] + f[13] }
            END { print t + 0 }' ;;
        pids) shift; local t=0 p
            for p in "$@"; do
                [ -r "/proc/$p/stat" ] || continue
                t=$((t + $(sed 's/^.*) //' "/proc/$p/stat" | awk '{print $12 + $13}')))
            done; echo "$t" ;;
        children) sed 's/^.*) //' /proc/$$/stat | awk '{print $14 + $15}' ;;  # our reaped children (wrk)
        machine) awk '/^cpu /{print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat ;;  # busy, all processes
    esac
}
now() { date +%s.%N; }
to_ms() { awk -v v="$1" 'BEGIN { if (v ~ /us$/) print v / 1000; else if (v ~ /ms$/) print v + 0; else if (v ~ /s$/) print v * 1000; else print v }'; }

# Samples pg_stat_activity every 100 ms over one connection while $base/sampling exists.
start_sampler() {
    touch "$base/sampling"
    (while [ -f "$base/sampling" ]; do
        echo "SELECT '#sample';"
        echo "SELECT state || '|' || CASE WHEN wait_event IS NOT NULL THEN wait_event_type || '|' || wait_event WHEN state = 'active' THEN 'on CPU' ELSE 'between statements' END FROM pg_stat_activity WHERE datname = 'cloner' AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND state <> 'idle';"
        sleep 0.1
    done) | "$PG_BIN/psql" -qAt "$pg_uri" >> "$1" 2>/dev/null &
    sampler=$!
}
stop_sampler() { rm -f "$base/sampling"; wait "$sampler" 2>/dev/null || true; }

results="$base/results.tsv"
: > "$results"
# One wrk run; appends a line to results.tsv:
# kind size clients setup round requests non2xx seconds p50ms p99ms %postgres %cloner %haproxy %client %machine
run() {
    local kind=$1 size=$2 conns=$3 setup=$4 round=$5 lua_ids out
    [[ $setup == pg* ]] && lua_ids=${ids[pg,$size]} || lua_ids=${ids[sqlite,$size]}
    [[ $setup == pg* ]] && start_sampler "$base/waits-$kind-$setup.txt"
    local c0 p0 h0 w0 m0 t0 c1 p1 h1 w1 m1 t1
    p0=$(ticks postgres); c0=$(ticks pids "${replica_pids[@]}" "$sqlite_pid"); h0=$(ticks pids "${haproxy_pids[@]}")
    w0=$(ticks children); m0=$(ticks machine); t0=$(now)
    out=$(wrk -t2 -c"$conns" -d"${duration}s" --timeout 60s --latency -s "$base/notes.lua" "${url[$setup]}" -- "$lua_ids" "$kind" 2>&1)
    t1=$(now); m1=$(ticks machine); w1=$(ticks children)
    p1=$(ticks postgres); c1=$(ticks pids "${replica_pids[@]}" "$sqlite_pid"); h1=$(ticks pids "${haproxy_pids[@]}")
    [[ $setup == pg* ]] && stop_sampler
    top -b -n1 -w 200 | head -20 > "$base/top-$kind-$size-$conns-$setup-$round.txt"
    local requests non2xx secs p50 p99
    requests=$(sed -n 's/^ *\([0-9]*\) requests in \([0-9.]*\)\(m\{0,1\}s\).*/\1/p' <<< "$out")
    secs=$(sed -n 's/^ *[0-9]* requests in \([0-9.]*m\{0,1\}s\).*/\1/p' <<< "$out")
    secs=$(awk -v v="$secs" 'BEGIN { print (v ~ /ms$/) ? v / 1000 : v + 0 }')
    non2xx=$(sed -n 's/^ *Non-2xx or 3xx responses: *\([0-9]*\).*/\1/p' <<< "$out"); non2xx=${non2xx:-0}
    local errors; errors=$(sed -n 's/^ *Socket errors: //p' <<< "$out")
    [ -n "$errors" ] && echo "  ($kind $size items, $conns clients, $setup: socket errors: $errors)" >&2
    p50=$(to_ms "$(awk '$1 == "50%" {print $2}' <<< "$out")")
    p99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<< "$out")")
    [ -n "$requests" ] || { echo "bench-replicas.sh: wrk failed: $out" >&2; exit 1; }
    awk -v OFS='\t' -v kind="$kind" -v size="$size" -v conns="$conns" -v setup="$setup" -v round="$round" \
        -v req="$requests" -v bad="$non2xx" -v secs="$secs" -v p50="$p50" -v p99="$p99" \
        -v el="$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b - a}')" -v hz="$hz" -v nc="$ncores" \
        -v pg=$((p1 - p0)) -v cl=$((c1 - c0)) -v ha=$((h1 - h0)) -v wk=$((w1 - w0)) -v mc=$((m1 - m0)) \
        'BEGIN { cap = hz * el * nc / 100;
                 print kind, size, conns, setup, round, req, bad, secs, p50, p99,
                       pg / cap, cl / cap, ha / cap, wk / cap, mc / cap }' >> "$results"
}

estimate=$(( rounds * ( ${#sizes[@]} * ${#clients[@]} + 1 ) * ${#setups[@]} * (duration + 1) ))
echo "== seeded ${notes} notes of ${sizes[*]} items in each store; ${#setups[@]} setups × $rounds rounds: about $((estimate / 60)) min" >&2
declare -A load_before load_after
for round in $(seq 1 "$rounds"); do
    # Alternate: each round starts from a different setup.
    order=("${setups[@]:$(( (round - 1) % ${#setups[@]} ))}" "${setups[@]:0:$(( (round - 1) % ${#setups[@]} ))}")
    for size in "${sizes[@]}"; do
        for conns in "${clients[@]}"; do
            [ "$round" = 1 ] && load_before[clone,$size,$conns]=$(cut -d' ' -f1-3 /proc/loadavg)
            for setup in "${order[@]}"; do run clone "$size" "$conns" "$setup" "$round"; done
            load_after[clone,$size,$conns]=$(cut -d' ' -f1-3 /proc/loadavg)
        done
    done
    [ "$round" = 1 ] && load_before[get]=$(cut -d' ' -f1-3 /proc/loadavg)
    for setup in "${order[@]}"; do run get "${sizes[0]}" "$get_clients" "$setup" "$round"; done
    load_after[get]=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "   round $round of $rounds done (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done

# ---------------------------------------------------------------------------- report
# Medians over the rounds of each column, per (kind, size, clients, setup).
medians() {
    awk -F'\t' -v kind="$1" -v size="$2" -v conns="$3" -v setup="$4" -v nc="$ncores" '
        function median(s,   n, a, i, j, t) {
            n = split(s, a, " ")
            for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        $1 == kind && $2 == size && $3 == conns && $4 == setup {
            rate = ($6 - $7) / $8; rates = rates " " rate; bad = bad " " $7
            p50 = p50 " " $9; p99 = p99 " " $10
            pg = pg " " $11; cl = cl " " $12; ha = ha " " $13; wk = wk " " $14; mc = mc " " $15
            other = other " " ($15 - $11 - $12 - $13 - $14)
            # CPU time the service spent per answer (postgres + cloner + haproxy), in ms: what a
            # request costs whatever else the machine was doing.
            cost = cost " " (rate > 0 ? ($11 + $12 + $13) / 100 * nc * $8 * 1000 / ($6 - $7) : 0)
        }
        END { print median(rates), median(bad), median(p50), median(p99), median(pg), median(cl), median(ha), median(wk), median(other), median(cost) }
    ' "$results"
}
cpu_cell() { printf '%.0f / %.0f / %.0f / %.0f / %.0f' "$1" "$2" "$3" "$4" "$5"; }

echo
echo "# Cloner replicas benchmark — $(date -u '+%Y-%m-%d'), $ncores cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') (${pg_conf[*]}), haproxy $("$HAPROXY" -v | awk 'NR==1{print $3}')"
echo "wrk -t2, ${duration} s per run, medians of $rounds rounds. CPU is % of the whole machine (${ncores} cores = 100): postgres / cloner / haproxy / wrk / everything else (other users of the machine); CPU ms/clone is the CPU time postgres + cloner + haproxy spent per answer."
for size in "${sizes[@]}"; do
    for conns in "${clients[@]}"; do
        echo
        echo "## Clone a note of $size items (${objects[$size]} objects a clone), $conns clients — load average ${load_before[clone,$size,$conns]} before, ${load_after[clone,$size,$conns]} after"
        echo
        echo "| setup | clones/s | objects/s | p50 ms | p99 ms | non-2xx | vs SQLite direct | CPU ms/clone | CPU % pg / cloner / haproxy / wrk / other |"
        echo "|---|---|---|---|---|---|---|---|---|"
        reference=""
        for setup in "${setups[@]}"; do
            read -r rate bad p50 p99 pg cl ha wk other cost <<< "$(medians clone "$size" "$conns" "$setup")"
            [ -n "$reference" ] || reference=$rate
            printf '| %s | %.1f | %.0f | %.1f | %.1f | %s | %.2f | %.1f | %s |\n' "${label[$setup]}" "$rate" \
                "$(awk -v r="$rate" -v o="${objects[$size]}" 'BEGIN{print r * o}')" "$p50" "$p99" "$bad" \
                "$(awk -v r="$rate" -v s="$reference" 'BEGIN{print (s > 0) ? r / s : 0}')" "$cost" "$(cpu_cell "$pg" "$cl" "$ha" "$wk" "$other")"
        done
    done
done
echo
echo "## GET /notes/{id} (a note of ${sizes[0]} items), $get_clients clients — load average ${load_before[get]} before, ${load_after[get]} after"
echo
echo "| setup | req/s | p50 ms | p99 ms | non-2xx | vs SQLite direct | CPU µs/request | CPU % pg / cloner / haproxy / wrk / other |"
echo "|---|---|---|---|---|---|---|---|"
reference=""
for setup in "${setups[@]}"; do
    read -r rate bad p50 p99 pg cl ha wk other cost <<< "$(medians get "${sizes[0]}" "$get_clients" "$setup")"
    [ -n "$reference" ] || reference=$rate
    printf '| %s | %.0f | %.2f | %.2f | %s | %.2f | %.0f | %s |\n' "${label[$setup]}" "$rate" "$p50" "$p99" "$bad" \
        "$(awk -v r="$rate" -v s="$reference" 'BEGIN{print (s > 0) ? r / s : 0}')" "$(awk -v c="$cost" 'BEGIN{print c * 1000}')" "$(cpu_cell "$pg" "$cl" "$ha" "$wk" "$other")"
done
echo
echo "## What PostgreSQL's client backends were doing during the clone runs (pg_stat_activity every 100 ms: mean number of backends per sample in each state | wait_event_type | wait_event; 'idle in transaction | Client | ClientRead' is a backend waiting for its replica's next statement)"
for n in "${replica_counts[@]}"; do
    f="$base/waits-clone-pg$n.txt"
    [ -s "$f" ] || continue
    echo
    echo "${label[pg$n]}: $(awk '$0 == "#sample" { s++ } $0 != "#sample" { b++ } END { printf "%.1f busy backends on average over %d samples", b / (s ? s : 1), s }' "$f")"
    awk '$0 == "#sample" { s++; next } { c[$0]++ } END { for (k in c) printf "%6.2f  %s\n", c[k] / (s ? s : 1), k }' "$f" | sort -rn | head -8 | sed 's/^/    /'
done
echo
echo "## Where PostgreSQL's time went (pg_stat_statements over all PostgreSQL runs, clones and GETs: planning + execution, wall time inside the server, so waiting for a core counts)"
echo
"$PG_BIN/psql" -qAt -F' | ' "$admin_uri" <<'SQL' | sed 's/^/    /'
-- Grouped by the statement's first 70 characters: a statement on a session's temporary tables
-- gets its own entry per session (its query id includes the tables' OIDs).
WITH s AS (
  SELECT left(regexp_replace(query, '\s+', ' ', 'g'), 70) AS query, sum(calls) AS calls,
         sum(total_exec_time + total_plan_time) AS total, sum(total_plan_time) AS plan
  FROM pg_stat_statements JOIN pg_database d ON d.oid = dbid WHERE d.datname = 'cloner'
  GROUP BY 1
)
SELECT 'all statements: ' || round(sum(total)::numeric / 1000, 1) || ' s, of which planning '
       || round(100 * sum(plan)::numeric / nullif(sum(total), 0)::numeric, 0) || ' %' FROM s
UNION ALL
SELECT * FROM (
  SELECT lpad(round(100 * total::numeric / nullif(sum(total) OVER (), 0)::numeric, 1)::text, 5) || ' %'
         || ' | ' || lpad(calls::text, 8) || ' calls | '
         || lpad(round((total / calls)::numeric, 3)::text, 8) || ' ms | '
         || query
  FROM s ORDER BY total DESC LIMIT 12) top;
SQL
if [ $keep = 1 ]; then echo; echo "raw results: $results; top snapshots and waits in $base"; fi
