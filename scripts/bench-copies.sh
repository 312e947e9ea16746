#!/usr/bin/env bash
# Many-copies benchmark: builds clone-bench in release and compares one request for 100 copies of
# a 100-item note with 100 single clone requests and with a hand-written set-based SQL copy of the
# same rows (Sources/clone-bench/ReferenceCopies.swift: all 100 copies in one pass, source rows
# staged once, one INSERT … SELECT per table, statements prepared once) — objects/s of each, with
# the load average, for a note without attachments and one with a 4 KiB attachment per item.
# Extra arguments go to `clone-bench copies`, e.g. `scripts/bench-copies.sh --copies 30 --rounds 5`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product clone-bench
exec "$(swift build -c release --show-bin-path)/clone-bench" copies --model config/model.json "$@"
