#!/usr/bin/env bash
# Shared-blob benchmark over HTTP, for one `cloner` binary on one store, printing figures:
#   1. clone of a note with 256 memos, each with one 4 MiB attachment (1 GiB): median of 3;
#   2. database size after N clones of that note (BLOB_CLONES, default 100);
#   3. 100 copies in one request of a 100-memo note with 4 KiB attachments, against 100 single
#      clone requests of it, one after another.
# Usage: scripts/bench-blobs.sh BINARY PORT DATABASE   (DATABASE: a new SQLite path, or a
# postgresql:// URI of an empty database). Run it for each build, alternating, on one machine.
set -euo pipefail
export NO_PROXY="*" no_proxy="*"   # the service is local: never through a proxy
binary="$(realpath "$1")"; port="$2"; database="$3"
clones="${BLOB_CLONES:-100}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/bench-blobs-XXXXXX)"
if ss -ltn | grep -q ":$port "; then echo "bench-blobs: port $port is in use" >&2; exit 2; fi
# Started in the scratch folder: no settings file of this checkout applies (an older binary would
# refuse settings it does not know).
(cd "$work" && exec "$binary" serve --port "$port" --database "$database" --model "$root/config/model.json" --log-level error >"$work/server.log" 2>&1) &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done
curl -sf "$base/healthz" >/dev/null || { echo "bench-blobs: the service did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

post() { curl -sf -X POST -H 'Content-Type: application/json' --data-binary "@$2" "$base$1"; }
ms() { awk '{ printf "%.1f", $1 * 1000 }'; }
size() {
    if [[ "$database" == postgres* ]]; then psql -X -A -t -d "$database" -c "SELECT pg_database_size(current_database())"
    else du -cb "$database"* | tail -1 | cut -f1; fi
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# 1. The 1 GiB note.
printf '{"id":"%s","name":"big","createDate":"2026-11-21T10:00:00Z"}' "$(cat /proc/sys/kernel/random/uuid)" >"$work/note.json"
big=$(post /notes "$work/note.json" | sed -E 's/^\{"_id":([0-9]+).*/\1/')
for i in $(seq 256); do
    { printf '{"text":"m%d","createDate":"2026-11-21T10:00:00Z","note":%d,"attachments":[{"image":"' "$i" "$big"
      head -c 4194304 /dev/urandom | base64 -w0
      printf '"}]}'; } >"$work/memo.json"
    post /memos "$work/memo.json" >/dev/null
done
before=$(size)
times=()
for _ in 1 2 3; do
    times+=("$(curl -sf -o /dev/null -w '%{time_total}' -X POST "$base/notes/$big/clone" | ms)")
done
echo "clone of a note with 256 x 4 MiB attachments: ${times[*]} ms (median $(printf '%s\n' "${times[@]}" | median) ms)"
for _ in $(seq $((clones - 3))); do curl -sf -o /dev/null -X POST "$base/notes/$big/clone"; done
after=$(size)
echo "database size: $before bytes with the note; $after bytes after $clones clones ($(( (after - before) / clones )) bytes per clone)"

# 3. 100 copies vs 100 single requests of a 100-memo note with 4 KiB attachments.
{ printf '{"id":"%s","name":"small","createDate":"2026-11-21T10:00:00Z","memos":[' "$(cat /proc/sys/kernel/random/uuid)"
  for i in $(seq 100); do
      [[ $i -gt 1 ]] && printf ','
      printf '{"text":"m%d","createDate":"2026-11-21T10:00:00Z","attachments":[{"image":"%s"}]}' "$i" "$(head -c 4096 /dev/urandom | base64 -w0)"
  done
  printf ']}'; } >"$work/small.json"
small=$(post /notes "$work/small.json" | sed -E 's/^\{"_id":([0-9]+).*/\1/')
start=$(date +%s.%N)
for _ in $(seq 100); do curl -sf -o /dev/null -X POST "$base/notes/$small/clone"; done
singles=$(echo "$(date +%s.%N) - $start" | bc)
copies=$(curl -sf -o /dev/null -w '%{time_total}' -X POST -H 'Content-Type: application/json' -d '{"copies":100}' "$base/notes/$small/clone")
echo "100 single clones of a 100-memo note (4 KiB attachments): $(echo "$singles" | ms) ms; 100 copies in one request: $(echo "$copies" | ms) ms; ratio $(echo "scale=2; $singles / $copies" | bc)x"
