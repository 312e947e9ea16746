#!/usr/bin/env bash
# Clone benchmark: builds clone-bench in release and runs the suite on SQLite
# (Cloner vs a hand-written SQL copy at 1k/10k/100k items, peak RSS per run, a 1 GiB-of-attachments
# clone), then the same on PostgreSQL in a throwaway cluster this script starts in a temporary
# folder (initdb + pg_ctl, Unix socket inside it, pg_stat_statements to count statements; run as
# the postgres user through runuser when root) and stops on exit.
# Extra arguments go to clone-bench, e.g. `scripts/bench-clone.sh --sizes 1000,10000 --rounds 5`.
# BENCH_BACKENDS=sqlite or BENCH_BACKENDS=postgresql runs one backend only (default: both).
set -euo pipefail
cd "$(dirname "$0")/.."
backends="${BENCH_BACKENDS:-sqlite postgresql}"
swift build -c release --product clone-bench
bench="$(swift build -c release --show-bin-path)/clone-bench"
status=0

if [[ " $backends " == *" sqlite "* ]]; then
    "$bench" suite --model config/model.json "$@" || status=$?
fi

if [[ " $backends " == *" postgresql "* ]]; then
    bindir="${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
    [[ -x "$bindir/initdb" ]] || { echo "bench-clone: no PostgreSQL (initdb) found; set PG_BINDIR" >&2; exit 2; }
    cluster="$(mktemp -d /tmp/clone-bench-pg-XXXXXX)"   # short: the socket path must fit 107 bytes
    as_postgres=()
    if [[ "$(id -u)" == 0 ]]; then
        chown postgres: "$cluster"
        as_postgres=(runuser -u postgres --)
    fi
    stop_cluster() {
        if [[ -f "$cluster/data/postmaster.pid" ]]; then
            "${as_postgres[@]}" "$bindir/pg_ctl" -D "$cluster/data" -m fast -w stop >/dev/null || true
        fi
        rm -rf "$cluster"
    }
    trap stop_cluster EXIT
    "${as_postgres[@]}" "$bindir/initdb" -D "$cluster/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
    # Settings of a small dedicated server, not of a durable one: fsync off like the SQLite run's
    # temporary files, the same for both sides of the comparison.
    "${as_postgres[@]}" "$bindir/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 start -o \
        "-k $cluster -c listen_addresses='' -p 5432 -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
         -c shared_buffers=256MB -c max_wal_size=4GB -c shared_preload_libraries=pg_stat_statements \
         -c pg_stat_statements.track=top" >/dev/null
    "$bench" postgresql --model config/model.json --uri "postgresql://postgres@/postgres?host=$cluster&port=5432" "$@" || status=$?
fi
exit "$status"
