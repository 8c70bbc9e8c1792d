#!/usr/bin/env bash
# The API checked against its own contract by a client nobody here wrote: Schemathesis (PyPI) reads
# the live server's /openapi.json, generates requests from it — valid ones, which must be accepted,
# and invalid ones, which must be refused with a 4xx — and checks every answer against the document
# (status, headers, media type, body schema) and against HTTP (405 with Allow, auth enforced…).
# It runs three times: with an app token, with a share token and with no token, each on a fresh
# database seeded with two accounts, their shares, a conversation, a public page and an upload. The one
# operation skipped is the app token's `DELETE /v1/devices/{id}`, which would revoke the token the
# run goes on with. Exceptions Schemathesis reports that are right are listed in docs/server.md.
#   scripts/contract-test.sh [path to sharepipe, default .build/debug/sharepipe]
# Environment: SHAREPIPE_CONTRACT_EXAMPLES (test cases per operation and phase, default 30),
# SHAREPIPE_CONTRACT_SEED (default 1; change it to explore other inputs).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build/debug/sharepipe}"
schemathesis_version="4.32.5"
examples="${SHAREPIPE_CONTRACT_EXAMPLES:-30}"
seed="${SHAREPIPE_CONTRACT_SEED:-1}"
[ -x "$bin" ] || { echo "No $bin: build first (swift build)."; exit 1; }
if [ "$(schemathesis --version 2>/dev/null | awk '{print $NF}')" != "$schemathesis_version" ]; then
    python3 -m pip install -q "schemathesis==$schemathesis_version"
fi
reports="${SHAREPIPE_CONTRACT_REPORTS:-.build/contract-test}"
rm -rf "$reports"
mkdir -p "$reports"
work="$(mktemp -d)"
server=""
stop_server() {
    if [ -n "$server" ]; then
        kill -TERM "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
        server=""
    fi
}
trap 'stop_server; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A fresh database and server: prints nothing, sets $port, $app, $share.
start_server() {
    local name="$1" database="$work/$1.sqlite" tokens
    "$bin" users add ada --password 'correct horse battery' --database "$database" >/dev/null
    "$bin" users add bob --password 'correct horse battery' --database "$database" >/dev/null
    tokens="$("$bin" devices add ada contract --database "$database")"
    app="$(echo "$tokens" | awk '/app token:/ {print $3}')"
    share="$(echo "$tokens" | awk '/share token:/ {print $3}')"
    bob="$("$bin" devices add bob contract --database "$database" | awk '/app token:/ {print $3}')"
    port="$(free_port)"
    # Rate limits off: the run sends hundreds of requests a second from one token and one address.
    "$bin" serve --database "$database" --port "$port" --preview-workers 1 \
        --requests-per-second-per-token 0 --requests-per-second-per-address 0 >"$reports/$name-server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
    curl -fs "http://127.0.0.1:$port/health" >/dev/null || { cat "$reports/$name-server.log"; exit 1; }
    # Data for the GET operations: a share saved, one to bob (a conversation) and one back from bob
    # (an item on ada's shelf), one with a public page.
    post() { curl -fsS -o "$work/last.json" -X "$1" "http://127.0.0.1:$port$2" -H "Authorization: Bearer $3" \
        -H 'Content-Type: application/json' -H "Idempotency-Key: $(python3 -c 'import uuid; print(uuid.uuid4())')" \
        ${4:+--data "$4"}; }
    post POST /v1/shares "$app" '{"url": "https://example.com/contract", "note": "seed"}'
    local id
    id="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["share"]["id"])' "$work/last.json")"
    post PUT "/v1/shares/$id/public" "$app"
    post POST /v1/shares "$app" '{"url": "https://example.org/for-bob", "recipients": ["@bob"]}'
    post POST /v1/shares "$bob" '{"url": "https://example.net/for-ada", "recipients": ["@ada"]}'
    # A complete upload of ada's ("abc"), for the shares that name files.
    local abc=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    post POST /v1/uploads "$app" "{\"sha256\": \"$abc\", \"size\": 3, \"name\": \"abc.txt\"}"
    curl -fsS -o /dev/null -X PATCH "http://127.0.0.1:$port/v1/uploads/$abc" -H "Authorization: Bearer $app" \
        -H 'Content-Type: application/offset+octet-stream' -H 'Upload-Offset: 0' --data-binary abc
    export SHAREPIPE_CONTRACT_UPLOAD="$abc"
    curl -fsS -o "$work/last.json" "http://127.0.0.1:$port/v1/conversations" -H "Authorization: Bearer $app"
    # What the drawn requests name (scripts/contract_hooks.py): bob, and ada's conversation with him.
    export SHAREPIPE_CONTRACT_PEER=bob
    SHAREPIPE_CONTRACT_CONVERSATION="$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["conversations"][0]["id"])' "$work/last.json")"
    export SHAREPIPE_CONTRACT_CONVERSATION
}

failed=0
run() {
    local name="$1" token="$2"
    shift 2
    start_server "$name"
    echo "== Schemathesis $schemathesis_version, $name (port $port)"
    local auth=()
    case "$token" in
        app) auth=(--header "Authorization: Bearer $app") ;;
        share) auth=(--header "Authorization: Bearer $share") ;;
    esac
    schemathesis --config-file scripts/contract-test.toml run "http://127.0.0.1:$port/openapi.json" \
        --url "http://127.0.0.1:$port" \
        "${auth[@]}" --checks all --max-examples "$examples" --seed "$seed" --workers 1 --generation-database none \
        --request-timeout 30 --no-color --report junit --report-junit-path "$reports/$name.xml" \
        "$@" || failed=1
    stop_server
}

run app-token app --exclude-operation-id revokeDevice
run share-token share
run no-token none
[ "$failed" = 0 ] || { echo "Schemathesis found failures: see above and $reports."; exit 1; }
echo "== contract: no failures"
