#!/usr/bin/env bash
# A highly available PostgreSQL for Cloner on this machine: a pg_auto_failover formation (a
# monitor and two nodes, primary and synchronous secondary, on loopback) and Cloner replicas on
# its multi-host URI — to watch a failover or a switchover from a client's side.
#
#   scripts/ha.sh start [options] [N]    the formation, then N replicas (default 1; 0: none);
#                                        prints the state directory and returns
#   scripts/ha.sh status DIR             the formation's state and the replicas' /readyz
#   scripts/ha.sh failover DIR [--revive]
#                                        a crash of the primary: its keeper and postmaster (and
#                                        their children) killed with SIGKILL; waits until the
#                                        other node is promoted and prints how long that took;
#                                        with --revive, restarts the killed node afterwards
#   scripts/ha.sh revive DIR             restarts every killed node; it rejoins as a secondary
#   scripts/ha.sh switchover DIR         a planned switchover (pg_autoctl perform switchover)
#   scripts/ha.sh stop [--keep] DIR      stops everything (by pid) and removes DIR
#
# Options of `start`:
#   --dir DIR           state directory (default: a new one under /tmp); holds the formation
#                       (pg/), logs, the pid list `pids` and `env`
#   --default-detection keep pg_auto_failover's failure detection (a crashed primary is
#                       replaced after about 50 s); also HA_DETECTION=default. By default it is
#                       shortened so a failover takes seconds: the monitor checks each node
#                       every second, gives up on one after one failed retry and 3 s, and a
#                       primary cut off from the monitor and its standby demotes itself after 4 s
#   --port P, --model FILE, --pool-size K, --max-clones M
#                       as for scripts/replicas.sh
#
# With haproxy installed, the replicas are scripts/replicas.sh's (behind haproxy, on the
# formation's URI; its state in DIR/replicas). Without it, N must be 1: one replica serves
# directly, without a load balancer.
#
# `env` in the state directory is shell (source it): URL (haproxy's, or the one replica's),
# DATABASE_URI (the formation's multi-host URI), MONITOR_PORT, NODE_PORTS, MONITOR_PGDATA.
# pg_autoctl's configuration and state live in DIR/pg/xdg (its XDG folders), so nothing is left
# in the postgres user's home. As root, the formation runs as `postgres`.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
PG_AUTOCTL=${PG_AUTOCTL:-$(command -v pg_autoctl || echo /usr/bin/pg_autoctl)}
HAPROXY=${HAPROXY:-/usr/sbin/haproxy}

die() { echo "ha.sh: $*" >&2; exit 1; }
log() { echo "ha.sh: $*" >&2; }

# Runs a program as the formation's owner: `postgres` when we are root (PostgreSQL refuses to
# run as root), else ourselves. setpriv starts it in place, so $! is the program's own pid.
AS_PG=()
[ "$(id -u)" = 0 ] && AS_PG=(setpriv --reuid postgres --regid postgres --init-groups)
as_pg() { "${AS_PG[@]}" "$@"; }

# pg_autoctl in an environment of its own (its configuration and state under $pg/xdg), as the
# formation's owner.
autoctl_command() {
    AUTOCTL=("${AS_PG[@]}" env -i PATH="$PG_BIN:/usr/bin:/bin" HOME="$pg" XDG_CONFIG_HOME="$pg/xdg/config"
        XDG_DATA_HOME="$pg/xdg/data" XDG_RUNTIME_DIR="$pg/xdg/run" "$PG_AUTOCTL")
}
autoctl() { autoctl_command; "${AUTOCTL[@]}" "$@"; }

