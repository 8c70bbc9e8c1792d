#!/usr/bin/env bash
# Builds in release mode and runs the extraction benchmark beside the peer extractors (peers.py) in
# the same run. Set up the peers once with: python3 ../shared/bench/peers.py --setup
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product sharepipe-dev
exec .build/release/sharepipe-dev bench "$@"
