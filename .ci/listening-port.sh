# Sourced by the client checks: `port=$(listening_port LOG PID NAME)` waits (30 s at most) for the
# `listening` log line of a `cloner serve --port 0` started with its output in LOG, and prints the
# port the kernel gave it; it fails, with the log, when the server exits or never says.
listening_port() {
  local log="$1" server="$2" name="$3" port=""
  for _ in $(seq 1 300); do
    port="$(grep -o '"message":"listening".*"port":"[0-9]*"' "$log" | grep -o '"port":"[0-9]*"' | grep -o '[0-9]\+' || true)"
    [ -n "$port" ] && { echo "$port"; return 0; }
    kill -0 "$server" 2>/dev/null || { cat "$log" >&2; echo "$name: cloner exited" >&2; return 1; }
    sleep 0.1
  done
  cat "$log" >&2
  echo "$name: cloner did not say where it listens" >&2
  return 1
}
