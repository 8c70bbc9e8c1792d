-- wrk script: POST /v1/shares with a unique Idempotency-Key per request (thread id + counter),
-- so every request records a new share; one link in 100 is new (the rest are links shared before).
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
  thread_id = thread_id + 1
  thread:set("id", thread_id)
  table.insert(threads, thread)
end

function init(args)
  token = args[1]
end

function request()
  counter = counter + 1
  local key = string.format("bench-%d-%d-%d", id, counter, math.random(1, 1000000000))
  local body = string.format('{"url": "https://example.com/article/%d", "note": "bench %d"}', counter % 100 + id * 1000, counter)
  local headers = {
    ["Authorization"] = "Bearer " .. token,
    ["Idempotency-Key"] = key,
    ["Content-Type"] = "application/json",
  }
  return wrk.format("POST", "/v1/shares", headers, body)
end

function response(status, headers, body)
  if status ~= 201 then
    errors = (errors or 0) + 1
  end
end
