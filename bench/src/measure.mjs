// One load run with autocannon, and RSS sampling of the process under load.
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

const MB = 1024 * 1024

/** VmRSS and VmHWM of `pid` in MB, from /proc/<pid>/status (undefined once it has exited). */
export function memoryOf(pid) {
  let status
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return undefined
  }
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0)
  const mb = (field) => Math.round((kb(field) * 1024 * 10) / MB) / 10
  return { rssMb: mb('VmRSS'), hwmMb: mb('VmHWM') }
}

/** Samples VmRSS every `everyMs`; stop() returns { peakRssMb, hwmMb, samples }. */
export function sampleRss(pid, everyMs = 100) {
  let peak = 0
  let samples = 0
  const sample = () => {
    const memory = memoryOf(pid)
    if (!memory) return
    samples += 1
    peak = Math.max(peak, memory.rssMb)
  }
  sample()
  const timer = setInterval(sample, everyMs)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return { peakRssMb: peak, hwmMb: memoryOf(pid)?.hwmMb, samples }
    },
  }
}

/** p-th percentile (nearest rank) of ascending `sorted`. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return undefined
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]
}

/**
 * One autocannon run of `request` ({ url, method, headers, body }) and its summary. With
 * `exact`, every response time is kept (sub-millisecond percentiles; autocannon's histogram
 * has 1 ms resolution): use it for single-connection runs only.
 */
export async function load(request, { connections, duration, exact = false }) {
  const times = []
  const instance = autocannon({
    url: request.url,
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
    // Each connection cycles through the variants' headers, request after request.
    ...(request.variants
      ? {
          requests: request.variants.map((extra) => ({
            method: request.method ?? 'GET',
            headers: { ...request.headers, ...extra },
            ...(request.body === undefined ? {} : { body: request.body }),
          })),
        }
      : {}),
    connections,
    duration,
  })
  if (exact) instance.on('response', (_client, _status, _bytes, ms) => times.push(ms))
  const result = await instance
  const summary = {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
    ),
  }
  if (exact) {
    times.sort((a, b) => a - b)
    Object.assign(summary, {
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times.at(-1),
      rps: times.length / result.duration,
    })
  }
  return summary
}

export const failed = (summary) =>
  summary.non2xx > 0 || summary.errors > 0 || summary.timeouts > 0 || summary.requests === 0

/**
 * A warm-up run (not measured) then the measured run, sampling the RSS of `pid` (when given)
 * throughout. Resolves to the measured summary plus { peakRssMb, hwmMb, warmup }.
 */
export async function measure(request, { pid, connections, warmup, duration }) {
  const rss = pid ? sampleRss(pid) : undefined
  try {
    const warm = warmup > 0 ? await load(request, { connections, duration: warmup }) : undefined
    const summary = await load(request, { connections, duration })
    const memory = rss?.stop()
    return {
      ...summary,
      peakRssMb: memory?.peakRssMb,
      hwmMb: memory?.hwmMb,
      warmup: warm && { requests: warm.requests, non2xx: warm.non2xx, errors: warm.errors },
    }
  } finally {
    rss?.stop()
  }
}

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b)
  if (sorted.length === 0) return undefined
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
