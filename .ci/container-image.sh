#!/usr/bin/env bash
# Builds the Dockerfile as it is with podman (no Docker daemon on CI's machines, no container
# registry reachable from them) and runs the image as a user would. Any failed check fails the
# step; if podman can't build or start the image, that fails it too. Everything the step starts
# (containers, volumes, the image it built) is removed at the end, on failure as well; the two
# stand-in base images stay, for the next run to reuse.
#
#   bash .ci/container-image.sh         (root; installs podman and friends from Debian's packages)
#
# Base images. The Dockerfile names swift:6.3-bookworm and debian:bookworm-slim; with no registry
# the step makes both locally, under those names:
#   debian:bookworm-slim  an mmdebstrap minbase root file system from the machine's own apt
#                         sources (merged /usr, no docs, man pages or locales, apt caches emptied)
#   swift:6.3-bookworm    that, plus the packages the official Swift image installs, with PATH
#                         leading to /opt/swift/usr/bin. The toolchain itself is not in it: the
#                         build mounts the machine's /opt/swift read-only (copied in, the image
#                         would be 4.3 GB). Package dependencies resolve from the machine's local
#                         package copies through git's url.<copy>.insteadOf, mounted the same way.
# `--format docker` keeps HEALTHCHECK (the OCI format has no such field).
#
# Checks, in order: the service answers /healthz through -p on 127.0.0.1; PID 1 runs as uid and
# gid 10001; ldd finds every library of the binary; the image's HEALTHCHECK passes; a record
# written survives a stop and a start on the same named volume; SIGTERM with a request in flight
# answers it and exits 0 within the drain timeout; the health check follows CLONER_PORT and TLS;
# a data folder the user can't write stops the start with a permission message. The image size
# and the step's time are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
step_started=$(date +%s)

say() { echo "container-image: $*"; }
fail() {
  echo "container-image: FAILED: $*" >&2
  exit 1
}

# ---- tools ----------------------------------------------------------------------------------
need=()
for pkg in podman buildah mmdebstrap runc uidmap fuse-overlayfs curl openssl python3; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ "${#need[@]}" -gt 0 ]; then
  say "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
[ -x /opt/swift/usr/bin/swift ] || fail "no Swift toolchain at /opt/swift (the build mounts it read-only)"
[ -d /opt/swift-packages ] || fail "no package copies at /opt/swift-packages (the build resolves dependencies from them)"

work=$(mktemp -d /tmp/cloner-image.XXXXXX)
run_id="cloner-ci-$$"
image="localhost/cloner:$run_id"
volume="$run_id-data"
containers=()
builder=""

cleanup() {
  local status=$?
  set +e
  [ -z "$builder" ] || buildah rm "$builder" >/dev/null 2>&1
  for name in "${containers[@]}"; do podman rm --force --volumes --time 0 "$name" >/dev/null 2>&1; done
  podman volume rm --force "$volume" >/dev/null 2>&1
  podman rmi --force "$image" >/dev/null 2>&1
  rm -rf "$work"
  if [ "$status" -ne 0 ]; then
    echo "container-image: step failed after $(($(date +%s) - step_started)) s (exit $status)" >&2
  fi
  exit "$status"
}
trap cleanup EXIT

