-- wrk script of pnpm test:scale: steady load that ends without abandoning a request, so that
-- requests sent = responses received is an exact check.
--
-- wrk's own end (-d) drops the requests in flight. Here each thread stops itself instead: once
-- the file LOAD_STOP_FILE exists (or LOAD_DEADLINE, epoch seconds, has passed), delay() parks
-- every connection before it sends again, and the thread stops when its last response is in.
-- The thread then writes LOAD_DONE_DIR/<n>; the caller sends wrk SIGINT when every thread has.
--
-- LOAD_SPEC names a Lua file returning { { method, path, headers, body }, ... }: each connection
-- takes the next one in turn. done() prints one line: SCALE_LOAD {json}.

local common = dofile(
  debug.getinfo(1, "S").source:match("^@(.*/)") .. "../../bench/src/wrk/common.lua")
local spec = dofile(os.getenv("LOAD_SPEC"))
local stop_file = os.getenv("LOAD_STOP_FILE")
local deadline = tonumber(os.getenv("LOAD_DEADLINE"))
local done_dir = os.getenv("LOAD_DONE_DIR")

local threads = {}

function setup(thread)
  common.keep(threads, thread)
end

-- Per-thread state (globals, so done() can read them with thread:get).
sent = 0
received = 0
non2xx = 0
statuses = {}
local next_request
local stopping = false
local finished = false
local checked_at = 0
-- wrk calls request() once on the first thread to check the script, before any connection
-- exists; every real request is preceded by a delay() call, so calls before one are not counted.
local delayed_once = false

function init(args)
  local requests = {}
  for _, r in ipairs(spec) do
    table.insert(requests, wrk.format(r.method, r.path, r.headers, r.body))
  end
  next_request = common.cycle(requests, thread_number)
end

-- Looks at the clock (and the stop file) at most once a second.
local function should_stop()
  if stopping then return true end
  local now = os.time()
  if now ~= checked_at then
    checked_at = now
    if now >= deadline then
      stopping = true
    else
      local file = io.open(stop_file, "r")
      if file then
        file:close()
        stopping = true
      end
    end
  end
  return stopping
end

local function finish_when_drained()
  if finished or not stopping or received < sent then return end
  finished = true
  local file = io.open(done_dir .. "/" .. thread_number, "w")
  if file then file:close() end
  wrk.thread:stop()
end

-- Called before each request: 0 ms while running; parked for an hour once stopping.
function delay()
  delayed_once = true
  if should_stop() then
    finish_when_drained()
    return 3600000
  end
  return 0
end

function request()
  if delayed_once then sent = sent + 1 end
  return next_request()
end

function response(status, headers, body)
  received = received + 1
  common.count(status)
  finish_when_drained()
end

function done(summary, latency, requests_stats)
  local all, sums = common.totals(threads, { "sent", "received", "non2xx" })
  io.write(string.format(
    'SCALE_LOAD {"sent":%d,"received":%d,"completed":%d,"non2xx":%d,"statuses":%s,' ..
      '"errors":%s,"latencyUs":{"p50":%d,"p99":%d,"max":%d}}\n',
    sums.sent, sums.received, summary.requests, sums.non2xx, common.json_object(all),
    common.errors_json(summary.errors),
    latency:percentile(50), latency:percentile(99), latency.max))
end