# One statement on the monitor, unaligned and without headers.
monitor_sql() { as_pg "$PG_BIN/psql" -X -qAt -h 127.0.0.1 -p "$MONITOR_PORT" -U postgres -d pg_auto_failover -c "$1"; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A port nothing listens on, below Linux's ephemeral range (as scripts/replicas.sh picks them).
free_port() {
    local p _
    for _ in $(seq 1 100); do
        p=$((20000 + RANDOM % 12000))
        port_in_use "$p" || { echo "$p"; return 0; }
    done
    die "no free port found"
}

# Starts a pg_autoctl service in a session of its own (its keeper leads the process group that
# holds its postmaster), recorded in `pids` as $1.
start_keeper() {
    local name=$1; shift
    autoctl_command
    # A non-interactive shell's background child leads no group, so setsid execs in place.
    setsid "${AUTOCTL[@]}" "$@" >>"$dir/$name.log" 2>&1 </dev/null &
    sed -i "/^$name /d" "$dir/pids"
    echo "$name $!" >> "$dir/pids"
}

# The ports of nodes in state $1 (a SQL condition on reportedstate and goalstate).
nodes_where() { monitor_sql "SELECT nodeport FROM pgautofailover.node WHERE $1 ORDER BY nodeid"; }
primary_port() { nodes_where "reportedstate = goalstate AND reportedstate IN ('single','wait_primary','primary')" | head -1; }
synchronous_primary_port() { nodes_where "reportedstate = 'primary' AND goalstate = 'primary'" | head -1; }
secondary_port() { nodes_where "reportedstate = 'secondary' AND goalstate = 'secondary'" | head -1; }

# Waits (up to $2 seconds) until the shell condition $1 holds.
wait_for() {
    local condition=$1 limit=$2 start=$SECONDS
    until eval "$condition" 2>/dev/null; do
        [ $((SECONDS - start)) -lt "$limit" ] || return 1
        sleep 0.25
    done
}

# Kills a node as a crash does: its keeper's process group (keeper, services, postmaster,
# backends) and the postmaster itself, with SIGKILL — each by its own pid.
kill_node() {
    local name=$1 keeper postmaster=""
    keeper=$(awk -v n="$name" '$1 == n { print $2 }' "$dir/pids")
    [ -f "$pg/$name/postmaster.pid" ] && postmaster=$(head -1 "$pg/$name/postmaster.pid")
    [ -n "$keeper" ] && kill -KILL -- "-$keeper" 2>/dev/null || true
    [ -n "$keeper" ] && kill -KILL "$keeper" 2>/dev/null || true
    if [ -n "$postmaster" ] && tr '\0' ' ' < "/proc/$postmaster/cmdline" 2>/dev/null | grep -qF "$pg/$name"; then
        kill -KILL "$postmaster" 2>/dev/null || true
    fi
    sed -i "/^$name /d" "$dir/pids"
    echo "killed $name" >> "$dir/pids"
}

load_dir() {
    [ $# = 1 ] || die "usage: ha.sh ${command:-COMMAND} DIR"
    dir=$(cd "$1" && pwd) || die "no directory $1"
    [ -f "$dir/env" ] || die "$dir holds no formation (no env file)"
    # shellcheck disable=SC1091
    . "$dir/env"
    pg=$dir/pg
}

# ---------------------------------------------------------------------------- start
start() {
    local replicas=1 detection=${HA_DETECTION:-shortened} port="" model="" pool="" max_clones=""
    dir=""
    while [ $# -gt 0 ]; do
        case $1 in
            --dir) dir=$2; shift 2 ;;
            --default-detection) detection=default; shift ;;
            --port) port=$2; shift 2 ;;
            --model) model=$2; shift 2 ;;
            --pool-size) pool=$2; shift 2 ;;
            --max-clones) max_clones=$2; shift 2 ;;
            -*) die "unknown option $1 (see --help)" ;;
            *) break ;;
        esac
    done
    [ $# -le 1 ] || die "usage: ha.sh start [options] [N]"
    [ $# = 0 ] || replicas=$1
    [[ $replicas =~ ^[0-9]+$ ]] || die "N must be a number"
    [ -x "$PG_AUTOCTL" ] || die "pg_autoctl not found (Debian: apt-get install postgresql-15-auto-failover pg-auto-failover-cli)"
    [ -x "$PG_BIN/pg_ctl" ] || die "PostgreSQL not found (no pg_ctl in /usr/lib/postgresql/*/bin; set PG_BIN)"
    local haproxy=0
    [ -x "$HAPROXY" ] && haproxy=1
    [ $haproxy = 1 ] || [ "$replicas" -le 1 ] || die "haproxy not found at $HAPROXY: without it, N must be 0 or 1"

    if [ -z "$dir" ]; then dir=$(mktemp -d /tmp/cloner-ha.XXXXXX); else mkdir -p "$dir"; fi
    dir=$(cd "$dir" && pwd)
    [ ! -f "$dir/pids" ] || die "$dir already runs a formation (ha.sh stop $dir)"
    pg=$dir/pg
    [ ! -e "$pg" ] || die "$dir already holds a formation's files ($pg): choose another directory or remove it"
    chmod 755 "$dir"
    mkdir -p "$pg"
    [ "$(id -u)" = 0 ] && chown postgres: "$pg"
    : > "$dir/pids"
    # A failed start leaves its logs, not the half-made formation, so the same --dir works again.
    trap 'status=$?; [ $status = 0 ] || { log "start failed; stopping (logs kept in $dir)"; stop_dir "$dir" 1; rm -rf "$pg"; }' EXIT

    MONITOR_PORT=$(free_port)
    local node_ports=() p
    while [ ${#node_ports[@]} -lt 2 ]; do
        p=$(free_port)
        [ "$p" != "$MONITOR_PORT" ] && [[ " ${node_ports[*]-} " != *" $p "* ]] && node_ports+=("$p")
    done
    local monitor_uri="postgres://autoctl_node@127.0.0.1:$MONITOR_PORT/pg_auto_failover?sslmode=disable"

    start_keeper monitor create monitor --pgdata "$pg/monitor" --pgport "$MONITOR_PORT" --hostname 127.0.0.1 \
        --auth trust --no-ssl --run
    wait_for 'monitor_sql "SELECT 1" >/dev/null' 120 || die "the monitor did not start (see $dir/monitor.log)"
    if [ "$detection" = shortened ]; then
        local setting
        for setting in health_check_period=1000 health_check_timeout=1000 health_check_max_retries=1 \
            health_check_retry_delay=500 node_considered_unhealthy_timeout=3000 primary_demote_timeout=5000; do
            monitor_sql "ALTER SYSTEM SET pgautofailover.${setting%%=*} = ${setting#*=}" >/dev/null
        done
        monitor_sql "SELECT pg_reload_conf()" >/dev/null
    fi
    log "monitor on 127.0.0.1:$MONITOR_PORT ($detection failure detection)"

    local i name
    for i in 1 2; do
        name=node$i
        start_keeper "$name" create postgres --pgdata "$pg/$name" --pgport "${node_ports[$((i - 1))]}" --listen 127.0.0.1 \
            --hostname 127.0.0.1 --auth trust --no-ssl --dbname cloner --monitor "$monitor_uri" --run
        if [ $i = 1 ]; then
            wait_for '[ -n "$(primary_port)" ]' 300 || die "node1 did not become primary (see $dir/node1.log)"
        else
            # node2's base backup waits for a checkpoint on node1, which PostgreSQL spreads over
            # minutes; one asked for meanwhile finishes it at full speed.
            wait_for '[ -n "$(secondary_port)" ] || { as_pg "$PG_BIN/psql" -X -q -h 127.0.0.1 -p "${node_ports[0]}" -U postgres -d postgres -c CHECKPOINT >/dev/null; false; }' 600 \
                || die "node2 did not become secondary (see $dir/node2.log)"
        fi
        log "$name on 127.0.0.1:${node_ports[$((i - 1))]}"
    done
    # Once both run: a keeper still initialising rewrites its configuration file meanwhile.
    if [ "$detection" = shortened ]; then
        for name in node1 node2; do
            autoctl config set --pgdata "$pg/$name" timeout.network_partition_timeout 4 >>"$dir/$name.log" 2>&1 \
                || die "pg_autoctl config set failed on $name (see $dir/$name.log)"
        done
    fi
    DATABASE_URI="postgres://postgres@127.0.0.1:${node_ports[0]},127.0.0.1:${node_ports[1]}/cloner?target_session_attrs=read-write&sslmode=disable"

    local url=""
    if [ "$replicas" -gt 0 ] && [ $haproxy = 1 ]; then
        local options=(--detach --dir "$dir/replicas" --database "$DATABASE_URI")
        [ -n "$port" ] && options+=(--port "$port")
        [ -n "$model" ] && options+=(--model "$model")
        [ -n "$pool" ] && options+=(--pool-size "$pool")
        [ -n "$max_clones" ] && options+=(--max-clones "$max_clones")
        "$ROOT/scripts/replicas.sh" "${options[@]}" "$replicas" >/dev/null || die "scripts/replicas.sh failed"
        echo "replicas $dir/replicas" >> "$dir/pids"
        url=$(. "$dir/replicas/env" && echo "$URL")
    elif [ "$replicas" = 1 ]; then
        url=$(start_lone_replica "${port:-$(free_port)}" "${model:-$ROOT/config/model.json}" "${pool:-10}" "${max_clones:-8}")
    fi
    {
        echo "URL=$url"
        printf 'DATABASE_URI=%q\n' "$DATABASE_URI"
        echo "MONITOR_PORT=$MONITOR_PORT"
        echo "NODE_PORTS=\"${node_ports[*]}\""
        echo "MONITOR_PGDATA=$pg/monitor"
    } > "$dir/env"
    trap - EXIT
    log "formation up; database $DATABASE_URI${url:+; Cloner at $url} (stop: scripts/ha.sh stop $dir)"
    echo "$dir"
}

# One replica on the formation without a load balancer (haproxy missing): prints its URL.
start_lone_replica() {
    local port=$1 model=$2 pool=$3 max_clones=$4
    local cloner="${CLONER_BIN:-$ROOT/.build/release/cloner}"
    if [ ! -x "$cloner" ]; then
        log "building the release binary (swift build -c release --product cloner)…"
        (cd "$ROOT" && swift build -c release --product cloner >&2)
        cloner="$(cd "$ROOT" && swift build -c release --show-bin-path)/cloner"
    fi
    CLONER_DATABASE=$DATABASE_URI CLONER_DATABASE_POOL_SIZE=$pool CLONER_MAX_CONCURRENT_CLONES=$max_clones \
        setsid "$cloner" serve --host 127.0.0.1 --port "$port" --model "$model" >>"$dir/replica-1.log" 2>&1 </dev/null &
    local pid=$! _
    echo "replica1 $pid" >> "$dir/pids"
    for _ in $(seq 1 600); do
        kill -0 "$pid" 2>/dev/null || die "the replica exited (see $dir/replica-1.log)"
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ] && break
        sleep 0.1
    done
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ] || die "the replica is not ready (see $dir/replica-1.log)"
    log "replica 1: http://127.0.0.1:$port (pid $pid, no load balancer)"
    echo "http://127.0.0.1:$port"
}

# ---------------------------------------------------------------------------- the other commands
status() {
    autoctl show state --pgdata "$pg/monitor"
    local name pid
    while read -r name pid; do
        case $name in
            replica*)
                if kill -0 "$pid" 2>/dev/null; then
                    echo "$name (pid $pid): /readyz $(curl -s -w ' %{http_code}' "$URL/readyz")"
                else
                    echo "$name (pid $pid): not running"
                fi ;;
            replicas) echo "replicas behind haproxy at $URL: /readyz $(curl -s -w ' %{http_code}' "$URL/readyz")" ;;
            killed) echo "$pid: killed (ha.sh revive $dir)" ;;
        esac
    done < "$dir/pids"
}

