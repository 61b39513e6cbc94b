// Runs one scenario against its reference: alternating rounds, medians, ratio and verdict.
import { settings } from './config.mjs'
import { failed, measure, median } from './measure.mjs'

const resolve = (value, context) => (typeof value === 'function' ? value(context) : value)

/** The HTTP request of `scenario` against a started service ({ url, context }). */
export function requestOf(scenario, service) {
  const headers = { ...resolve(scenario.headers, service.context) }
  let body = resolve(scenario.body, service.context)
  if (body !== undefined && typeof body !== 'string') {
    body = JSON.stringify(body)
    headers['content-type'] ??= 'application/json'
  }
  // Optional `variants`: header sets the connections cycle through (several API keys, say).
  const variants = resolve(scenario.variants, service.context)
  return {
    url: `${service.url}${scenario.path}`,
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
    headers: request.headers,
    body: request.body,
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

function problems(summary) {
  return {
    non2xx: summary.non2xx + (summary.warmup?.non2xx ?? 0),
    errors: summary.errors + summary.timeouts + (summary.warmup?.errors ?? 0),
  }
}

/**
 * Measures `reference` then `scenario` back to back, `settings.rounds` times, and compares the
 * median requests per second of each side. `log` receives one progress line per measurement.
 */
export async function compare(scenario, { service, reference, log }) {
  const request = requestOf(scenario, service)
  const result = {
    name: scenario.name,
    service: scenario.service,
    method: request.method,
    path: scenario.path,
    headers: request.headers,
    reference: scenario.reference,
    target: scenario.target,
    preflight: await preflight(request, scenario.expectType),
    rounds: [],
  }
  if (result.preflight.problem) {
    return { ...result, status: 'ERROR', error: result.preflight.problem }
  }
  const load = {
    connections: settings.connections,
    warmup: settings.warmup,
    duration: settings.duration,
  }
  for (let round = 1; round <= settings.rounds; round += 1) {
    const ref = await measure({ url: `${reference.url}/` }, load)
    log(`  round ${round} reference ${scenario.reference}: ${ref.rps.toFixed(0)} req/s`)
    const own = await measure(request, { ...load, pid: service.pid })
    log(
      `  round ${round} ${scenario.name}: ${own.rps.toFixed(0)} req/s, ` +
        `p99 ${own.p99} ms, peak RSS ${own.peakRssMb?.toFixed(1)} MB` +
        (failed(own) ? `, non-2xx ${own.non2xx}, errors ${own.errors + own.timeouts}` : ''),
    )
    result.rounds.push({ reference: ref, service: own })
  }
  const own = result.rounds.map((r) => r.service)
  const refs = result.rounds.map((r) => r.reference)
  const serviceProblems = own.map(problems)
  const referenceProblems = refs.map(problems)
  const sum = (list, key) => list.reduce((total, p) => total + p[key], 0)
  Object.assign(result, {
    rps: median(own.map((s) => s.rps)),
    p50: median(own.map((s) => s.p50)),
    p99: median(own.map((s) => s.p99)),
    peakRssMb: Math.max(...own.map((s) => s.peakRssMb ?? 0)),
    hwmMb: own.at(-1).hwmMb,
    referenceRps: median(refs.map((s) => s.rps)),
    non2xx: sum(serviceProblems, 'non2xx'),
    errors: sum(serviceProblems, 'errors'),
    referenceNon2xx: sum(referenceProblems, 'non2xx'),
    referenceErrors: sum(referenceProblems, 'errors'),
  })
  result.ratio = result.referenceRps > 0 ? result.rps / result.referenceRps : undefined
  if (result.non2xx + result.errors + result.referenceNon2xx + result.referenceErrors > 0) {
    result.status = 'ERROR'
    result.error =
      `service: ${result.non2xx} non-2xx, ${result.errors} errors; ` +
      `reference: ${result.referenceNon2xx} non-2xx, ${result.referenceErrors} errors`
  } else {
    if (scenario.target === undefined) result.status = 'INFO'
    else result.status = result.ratio >= scenario.target ? 'PASS' : 'FAIL'
  }
  return result
}
