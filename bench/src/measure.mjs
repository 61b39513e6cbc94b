// One measurement: a warm-up run then a measured wrk run, with the server's CPU time read from
// /proc/<pid>/stat right before and right after the measured run, and its RSS sampled throughout.
import { settings } from './config.mjs'
import { cpuMicros, sampleRss } from './proc.mjs'
import { runWrk } from './wrk.mjs'

const load = (seconds) => ({
  threads: settings.threads,
  connections: settings.connections,
  duration: seconds,
})

/** Requests that did not get a 2xx answer: non-2xx statuses plus socket errors and timeouts. */
export function failures(run) {
  const e = run.errors
  return run.non2xx + e.connect + e.read + e.write + e.timeout
}

/**
 * Measures `request` against the server process `pid`. Resolves to: requests, rps, latency
 * (p50, p99, max in ms), statuses, failures, cpuUs (server CPU over the measured run),
 * cpuPerRequestUs, cpuCores (CPU time / wall time), peakRssMb, hwmMb, and the warm-up's
 * { requests, failures }. `warmup`: seconds of warm-up (default BENCH_WARMUP).
 */
export async function measure(request, pid, { warmup = settings.warmup } = {}) {
  const rss = sampleRss(pid)
  try {
    const warm = warmup > 0 ? await runWrk(request, load(warmup)) : undefined
    const before = cpuMicros(pid)
    const run = await runWrk(request, load(settings.duration))
    const cpuUs = cpuMicros(pid) - before
    const memory = rss.stop()
    const seconds = run.durationUs / 1e6
    return {
      requests: run.requests,
      rps: run.requests / seconds,
      p50: run.latencyUs.p50 / 1000,
      p99: run.latencyUs.p99 / 1000,
      max: run.latencyUs.max / 1000,
      statuses: run.statuses,
      non2xx: run.non2xx,
      errors: run.errors,
      failures: failures(run),
      cpuUs,
      cpuPerRequestUs: run.requests > 0 ? cpuUs / run.requests : undefined,
      cpuCores: cpuUs / run.durationUs,
      peakRssMb: memory.peakRssMb,
      hwmMb: memory.hwmMb,
      warmup: warm && { requests: warm.requests, failures: failures(warm) },
    }
  } finally {
    rss.stop()
  }
}
