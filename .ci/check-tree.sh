#!/usr/bin/env bash
# The repository's shape, checked on what git tracks: every top-level entry is one the layout
# names (README.md's layout section), and no tracked file is over 1 MB (generated client sources
# aside) — a database, a build product or a capture committed by mistake fails here rather than
# growing every clone for good.
set -euo pipefail
cd "$(dirname "$0")/.."

allowed=(Package.swift Sources Tests Dockerfile openapi.yaml config README.md docs scripts deploy examples .ci)
limit=$((1024 * 1024))
status=0

while IFS= read -r entry; do
  case "$entry" in
    .*) continue ;; # dotfiles: .gitignore, .dockerignore, .swift-format, .ci
  esac
  known=false
  for name in "${allowed[@]}"; do
    [ "$entry" = "$name" ] && known=true && break
  done
  if ! $known; then
    echo "check-tree: '$entry' at the top level is not part of the layout (allowed: ${allowed[*]} and dotfiles)" >&2
    status=1
  fi
done < <(git ls-files -z | tr '\0' '\n' | cut -d/ -f1 | sort -u)

# Sizes of the blobs in the index (what a commit would hold), not of the working copy. A client
# example's generated sources are exempt: their size follows the API they describe, and the client
# scripts regenerate and compare them on every run, so none can be a file committed by mistake.
while read -r size path; do
  case "$path" in
    examples/*/Generated/*) continue ;;
  esac
  if [ "$size" -gt "$limit" ]; then
    echo "check-tree: '$path' is $size bytes, over the 1 MB limit for a tracked file" >&2
    status=1
  fi
done < <(git ls-files -s | cut -f1 --complement -d' ' | git cat-file --batch-check='%(objectsize) %(rest)' | sed 's/ [0-9]\t/ /')

[ "$status" -eq 0 ] && echo "check-tree: top level and file sizes ok ($(git ls-files | wc -l) tracked files)"
exit "$status"
