import { waitFor } from '../lib/health.js'
import { Failure } from '../lib/run.js'

/** One row of HAProxy's statistics (`/stats;csv`): a server, frontend or backend. */
export interface StatRow {
  /** `<proxy>/<server>`, e.g. `quotes/quotes-1` or `data-api/BACKEND`. */
  name: string
  /** UP, DOWN, MAINT, "UP 1/2" (going down), "DOWN 1/2" (coming up), OPEN (frontends). */
  status: string
  /** Times the server went from UP to DOWN. */
  chkdown: number
  /** Retries, redispatches, connection and response errors. */
  wretr: number
  wredis: number
  econ: number
  eresp: number
  /** Responses by class. */
  hrsp5xx: number
}

/** Reads HAProxy's statistics page as CSV. */
export async function stats(statsUrl: string): Promise<Map<string, StatRow>> {
  const res = await fetch(`${statsUrl}/stats;csv`, { signal: AbortSignal.timeout(3_000) })
  if (!res.ok) throw new Failure(`HAProxy stats: HTTP ${res.status}`)
  const [header = '', ...lines] = (await res.text()).trim().split('\n')
  const columns = header.replace(/^# /, '').split(',')
  const rows = new Map<string, StatRow>()
  for (const line of lines) {
    const cells = line.split(',')
    const get = (column: string) => cells[columns.indexOf(column)] ?? ''
    const n = (column: string) => Number(get(column) || 0)
    const name = `${get('pxname')}/${get('svname')}`
    rows.set(name, {
      name,
      status: get('status'),
      chkdown: n('chkdown'),
      wretr: n('wretr'),
      wredis: n('wredis'),
      econ: n('econ'),
      eresp: n('eresp'),
      hrsp5xx: n('hrsp_5xx'),
    })
  }
  return rows
}

async function row(statsUrl: string, name: string): Promise<StatRow> {
  const found = (await stats(statsUrl)).get(name)
  if (!found) throw new Failure(`HAProxy has no server ${name}`)
  return found
}

/** Waits until HAProxy routes to `name` (`backend/server`) again: UP, after more than `afterDowns` downs. */
export function waitUp(
  statsUrl: string,
  name: string,
  opts: { afterDowns?: number; timeoutMs: number },
): Promise<number> {
  return waitFor(
    `HAProxy: ${name} UP again`,
    async () => {
      const r = await row(statsUrl, name)
      return r.status === 'UP' && r.chkdown > (opts.afterDowns ?? -1)
    },
    opts.timeoutMs,
    100,
  )
}

/** Every server of the stack UP in HAProxy. */
export function waitAllUp(statsUrl: string, servers: string[], timeoutMs: number): Promise<number> {
  return waitFor(
    `HAProxy: ${servers.join(', ')} all UP`,
    async () => {
      const rows = await stats(statsUrl)
      return servers.every((name) => rows.get(name)?.status === 'UP')
    },
    timeoutMs,
    200,
  )
}

export async function chkdown(statsUrl: string, name: string): Promise<number> {
  return (await row(statsUrl, name)).chkdown
}
