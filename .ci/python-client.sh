#!/usr/bin/env bash
# The Python client example against a real service: build `cloner`, start it on a free port with a
# temporary SQLite database and API keys, check that openapi-python-client turns the document it
# serves into the committed client without a warning, walk the API with it, and stop the service by
# its pid. Prints how long each part took.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=.ci/listening-port.sh
source .ci/listening-port.sh
root="$PWD"
example="$root/examples/python-client"

seconds() { echo $(( $(date +%s) - $1 )); }

start=$(date +%s)
swift build --product cloner
cloner="$(swift build --show-bin-path)/cloner"
echo "python-client: cloner built in $(seconds "$start") s"

work="$(mktemp -d)"
pid=""
stop() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop EXIT

full_key="python-client-full-key"
read_key="python-client-read-key"
# Port 0: the kernel picks a free port, which the `listening` log line names.
CLONER_API_KEYS="$full_key" CLONER_READ_API_KEYS="$read_key" CLONER_DRAIN_GRACE=0.1 \
  "$cloner" serve --host 127.0.0.1 --port 0 --database "$work/cloner.sqlite" --model "$root/config/model.json" \
  >"$work/cloner.log" 2>&1 &
pid=$!
port="$(listening_port "$work/cloner.log" "$pid" python-client)"
server="http://127.0.0.1:$port"
curl -fsS "$server/healthz" >/dev/null
echo "python-client: cloner (pid $pid) on $server"

# The generator's warnings (part of the API dropped) and a committed client that no longer matches
# the served document both fail here. generate.sh installs the pinned generator into
# .build/python-client-venv, whose Python (with httpx and attrs, the client's dependencies) runs the walk.
start=$(date +%s)
"$example/generate.sh" --check "$server" "$full_key"
echo "python-client: generator check took $(seconds "$start") s"

# -B: no __pycache__ left beside the committed client.
CLONER_API_KEY="$full_key" CLONER_READ_API_KEY="$read_key" PYTHONPATH="$example" \
  "$root/.build/python-client-venv/bin/python3" -B "$example/walk.py" "$server"

kill -0 "$pid" 2>/dev/null || { cat "$work/cloner.log" >&2; echo "python-client: cloner died during the walk" >&2; exit 1; }
echo "python-client: passed"
