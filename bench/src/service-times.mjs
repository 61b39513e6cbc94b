// The service's own time for each request of a scale or heavy pass, beside the client's: the `ms`
// of the service's access line (service-kit's request-log plugin: Fastify's `reply.elapsedTime`,
// from the request's arrival to the end of its answer), found by the X-Request-Id the client
// sends. A request slow in both spent its time in the service's handling (its statements, its own
// code); one slow only at the client spent it outside: HTTP both ways, the client's thread, and
// any wait before the service's event loop took the request up (a collection in progress).
import { readFile } from 'node:fs/promises'
import { latencySummary } from './stats.mjs'

/** The message of the service's access lines. */
const ACCESS_LINE = 'request completed'

/** request_id → ms of every access line in a service's log (other output is skipped). */
export async function accessTimes(logFile) {
  const times = new Map()
  for (const line of (await readFile(logFile, 'utf8')).split('\n')) {
    if (!line.startsWith('{') || !line.includes(ACCESS_LINE)) continue
    let entry
    try {
      entry = JSON.parse(line)
    } catch {
      continue // a line cut short by the log's size cap
    }
    if (entry.msg === ACCESS_LINE && typeof entry.ms === 'number') {
      times.set(entry.request_id, entry.ms)
    }
  }
  return times
}

/** The request with its `serviceMs` when its access line was found; else as it was. */
export function withServiceMs(request, times) {
  const serviceMs = times.get(request.id)
  return serviceMs === undefined ? request : { ...request, serviceMs }
}

/**
 * The pass with each request's `serviceMs` (sent and slowest, when its access line was found),
 * and two summaries over the requests found: `service` (the service's own times) and `outside`
 * (the client's time less the service's).
 */
export function withServiceTimes(pass, times) {
  const timed = (request) => withServiceMs(request, times)
  const sent = pass.sent.map(timed)
  const found = sent.filter((request) => request.serviceMs !== undefined)
  if (found.length === 0) return pass
  return {
    ...pass,
    sent,
    slowest: pass.slowest.map(timed),
    service: latencySummary(found.map((request) => request.serviceMs)),
    outside: latencySummary(found.map((request) => request.ms - request.serviceMs)),
  }
}
