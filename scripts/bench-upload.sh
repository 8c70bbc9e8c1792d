#!/usr/bin/env bash
# Builds in release mode and runs the upload benchmark: 8 uploads of 25 MiB at once to a real
# `sharepipe serve` beside a raw write+fsync loop on the same disk in the same run, and the server's
# resident memory while they run; on SQLite (blobs as files) and, when SHAREPIPE_BENCH_POSTGRES_URL
# is set, on PostgreSQL (blobs in its tables, in the schema bench_upload).
#   scripts/bench-upload.sh [extra bench-upload options, e.g. --rounds 9]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product sharepipe >/dev/null
swift build -c release --product sharepipe-dev >/dev/null
bin=.build/release/sharepipe-dev
echo "== SQLite"
$bin bench-upload "$@"
if [ -n "${SHAREPIPE_BENCH_POSTGRES_URL:-}" ]; then
    echo "== PostgreSQL"
    url="$SHAREPIPE_BENCH_POSTGRES_URL"
    case "$url" in *\?*) url="$url&schema=bench_upload" ;; *) url="$url?schema=bench_upload" ;; esac
    $bin bench-upload --database "$url" "$@"
fi
