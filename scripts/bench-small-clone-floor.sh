#!/usr/bin/env bash
# The database's floor under the PostgreSQL small clone: the rows a clone of the sample 5-object
# note writes (the note, 2 items, a memo, an attachment by its blob key, the memo's tag link, the
# tag's version step, the lineage row), written by hand-written SQL that knows every value in
# advance and reads nothing, against a one-row create of a tag — both by pgbench, prepared and
# pipelined, at the same client count, alternating, with the order swapped every round. It
# prints the median transactions per second of each and their ratio: no clone, which must read
# its source first, can beat that ratio at the database.
#
#   scripts/bench-small-clone-floor.sh      ROUNDS=3 DURATION=5 CLIENTS=8 [CLONER_BIN=path]
#
# Cloner (a release build) lays out and seeds the store, then stops; its throwaway cluster is
# scripts/bench-cluster.sh's (fsync off). `clone-without-tag` leaves out the tag's version step,
# the one row every clone of the note shares.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-3}
duration=${DURATION:-5}
clients=${CLIENTS:-8}
port=${CLONER_PORT:-18086}
work=$(mktemp -d /tmp/bench-floor.XXXXXX)
pid=
# shellcheck source=scripts/bench-cluster.sh
source scripts/bench-cluster.sh
cleanup() {
    if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
    stop_bench_cluster
}
start_bench_cluster small-floor none
trap cleanup EXIT
chmod 755 "$work"

if [[ -n "${CLONER_BIN:-}" ]]; then
    cloner_bin=$CLONER_BIN
else
    echo "building cloner (release)" >&2
    swift build -c release --product cloner >&2
    cloner_bin="$(swift build -c release --show-bin-path)/cloner"
fi
"$cloner_bin" serve --port "$port" --database "$(bench_cluster_uri postgres)" --model config/model.json > /dev/null 2> "$work/cloner.err" &
pid=$!
# shellcheck source=scripts/bench-small-note.sh
source scripts/bench-small-note.sh
wait_for_cloner "$port"
seed_small_note "$port"
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=

psql=("${as_postgres[@]}" "$bindir/psql" -h "$cluster" -U postgres -qAt)
key=$("${psql[@]}" -c 'SELECT encode(image, '"'hex'"') FROM "Attachment" LIMIT 1')
note_ids=$("${psql[@]}" -c "SELECT pg_get_serial_sequence('\"Note\"', '_id')")
memo_ids=$("${psql[@]}" -c "SELECT pg_get_serial_sequence('\"Memo\"', '_id')")

cat > "$work/create.sql" <<SQL
\\startpipeline
BEGIN ISOLATION LEVEL READ COMMITTED;
INSERT INTO "Tag" ("name", "color") VALUES ('t-' || :client_id || '-' || random(), NULL);
COMMIT;
\\endpipeline
SQL
cat > "$work/clone.sql" <<SQL
\\startpipeline
BEGIN ISOLATION LEVEL READ COMMITTED;
INSERT INTO "Note" ("_version", "id", "name", "createDate") VALUES (1, gen_random_uuid(), 'Groceries', now());
INSERT INTO "Item" ("_version", "name", "note", "_pos_note") VALUES (1, 'milk', currval('$note_ids'), 1), (1, 'eggs', currval('$note_ids'), 2);
INSERT INTO "Memo" ("_version", "text", "createDate", "note", "_pos_note") VALUES (1, 'buy today', now(), currval('$note_ids'), 1);
INSERT INTO "Attachment" ("_version", "image", "memo") VALUES (1, '\\x$key', currval('$memo_ids'));
INSERT INTO "_rel_Memo_tags" ("src", "dst") VALUES (currval('$memo_ids'), 1);
UPDATE "Tag" SET "_version" = "_version" + 1 WHERE "_id" = 1;
INSERT INTO "_cloner_lineage" (entity, clone_id, source_id, created_at) VALUES ('Note', currval('$note_ids'), 1, now());
COMMIT;
\\endpipeline
SQL
grep -v '"Tag" SET' "$work/clone.sql" > "$work/clone-without-tag.sql"
chmod 644 "$work"/*.sql

run() { # script -> tps
    if ! "${as_postgres[@]}" "$bindir/pgbench" -h "$cluster" -U postgres -n -M prepared -c "$clients" -j 2 -T "$duration" \
        -f "$work/$1.sql" postgres > "$work/$1.out" 2>&1; then
        cat "$work/$1.out" >&2
        return 1
    fi
    awk '/^tps/ { print $3 }' "$work/$1.out"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
names=(create clone clone-without-tag)
for round in $(seq 1 "$rounds"); do
    order=("${names[@]}")
    if (( round % 2 == 0 )); then order=(clone-without-tag clone create); fi
    for name in "${order[@]}"; do
        tps=$(run "$name")
        printf '%s\t%s\n' "$name" "$tps" >> "$work/results.tsv"
        echo "round $round $name: $tps tps" >&2
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
create=$(awk -F'\t' '$1 == "create" { print $2 }' "$work/results.tsv" | median)
for name in clone clone-without-tag; do
    tps=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$work/results.tsv" | median)
    awk -v n="$name" -v c="$create" -v t="$tps" 'BEGIN { printf "%-18s %9.0f tps, %.2f of a create (%.0f tps)\n", n, t, t / c, c }'
done