failover() {
    local revive_after=0 arguments=() argument
    for argument in "$@"; do
        if [ "$argument" = --revive ]; then revive_after=1; else arguments+=("$argument"); fi
    done
    load_dir ${arguments[@]+"${arguments[@]}"}
    local primary name started ports
    primary=$(primary_port)
    [ -n "$primary" ] || die "no primary now: $(autoctl show state --pgdata "$pg/monitor")"
    read -r -a ports <<< "$NODE_PORTS"
    if [ "$primary" = "${ports[0]}" ]; then name=node1; else name=node2; fi
    started=$EPOCHREALTIME
    kill_node "$name"
    log "killed $name (127.0.0.1:$primary) with SIGKILL; waiting for the other node to be promoted…"
    wait_for '[ -n "$(primary_port)" ] && [ "$(primary_port)" != '"$primary"' ]' 300 || die "no node promoted within 300 s"
    log "node on 127.0.0.1:$(primary_port) promoted $(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s after the kill"
    [ $revive_after = 1 ] && revive "$dir"
    return 0
}

revive() {
    load_dir "$@"
    local name revived=0
    for name in $(awk '$1 == "killed" { print $2 }' "$dir/pids"); do
        sed -i "/^killed $name\$/d" "$dir/pids"
        start_keeper "$name" run --pgdata "$pg/$name"
        revived=1
        log "restarted $name; waiting for it to rejoin as a secondary…"
    done
    [ $revived = 1 ] || { log "no killed node to revive"; return 0; }
    wait_for '[ -n "$(secondary_port)" ] && [ -n "$(synchronous_primary_port)" ]' 300 || die "no secondary within 300 s (see $dir/node*.log)"
    log "primary 127.0.0.1:$(primary_port), secondary 127.0.0.1:$(secondary_port)"
}

