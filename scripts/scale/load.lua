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

local spec = dofile(os.getenv("LOAD_SPEC"))
local stop_file = os.getenv("LOAD_STOP_FILE")
local deadline = tonumber(os.getenv("LOAD_DEADLINE"))
local done_dir = os.getenv("LOAD_DONE_DIR")

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

-- Per-thread state (globals, so done() can read them with thread:get).
sent = 0
received = 0
non2xx = 0
statuses = {}
local requests = {}
local next_request = 0
local stopping = false
local finished = false
local checked_at = 0
-- wrk calls request() once on the first thread to check the script, before any connection
-- exists; every real request is preceded by a delay() call, so calls before one are not counted.
local delayed_once = false

function init(args)
  for _, r in ipairs(spec) do
    table.insert(requests, wrk.format(r.method, r.path, r.headers, r.body))
  end
  next_request = ((thread_number or 1) - 1) % #requests
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
  next_request = next_request % #requests + 1
  return requests[next_request]
end

function response(status, headers, body)
  received = received + 1
  statuses[status] = (statuses[status] or 0) + 1
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
  finish_when_drained()
end

local function json_object(map)
  local parts = {}
  for key, value in pairs(map) do
    table.insert(parts, string.format('"%s":%d', tostring(key), value))
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

function done(summary, latency, requests_stats)
  local all, total_sent, total_received, total_non2xx = {}, 0, 0, 0
  for _, thread in ipairs(threads) do
    total_sent = total_sent + thread:get("sent")
    total_received = total_received + thread:get("received")
    total_non2xx = total_non2xx + thread:get("non2xx")
    for status, n in pairs(thread:get("statuses")) do all[status] = (all[status] or 0) + n end
  end
  local e = summary.errors
  io.write(string.format(
    'SCALE_LOAD {"sent":%d,"received":%d,"completed":%d,"non2xx":%d,"statuses":%s,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d,"status":%d},' ..
      '"latencyUs":{"p50":%d,"p99":%d,"max":%d}}\n',
    total_sent, total_received, summary.requests, total_non2xx, json_object(all),
    e.connect, e.read, e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.max))
end
