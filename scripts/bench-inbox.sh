#!/usr/bin/env bash
# Builds in release mode and runs the inbox benchmark: enqueue + claim + complete per second with
# fsync durability, next to a raw fsync'd write + rename + unlink loop in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product sharepipe-dev
exec .build/release/sharepipe-dev bench-inbox "$@"
