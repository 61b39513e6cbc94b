import type pg from 'pg'
import type { QuoteStore } from './quote-store.js'

/** The UTC day of `now` as YYYY-MM-DD. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10)
}

/** The next UTC midnight after `now`. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
}

/**
 * The quote of the day: drawn uniformly once per UTC day by the first instance that asks, kept in
 * Postgres (so every replica, and a restarted one, serves the same), remembered in memory.
 */
export class QuoteOfTheDay {
  private memo: { day: string; num: number } | undefined

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: QuoteStore,
  ) {}

  /** The quote id of `day`, or undefined when there are no quotes. */
  async num(day: string): Promise<number | undefined> {
    if (this.memo?.day === day) return this.memo.num
    const candidate = this.store.randomNum()
    if (candidate === undefined) return undefined
    // One statement: the first to ask inserts its draw; anyone else gets the stored one. The
    // no-op update (not DO NOTHING, which returns no row) also sees a row another replica has
    // just committed, which a SELECT in the same statement would not (its snapshot is older).
    const { rows } = await this.pool.query<{ num: number }>(
      `INSERT INTO quote_of_the_day (day, num) VALUES ($1, $2)
       ON CONFLICT (day) DO UPDATE SET num = quote_of_the_day.num RETURNING num`,
      [day, candidate],
    )
    // INSERT ... ON CONFLICT DO UPDATE ... RETURNING: always the one row.
    const { num } = rows[0] as { num: number }
    this.memo = { day, num }
    return num
  }

  /** Forgets the memory (the quote was deleted: the next call draws again). */
  forget(): void {
    this.memo = undefined
  }
}
