-- wrk script of the benchmark: sends the request described by the Lua file named in the
-- environment variable BENCH_REQUEST (written by wrk.mjs), counts status codes, and prints one
-- line `BENCH_RESULT {json}` when the run is done.

local common = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "common.lua")
local spec = dofile(os.getenv("BENCH_REQUEST"))

-- Setup/done state: the threads, in order.
local threads = {}

function setup(thread)
  common.keep(threads, thread)
end

-- Per-thread state.
local next_request
statuses = {}
non2xx = 0

function init(args)
  local requests = {}
  local variants = spec.variants
  if variants == nil or #variants == 0 then variants = { {} } end
  for _, extra in ipairs(variants) do
    local headers = {}
    for name, value in pairs(spec.headers) do headers[name] = value end
    for name, value in pairs(extra) do headers[name] = value end
    table.insert(requests, wrk.format(spec.method, spec.path, headers, spec.body))
  end
  next_request = common.cycle(requests, thread_number)
end

function request()
  return next_request()
end

function response(status, headers, body)
  common.count(status)
end

function done(summary, latency, per_thread)
  local all, sums = common.totals(threads, { "non2xx" })
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"non2xx":%d,"statuses":%s,' ..
      '"errors":%s,"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes, sums.non2xx, common.json_object(all),
    common.errors_json(summary.errors),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    latency.mean))
end