# podman's settings: .ci/containers.conf, with default limits no higher than this shell's hard
# limits (root here lacks CAP_SYS_RESOURCE and can't raise them; podman's own defaults are higher).
nofile=$(ulimit -Hn)
[ "$nofile" = unlimited ] || [ "$nofile" -gt 1048576 ] && nofile=1048576
nproc=$(ulimit -Hu)
[ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
sed "s/^default_ulimits = .*/default_ulimits = [\"nofile=$nofile:$nofile\", \"nproc=$nproc:$nproc\"]/" \
  .ci/containers.conf >"$work/containers.conf"
export CONTAINERS_CONF="$work/containers.conf"

# ---- base images ----------------------------------------------------------------------------
# Bump when the recipe below changes: an image made by an older recipe is made again.
base_recipe=1

base_is_current() { # image
  [ "$(podman image inspect --format '{{ index .Config.Labels "cloner.ci.base-recipe" }}' "$1" 2>/dev/null)" = "$base_recipe" ]
}

debian_image=docker.io/library/debian:bookworm-slim
swift_image=docker.io/library/swift:6.3-bookworm

# An image made again leaves the one it replaces untagged: remove that one, unless a container
# still uses it.
drop_replaced() { # old image id
  [ -n "$1" ] && [ "$(podman image inspect --format '{{ .Id }}' "$2" 2>/dev/null)" != "$1" ] &&
    podman rmi "$1" >/dev/null 2>&1 || true
}

bases_started=$(date +%s)
debian_made=false
if base_is_current "$debian_image"; then
  say "reusing $debian_image (recipe $base_recipe)"
else
  say "making $debian_image with mmdebstrap"
  replaced_debian=$(podman image inspect --format '{{ .Id }}' "$debian_image" 2>/dev/null || true)
  sources=/etc/apt/sources.list.d/debian.sources
  [ -f "$sources" ] || sources=/etc/apt/sources.list
  mmdebstrap --variant=minbase --mode=root --format=tar --quiet \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/cache/apt/archives/*.deb' \
    bookworm "$work/rootfs.tar" "$sources" >"$work/mmdebstrap.log" 2>&1 ||
    {
      tail -20 "$work/mmdebstrap.log" >&2
      fail "mmdebstrap of the bookworm minbase root file system"
    }
  podman import --quiet --change 'CMD ["bash"]' --change "LABEL cloner.ci.base-recipe=$base_recipe" \
    "$work/rootfs.tar" "$debian_image" >/dev/null
  rm -f "$work/rootfs.tar"
  drop_replaced "$replaced_debian" "$debian_image" # fails while the old Swift image uses it: see below
  debian_made=true
fi

if base_is_current "$swift_image" && ! $debian_made; then
  say "reusing $swift_image (recipe $base_recipe)"
else
  say "making $swift_image (the official image's packages; the toolchain is mounted at build time)"
  replaced=$(podman image inspect --format '{{ .Id }}' "$swift_image" 2>/dev/null || true)
  builder=$(buildah from --pull-never --quiet "$debian_image")
  buildah run "$builder" -- sh -c 'export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && apt-get install -y -q --no-install-recommends binutils-gold libicu-dev libcurl4-openssl-dev \
         libedit-dev libsqlite3-dev libncurses-dev libpython3-dev libxml2-dev pkg-config uuid-dev tzdata \
         git gcc libstdc++-12-dev ca-certificates \
    && rm -rf /var/lib/apt/lists/*' >"$work/swift-base.log" 2>&1 ||
    {
      tail -20 "$work/swift-base.log" >&2
      fail "installing the Swift image's packages"
    }
  buildah config --env PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --label "cloner.ci.base-recipe=$base_recipe" "$builder"
  buildah commit --quiet --format docker --rm "$builder" "$swift_image" >/dev/null
  builder=""
  drop_replaced "$replaced" "$swift_image"
  drop_replaced "${replaced_debian:-}" "$debian_image"
fi

bases_seconds=$(($(date +%s) - bases_started))

# ---- build the Dockerfile as it is ----------------------------------------------------------
# Only the package copies' insteadOf rules reach the build, not the machine's whole git config.
git config --system --get-regexp '^url\..*\.insteadof$' >"$work/rules" || true
[ -s "$work/rules" ] || fail "no url.<copy>.insteadOf rule in the system git config: dependencies can't resolve without a registry"
while read -r key value; do
  git config --file "$work/gitconfig" --add "$key" "$value"
done <"$work/rules"

say "building the Dockerfile (podman build --format docker)"
build_started=$(date +%s)
if ! podman build --format docker --pull=never --layers=false \
  --volume /opt/swift:/opt/swift:ro \
  --volume /opt/swift-packages:/opt/swift-packages:ro \
  --volume "$work/gitconfig:/etc/gitconfig:ro" \
  --tag "$image" . >"$work/build.log" 2>&1; then
  tail -40 "$work/build.log" >&2
  fail "podman build of the Dockerfile"
fi
build_seconds=$(($(date +%s) - build_started))
say "built $image in $build_seconds s"

# ---- helpers --------------------------------------------------------------------------------
start_container() { # name, then podman run options and arguments
  local name=$1
  shift
  containers+=("$name")
  # Without systemd podman says it can't schedule the health-check timer; that is expected here
  # (checks run on demand), so its messages go to a file, shown only if the run fails.
  podman run --detach --name "$name" "$@" >/dev/null 2>"$work/run-$name.log" || {
    cat "$work/run-$name.log" >&2
    fail "podman run $name"
  }
}

host_port() { # container, container port
  podman port "$1" "$2/tcp" | head -n1 | sed 's/.*://'
}

wait_healthz() { # url, container, then extra curl options
  local url=$1 name=$2
  shift 2
  local deadline=$((SECONDS + 60))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if curl --silent --fail --max-time 2 "$@" "$url/healthz" >/dev/null 2>&1; then return 0; fi
    [ "$(podman inspect --format '{{ .State.Running }}' "$name")" = true ] || {
      podman logs "$name" >&2 || true
      fail "$name exited before answering /healthz"
    }
    sleep 0.2
  done
  podman logs "$name" >&2 || true
  fail "$name did not answer $url/healthz within 60 s"
}

# ---- 1. serve through -p, as a user would ---------------------------------------------------
podman volume create "$volume" >/dev/null
start_container "$run_id-main" --publish 127.0.0.1::8080 --volume "$volume:/app/data" "$image"
port=$(host_port "$run_id-main" 8080)
base="http://127.0.0.1:$port"
wait_healthz "$base" "$run_id-main"
checks=0
passed() {
  checks=$((checks + 1))
  say "ok: $*"
}
passed "/healthz answers through -p 127.0.0.1:$port"

# ---- 2. not root ----------------------------------------------------------------------------
ids=$(podman exec "$run_id-main" sh -c 'awk "/^Uid:/{print \$2} /^Gid:/{print \$2}" /proc/1/status | paste -sd:')
[ "$ids" = "10001:10001" ] || fail "PID 1 runs as uid:gid $ids, not 10001:10001"
home=$(podman exec "$run_id-main" sh -c 'getent passwd 10001 | cut -d: -f6')
[ "$home" != /app ] || fail "the user's home is /app"
passed "the service runs as uid 10001, gid 10001, home $home"

# ---- 3. every library found -----------------------------------------------------------------
libraries=$(podman exec "$run_id-main" ldd /usr/local/bin/cloner) || fail "ldd on the binary: $libraries"
if grep -q 'not found' <<<"$libraries"; then
  fail "libraries missing from the image: $(grep 'not found' <<<"$libraries" | tr -s ' \t' ' ')"
fi
passed "ldd finds all $(wc -l <<<"$libraries") libraries"

# ---- 4. the image's HEALTHCHECK ---------------------------------------------------------------
healthcheck=$(podman image inspect --format '{{ json .Config.Healthcheck }}' "$image")
grep -q cloner-healthcheck <<<"$healthcheck" || fail "the image has no HEALTHCHECK (built in OCI format?): $healthcheck"
podman healthcheck run "$run_id-main" || fail "the HEALTHCHECK command failed on a serving container"
passed "HEALTHCHECK passes"

# ---- 5. a record survives stop and start on the same volume -----------------------------------
note='{"id": "'$(cat /proc/sys/kernel/random/uuid)'", "name": "kept across restarts", "createDate": "2026-11-25T10:00:00Z"}'
created=$(curl --silent --show-error --fail-with-body --max-time 10 -X POST "$base/notes" \
  -H 'Content-Type: application/json' -d "$note") || fail "POST /notes: $created"
id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["_id"])' <<<"$created") || fail "no _id in $created"
podman stop --time 10 "$run_id-main" >/dev/null 2>"$work/stop.log" || {
  cat "$work/stop.log" >&2
  fail "podman stop"
}
podman start "$run_id-main" >/dev/null 2>"$work/start.log" || {
  cat "$work/start.log" >&2
  fail "podman start after the stop"
}
port=$(host_port "$run_id-main" 8080)
base="http://127.0.0.1:$port"
wait_healthz "$base" "$run_id-main"
kept=$(curl --silent --show-error --fail-with-body --max-time 10 "$base/notes/$id") || fail "GET /notes/$id after the restart: $kept"
grep -q 'kept across restarts' <<<"$kept" || fail "the note written before the restart is not the same after it: $kept"
passed "note $id survived a stop and a start on volume $volume"

# ---- 6. SIGTERM with a request in flight ------------------------------------------------------
# The request's head and half its body are sent before the signal, the rest after it: the answer
# must still come (201), and the process exit 0 within the image's drain timeout.
drain=$(podman exec "$run_id-main" sh -c 'echo "${CLONER_DRAIN_TIMEOUT:-30}"')
python3 - "$port" "$run_id-main" "$drain" <<'PY' || fail "SIGTERM with a request in flight"
import json, socket, subprocess, sys, time, uuid
port, name, drain = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
body = json.dumps({"id": str(uuid.uuid4()), "name": "in flight during SIGTERM",
                   "createDate": "2026-11-25T10:00:00Z"}).encode()
half = len(body) // 2
client = socket.create_connection(("127.0.0.1", port), timeout=30)
client.sendall(b"POST /notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n" % len(body) + body[:half])
time.sleep(0.5)
signalled = time.monotonic()
subprocess.run(["podman", "kill", "--signal", "TERM", name], check=True, stdout=subprocess.DEVNULL)
time.sleep(1)
client.sendall(body[half:])
answer = b""
while True:
    chunk = client.recv(65536)
    if not chunk:
        break
    answer += chunk
status_line = answer.split(b"\r\n", 1)[0].decode(errors="replace")
if " 201 " not in status_line:
    sys.exit(f"the in-flight request got {status_line!r}, not 201 Created")
exited = subprocess.run(["podman", "wait", name], check=True, capture_output=True, text=True).stdout.strip()
elapsed = time.monotonic() - signalled
if exited != "0":
    sys.exit(f"the container exited {exited} after SIGTERM, not 0")
if elapsed > drain + 1:
    sys.exit(f"the container took {elapsed:.1f} s to exit after SIGTERM, past the drain timeout of {drain:g} s")
print(f"container-image: ok: SIGTERM answered the in-flight request (201) and exited 0 after {elapsed:.1f} s (drain timeout {drain:g} s)")
PY
# The log is read whole before it is searched: `grep -q` stops at the first match, and under
# pipefail the writer's SIGPIPE would fail the pipeline although the line is there. conmon may
# also write the last lines a moment after the container exits, so a miss is read again.
drain_logged=""
for _ in 1 2 3 4 5; do
  container_log=$(podman logs "$run_id-main" 2>&1 || true)
  if grep -q 'signal received' <<<"$container_log"; then drain_logged=yes; break; fi
  sleep 1
done
[[ -n $drain_logged ]] ||
  fail "the container's log does not show the SIGTERM drain; its last lines: $(tail -n 5 <<<"$container_log")"
checks=$((checks + 1))

# ---- 7. the health check follows CLONER_PORT and TLS -----------------------------------------
mkdir "$work/tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -keyout "$work/tls/key.pem" -out "$work/tls/cert.pem" >/dev/null 2>&1 || fail "making a test certificate"
chmod 0755 "$work/tls"
chmod 0644 "$work/tls/key.pem" "$work/tls/cert.pem" # a throwaway key, readable by uid 10001
start_container "$run_id-tls" --publish 127.0.0.1::9443 --volume "$work/tls:/tls:ro" \
  --env CLONER_PORT=9443 --env CLONER_TLS_CERT=/tls/cert.pem --env CLONER_TLS_KEY=/tls/key.pem \
  "$image"
wait_healthz "https://127.0.0.1:$(host_port "$run_id-tls" 9443)" "$run_id-tls" --insecure
podman healthcheck run "$run_id-tls" || fail "the HEALTHCHECK failed with CLONER_PORT=9443 and TLS on"
passed "HEALTHCHECK passes on CLONER_PORT=9443 over TLS"

# ---- 8. a data folder the user can't write ----------------------------------------------------
mkdir "$work/root-owned"
chmod 0755 "$work/root-owned"
containers+=("$run_id-denied")
set +e
podman run --name "$run_id-denied" --volume "$work/root-owned:/app/data" "$image" >"$work/denied.log" 2>&1
denied_status=$?
set -e
[ "$denied_status" -ne 0 ] || fail "the service started on a data folder uid 10001 can't write"
grep -q 'permission denied' "$work/denied.log" && grep -q 'uid 10001' "$work/denied.log" && grep -q '/app/data' "$work/denied.log" ||
  fail "a root-owned data folder did not give a permission message naming /app/data and uid 10001: $(cat "$work/denied.log")"
passed "a root-owned data folder stops the start with: $(grep -o 'permission denied[^"]*' "$work/denied.log" | head -n1 | cut -c1-120)..."

# ---- figures --------------------------------------------------------------------------------
size=$(podman image inspect --format '{{ .Size }}' "$image")
binary=$(podman run --rm --entrypoint stat "$image" -c %s /usr/local/bin/cloner 2>/dev/null) || fail "stat of the binary in the image"
say "image size $((size / 1000 / 1000)) MB ($size bytes), binary $((binary / 1000 / 1000)) MB; base images $bases_seconds s; build $build_seconds s; step $(($(date +%s) - step_started)) s"
# Every check above ends the step on failure, so reaching here means all passed.
echo "container-image: $checks passed, 0 failed"
