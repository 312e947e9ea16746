#!/usr/bin/env bash
# Graphs-that-travel benchmark: on one seeded SQLite store (a note whose items each have item
# data, a memo tagged with 2 of 50 tags and an attachment), times a clone of the note
# (`clone-bench run`), `cloner export` of the same note and `cloner import` of that document,
# each in a fresh process on a fresh copy of the seeded file, alternating round after round, and
# prints objects/s and peak RSS (VmHWM, from GNU time) of each.
# Usage: scripts/bench-travel.sh [items (default 25000: 100,001 objects)] [rounds (default 3)] [blob bytes (default 4096)]
set -euo pipefail
cd "$(dirname "$0")/.."
items="${1:-25000}"
rounds="${2:-3}"
blob="${3:-4096}"
swift build -c release --product clone-bench >/dev/null
swift build -c release --product cloner >/dev/null
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d /tmp/bench-travel-XXXXXX)"
trap 'rm -rf "$work"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin/clone-bench" setup --db "$work/seed.sqlite" --items "$items" --blob-bytes "$blob" --model config/model.json >/dev/null
fresh() { rm -f "$work/run.sqlite"*; cp "$work/seed.sqlite" "$work/run.sqlite"; }
measure() {  # label, command…: prints "label seconds peak-KiB"
    local label="$1"; shift
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    echo "$label $(cat "$work/time")"
}
model=(--model config/model.json)
for round in $(seq "$rounds"); do
    fresh; measure clone "$bin/clone-bench" run --db "$work/run.sqlite" --mode cloner --root 1 "${model[@]}"
    objects=$(grep -o '"objects":"[0-9]*"' "$work/out" | grep -o '[0-9]*' || true)
    fresh; measure export "$bin/cloner" export --database "$work/run.sqlite" "${model[@]}" notes 1 --output "$work/note.ndjson"
    fresh; measure import "$bin/cloner" import --database "$work/run.sqlite" "${model[@]}" notes --input "$work/note.ndjson"
    echo "round $round: document $(stat -c %s "$work/note.ndjson") bytes; $(grep -o 'exported [0-9]* objects' "$work/err" 2>/dev/null || true)"
done | awk -v items="$items" '
    /^(clone|export|import) / { n[$1]++; s[$1, n[$1]] = $2; m[$1, n[$1]] = $3; print; next }
    { print }
    END {
        objects = items * 4 + 1
        for (k in n) {
            # medians of the rounds
            c = n[k]; for (i = 1; i <= c; i++) { t[i] = s[k, i]; r[i] = m[k, i] }
            asort(t); asort(r); mt = t[int((c + 1) / 2)]; mr = r[int((c + 1) / 2)]
            printf "%-6s median %.2f s, %d objects/s, peak RSS %.1f MiB\n", k, mt, objects / mt, mr / 1024
        }
    }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
