// Worker thread: sends `requests` to `url` one after the other and posts back each one's
// { term, kind, status, ms, matches }. The scale passes time their requests here rather than on
// the benchmark's main thread, whose heap (the corpus, the results of every scenario so far:
// 150 MB by the scale passes of a full run) it would otherwise share: that heap's collector
// marked for 70 ms, in steps of up to 20, during the first request of a full run's cold pass,
// which the pass then reported as a 91 ms search that took Postgres 6 (bench/README.md). One
// unmeasured GET /health first (fetch loads undici and opens a connection on its first call),
// which neither searches nor warms a search.
import { performance } from 'node:perf_hooks'
import { parentPort, workerData } from 'node:worker_threads'

const { url, requests, timeoutMs } = workerData

/**
 * GET one request (`path`, default a JSON search for `term`; a 404 counts as an answer when
 * `allow404`: a filter nothing matches), as request `id` (its X-Request-Id, which the service's
 * access line carries: service-times.mjs); resolves to { term, kind, status, ms, matches, id }.
 */
async function send({ term, kind, path, allow404, id }) {
  const started = performance.now()
  try {
    const target = path ?? `/api/search?term=${encodeURIComponent(term)}`
    const response = await fetch(`${url}${target}`, {
      headers: { accept: 'application/json', 'x-request-id': id },
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    const ms = performance.now() - started
    const body = response.ok ? JSON.parse(text) : undefined
    const matches = body?.total_quotes ?? body?.total_authors ?? body?.id
    const status = allow404 && response.status === 404 ? 200 : response.status
    return { term, kind, status, ms, matches, id }
  } catch (error) {
    return { term, kind, status: error.name, ms: performance.now() - started, id }
  }
}

await (await fetch(`${url}/health`, { signal: AbortSignal.timeout(timeoutMs) })).arrayBuffer()
const results = []
for (const request of requests) results.push(await send(request))
parentPort.postMessage(results)
