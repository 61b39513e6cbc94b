// Worker thread: GET `url` every `intervalMs` (open loop: a slow answer does not delay the next
// probe, at most `maxInFlight` at once) until told to stop or `maxMs` passes; then posts
// { probes: [{ id, atMs, ms, status }], skipped } once every probe has answered or timed out.
// Each probe sends its `id` (`health-<n>`) as X-Request-Id, which the service's access line
// carries (service-times.mjs).
// A thread of its own, so the main thread's work (large bodies) does not skew the timings. One
// unmeasured GET first (fetch loads undici and opens a connection on its first call: tens of
// milliseconds of the client's own), then 'ready' is posted and the probing starts.
import { performance } from 'node:perf_hooks'
import { parentPort, workerData } from 'node:worker_threads'

const { url, intervalMs, maxInFlight, timeoutMs, maxMs } = workerData
await (await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })).arrayBuffer()
parentPort.postMessage('ready')
const started = performance.now()
const probes = []
const pending = new Set()
let skipped = 0

let sentCount = 0

async function probe() {
  const id = `health-${sentCount++}`
  const at = performance.now()
  let status
  try {
    const response = await fetch(url, {
      headers: { 'x-request-id': id },
      signal: AbortSignal.timeout(timeoutMs),
    })
    await response.arrayBuffer()
    status = response.status
  } catch (error) {
    status = error.name
  }
  probes.push({ id, atMs: at - started, ms: performance.now() - at, status })
}

const timer = setInterval(() => {
  if (pending.size >= maxInFlight) {
    skipped += 1
    return
  }
  const done = probe()
  pending.add(done)
  done.finally(() => pending.delete(done))
}, intervalMs)

let finished = false
async function finish() {
  if (finished) return
  finished = true
  clearInterval(timer)
  clearTimeout(limit)
  await Promise.allSettled([...pending])
  parentPort.postMessage({ probes: probes.sort((a, b) => a.atMs - b.atMs), skipped })
}

const limit = setTimeout(finish, maxMs)
parentPort.once('message', finish)