switchover() {
    load_dir "$@"
    local before
    before=$(primary_port)
    # From wait_primary (a standby that just rejoined, synchronous replication still off)
    # pg_auto_failover 2.0 promotes the standby while the old primary keeps taking writes for a
    # few seconds, and those are rewound away: wait for both nodes to settle first.
    wait_for '[ -n "$(secondary_port)" ] && [ -n "$(synchronous_primary_port)" ]' 120 \
        || die "no primary with a synchronous secondary to switch over from: $(autoctl show state --pgdata "$pg/monitor")"
    autoctl perform switchover --pgdata "$pg/monitor" --wait 120 >>"$dir/switchover.log" 2>&1 \
        || die "pg_autoctl perform switchover failed (see $dir/switchover.log)"
    log "switched over: primary was 127.0.0.1:$before, is 127.0.0.1:$(primary_port)"
    # The same gap when the primary dropped to wait_primary during the switchover itself.
    if grep -qs 'does not know how to reach state "demote_timeout" from "wait_primary"' "$dir"/node*.log; then
        log "warning: the old primary could not demote from wait_primary (a pg_auto_failover 2.0 gap): writes it" \
            "acknowledged alone in the seconds before the monitor gave up on it were rewound away"
    fi
}

# Stops the replicas (SIGTERM: they drain), then the keepers (SIGTERM: pg_autoctl stops its
# postmaster), then SIGKILL to any process group still there; removes DIR unless $2 = 1.
stop_dir() {
    local dir=$1 keep=${2:-0} name pid groups=() waited
    [ -f "$dir/pids" ] || { log "$dir has no pids file"; return 0; }
    while read -r name pid; do
        case $name in
            replicas) "$ROOT/scripts/replicas.sh" stop "$pid" || true ;;
            replica*)
                kill -TERM "$pid" 2>/dev/null || true
                waited=0
                while kill -0 "$pid" 2>/dev/null && [ $waited -lt 350 ]; do sleep 0.1; waited=$((waited + 1)); done
                kill -KILL "$pid" 2>/dev/null || true ;;
            monitor|node*) groups+=("$pid") ;;
        esac
    done < "$dir/pids"
    for pid in ${groups[@]+"${groups[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in ${groups[@]+"${groups[@]}"}; do
        waited=0
        while kill -0 "$pid" 2>/dev/null && [ $waited -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
        kill -KILL -- "-$pid" 2>/dev/null || true
    done
    # A postmaster whose keeper was gone (killed and never revived) is gone with its group; any
    # other still naming this directory is stopped here.
    local file
    for file in "$dir"/pg/*/postmaster.pid; do
        [ -f "$file" ] || continue
        pid=$(head -1 "$file")
        tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF "$dir/pg/" && kill -KILL "$pid" 2>/dev/null || true
    done
    rm -f "$dir/pids"
    if [ "$keep" = 1 ]; then log "stopped; files kept in $dir"; else rm -rf "$dir"; log "stopped"; fi
}

command=${1:-}
[ $# -gt 0 ] && shift
case $command in
    start) start "$@" ;;
    status) load_dir "$@"; status ;;
    failover) failover "$@" ;;
    revive) revive "$@" ;;
    switchover) switchover "$@" ;;
    stop)
        keep=0
        [ "${1:-}" = --keep ] && { keep=1; shift; }
        [ $# = 1 ] || die "usage: ha.sh stop [--keep] DIR"
        stop_dir "$(cd "$1" && pwd)" "$keep" ;;
    -h|--help|help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
    *) die "usage: ha.sh start|status|failover|revive|switchover|stop … (see --help)" ;;
esac
