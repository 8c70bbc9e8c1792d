#!/usr/bin/env bash
# Builds FuzzExtractor with libFuzzer and AddressSanitizer, seeds the corpus, and fuzzes for the given
# number of seconds (default 600) with one worker. See docs/fuzzing.md.
#
# Usage: Fuzz/run.sh [seconds] [extra libFuzzer flags…]
#   FUZZ_CONFIG=debug|release   build configuration (default release: -O, about 3× the executions)
#   FUZZ_TOLERATE=id[,id…]      known, reported invariant violations to step over (KnownIssues.swift)
#   SHARED_CORPUS=path          where shared/corpus is (default: ../shared/corpus beside the checkout)
#
# New inputs that add coverage go to corpus-work/live/ (kept between runs, so a rerun goes on where
# the last one stopped); crashes, leaks and timeouts to artifacts/; the log to corpus-work/logs/.
# Rerun a crash with: Fuzz/.build-fuzz/<config>/FuzzExtractor artifacts/crash-…
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-600}"
shift || true
config="${FUZZ_CONFIG:-release}"

# SwiftPM's own --sanitize=fuzzer (not -Xswiftc -sanitize=fuzzer): it compiles every target with
# -parse-as-library and skips the debug build's entry-point renaming (--defsym main=FuzzExtractor_main),
# so libFuzzer's main links. Both sanitizers apply to LinkPreviewCore too, so its code is instrumented.
swift build -c "$config" --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address 2>&1 \
    | grep -v "ld.gold: warning: Cannot export local symbol" || true
binary=".build-fuzz/$config/FuzzExtractor"
[[ -x "$binary" ]] || { echo "run.sh: build failed" >&2; exit 1; }

./seed.sh
mkdir -p corpus-work/live corpus-work/logs artifacts
log="corpus-work/logs/fuzz-$(date +%Y%m%d-%H%M%S).log"
echo "run.sh: fuzzing for ${seconds}s with $binary; log in Fuzz/$log"

# The Swift runtime's own crash backtracer would catch the signal first (and can hang under ASan):
# leave crashes to libFuzzer and ASan, which save the input and print the stack.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:handle_abort=1}"
set +e
"$binary" corpus-work/live corpus-work/seeds \
    -max_total_time="$seconds" \
    -max_len=65536 \
    -timeout=30 \
    -rss_limit_mb=4096 \
    -dict=html.dict \
    -artifact_prefix=artifacts/ \
    -print_final_stats=1 \
    "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
echo "run.sh: libFuzzer exited with $status; coverage: $(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)"
exit "$status"
