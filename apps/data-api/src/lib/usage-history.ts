import type pg from 'pg'
import { addDays, type Clock, daysFrom, utcDay } from './clock.js'
import { type QuotaStore, USAGE_SHADOW_DAYS } from './quota.js'
import { notRolled } from './usage-rollup.js'

/** Requests per day, in the order of the days asked for. */
export interface DailySeries {
  days: string[]
  /** Per key id, one count per day. */
  perKey: Map<string, number[]>
}

/**
 * Daily usage of keys over a range of UTC days: past days from Postgres (`usage_daily`), today
 * live from Redis (the quota count), and the past days the rollup has not reached yet from their
 * shadow counts in Redis.
 */
export class UsageHistory {
  constructor(
    private readonly pool: pg.Pool,
    private readonly quota: QuotaStore,
    private readonly clock: Clock,
  ) {}

  today(): string {
    return utcDay(this.clock())
  }

  /**
   * `todayCounts`: today's counts the caller already has (the quota check of this very request
   * returned its key's), so Redis is not asked again for them.
   */
  async series(
    keyIds: string[],
    from: string,
    to: string,
    todayCounts?: ReadonlyMap<string, number>,
  ): Promise<DailySeries> {
    const days = daysFrom(from, to)
    const index = new Map(days.map((day, i) => [day, i]))
    const perKey = new Map(keyIds.map((id) => [id, days.map(() => 0)]))
    if (keyIds.length === 0 || days.length === 0) return { days, perKey }
    const set = (id: string, day: string, n: number) => {
      const i = index.get(day)
      const counts = perKey.get(id)
      if (i !== undefined && counts) counts[i] = n
    }

    const { rows } = await this.pool.query<{ key_id: string; day: string; requests: number }>(
      `SELECT key_id, to_char(day, 'YYYY-MM-DD') AS day, requests FROM usage_daily
        WHERE key_id = ANY($1::uuid[]) AND day BETWEEN $2::date AND $3::date`,
      [keyIds, from, to],
    )
    for (const row of rows) set(row.key_id, row.day, row.requests)

    const today = this.today()
    if (index.has(today)) {
      const unknown = keyIds.filter((id) => !todayCounts?.has(id))
      for (const [id, n] of todayCounts ?? []) set(id, today, n)
      if (unknown.length > 0) {
        for (const [id, n] of await this.quota.usage(unknown)) set(id, today, n)
      }
    }
    for (const day of await this.unrolled(today, index)) {
      // Not rolled yet: the shadow counts are the truth (and nothing is lost if Redis is down:
      // the rollup writes them later).
      const counts = await this.quota.shadowCounts(keyIds, day).catch(() => new Map())
      for (const [id, n] of counts) if (n !== undefined) set(id, day, n)
    }
    return { days, perKey }
  }

  /** The recent past days in range that the rollup has not marked done. */
  private unrolled(today: string, index: Map<string, number>): Promise<string[]> {
    const recent: string[] = []
    for (let back = 1; back <= USAGE_SHADOW_DAYS; back += 1) {
      const day = addDays(today, -back)
      if (index.has(day)) recent.push(day)
    }
    return notRolled(this.pool, recent)
  }
}

/** The sum of several keys' series, day by day. */
export function sumSeries(series: DailySeries): number[] {
  const total = series.days.map(() => 0)
  for (const counts of series.perKey.values()) {
    counts.forEach((n, i) => {
      total[i] = (total[i] ?? 0) + n
    })
  }
  return total
}
