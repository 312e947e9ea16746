#!/usr/bin/env bash
# N stateless `cloner serve` replicas on one PostgreSQL database behind haproxy, on this machine
# (docs/architecture.md#replicas, docs/scale-out.md). The deployment to copy: one database, any number of
# replicas, a load balancer that health-checks /readyz.
#
#   scripts/replicas.sh [options] N          start, print the URL, stop everything on Ctrl-C
#   scripts/replicas.sh --detach [options] N start, print the state directory, return
#   scripts/replicas.sh stop DIR             stop what a --detach run started (by pid) and
#                                            remove DIR (with --keep: leave the files)
#   scripts/replicas.sh haproxy-config [--listen A] [--stats-listen A] [--clone-maxconn M]
#                                      [--no-proxy-protocol] HOST:PORT…
#                                            print deploy/haproxy.cfg filled for these replicas
#                                            (--clone-maxconn as --max-clones below);
#                                            --no-proxy-protocol for backends that do not read
#                                            the PROXY protocol header (see below)
#
# Options:
#   --port P          haproxy's port (default 8080, or a free one when 8080 is taken)
#   --dir DIR         state directory (default: a new one under /tmp); holds the PostgreSQL
#                     cluster, logs, haproxy.cfg, the pid list `pids` and `env`
#   --database URI    use this database instead of starting PostgreSQL: a postgres:// URI
#                     (any number of replicas), or a SQLite file (then N must be 1)
#   --model FILE      data model (default config/model.json)
#   --pool-size K     connections each replica holds (CLONER_DATABASE_POOL_SIZE, default 10)
#   --max-clones M    clone jobs per replica (CLONER_MAX_CONCURRENT_CLONES); also haproxy's
#                     per-replica limit for clone requests, so excess clones queue in haproxy
#                     rather than getting 503 from a replica. Default: the one database's 8
#                     clones at once shared by the replicas, ceil(8 / N), at least 2 — every
#                     clone's statements run on that database, and more in flight only queue
#                     there, on its cores and row locks (docs/benchmarks.md, "One database's
#                     clones shared by the replicas")
#   --pg-conf K=V     a PostgreSQL setting (repeatable), e.g. --pg-conf synchronous_commit=off
#   --detach          return once everything is up (see `stop`)
#   --keep            `stop` leaves the state directory (database, logs) in place
#
# `env` in the state directory is shell (source it): URL, STATS_URL, DATABASE_URI, PGHOST,
# PGPORT, PGDATA, REPLICA_PORTS, REPLICA_PIDS, HAPROXY_PID, POSTMASTER_PID.
#
# haproxy tells each replica who the client is with the PROXY protocol (`send-proxy-v2`): the
# replicas trust 127.0.0.1 (CLONER_TRUSTED_PROXIES) and expect the header on every connection
# from it (CLONER_PROXY_PROTOCOL), so their access logs and per-client connection shares see the
# real clients. A connection from 127.0.0.1 without the header is closed: to reach a replica
# directly, send one, e.g. `curl --haproxy-protocol http://127.0.0.1:PORT/readyz`.
# The release binary is used (built when missing); as root, PostgreSQL runs as `postgres`.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
HAPROXY=${HAPROXY:-/usr/sbin/haproxy}

die() { echo "replicas.sh: $*" >&2; exit 1; }
log() { echo "replicas.sh: $*" >&2; }

# Runs a PostgreSQL program as the cluster's owner: `postgres` when we are root (initdb and the
# server refuse to run as root), else ourselves.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# True when something accepts connections on 127.0.0.1:$1.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A port nothing listens on, from the ephemeral-looking range but below Linux's default
# ip_local_port_range (32768–60999), so outgoing connections do not take it meanwhile.
free_port() {
    local p _
    for _ in $(seq 1 100); do
        p=$((20000 + RANDOM % 12000))
        port_in_use "$p" || { echo "$p"; return 0; }
    done
    die "no free port found"
}

