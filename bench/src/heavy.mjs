// Heavy input: 8 ENTERPRISE POST /api/v1/data requests of 1 MB at once, one per feature (and
// stats again on CJK), each with its own key, while a worker thread probes GET /health every
// 20 ms. Reports each request's time and status, and /health's latency meanwhile; each request
// and probe carries an X-Request-Id, so the service's own time is set beside the client's
// (service-times.mjs).
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { paths, settings } from './config.mjs'
import { createBenchKeys } from './data-api-keys.mjs'
import { sampleRss } from './proc.mjs'
import { probeText } from './report.mjs'
import { stopProcess } from './servers.mjs'
import { accessTimes, withServiceMs, withServiceTimes } from './service-times.mjs'
import { startService } from './services.mjs'
import { latencySummary } from './stats.mjs'
import { cjkText, englishText } from './texts.mjs'

const REQUESTS = [
  { feature: 'stats', text: 'english' },
  { feature: 'sentiment', text: 'english' },
  { feature: 'keywords', text: 'english' },
  { feature: 'language', text: 'english' },
  { feature: 'entities', text: 'english' },
  { feature: 'summary', text: 'english' },
  { feature: 'redact', text: 'english' },
  { feature: 'stats', text: 'cjk' },
]
const PROBE = { intervalMs: 20, maxInFlight: 50, timeoutMs: 10_000 }

/**
 * How long the pass waits after its sign-up before the heavy requests: the sign-up's password
 * check starts data-api's zxcvbn thread, which holds 70-95 MB and stops 10 s after the last
 * check (IDLE_TIMEOUT_MS in apps/data-api/src/lib/password-strength.ts). The heavy requests'
 * peak RSS is then theirs, not the benchmark's own sign-up's, as in the throughput scenarios
 * (whose rounds start later); the whole pass's peak is reported beside it.
 */
const SIGN_UP_THREAD_GONE_MS = 12_000

