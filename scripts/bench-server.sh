#!/usr/bin/env bash
# Loads the release server with wrk: POST /v1/shares with unique idempotency keys, GET /v1/shares,
# and /health (the framework's ceiling) in the same run, on SQLite and, when SHAREPIPE_BENCH_POSTGRES_URL
# is set, on PostgreSQL. wrk comes from Debian (apt-get install wrk).
#   scripts/bench-server.sh [seconds per run, default 10] [connections, default 64]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
connections="${2:-64}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }
swift build -c release --product sharepipe >/dev/null
bin=.build/release/sharepipe
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

run_backend() {
    local name="$1" database="$2" port="$3"
    $bin users add bench --database "$database" >/dev/null
    local tokens app share
    tokens="$($bin devices add bench bench --database "$database")"
    app="$(echo "$tokens" | awk '/app token:/ {print $3}')"
    share="$(echo "$tokens" | awk '/share token:/ {print $3}')"
    # One token from one address at full speed: the per-token and per-address limits are off.
    $bin serve --database "$database" --port "$port" --preview-workers 2 \
        --requests-per-second-per-token 0 --requests-per-second-per-address 0 >"$work/$name.log" 2>&1 &
    local server=$!
    for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
    echo "== $name ($seconds s per run, $connections connections, 2 wrk threads, server and wrk on the same 2 cores)"
    for what in health post list; do
        case "$what" in
            health) out="$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "http://127.0.0.1:$port/health")" ;;
            post) out="$(wrk -t2 -c"$connections" -d"${seconds}s" --latency -s scripts/bench-server/post-shares.lua "http://127.0.0.1:$port" -- "$share")" ;;
            list) out="$(wrk -t2 -c"$connections" -d"${seconds}s" --latency -s scripts/bench-server/get-with-token.lua "http://127.0.0.1:$port/v1/shares?limit=20" -- "$app")" ;;
        esac
        rps="$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
        p50="$(echo "$out" | awk '$1 == "50%" {print $2}')"
        p99="$(echo "$out" | awk '$1 == "99%" {print $2}')"
        non2xx="$(echo "$out" | awk '/Non-2xx/ {print $5}')"
        printf '%-8s %10s req/s   p50 %8s   p99 %8s   non-2xx %s\n' "$what" "$rps" "$p50" "$p99" "${non2xx:-0}"
        eval "${name}_${what}=$rps"
    done
    local health post
    health="$(eval echo "\$${name}_health")"
    post="$(eval echo "\$${name}_post")"
    awk -v p="$post" -v h="$health" 'BEGIN { printf "shares ÷ /health: %.2f\n\n", p / h }'
    kill -TERM "$server"
    wait "$server" || true
}

run_backend sqlite "$work/bench.sqlite" 18400
if [ -n "${SHAREPIPE_BENCH_POSTGRES_URL:-}" ]; then
    schema="bench_$(date +%s)"
    run_backend postgres "${SHAREPIPE_BENCH_POSTGRES_URL}?schema=$schema" 18401
else
    echo "PostgreSQL: set SHAREPIPE_BENCH_POSTGRES_URL=postgres://user:pass@127.0.0.1:5432/db to measure it too."
fi