# Prints deploy/haproxy.cfg with its placeholders filled. $4 = 1: each server line sends the
# PROXY protocol version 2 header, health checks included. Such a connection names one client,
# so it can serve no other: `pool-max-conn 0` closes it when its client leaves, where haproxy
# would otherwise keep it idle, counted against that client's share on the replica.
render_haproxy() {
    local listen=$1 stats=$2 maxconn=$3 proxy_protocol=$4; shift 4
    local servers="" clones="" i=0 backend send=""
    [ "$proxy_protocol" = 1 ] && send=" send-proxy-v2 pool-max-conn 0"
    for backend in "$@"; do
        i=$((i + 1))
        servers+="    server r$i $backend$send${send:+ check-send-proxy}"$'\n'
        clones+="    server r$i $backend$send track cloner/r$i"$'\n'
    done
    awk -v listen="$listen" -v stats="$stats" -v maxconn="$maxconn" \
        -v servers="${servers%$'\n'}" -v clones="${clones%$'\n'}" '
        $0 == "@SERVERS@" { print servers; next }
        $0 == "@CLONE_SERVERS@" { print clones; next }
        { gsub(/@LISTEN@/, listen); gsub(/@STATS_LISTEN@/, stats); gsub(/@CLONE_MAXCONN@/, maxconn); print }
    ' "$ROOT/deploy/haproxy.cfg"
}

# Waits until http://127.0.0.1:$1$2 answers 200 while pid $3 lives; false otherwise. Further
# arguments go to curl (--haproxy-protocol for a replica, which expects the PROXY header).
wait_ready() {
    local port=$1 path=$2 pid=$3 _; shift 3
    for _ in $(seq 1 300); do
        kill -0 "$pid" 2>/dev/null || return 1
        [ "$(curl -s -o /dev/null -w '%{http_code}' "$@" "http://127.0.0.1:$port$path")" = 200 ] && return 0
        sleep 0.1
    done
    return 1
}

# Stops what the state directory's `pids` file lists, in order: replicas first (SIGTERM: they
# turn /readyz to 503, drain, and exit), then haproxy, then PostgreSQL (fast shutdown).
# Every process is one this script started; each is signalled by its own pid.
stop_dir() {
    local dir=$1 keep=${2:-0} name pid waited
    [ -f "$dir/pids" ] || { log "$dir has no pids file"; return 0; }
    local replica_pids=() haproxy_pid="" pgdata=""
    while read -r name pid; do
        case $name in
            replica*) replica_pids+=("$pid") ;;
            haproxy*) haproxy_pid+=" $pid" ;;
            postgres) pgdata=$pid ;;
        esac
    done < "$dir/pids"
    for pid in "${replica_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    # The drain takes the grace (2 s) plus whatever is in flight, within the drain timeout (30 s).
    for pid in "${replica_pids[@]}"; do
        waited=0
        while kill -0 "$pid" 2>/dev/null && [ $waited -lt 350 ]; do sleep 0.1; waited=$((waited + 1)); done
        kill -0 "$pid" 2>/dev/null && { log "replica $pid still running after 35 s: SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; }
    done
    for pid in $haproxy_pid; do
        kill -TERM "$pid" 2>/dev/null || true
        waited=0
        while kill -0 "$pid" 2>/dev/null && [ $waited -lt 50 ]; do sleep 0.1; waited=$((waited + 1)); done
    done
    if [ -n "$pgdata" ] && [ -f "$pgdata/postmaster.pid" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$pgdata" -m fast -w stop >/dev/null || log "pg_ctl stop failed (see $dir/postgres.log)"
    fi
    rm -f "$dir/pids"
    if [ "$keep" = 1 ]; then log "stopped; files kept in $dir"; else rm -rf "$dir"; fi
}

# Clones one of N replicas runs at once by default: the one database's 8 shared by the
# replicas, ceil(8 / N), at least 2 (see --max-clones).
clone_share() {
    local share=$(((8 + $1 - 1) / $1))
    echo $((share < 2 ? 2 : share))
}

# ---------------------------------------------------------------------------- subcommands
case ${1:-} in
    stop)
        shift; keep=0
        [ "${1:-}" = --keep ] && { keep=1; shift; }
        [ $# = 1 ] || die "usage: replicas.sh stop [--keep] DIR"
        stop_dir "$1" "$keep"; exit 0 ;;
    haproxy-config)
        shift; listen=127.0.0.1:8080; stats=127.0.0.1:8404; maxconn=; proxy_protocol=1
        while [ $# -gt 0 ]; do
            case $1 in
                --listen) listen=$2; shift 2 ;;
                --stats-listen) stats=$2; shift 2 ;;
                --clone-maxconn) maxconn=$2; shift 2 ;;
                --no-proxy-protocol) proxy_protocol=0; shift ;;
                *) break ;;
            esac
        done
        [ $# -ge 1 ] || die "usage: replicas.sh haproxy-config [--listen A] [--stats-listen A] [--clone-maxconn M] [--no-proxy-protocol] HOST:PORT…"
        [ -n "$maxconn" ] || maxconn=$(clone_share $#)
        render_haproxy "$listen" "$stats" "$maxconn" "$proxy_protocol" "$@"; exit 0 ;;
esac

# ---------------------------------------------------------------------------- options
port="" dir="" database="" model="$ROOT/config/model.json" pool=10 max_clones= detach=0 keep=0
pg_conf=()
while [ $# -gt 0 ]; do
    case $1 in
        --port) port=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --database) database=$2; shift 2 ;;
        --model) model=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        --pool-size) pool=$2; shift 2 ;;
        --max-clones) max_clones=$2; shift 2 ;;
        --pg-conf) pg_conf+=("$2"); shift 2 ;;
        --detach) detach=1; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) break ;;
    esac
