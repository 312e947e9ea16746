#!/usr/bin/env bash
# Regenerates cloner_client/ from the document a running Cloner serves for the sample model, with
# openapi-python-client (pinned below, installed into a venv inside the repository's .build).
#
#   ./generate.sh SERVER_URL [API_KEY]           write openapi.yaml and cloner_client/
#   ./generate.sh --check SERVER_URL [API_KEY]   only check: fail when the committed code differs
#
# Either way it fails when the generator prints a warning: a warning is the generator leaving part
# of the API out (an operation, a response or a schema it could not read). The document is fetched
# with `Host: localhost:8080`, so the committed document does not depend on the port a run got.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

check=false
if [ "${1:-}" = "--check" ]; then check=true; shift; fi
server="${1:?usage: generate.sh [--check] SERVER_URL [API_KEY]}"
key="${2:-${CLONER_API_KEY:-}}"

# ruff is pinned too: the generator formats its output with it, so another ruff could change the
# committed code.
generator_version=0.29.1
ruff_version=0.17.6
venv="$root/.build/python-client-venv"
if [ ! -x "$venv/bin/openapi-python-client" ] ||
  [ "$("$venv/bin/openapi-python-client" --version)" != "openapi-python-client version: $generator_version" ] ||
  [ "$("$venv/bin/ruff" --version)" != "ruff $ruff_version" ]; then
  [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"
  "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check \
    "openapi-python-client==$generator_version" "ruff==$ruff_version"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

auth=()
[ -n "$key" ] && auth=(-H "Authorization: Bearer $key")
curl -fsS "${auth[@]}" -H "Host: localhost:8080" "$server/openapi.yaml" -o "$work/openapi.yaml"

# The generator runs ruff (its post hooks) from PATH.
(cd "$work" && PATH="$venv/bin:$PATH" openapi-python-client generate --path "$work/openapi.yaml" \
  --config "$here/generator-config.yaml" --meta none --output-path "$work/cloner_client") \
  >"$work/generate.log" 2>&1 || { cat "$work/generate.log" >&2; echo "generate.sh: the generator failed" >&2; exit 1; }
if grep -Eiq 'warning|error|unable|cannot|skipping' "$work/generate.log"; then
  cat "$work/generate.log" >&2
  echo "generate.sh: the generator warned (above): part of the served API would be missing from the client" >&2
  exit 1
fi
# Neither the caches ruff and Python leave behind are part of the client.
rm -rf "$work/cloner_client/.ruff_cache"
find "$work/cloner_client" -name __pycache__ -prune -exec rm -rf {} +
echo "generate.sh: $(find "$work/cloner_client" -name '*.py' | wc -l) files, $(cat $(find "$work/cloner_client" -name '*.py') | wc -l) lines generated, no warning"

if $check; then
  if ! diff -q "$work/openapi.yaml" "$here/openapi.yaml" >/dev/null ||
    ! diff -r -q -x __pycache__ -x .ruff_cache "$work/cloner_client" "$here/cloner_client" >/dev/null; then
    diff -u "$here/openapi.yaml" "$work/openapi.yaml" | head -60 >&2 || true
    diff -r -q -x __pycache__ -x .ruff_cache "$here/cloner_client" "$work/cloner_client" | head -20 >&2 || true
    echo "generate.sh: the served document or its client differs from the committed one; run examples/python-client/generate.sh and commit" >&2
    exit 1
  fi
  echo "generate.sh: committed openapi.yaml and cloner_client/ match the served document"
else
  cp "$work/openapi.yaml" "$here/openapi.yaml"
  rm -rf "$here/cloner_client"
  cp -r "$work/cloner_client" "$here/cloner_client"
  echo "generate.sh: wrote openapi.yaml and cloner_client/"
fi