/** POST /api/v1/data with key `key` as request `id`; resolves to { id, status, ms, responseBytes, problem? }. */
async function post(url, key, body, { timeoutMs, id }) {
  const started = performance.now()
  try {
    const response = await fetch(`${url}/api/v1/data`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'x-request-id': id,
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    const ms = performance.now() - started
    const answer = { id, status: response.status, ms, responseBytes: Buffer.byteLength(text) }
    return response.ok ? answer : { ...answer, problem: text.slice(0, 300) }
  } catch (error) {
    return { id, status: error.name, ms: performance.now() - started, problem: error.message }
  }
}

/** Starts the /health probe once its first (unmeasured) GET answered; stop() resolves to { probes, skipped }. */
async function probeHealth(url) {
  const worker = new Worker(join(paths.src, 'health-probe.mjs'), {
    workerData: {
      url: `${url}/health`,
      ...PROBE,
      maxMs: settings.heavyTimeout * 1000 + PROBE.timeoutMs,
    },
  })
  const ready = new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  await ready
  const result = new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  return {
    async stop() {
      worker.postMessage('stop')
      const outcome = await result
      await worker.terminate()
      return outcome
    },
  }
}

const is2xx = (status) => typeof status === 'number' && status >= 200 && status < 300
const is4xx = (status) => typeof status === 'number' && status >= 400 && status < 500

function verdict(requests, health, exited) {
  const refused = requests.filter((r) => is4xx(r.status))
  if (exited !== undefined) return { status: 'ERROR', error: `data-api exited (${exited})` }
  if (refused.length > 0) {
    return {
      status: 'ERROR',
      error: `the service refused the benchmark's input: ${refused.map((r) => `${r.label} ${r.status}`).join(', ')}`,
    }
  }
  const unanswered = requests.filter((r) => !is2xx(r.status))
  const reasons = []
  if (unanswered.length > 0) {
    reasons.push(`not answered 2xx: ${unanswered.map((r) => `${r.label} ${r.status}`).join(', ')}`)
  }
  if (!(health.p99 < settings.healthP99Ms)) {
    reasons.push(`/health p99 ${health.p99?.toFixed(1)} ms`)
  }
  if (health.failures > 0 || health.skipped > 0) {
    reasons.push(`/health: ${health.failures} failed, ${health.skipped} probes not sent`)
  }
  return reasons.length > 0 ? { status: 'FAIL', reason: reasons.join('; ') } : { status: 'PASS' }
}

export async function runHeavy({ progress }) {
  const bytes = settings.heavyBytes
  progress(`heavy: building the ${bytes.toLocaleString('en-US')}-byte texts`)
  const texts = { english: englishText(bytes), cjk: await cjkText(bytes, settings.seed) }
  progress('heavy: starting data-api (fresh database) and creating 8 ENTERPRISE keys')
  const service = await startService('data-api', { instance: 'data-api-heavy', prepare: false })
  const rss = sampleRss(service.pid)
  let outcome
  try {
    // One key per request: the limit of concurrent feature requests per key never applies.
    const keys = await createBenchKeys(service.url, { users: 1, perUser: REQUESTS.length })
    progress(
      `heavy: waiting ${SIGN_UP_THREAD_GONE_MS / 1000} s for the sign-up's password thread to stop`,
    )
    await new Promise((resolve) => setTimeout(resolve, SIGN_UP_THREAD_GONE_MS))
    progress('heavy: one small request per feature first (loads each feature; not measured)')
    for (const [i, { feature }] of REQUESTS.entries()) {
      const body = JSON.stringify({
        data: 'A small warm-up text. It is fine.',
        options: { feature },
      })
      const answer = await post(service.url, keys[i], body, {
        timeoutMs: 60_000,
        id: `heavy-warm-up-${i}`,
      })
      if (!is2xx(answer.status)) {
        throw new Error(`heavy warm-up of ${feature} answered ${answer.status}: ${answer.problem}`)
      }
    }
    const bodies = REQUESTS.map(({ feature, text }) =>
      JSON.stringify({ data: texts[text], options: { feature } }),
    )
    progress(`heavy: ${REQUESTS.length} parallel requests; /health every ${PROBE.intervalMs} ms`)
    rss.mark()
    const probe = await probeHealth(service.url)
    const started = performance.now()
    const answers = await Promise.all(
      bodies.map((body, i) =>
        post(service.url, keys[i], body, {
          timeoutMs: settings.heavyTimeout * 1000,
          id: `heavy-${i}`,
        }),
      ),
    )
    const wallMs = performance.now() - started
    const { probes, skipped } = await probe.stop()
    const memory = rss.stop()
    const requests = REQUESTS.map((r, i) => ({
      label: r.text === 'english' ? r.feature : `${r.feature} (${r.text})`,
      ...r,
      dataBytes: Buffer.byteLength(texts[r.text]),
      ...answers[i],
    }))
    for (const r of requests) {
      progress(`heavy: ${r.label}: ${r.status} in ${r.ms.toFixed(0)} ms`)
    }
    const health = {
      ...latencySummary(probes.map((p) => p.ms)),
      failures: probes.filter((p) => p.status !== 200).length,
      skipped,
      target: `p99 < ${settings.healthP99Ms} ms`,
    }
    progress(
      `heavy: /health p50 ${health.p50?.toFixed(1)} ms, p99 ${health.p99?.toFixed(1)} ms, ` +
        `max ${health.max?.toFixed(1)} ms over ${health.count} probes`,
    )
    outcome = {
      name: 'heavy/parallel-1mb',
      probes,
      wallMs,
      requests,
      health,
      peakRssMb: memory.peakSinceMarkMb,
      passPeakRssMb: memory.peakRssMb,
      hwmMb: memory.hwmMb,
      ...verdict(requests, health, service.handle.exitCode),
    }
  } finally {
    rss.stop()
    await stopProcess(service.handle)
  }
  // Read once the service has stopped: its log then holds every access line.
  const timed = withTimes(outcome, await accessTimes(service.logFile))
  progress(`heavy: slowest probes: ${timed.health.slowest.map(probeText).join(', ')}`)
  return timed
}

/**
 * The pass with the service's own times beside the client's: each request's `serviceMs`, and for
 * /health its three slowest probes and the `service` and `outside` summaries (service-times.mjs).
 * The probes themselves are not kept.
 */
function withTimes({ probes, ...outcome }, times) {
  const slowest = [...probes].sort((a, b) => b.ms - a.ms).slice(0, 3)
  const probed = withServiceTimes({ sent: probes, slowest }, times)
  const requests = outcome.requests.map((r) => withServiceMs(r, times))
  const { service, outside } = probed
  return {
    ...outcome,
    requests,
    health: { ...outcome.health, slowest: probed.slowest, service, outside },
  }
}
