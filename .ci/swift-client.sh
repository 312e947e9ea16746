#!/usr/bin/env bash
# The Swift client example against a real service: build `cloner`, start it on a free port with a
# temporary SQLite database and API keys, check that swift-openapi-generator turns the document it
# serves into the committed client without a warning, build the example, walk the API with it, and
# stop the service by its pid. Prints how long each part took.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=.ci/listening-port.sh
source .ci/listening-port.sh
root="$PWD"
example="$root/examples/swift-client"

seconds() { echo $(( $(date +%s) - $1 )); }

start=$(date +%s)
swift build --product cloner
cloner="$(swift build --show-bin-path)/cloner"
echo "swift-client: cloner built in $(seconds "$start") s"

work="$(mktemp -d)"
pid=""
hierarchy_pid=""
stop() {
  for server in "$pid" "$hierarchy_pid"; do
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
      kill -TERM "$server"
      for _ in $(seq 1 100); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$server" 2>/dev/null && kill -KILL "$server"
      wait "$server" 2>/dev/null || true
    fi
  done
  rm -rf "$work"
}
trap stop EXIT

full_key="swift-client-full-key"
read_key="swift-client-read-key"
# Port 0: the kernel picks a free port, which the `listening` log line names.
CLONER_API_KEYS="$full_key" CLONER_READ_API_KEYS="$read_key" CLONER_DRAIN_GRACE=0.1 \
  "$cloner" serve --host 127.0.0.1 --port 0 --database "$work/cloner.sqlite" --model "$root/config/model.json" \
  >"$work/cloner.log" 2>&1 &
pid=$!
port="$(listening_port "$work/cloner.log" "$pid" swift-client)"
server="http://127.0.0.1:$port"
curl -fsS "$server/healthz" >/dev/null
echo "swift-client: cloner (pid $pid) on $server"

# The generator's warnings (part of the API dropped) and a committed client that no longer matches
# the served document both fail here.
start=$(date +%s)
"$example/generate.sh" --check "$server" "$full_key"
echo "swift-client: generator check took $(seconds "$start") s"

start=$(date +%s)
swift build --package-path "$example"
echo "swift-client: example built in $(seconds "$start") s"

CLONER_API_KEY="$full_key" CLONER_READ_API_KEY="$read_key" \
  "$(swift build --package-path "$example" --show-bin-path)/cloner-mobile-walk" "$server"

kill -0 "$pid" 2>/dev/null || { cat "$work/cloner.log" >&2; echo "swift-client: cloner died during the walk" >&2; exit 1; }

# A model with entity inheritance (Tests/Fixtures/Hierarchy/Publishing.json): the generator must take
# its document without a warning (fields into a hierarchy, abstract collections with a
# discriminator, creates that hold themselves through such a field), and a client generated from it
# must build and create and decode each concrete entity (examples/swift-client/hierarchy).
start=$(date +%s)
CLONER_DRAIN_GRACE=0.1 "$cloner" serve --host 127.0.0.1 --port 0 --database "$work/hierarchy.sqlite" \
  --model "$root/Tests/Fixtures/Hierarchy/Publishing.json" >"$work/hierarchy.log" 2>&1 &
hierarchy_pid=$!
hierarchy_port="$(listening_port "$work/hierarchy.log" "$hierarchy_pid" swift-client)"
hierarchy="$example/hierarchy"
generated="$hierarchy/Sources/cloner-hierarchy-walk/Generated"
curl -fsS "http://127.0.0.1:$hierarchy_port/openapi.yaml" -o "$work/hierarchy.yaml"
rm -rf "$generated" && mkdir -p "$generated"
generator="$(swift build --package-path "$example/Generator" --product swift-openapi-generator --show-bin-path)/swift-openapi-generator"
"$generator" generate --config "$example/openapi-generator-config.yaml" --output-directory "$generated" "$work/hierarchy.yaml" \
  >"$work/hierarchy-generate.log" 2>&1 || { cat "$work/hierarchy-generate.log" >&2; echo "swift-client: the generator failed on the hierarchy" >&2; exit 1; }
if grep -Ei '^(warning|error):|warning: |error: ' "$work/hierarchy-generate.log" >&2; then
  echo "swift-client: the generator warned on the hierarchy's document (above)" >&2
  exit 1
fi
swift build --package-path "$hierarchy"
"$(swift build --package-path "$hierarchy" --show-bin-path)/cloner-hierarchy-walk" "http://127.0.0.1:$hierarchy_port"
echo "swift-client: hierarchy client generated, built and walked in $(seconds "$start") s"
echo "swift-client: passed"
