#!/usr/bin/env bash
# Times the Shared with You shelf on a seeded database: 1,000,000 messages over 10,000 users, and one
# user with 20,000 shelf items across 200 conversations; the first page, "Show more" and search, on SQLite
# and, when SHAREPIPE_BENCH_POSTGRES_URL is set, on PostgreSQL, in the schema bench_shelf (made, or
# seeded again if an earlier run made it; a schema holding anything else is refused). Prints the feed
# query's plan.
#   scripts/bench-shelf.sh [extra bench-shelf options, e.g. --requests 1000]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product sharepipe-dev >/dev/null
bin=.build/release/sharepipe-dev
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "== SQLite (a WAL file in $work)"
$bin bench-shelf --database "$work/shelf.sqlite" "$@"
if [ -n "${SHAREPIPE_BENCH_POSTGRES_URL:-}" ]; then
    echo "== PostgreSQL"
    url="$SHAREPIPE_BENCH_POSTGRES_URL"
    case "$url" in *\?*) url="$url&schema=bench_shelf" ;; *) url="$url?schema=bench_shelf" ;; esac
    $bin bench-shelf --database "$url" --replace "$@"
fi
