#!/usr/bin/env bash
# Builds FuzzExtractor with libFuzzer and AddressSanitizer, seeds the corpus, and fuzzes for the given
# number of seconds (default 600) with one worker. See docs/fuzzing.md.
#
# Usage: Fuzz/run.sh [seconds] [extra libFuzzer flags…]
#   FUZZ_CONFIG=debug|release   build configuration (default release: -O, about 4× as fast)
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

# SwiftPM's --sanitize=fuzzer makes the executable link with libFuzzer's main: it compiles with
# -parse-as-library and drops the debug build's entry-point renaming (--defsym main=FuzzExtractor_main,
# which breaks `-Xswiftc -sanitize=fuzzer` alone). The sanitizers themselves come from -Xswiftc, in one
# flag, which comes last and so wins: with `--sanitize=fuzzer --sanitize=address` the compiler only got
# -sanitize=fuzzer (no ASan checks in Swift code), and a clean build had no coverage counters at all.
mkdir -p corpus-work/empty corpus-work/logs
build_log=corpus-work/logs/build.log
if ! swift build -c "$config" --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
    >"$build_log" 2>&1; then
    grep -v "ld.gold: warning: Cannot export local symbol" "$build_log" >&2
    echo "run.sh: build failed" >&2
    exit 1
fi
tail -1 "$build_log"
binary=".build-fuzz/$config/FuzzExtractor"
probe=$(SWIFT_BACKTRACE=enable=no "$binary" -runs=0 corpus-work/empty 2>&1 || true)
if ! grep -q "inline 8-bit counters" <<<"$probe"; then
    echo "run.sh: $binary has no coverage counters; remove Fuzz/.build-fuzz and rerun" >&2
    exit 1
fi

./seed.sh
mkdir -p corpus-work/live corpus-work/logs artifacts
log="corpus-work/logs/fuzz-$(date +%Y%m%d-%H%M%S).log"
echo "run.sh: fuzzing for ${seconds}s with $binary; log in Fuzz/$log"

# The Swift runtime's own crash backtracer would catch the signal first (and can hang under ASan):
# leave crashes to libFuzzer and ASan, which save the input and print the stack.
# LeakSanitizer stays on (libFuzzer's -detect_leaks=1 default): it has reported nothing here.
export SWIFT_BACKTRACE=enable=no
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
