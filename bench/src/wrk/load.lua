-- wrk script of the benchmark: sends the request described by the Lua file named in the
-- environment variable BENCH_REQUEST (written by wrk.mjs), counts status codes, and prints one
-- line `BENCH_RESULT {json}` when the run is done.
--
-- wrk runs one Lua state per thread plus one for setup() and done(): the counters below live in
-- each thread's state; setup() keeps the threads so done() can add their counters up.

local spec = dofile(os.getenv("BENCH_REQUEST"))

-- Setup/done state: the threads, in order.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_index", #threads)
end

-- Per-thread state.
local requests = {}
local next_request = 0
statuses = {}
non2xx = 0

function init(args)
  local variants = spec.variants
  if variants == nil or #variants == 0 then variants = { {} } end
  for _, extra in ipairs(variants) do
    local headers = {}
    for name, value in pairs(spec.headers) do headers[name] = value end
    for name, value in pairs(extra) do headers[name] = value end
    table.insert(requests, wrk.format(spec.method, spec.path, headers, spec.body))
  end
  -- Threads start at different variants, so they do not walk the variants in step.
  next_request = ((thread_index or 1) - 1) % #requests
end

function request()
  next_request = next_request % #requests + 1
  return requests[next_request]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
end

local function json_object(map)
  local parts = {}
  for key, value in pairs(map) do
    table.insert(parts, string.format('"%s":%d', tostring(key), value))
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

function done(summary, latency, per_thread)
  local all = {}
  local total_non2xx = 0
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      all[status] = (all[status] or 0) + count
    end
    total_non2xx = total_non2xx + thread:get("non2xx")
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"non2xx":%d,"statuses":%s,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d,"status":%d},' ..
      '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes, total_non2xx, json_object(all),
    e.connect, e.read, e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    latency.mean))
end
