#!/usr/bin/env bash
# Fuzzes ClonerHTTP's request parser with libFuzzer + AddressSanitizer.
#
#   scripts/fuzz-parser.sh [SECONDS] [libFuzzer options...]     (default 60 s)
#   scripts/fuzz-parser.sh replay FILE|DIR...                   re-run inputs (crash files, corpus)
#
# Seeds: Tests/Fuzz/corpus/ (committed; each file name says what the parser must answer, checked by
# `swift run http-parser-fuzz Tests/Fuzz/corpus`). Inputs libFuzzer finds go to fuzz-corpus/
# (git-ignored) and are reused by the next run; crash files to .build-fuzz/artifacts/.
#
# Build notes (Swift 6.3.1, Linux), checked by watching libFuzzer's `cov:` grow:
# - ONE combined `-Xswiftc -sanitize=fuzzer,address`: coverage instrumentation and ASan on
#   every Swift module, ClonerHTTP included. SwiftPM's own `--sanitize=fuzzer` instead compiles
#   executables with -parse-as-library (no top-level code) and expects libFuzzer's main; this
#   target keeps its main (it doubles as the corpus replayer) and, built with -D LIBFUZZER,
#   hands control to libFuzzer through LLVMFuzzerRunDriver (declared with @_extern(c), hence
#   the Extern experimental feature, enabled for this build only).
# - Release by default (FUZZ_CONFIGURATION=debug to change): 3,500-10,000 exec/s at first here
#   (falling to ~2,000 as the corpus grows and neighbours build) against ~1,000 for debug, with
#   the same coverage growth; preconditions and overflow checks stay on in -O.
# - Own scratch path, so the instrumented objects never mix with the normal .build/.
# - SWIFT_BACKTRACE=enable=no: Swift's backtracer otherwise takes the crash signal first and
#   libFuzzer never writes the crash file.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-fuzz
configuration=${FUZZ_CONFIGURATION:-release}
flags=(-c "$configuration" --scratch-path "$scratch")
build() {
    swift build "${flags[@]}" --product http-parser-fuzz \
        -Xswiftc -sanitize=fuzzer,address \
        -Xswiftc -DLIBFUZZER -Xswiftc -enable-experimental-feature -Xswiftc Extern >&2
    echo "$(swift build "${flags[@]}" --show-bin-path)/http-parser-fuzz"
}

if [[ "${1:-}" == "replay" ]]; then
    shift
    fuzzer=$(build)
    # With files as arguments libFuzzer runs each once and exits non-zero on the first failure.
    SWIFT_BACKTRACE=enable=no exec "$fuzzer" -runs=1 "$@"
fi

seconds=${1:-60}
shift || true
fuzzer=$(build)
mkdir -p fuzz-corpus "$scratch/artifacts"
echo "fuzzing for ${seconds}s: $fuzzer" >&2
status=0
SWIFT_BACKTRACE=enable=no "$fuzzer" fuzz-corpus Tests/Fuzz/corpus \
    -dict=Tests/Fuzz/http.dict \
    -max_total_time="$seconds" \
    -max_len=12288 \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -print_final_stats=1 \
    -artifact_prefix="$scratch/artifacts/" \
    "$@" || status=$?
if compgen -G "$scratch/artifacts/*" > /dev/null; then
    echo "artifacts (reproduce with: scripts/fuzz-parser.sh replay FILE):" >&2
    ls -l "$scratch/artifacts/" >&2
fi
exit "$status"
