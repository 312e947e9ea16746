# Sourced by the clone benchmarks (bench-clone.sh, pg-large-clone-profile.sh): a throwaway
# PostgreSQL cluster in a temporary folder, initdb + pg_ctl with its Unix socket inside it, run as
# the postgres user through runuser when root, stopped and removed on exit.
#
#   start_bench_cluster NAME TRACK   # sets $bindir and $cluster; TRACK: pg_stat_statements.track
#   bench_cluster_uri DATABASE       # the URI of a database of it
#
# Settings of a small dedicated server, not of a durable one: fsync off like the SQLite run's
# temporary files, the same for both sides of each comparison. PG_BINDIR picks the binaries.

start_bench_cluster() {
    bindir="${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
    [[ -x "$bindir/initdb" ]] || { echo "$1: no PostgreSQL (initdb) found; set PG_BINDIR" >&2; exit 2; }
    cluster="$(mktemp -d "/tmp/$1-pg-XXXXXX")"   # short: the socket path must fit 107 bytes
    as_postgres=()
    if [[ "$(id -u)" == 0 ]]; then
        chown postgres: "$cluster"
        as_postgres=(runuser -u postgres --)
    fi
    trap stop_bench_cluster EXIT
    "${as_postgres[@]}" "$bindir/initdb" -D "$cluster/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
    "${as_postgres[@]}" "$bindir/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 start -o \
        "-k $cluster -c listen_addresses='' -p 5432 -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
         -c shared_buffers=256MB -c max_wal_size=4GB -c shared_preload_libraries=pg_stat_statements \
         -c pg_stat_statements.track=$2" >/dev/null
}

stop_bench_cluster() {
    if [[ -f "$cluster/data/postmaster.pid" ]]; then
        "${as_postgres[@]}" "$bindir/pg_ctl" -D "$cluster/data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$cluster"
}

bench_cluster_uri() {
    echo "postgresql://postgres@/$1?host=$cluster&port=5432"
}
