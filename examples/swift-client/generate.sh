#!/usr/bin/env bash
# Regenerates Sources/cloner-mobile-walk/Generated from the document a running Cloner serves for the sample model.
#
#   ./generate.sh SERVER_URL [API_KEY]           write openapi.yaml and Sources/cloner-mobile-walk/Generated
#   ./generate.sh --check SERVER_URL [API_KEY]   only check: fail when the committed code differs
#
# Either way it fails when the generator prints a warning or an error: a warning is the generator
# leaving part of the API out (a schema it skips, a property it drops). Its notes (a recursive type
# boxed) are kept in the output and do not fail. The document is fetched with `Host: localhost:8080`,
# so the committed `Servers` default does not depend on the port a run happened to get.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

check=false
if [ "${1:-}" = "--check" ]; then check=true; shift; fi
server="${1:?usage: generate.sh [--check] SERVER_URL [API_KEY]}"
key="${2:-${CLONER_API_KEY:-}}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

auth=()
[ -n "$key" ] && auth=(-H "Authorization: Bearer $key")
curl -fsS "${auth[@]}" -H "Host: localhost:8080" "$server/openapi.yaml" -o "$work/openapi.yaml"

# The generator is a package of its own (Generator/), built once per build folder.
start=$(date +%s)
swift build --package-path "$here/Generator" --product swift-openapi-generator >"$work/generator-build.log" 2>&1 || {
  cat "$work/generator-build.log" >&2
  echo "generate.sh: building swift-openapi-generator failed" >&2
  exit 1
}
generator="$(swift build --package-path "$here/Generator" --product swift-openapi-generator --show-bin-path)/swift-openapi-generator"
echo "generate.sh: swift-openapi-generator built in $(( $(date +%s) - start )) s"

mkdir "$work/out"
"$generator" generate --config "$here/openapi-generator-config.yaml" --output-directory "$work/out" "$work/openapi.yaml" \
  >"$work/generate.log" 2>&1 || { cat "$work/generate.log" >&2; echo "generate.sh: the generator failed" >&2; exit 1; }
if grep -Ei '^(warning|error):|warning: |error: ' "$work/generate.log" >&2; then
  echo "generate.sh: the generator warned (above): part of the served API would be missing from the client" >&2
  exit 1
fi
grep -E '^note:' "$work/generate.log" || true
echo "generate.sh: $(cat "$work"/out/*.swift | wc -l) lines generated, no warning"

if $check; then
  if ! diff -q "$work/openapi.yaml" "$here/openapi.yaml" >/dev/null || ! diff -r -q "$work/out" "$here/Sources/cloner-mobile-walk/Generated" >/dev/null; then
    diff -u "$here/openapi.yaml" "$work/openapi.yaml" | head -60 >&2 || true
    echo "generate.sh: the served document or its client differs from the committed one; run examples/swift-client/generate.sh and commit" >&2
    exit 1
  fi
  echo "generate.sh: committed openapi.yaml and Sources/cloner-mobile-walk/Generated match the served document"
else
  cp "$work/openapi.yaml" "$here/openapi.yaml"
  rm -f "$here"/Sources/cloner-mobile-walk/Generated/*.swift
  cp "$work"/out/*.swift "$here/Sources/cloner-mobile-walk/Generated/"
  echo "generate.sh: wrote openapi.yaml and Sources/cloner-mobile-walk/Generated"
fi
