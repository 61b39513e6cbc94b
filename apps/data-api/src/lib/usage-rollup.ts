import type pg from 'pg'
import { addDays, type Clock, DAY_MS, dayStart, utcDay } from './clock.js'
import { type QuotaStore, USAGE_SHADOW_DAYS } from './quota.js'

export interface UsageRollupOptions {
  clock: Clock
  /** How long after midnight a day is left alone (requests decided before it may still land). */
  settleMs?: number
  /** Days of history kept in Postgres; older rows are purged. */
  retainDays?: number
  /** Writes what this instance knows of key use (candidates come from `last_used_at`). */
  beforeRoll?: () => Promise<void>
}

export interface RollupResult {
  /** Days rolled by this run, with the rows it wrote (0 when another instance was first). */
  rolled: { day: string; keys: number; written: number }[]
  purged: number
}

/** Keys per INSERT (and per batch of Redis GETs). */
const BATCH = 1_000

/**
 * Moves each key's daily count from Redis into Postgres (`usage_daily`) after the day ends, by
 * whichever instance gets there first, exactly once:
 *
 * - The quota script counts a shadow key `usage:{<key id>}:<day>` beside the quota, which lives
 *   until USAGE_SHADOW_DAYS after the day; so every instance can read a past day's counts for two
 *   days, whatever the quota key did at midnight.
 * - Every instance runs this every few minutes. For each of the last USAGE_SHADOW_DAYS days that
 *   ended at least `settleMs` ago and is not marked rolled in `usage_rollups`, the candidates are
 *   the keys used that day or later (`last_used_at`), their counts come from the shadow keys, and
 *   the rows are written with INSERT ... ON CONFLICT (key_id, day) DO NOTHING: the first writer
 *   wins, a second finds the rows there and writes nothing, and a run that died half-way is
 *   completed by the next. Then the day is marked rolled.
 * - Rows older than `retainDays` are purged.
 */
export class UsageRollup {
  private readonly settleMs: number
  private readonly retainDays: number

  constructor(
    private readonly pool: pg.Pool,
    private readonly quota: QuotaStore,
    private readonly opts: UsageRollupOptions,
  ) {
    this.settleMs = opts.settleMs ?? 60_000
    this.retainDays = opts.retainDays ?? 400
  }

  /** The past days still to roll at `now`, oldest first. */
  async pendingDays(now: Date): Promise<string[]> {
    const today = utcDay(now)
    const candidates: string[] = []
    for (let back = USAGE_SHADOW_DAYS; back >= 1; back -= 1) {
      const day = addDays(today, -back)
      if (dayStart(day).getTime() + DAY_MS + this.settleMs <= now.getTime()) candidates.push(day)
    }
    return notRolled(this.pool, candidates)
  }

  async runOnce(): Promise<RollupResult> {
    const now = this.opts.clock()
    await this.opts.beforeRoll?.()
    const rolled: RollupResult['rolled'] = []
    for (const day of await this.pendingDays(now)) rolled.push(await this.rollDay(day))
    const purged = await this.pool.query('DELETE FROM usage_daily WHERE day < $1::date', [
      addDays(utcDay(now), -this.retainDays),
    ])
    return { rolled, purged: purged.rowCount ?? 0 }
  }

  /** Rolls one past day (safe to run on any number of instances at once, and again). */
  async rollDay(day: string): Promise<{ day: string; keys: number; written: number }> {
    const { rows } = await this.pool.query<{ id: string }>(
      'SELECT id FROM api_keys WHERE last_used_at >= $1',
      [dayStart(day)],
    )
    const ids = rows.map((row) => row.id)
    let written = 0
    let keys = 0
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH)
      const counts = await this.quota.shadowCounts(batch, day)
      const used = batch.filter((id) => (counts.get(id) ?? 0) > 0)
      keys += used.length
      if (used.length === 0) continue
      const inserted = await this.pool.query(
        `INSERT INTO usage_daily (key_id, day, requests)
         SELECT t.id, $1::date, t.n FROM unnest($2::uuid[], $3::int[]) AS t(id, n)
         ON CONFLICT (key_id, day) DO NOTHING`,
        [day, used, used.map((id) => counts.get(id))],
      )
      written += inserted.rowCount ?? 0
    }
    await this.pool.query(
      'INSERT INTO usage_rollups (day, keys) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING',
      [day, keys],
    )
    return { day, keys, written }
  }
}

/** Of `days` (YYYY-MM-DD), those the rollup has not marked done, in the order given. */
export async function notRolled(pool: pg.Pool, days: string[]): Promise<string[]> {
  if (days.length === 0) return []
  const { rows } = await pool.query<{ day: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM usage_rollups WHERE day = ANY($1::date[])`,
    [days],
  )
  const done = new Set(rows.map((row) => row.day))
  return days.filter((day) => !done.has(day))
}