done
[ $# = 1 ] && [[ $1 =~ ^[1-9][0-9]*$ ]] || die "usage: replicas.sh [options] N (see --help)"
replicas=$1
[ -n "$max_clones" ] || max_clones=$(clone_share "$replicas")
[ -x "$HAPROXY" ] || die "haproxy not found at $HAPROXY (Debian: apt-get install haproxy)"
if [ -n "$database" ] && [[ ! $database =~ ^postgres(ql)?:// ]] && [ "$replicas" != 1 ]; then
    die "a SQLite database is one process: N must be 1 (use PostgreSQL for more replicas)"
fi
if [ -z "$database" ]; then
    [ -x "$PG_BIN/initdb" ] || die "PostgreSQL not found (no initdb in /usr/lib/postgresql/*/bin; set PG_BIN)"
fi

cloner="${CLONER_BIN:-$ROOT/.build/release/cloner}"
if [ ! -x "$cloner" ]; then
    log "building the release binary (swift build -c release --product cloner)…"
    (cd "$ROOT" && swift build -c release --product cloner >&2)
    cloner="$(cd "$ROOT" && swift build -c release --show-bin-path)/cloner"
fi

if [ -z "$dir" ]; then dir=$(mktemp -d /tmp/cloner-replicas.XXXXXX); else mkdir -p "$dir"; fi
dir=$(cd "$dir" && pwd)
[ ! -f "$dir/pids" ] || die "$dir already runs a deployment (replicas.sh stop $dir)"
# The cluster's owner must reach its directory inside ours; the socket path stays short.
chmod 755 "$dir"
: > "$dir/pids"

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    log "stopping…"
    stop_dir "$dir" "$keep"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------- PostgreSQL
pgdata="" pgport=5432 postmaster_pid=""
if [ -z "$database" ]; then
    pgdata="$dir/pg"
    mkdir -p "$pgdata"
    [ "$(id -u)" = 0 ] && chown postgres: "$pgdata"
    as_pg "$PG_BIN/initdb" -D "$pgdata" -U postgres -A trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
        || die "initdb failed (see $dir/initdb.log)"
    # Replicas × pool, plus room for psql and the benchmark's sampler.
    max_connections=$((replicas * pool + 20))
    {
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$pgdata'"
        echo "port = $pgport"
        echo "max_connections = $max_connections"
        for setting in ${pg_conf[@]+"${pg_conf[@]}"}; do echo "${setting%%=*} = '${setting#*=}'"; done
    } >> "$pgdata/postgresql.auto.conf"
    touch "$dir/postgres.log"; [ "$(id -u)" = 0 ] && chown postgres: "$dir/postgres.log"
    echo "postgres $pgdata" >> "$dir/pids"
    as_pg "$PG_BIN/pg_ctl" -D "$pgdata" -l "$dir/postgres.log" -w -t 60 start >/dev/null \
        || die "PostgreSQL did not start (see $dir/postgres.log)"
    postmaster_pid=$(head -1 "$pgdata/postmaster.pid")
    as_pg "$PG_BIN/psql" -h "$pgdata" -p $pgport -U postgres -d postgres -qAt -c "CREATE DATABASE cloner" >/dev/null
    database="postgresql://postgres@/cloner?host=$pgdata&port=$pgport"
    log "PostgreSQL $( "$PG_BIN/postgres" --version | awk '{print $3}') in $pgdata (pid $postmaster_pid)"
fi

# ---------------------------------------------------------------------------- replicas
replica_ports=() replica_pids=()
for i in $(seq 1 "$replicas"); do
    started=0
    for _attempt in 1 2 3; do
        p=$(free_port)
        # Its own session (setsid), so a Ctrl-C reaches only this script, which then stops the
        # replicas in order. A non-interactive shell's child is no group leader: setsid execs
        # in place and $! is the replica's pid.
        # haproxy connects from 127.0.0.1 and sends the PROXY protocol header first.
        CLONER_DATABASE=$database CLONER_DATABASE_POOL_SIZE=$pool CLONER_MAX_CONCURRENT_CLONES=$max_clones \
            CLONER_TRUSTED_PROXIES=127.0.0.1 CLONER_PROXY_PROTOCOL=true \
            setsid "$cloner" serve --host 127.0.0.1 --port "$p" --model "$model" \
            >>"$dir/replica-$i.log" 2>&1 < /dev/null &
        pid=$!
        echo "replica$i $pid" >> "$dir/pids"
        if wait_ready "$p" /readyz "$pid" --haproxy-protocol; then started=1; break; fi
        kill -TERM "$pid" 2>/dev/null || true
        sed -i "/^replica$i $pid\$/d" "$dir/pids"
        log "replica $i did not start on port $p (see $dir/replica-$i.log); trying another port"
    done
    [ $started = 1 ] || die "replica $i did not start (see $dir/replica-$i.log)"
    replica_ports+=("$p"); replica_pids+=("$pid")
    log "replica $i: http://127.0.0.1:$p (pid $pid)"
done

# ---------------------------------------------------------------------------- haproxy
if [ -z "$port" ]; then port=8080; port_in_use $port && port=$(free_port); fi
[[ $port =~ ^[1-9][0-9]{0,4}$ ]] && [ "$port" -le 65535 ] || die "--port must be 1–65535"
port_in_use "$port" && die "port $port is in use"
stats_port=$(free_port)
backends=()
for p in "${replica_ports[@]}"; do backends+=("127.0.0.1:$p"); done
render_haproxy "127.0.0.1:$port" "127.0.0.1:$stats_port" "$max_clones" 1 "${backends[@]}" > "$dir/haproxy.cfg"
"$HAPROXY" -c -q -f "$dir/haproxy.cfg" || die "haproxy refused $dir/haproxy.cfg"
setsid "$HAPROXY" -db -f "$dir/haproxy.cfg" >>"$dir/haproxy.log" 2>&1 < /dev/null &
haproxy_pid=$!
echo "haproxy $haproxy_pid" >> "$dir/pids"
wait_ready "$port" /readyz "$haproxy_pid" || die "haproxy did not answer /readyz on port $port (see $dir/haproxy.log)"

url="http://127.0.0.1:$port"
{
    echo "URL=$url"
    echo "STATS_URL=http://127.0.0.1:$stats_port/"
    printf 'DATABASE_URI=%q\n' "$database"
    echo "PGHOST=$pgdata"
    echo "PGPORT=$pgport"
    echo "PGDATA=$pgdata"
    echo "REPLICA_PORTS=\"${replica_ports[*]}\""
    echo "REPLICA_PIDS=\"${replica_pids[*]}\""
    echo "HAPROXY_PID=$haproxy_pid"
    echo "POSTMASTER_PID=$postmaster_pid"
} > "$dir/env"

if [ $detach = 1 ]; then
    trap - EXIT INT TERM
    log "$replicas replica(s) behind haproxy at $url (stop: scripts/replicas.sh stop $dir)"
    echo "$dir"
    exit 0
fi
echo "$replicas replica(s) behind haproxy: $url   (status: http://127.0.0.1:$stats_port/, files: $dir; Ctrl-C stops)"
# Waits until interrupted; a process that dies is reported once, the others keep serving.
watched=("${replica_pids[@]}" "$haproxy_pid")
while true; do
    alive=()
    for pid in "${watched[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then alive+=("$pid"); else log "process $pid exited (see $dir/*.log)"; fi
    done
    watched=(${alive[@]+"${alive[@]}"})
    sleep 2 & wait $! || true
done
