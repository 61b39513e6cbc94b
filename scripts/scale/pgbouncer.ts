import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Compose } from '../lib/compose.js'
import { type Answer, accountWithKeys, type DashboardBrowser, http } from '../lib/http.js'
import { check, type Run, secs } from '../lib/run.js'
import { stats, waitAllUp } from './haproxy.js'
import { DATA_API_URL, QUOTES_URL, REPLICAS, STATS_URL } from './stack.js'

const PROBE_INTERVAL_MS = 50
const RECOVERY_MAX_MS = 60_000
/** After the restart, this many 200s in a row (both replicas of each service) close the step. */
const CONFIRMATIONS = 6

interface Probe {
  name: string
  /** One request that needs Postgres. */
  send: () => Promise<Answer>
}

/** quotes: a search for a term never searched before (its ids are not cached: one query). */
const quotesProbe = (): Probe => ({
  name: 'quotes',
  send: () =>
    http(`${QUOTES_URL}/api/search?term=${randomBytes(4).toString('hex')}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    }),
})

/** data-api: the dashboard of a signed-in account (its session is read from Postgres). */
const dataApiProbe = (browser: DashboardBrowser): Probe => ({
  name: 'data-api',
  send: () => browser.get('/dashboard'),
})

/** What answered: the service itself, HAProxy (no server up), or nothing. */
function label(res: Answer | undefined): string {
  if (!res) return 'no answer'
  if (res.status === 200) return '200'
  return res.text.includes('No server is available')
    ? `${res.status} from HAProxy`
    : `${res.status}`
}

interface Outcome {
  seen: Map<string, number>
  /** From the first failed answer to the first 200 after it; undefined when none failed. */
  outageMs: number | undefined
}

/** Probes until the restart is over and CONFIRMATIONS answers in a row were 200. */
async function watch(probe: Probe, restarted: () => boolean, t0: number): Promise<Outcome> {
  const seen = new Map<string, number>()
  let failedAt: number | undefined
  let outageMs: number | undefined
  let inARow = 0
  while (!restarted() || inARow < CONFIRMATIONS) {
    const res = await probe.send().catch(() => undefined)
    const now = performance.now()
    const what = label(res)
    seen.set(what, (seen.get(what) ?? 0) + 1)
    if (what === '200') {
      inARow += 1
      if (failedAt !== undefined && outageMs === undefined) outageMs = now - failedAt
    } else {
      inARow = 0
      outageMs = undefined
      failedAt ??= now
    }
    check(
      now - t0 < RECOVERY_MAX_MS,
      `${probe.name}: not answering 200 within ${secs(RECOVERY_MAX_MS)}`,
    )
    await sleep(PROBE_INTERVAL_MS)
  }
  return { seen, outageMs }
}

/**
 * (d) PgBouncer restarted (`docker compose restart pgbouncer`) while both services are asked
 * every 50 ms for something that needs Postgres: each answers 200 again without being restarted;
 * how long its clients saw failures, and what those answers were.
 */
export async function pgbouncerRestart(run: Run, compose: Compose): Promise<void> {
  const { browser } = await accountWithKeys(DATA_API_URL, 'scale-pgbouncer', 'FREE', 0)
  const probes = [quotesProbe(), dataApiProbe(browser)]
  for (const probe of probes) {
    check((await probe.send()).status === 200, `${probe.name}: not 200 before the restart`)
  }
  const downsBefore = await stats(STATS_URL)
  const t0 = performance.now()
  let restartMs: number | undefined
  const restart = compose.ok(['restart', 'pgbouncer'], 60_000).then(() => {
    restartMs = performance.now() - t0
  })
  const outcomes = await Promise.all(probes.map((p) => watch(p, () => restartMs !== undefined, t0)))
  await restart
  // Every replica back in HAProxy (a /ready that failed meanwhile took it out).
  await waitAllUp(
    STATS_URL,
    REPLICAS.map((r) => r.server),
    RECOVERY_MAX_MS,
  )
  const allUpMs = performance.now() - t0
  const downsAfter = await stats(STATS_URL)
  const takenOut = REPLICAS.filter(
    (r) => (downsAfter.get(r.server)?.chkdown ?? 0) > (downsBefore.get(r.server)?.chkdown ?? 0),
  ).map((r) => r.service)
  const parts = probes.map((probe, i) => {
    const { seen, outageMs } = outcomes[i] as Outcome
    const answers = [...seen].map(([what, n]) => `${n} × ${what}`).join(', ')
    const outage =
      outageMs === undefined
        ? 'no request failed'
        : `200 again ${secs(outageMs)} after the first failure`
    run.log(`  ${probe.name}: ${answers}; ${outage}`)
    return `${probe.name} ${outage} (${answers})`
  })
  run.figure(
    '(d) PgBouncer restarted',
    `\`restart pgbouncer\` took ${secs(restartMs ?? 0)}; ${parts.join('; ')}; ` +
      `HAProxy took ${takenOut.length ? takenOut.join(', ') : 'no replica'} out meanwhile; ` +
      `all 4 UP ${secs(allUpMs)} after the restart began, none restarted`,
  )
}
