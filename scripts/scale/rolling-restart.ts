import type { Compose } from '../lib/compose.js'
import { accountWithKeys, bearer } from '../lib/http.js'
import { check, count, type Run, secs } from '../lib/run.js'
import { chkdown, stats, waitUp } from './haproxy.js'
import { DATA_API_URL, QUOTES_URL, REPLICAS, STATS_URL } from './stack.js'
import { Load, type LoadRequest, type LoadResult } from './wrk.js'

/** 50 connections in all: 25 on each service. */
const CONNECTIONS_PER_SERVICE = 25
/** The whole step's bound: the load stops by itself after this. */
const MAX_LOAD_SECONDS = 300
const SETTLE_MS = 3_000

const UA = { 'user-agent': 'test-scale (rolling restart; wrk)' }

function quotesRequests(): LoadRequest[] {
  return [
    { method: 'GET', path: '/api', headers: UA },
    { method: 'GET', path: '/api/q/q42', headers: { ...UA, accept: 'application/json' } },
    {
      method: 'GET',
      path: '/api/search?term=love&limit=5',
      headers: { ...UA, accept: 'application/json' },
    },
    { method: 'GET', path: '/q/q7', headers: { ...UA, accept: 'text/html' } },
  ]
}

/** GET and POST on data-api with ENTERPRISE keys (100,000 requests a day each). */
function dataApiRequests(keys: string[]): LoadRequest[] {
  const body = JSON.stringify({
    data: 'Steady load. It works well!',
    options: { feature: 'stats' },
  })
  return keys.flatMap((key) => [
    { method: 'GET' as const, path: '/api/v1/data', headers: { ...UA, ...bearer(key) } },
    {
      method: 'POST' as const,
      path: '/api/v1/data',
      headers: { ...UA, ...bearer(key), 'content-type': 'application/json' },
      body,
    },
  ])
}

function verdict(name: string, r: LoadResult): string[] {
  const e = r.errors
  const problems: string[] = []
  if (r.non2xx > 0) problems.push(`${count(r.non2xx)} non-2xx (${JSON.stringify(r.statuses)})`)
  const socket = e.connect + e.read + e.write + e.timeout
  if (socket > 0)
    problems.push(
      `socket errors: connect ${e.connect}, read ${e.read}, write ${e.write}, timeout ${e.timeout}`,
    )
  if (r.sent !== r.received)
    problems.push(`${count(r.sent - r.received)} requests sent but never answered`)
  return problems.map((p) => `${name}: ${p}`)
}

/**
 * (b) Every replica restarted in turn (`docker compose restart`, i.e. SIGTERM, drain, stop,
 * start), each back UP in HAProxy before the next, while wrk keeps 50 connections busy through
 * HAProxy: no failed request, no socket error, every request sent answered.
 */
export async function rollingRestart(run: Run, compose: Compose): Promise<void> {
  const { keys } = await accountWithKeys(DATA_API_URL, 'scale-load', 'ENTERPRISE', 5)
  const loads = [
    new Load('quotes', QUOTES_URL, quotesRequests(), CONNECTIONS_PER_SERVICE, MAX_LOAD_SECONDS),
    new Load(
      'data-api',
      DATA_API_URL,
      dataApiRequests(keys),
      CONNECTIONS_PER_SERVICE,
      MAX_LOAD_SECONDS,
    ),
  ]
  run.onCleanUp(async () => {
    for (const load of loads) await load.dispose()
  })
  const before = await stats(STATS_URL)
  for (const load of loads) load.start()
  run.log(
    `  wrk: ${CONNECTIONS_PER_SERVICE} connections on each service; ${secs(SETTLE_MS)} of load first`,
  )
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))

  const timings: string[] = []
  for (const { service, server } of REPLICAS) {
    const downs = await chkdown(STATS_URL, server)
    const t0 = performance.now()
    await compose.ok(['restart', '-t', '20', service], 120_000)
    const restarted = performance.now() - t0
    const up = await waitUp(STATS_URL, server, { afterDowns: downs, timeoutMs: 120_000 })
    const total = performance.now() - t0
    run.log(
      `  ${service}: restarted in ${secs(restarted)}, UP in HAProxy ${secs(up)} later (${secs(total)} in all)`,
    )
    timings.push(`${service} ${secs(total)}`)
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
  const results = await Promise.all(loads.map((load) => load.stop()))
  const after = await stats(STATS_URL)

  const problems: string[] = []
  let sent = 0
  let received = 0
  for (const [i, load] of loads.entries()) {
    const r = results[i] as LoadResult
    sent += r.sent
    received += r.received
    run.log(
      `  ${load.name}: ${count(r.sent)} sent, ${count(r.received)} answered in ${secs(r.durationMs)} ` +
        `(${Math.round(r.received / (r.durationMs / 1000))}/s), statuses ${JSON.stringify(r.statuses)}, ` +
        `p50 ${(r.latencyUs.p50 / 1000).toFixed(1)} ms, p99 ${(r.latencyUs.p99 / 1000).toFixed(1)} ms, ` +
        `max ${(r.latencyUs.max / 1000).toFixed(0)} ms`,
    )
    problems.push(...verdict(load.name, r))
  }
  const delta = (field: 'wretr' | 'wredis' | 'econ' | 'eresp', backend: string) =>
    (after.get(`${backend}/BACKEND`)?.[field] ?? 0) -
    (before.get(`${backend}/BACKEND`)?.[field] ?? 0)
  const haproxy = ['quotes', 'data-api']
    .map(
      (b) =>
        `${b}: ${delta('wretr', b)} retries, ${delta('wredis', b)} redispatches, ${delta('econ', b)} connection errors, ${delta('eresp', b)} response errors`,
    )
    .join('; ')
  run.log(`  HAProxy during the step: ${haproxy}`)
  check(problems.length === 0, problems.join('; '))
  const p99 = results
    .map((r, i) => `${loads[i]?.name} ${(r.latencyUs.p99 / 1000).toFixed(1)} ms`)
    .join(', ')
  run.figure(
    '(b) rolling restart under load',
    `4 replicas restarted one at a time (${timings.join(', ')}); ${count(sent)} requests sent, ` +
      `${count(received)} answered, 0 non-2xx, 0 socket errors; p99 ${p99}; HAProxy ${haproxy}`,
  )
}
