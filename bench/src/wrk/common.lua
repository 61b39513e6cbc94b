-- What the wrk scripts share (bench/src/wrk/load.lua, scripts/scale/load.lua): keeping the
-- threads, cycling through the prepared requests, counting statuses, and the JSON of done().
-- A script loads it relative to itself:
--   local common = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "<path>/common.lua")
--
-- wrk runs one Lua state per thread plus one for setup() and done(): each thread counts its
-- answers in its globals `statuses` and `non2xx`; done() adds the threads' counters up.
local common = {}

-- For setup(): keeps the thread (so done() can read its counters) and numbers it from 1.
function common.keep(threads, thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

-- A function giving the requests in turn; each thread starts at its own, so that the threads
-- do not walk the variants in step.
function common.cycle(requests, thread_number)
  local i = ((thread_number or 1) - 1) % #requests
  return function()
    i = i % #requests + 1
    return requests[i]
  end
end

-- For response(): counts the status in this thread's globals.
function common.count(status)
  statuses[status] = (statuses[status] or 0) + 1
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
end

-- For done(): the threads' statuses added up, and the sum of each numeric global named.
function common.totals(threads, names)
  local all, sums = {}, {}
  for _, name in ipairs(names) do sums[name] = 0 end
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do all[status] = (all[status] or 0) + n end
    for _, name in ipairs(names) do sums[name] = sums[name] + thread:get(name) end
  end
  return all, sums
end

-- A JSON object of integers.
function common.json_object(map)
  local parts = {}
  for key, value in pairs(map) do
    table.insert(parts, string.format('"%s":%d', tostring(key), value))
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- wrk's socket errors as JSON.
function common.errors_json(e)
  return string.format('{"connect":%d,"read":%d,"write":%d,"timeout":%d,"status":%d}',
    e.connect, e.read, e.write, e.timeout, e.status)
end

return common
