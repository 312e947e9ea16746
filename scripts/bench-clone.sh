#!/usr/bin/env bash
# Issue 4 benchmark: builds clone-bench in release and runs the whole suite (Cloner vs a
# hand-written SQL copy at 1k/10k/100k items, peak RSS per run, a 1 GiB-of-attachments clone).
# Extra arguments go to clone-bench, e.g. `scripts/bench-clone.sh --sizes 1000,10000 --rounds 5`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product clone-bench
exec "$(swift build -c release --show-bin-path)/clone-bench" suite --model config/model.json "$@"
