// One throughput scenario against its reference: alternating rounds, medians, ratio and verdict.
import { settings } from './config.mjs'
import { measure } from './measure.mjs'
import { median } from './stats.mjs'

const resolve = (value, context) => (typeof value === 'function' ? value(context) : value)

/** The HTTP request of `scenario` against a started service ({ url, context }). */
export async function requestOf(scenario, service) {
  const headers = { ...resolve(scenario.headers, service.context) }
  let body = resolve(scenario.body, service.context)
  if (body !== undefined && typeof body !== 'string') {
    body = JSON.stringify(body)
    headers['content-type'] ??= 'application/json'
  }
  // Optional `variants`: header sets the connections cycle through (several API keys, say).
  const variants = resolve(scenario.variants, service.context)
  return {
    url: `${service.url}${await resolve(scenario.path, service.context)}`,
    method: scenario.method ?? 'GET',
    headers,
    body,
    ...(variants ? { variants } : {}),
  }
}

/** One request before loading: it must be 2xx (and of `expectType`, when given). */
async function preflight(request, expectType) {
  const response = await fetch(request.url, {
    method: request.method,
    headers: { ...request.headers, ...request.variants?.[0] },
    body: request.body,
    signal: AbortSignal.timeout(30_000),
  })
  const text = await response.text()
  const type = response.headers.get('content-type') ?? ''
  const check = { status: response.status, contentType: type, bytes: Buffer.byteLength(text) }
  if (type.startsWith('application/json')) {
    const total = JSON.parse(text).total_quotes
    if (total !== undefined) check.matches = total
  }
  if (response.status < 200 || response.status > 299) {
    check.problem = `answered ${response.status}: ${text.slice(0, 200)}`
  } else if (expectType && !type.startsWith(expectType)) {
    check.problem = `answered ${type}, expected ${expectType}`
  }
  return check
}

/** Requests and failed requests (non-2xx, socket errors) over runs, warm-ups included. */
function tally(runs) {
  let requests = 0
  let failures = 0
  const statuses = {}
  for (const run of runs) {
    requests += run.requests + (run.warmup?.requests ?? 0)
    failures += run.failures + (run.warmup?.failures ?? 0)
    for (const [code, n] of Object.entries(run.statuses)) statuses[code] = (statuses[code] ?? 0) + n
  }
  return { requests, failures, share: requests > 0 ? failures / requests : 1, statuses }
}

const percent = (share) => `${(share * 100).toFixed(2)} %`

/** ERROR reason when a side failed more than the allowed share of its requests. */
function correctness(side, counts) {
  if (counts.requests === 0) return `${side}: no request completed`
  if (counts.share > settings.maxNon2xxShare) {
    return (
      `${side}: ${percent(counts.share)} of ${counts.requests} requests failed ` +
      `(statuses ${JSON.stringify(counts.statuses)})`
    )
  }
  return undefined
}

const round1 = (value) => (typeof value === 'number' ? value.toFixed(1) : '-')

/**
 * Measures `reference` then `scenario` back to back, `settings.rounds` times. The ratio is the
 * reference's median CPU µs per request over the scenario's. `progress` gets a line per step.
 */
export async function runRounds(scenario, { service, reference, progress }) {
  const request = await requestOf(scenario, service)
  const result = {
    name: scenario.name,
    title: scenario.title,
    service: scenario.service,
    method: request.method,
    path: request.url.slice(service.url.length),
    reference: scenario.reference,
    target: scenario.target,
    preflight: await preflight(request, scenario.expectType),
    rounds: [],
  }
  if (result.preflight.problem) {
    return { ...result, status: 'ERROR', error: `preflight ${result.preflight.problem}` }
  }
  const n = settings.rounds
  for (let round = 1; round <= n; round += 1) {
    // A process that has just started (or not run this request yet) is still compiling its hot
    // paths: the first round of each side warms up longer.
    const warmup = { warmup: round === 1 ? settings.firstWarmup : settings.warmup }
    progress(`${scenario.name}: round ${round}/${n} reference ${scenario.reference}`)
    const ref = await measure({ url: `${reference.url}/` }, reference.handle.pid, warmup)
    progress(
      `${scenario.name}: round ${round}/${n} reference: ${round1(ref.cpuPerRequestUs)} µs/req, ` +
        `${ref.rps.toFixed(0)} req/s`,
    )
    progress(`${scenario.name}: round ${round}/${n} scenario`)
    const own = await measure(request, service.pid, warmup)
    progress(
      `${scenario.name}: round ${round}/${n} scenario: ${round1(own.cpuPerRequestUs)} µs/req, ` +
        `${own.rps.toFixed(0)} req/s, p99 ${own.p99.toFixed(1)} ms, ` +
        `peak RSS ${round1(own.peakRssMb)} MB` +
        (own.failures > 0 ? `, ${own.failures} failed (${JSON.stringify(own.statuses)})` : ''),
    )
    result.rounds.push({
      reference: ref,
      service: own,
      ratio: ref.cpuPerRequestUs / own.cpuPerRequestUs,
    })
  }
  const own = result.rounds.map((r) => r.service)
  const refs = result.rounds.map((r) => r.reference)
  const ownCounts = tally(own)
  const refCounts = tally(refs)
  Object.assign(result, {
    cpuUs: median(own.map((s) => s.cpuPerRequestUs)),
    referenceCpuUs: median(refs.map((s) => s.cpuPerRequestUs)),
    rps: median(own.map((s) => s.rps)),
    referenceRps: median(refs.map((s) => s.rps)),
    p50: median(own.map((s) => s.p50)),
    p99: median(own.map((s) => s.p99)),
    peakRssMb: Math.max(...own.map((s) => s.peakRssMb ?? 0)),
    hwmMb: own.at(-1).hwmMb,
    requests: ownCounts.requests,
    failures: ownCounts.failures,
    failureShare: ownCounts.share,
    statuses: ownCounts.statuses,
    referenceFailures: refCounts.failures,
  })
  result.ratio =
    result.cpuUs > 0 && result.referenceCpuUs > 0 ? result.referenceCpuUs / result.cpuUs : undefined
  const error = [correctness('service', ownCounts), correctness('reference', refCounts)]
    .filter(Boolean)
    .join('; ')
  if (error) Object.assign(result, { status: 'ERROR', error })
  else if (result.ratio === undefined) Object.assign(result, { status: 'ERROR', error: 'no CPU' })
  else result.status = result.ratio >= scenario.target ? 'PASS' : 'FAIL'
  return result
}
