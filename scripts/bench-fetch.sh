#!/usr/bin/env bash
# Builds in release mode and runs the fetch benchmark: MetadataProvider against a raw
# AsyncHTTPClient fetch of the same loopback pages, in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product sharepipe-dev
exec .build/release/sharepipe-dev bench-fetch "$@"
