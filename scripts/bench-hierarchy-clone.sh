#!/usr/bin/env bash
# Hierarchy clone benchmark: what entity inheritance costs a clone, per row. Two release
# `cloner serve`s side by side, each on its own scratch database, one on a blog model whose posts
# and pages are sub-entities of an abstract BasePost (scripts/bench-models/blog-hierarchy.json:
# Blog.posts and Comment.post point at BasePost), one on the same graph without inheritance
# (blog-flat.json: Blog.posts and Blog.pages, Comment.post and Comment.page). Each gets one blog
# of POSTS posts and POSTS pages with COMMENTS comments each, then `POST /blogs/1/clone` is timed
# on the two servers in turn (the order swapped every round) and the median time per copied
# object of each is reported with their ratio and the load average.
#
#   scripts/bench-hierarchy-clone.sh          ROUNDS=5 POSTS=500 COMMENTS=8 [CLONER_BIN=path]
#   BENCH_BACKEND=postgresql scripts/bench-hierarchy-clone.sh
#
# BENCH_BACKEND=postgresql serves both from one throwaway PostgreSQL cluster
# (scripts/bench-cluster.sh), a database each.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-5}
posts=${POSTS:-500}
comments=${COMMENTS:-8}
backend=${BENCH_BACKEND:-sqlite}
ports=(18087 18088)
variants=(flat hierarchy)

work=$(mktemp -d /tmp/bench-hierarchy.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
    if [[ $backend == postgresql ]]; then stop_bench_cluster; fi
}
if [[ $backend == postgresql ]]; then
    # shellcheck source=scripts/bench-cluster.sh
    source scripts/bench-cluster.sh
    start_bench_cluster hierarchy none
fi
trap cleanup EXIT

if [[ -n "${CLONER_BIN:-}" ]]; then
    cloner_bin=$CLONER_BIN   # an already built binary (to compare builds)
else
    echo "building cloner (release)" >&2
    swift build -c release --product cloner >&2
    cloner_bin="$(swift build -c release --show-bin-path)/cloner"
fi

for index in 0 1; do
    variant=${variants[$index]}
    database="$work/$variant.sqlite"
    if [[ $backend == postgresql ]]; then
        "${as_postgres[@]}" "$bindir/createdb" -h "$cluster" -p 5432 -U postgres "$variant"
        database="$(bench_cluster_uri "$variant")"
    fi
    CLONER_MAX_OBJECTS_PER_CLONE=10000000 "$cloner_bin" serve --port "${ports[$index]}" --database "$database" \
        --model "scripts/bench-models/blog-$variant.json" > /dev/null 2> "$work/$variant.err" &
    pids+=($!)
done
for index in 0 1; do
    for _ in $(seq 1 100); do
        if curl -fsS -o /dev/null "http://127.0.0.1:${ports[$index]}/healthz" 2>/dev/null; then continue 2; fi
        sleep 0.1
    done
    echo "the ${variants[$index]} server did not start:" >&2
    cat "$work/${variants[$index]}.err" >&2
    exit 1
done

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$rounds" "$posts" "$comments" "${ports[@]}" <<'PY'
import http.client, json, statistics, sys, time

rounds, posts, comments = (int(v) for v in sys.argv[1:4])
ports = {"flat": int(sys.argv[4]), "hierarchy": int(sys.argv[5])}

def call(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request(method, path, body=json.dumps(body) if body is not None else None,
                       headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    text = answer.read()
    connection.close()
    if answer.status >= 300:
        sys.exit(f"{method} {path} on :{port}: {answer.status} {text[:300]!r}")
    return json.loads(text) if text else None

# The same graph on both: a blog, posts and pages (each a sub-entity of BasePost in one model,
# an entity of its own in the other), comments under each.
stamp = "2026-11-29T12:00:00Z"
for variant, port in ports.items():
    call(port, "POST", "/blogs", {"name": "bench"})
    for number in range(posts):
        notes = [{"text": f"comment {k}"} for k in range(comments)]
        call(port, "POST", "/posts", {"title": f"post {number}", "body": "text " * 20, "createdAt": stamp, "blog": 1, "comments": notes})
        call(port, "POST", "/pages", {"title": f"page {number}", "body": "text " * 20, "createdAt": stamp, "blog": 1, "menuOrder": number,
                                  "comments": notes})

objects = 1 + 2 * posts * (1 + comments)
times = {variant: [] for variant in ports}
for round in range(rounds):
    order = list(ports) if round % 2 == 0 else list(reversed(ports))
    for variant in order:
        started = time.perf_counter()
        result = call(ports[variant], "POST", "/blogs/1/clone", {})
        elapsed = time.perf_counter() - started
        created = sum(result["created"].values())
        if created != objects:
            sys.exit(f"{variant}: the clone created {created} objects, not {objects}: {result['created']}")
        times[variant].append(elapsed)
        print(f"round {round + 1}  {variant:<9} {elapsed * 1000:9.1f} ms", file=sys.stderr)

flat, hierarchy = (statistics.median(times[v]) for v in ("flat", "hierarchy"))
print(f"\n{objects} objects a clone, median of {rounds} alternating rounds")
print(f"without inheritance: {flat * 1000:8.1f} ms  {flat / objects * 1e6:6.2f} µs an object")
print(f"with inheritance:    {hierarchy * 1000:8.1f} ms  {hierarchy / objects * 1e6:6.2f} µs an object")
print(f"with / without = {hierarchy / flat:.2f}")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
