import { type RedisClient, turnWrites } from '@repo/service-kit'
import { addDays, type Clock, nextUtcMidnight, utcDay } from './clock.js'

// One round trip decides and counts: refuse without counting at the limit, else count. The first
// count of the day sets the key to expire at the next UTC midnight, so days never overlap. The
// same script counts the day's shadow key (same hash slot), which outlives the day by two days so
// the usage history can roll it into Postgres after midnight (see UsageRollup).
const CONSUME = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used} end
used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIREAT', KEYS[1], ARGV[2]) end
if redis.call('INCR', KEYS[2]) == 1 then redis.call('EXPIREAT', KEYS[2], ARGV[3]) end
return {1, used}
`

// Gives a counted request back (a request the service failed to serve: timeout, overload), in the
// quota and in its shadow.
const REFUND = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
if used > 0 then return redis.call('DECR', KEYS[1]) end
return 0
`

/** How long a day's shadow count outlives the day: the rollup may catch up that far back. */
export const USAGE_SHADOW_DAYS = 2

type RedisWithQuota = RedisClient & {
  quotaConsume(
    key: string,
    shadow: string,
    limit: number,
    expireAt: number,
    shadowExpireAt: number,
  ): Promise<[number, number]>
  quotaRefund(key: string, shadow: string): Promise<number>
}

export interface QuotaDecision {
  allowed: boolean
  limit: number
  used: number
  remaining: number
  /** The next UTC midnight as ISO 8601, formatted once a day. */
  resetsAtIso: string
  /** Seconds until the reset. */
  resetSeconds: number
  /** Redis could not be asked: decided by QUOTA_FAIL_MODE, counted in memory meanwhile. */
  degraded: boolean
}

export interface QuotaStoreOptions {
  clock: Clock
  failMode: 'open' | 'closed'
  onDegraded?: (error: Error) => void
}

interface Day {
  name: string
  startMs: number
  resetsAt: Date
  resetsAtIso: string
}

export class QuotaUnavailableError extends Error {
  override name = 'QuotaUnavailableError'
}

/** Counts requests per API key per UTC day in Redis, under `quota:{<key id>}:<day>`. */
export class QuotaStore {
  private readonly redis: RedisWithQuota
  /** Counts kept while Redis is unreachable (fail-open), so headers stay meaningful. */
  private readonly fallback = new Map<string, number>()
  /** The current UTC day, worked out once a day instead of once a request. */
  private day: Day | undefined
  /** The counts of one turn of the event loop share one write (see turnWrites). */
  private readonly shareTurn: () => void

  private dayOf(now: Date): Day {
    const ms = now.getTime()
    const day = this.day
    if (day && ms >= day.startMs && ms < day.resetsAt.getTime()) return day
    const resetsAt = nextUtcMidnight(now)
    this.day = {
      name: utcDay(now),
      startMs: resetsAt.getTime() - 86_400_000,
      resetsAt,
      resetsAtIso: resetsAt.toISOString(),
    }
    return this.day
  }

  constructor(
    redis: RedisClient,
    private readonly opts: QuotaStoreOptions,
  ) {
    this.redis = redis as RedisWithQuota
    this.shareTurn = turnWrites(redis)
    if (typeof this.redis.quotaConsume !== 'function') {
      redis.defineCommand('quotaConsume', { numberOfKeys: 2, lua: CONSUME })
      redis.defineCommand('quotaRefund', { numberOfKeys: 2, lua: REFUND })
    }
  }

  /**
   * `quota:{<key id>}:<day>`: the braces are a Redis Cluster hash tag, so every key of one API key
   * (its daily counts, its running feature requests) lives in one hash slot and a script may
   * touch them together.
   */
  static key(keyId: string, day: string): string {
    return `quota:{${keyId}}:${day}`
  }

  /**
   * `usage:{<key id>}:<day>`: the day's count again, in the same hash slot, kept until
   * USAGE_SHADOW_DAYS after the day for the usage history.
   */
  static usageKey(keyId: string, day: string): string {
    return `usage:{${keyId}}:${day}`
  }

  async consume(keyId: string, limit: number): Promise<QuotaDecision> {
    const now = this.opts.clock()
    const { name, resetsAt, resetsAtIso } = this.dayOf(now)
    const resetSeconds = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000))
    const key = QuotaStore.key(keyId, name)
    const base = { limit, resetsAtIso, resetSeconds, degraded: false }
    try {
      const expireAt = resetsAt.getTime() / 1000
      this.shareTurn()
      const [allowed, used] = await this.redis.quotaConsume(
        key,
        QuotaStore.usageKey(keyId, name),
        limit,
        expireAt,
        expireAt + USAGE_SHADOW_DAYS * 86_400,
      )
      this.fallback.clear() // Redis counts again: the outage's memory counts are done with
      return { ...base, allowed: allowed === 1, used, remaining: Math.max(limit - used, 0) }
    } catch (error) {
      this.opts.onDegraded?.(error as Error)
      if (this.opts.failMode === 'closed') throw new QuotaUnavailableError((error as Error).message)
      const used = (this.fallback.get(key) ?? 0) + 1
      if (this.fallback.size >= 100_000) this.fallback.clear() // bounded through a long outage
      this.fallback.set(key, used)
      return { ...base, allowed: true, used, remaining: Math.max(limit - used, 0), degraded: true }
    }
  }

  /**
   * Gives back a request counted today that the service then failed to serve (a feature past its
   * time budget, a full pool): such answers are not charged to the key.
   */
  async refund(keyId: string): Promise<void> {
    const day = this.dayOf(this.opts.clock()).name
    const key = QuotaStore.key(keyId, day)
    const local = this.fallback.get(key)
    if (local !== undefined) this.fallback.set(key, Math.max(local - 1, 0))
    await this.redis
      .quotaRefund(key, QuotaStore.usageKey(keyId, day))
      .catch((error: Error) => this.opts.onDegraded?.(error))
  }

  /** Today's usage of several keys at once (for the dashboard); 0 when Redis cannot say. */
  async usage(keyIds: string[]): Promise<Map<string, number>> {
    const result = new Map<string, number>()
    const day = this.dayOf(this.opts.clock()).name
    try {
      // One GET per key: on a cluster the keys live in different slots (no MGET across slots).
      const values = await Promise.all(keyIds.map((id) => this.redis.get(QuotaStore.key(id, day))))
      keyIds.forEach((id, i) => {
        result.set(id, Number(values[i] ?? 0))
      })
    } catch (error) {
      this.opts.onDegraded?.(error as Error)
      for (const id of keyIds) result.set(id, this.fallback.get(QuotaStore.key(id, day)) ?? 0)
    }
    return result
  }

  /**
   * The shadow counts of a day for several keys (undefined: no count, the key was not used that
   * day or the count has expired). Throws when Redis cannot say: the rollup must not guess.
   */
  async shadowCounts(keyIds: string[], day: string): Promise<Map<string, number | undefined>> {
    // One GET per key: on a cluster the keys live in different slots (no MGET across slots).
    const values = await Promise.all(
      keyIds.map((id) => this.redis.get(QuotaStore.usageKey(id, day))),
    )
    return new Map(keyIds.map((id, i) => [id, values[i] == null ? undefined : Number(values[i])]))
  }

  /**
   * Sets a key's count for today back to 0 (an operator's decision: the admin CLI); the usage
   * history keeps what was used. Resolves to the count it had. Throws when Redis cannot say.
   */
  async resetToday(keyId: string): Promise<number> {
    const key = QuotaStore.key(keyId, this.dayOf(this.opts.clock()).name)
    const used = await this.redis.get(key)
    await this.redis.del(key)
    return Number(used ?? 0)
  }

  /**
   * Deletes the counters of these keys (today's quota and the shadow counts still kept): an
   * account being deleted leaves nothing behind. Best effort: they expire by themselves anyway.
   */
  async forget(keyIds: string[]): Promise<void> {
    const today = this.dayOf(this.opts.clock()).name
    const days = Array.from({ length: USAGE_SHADOW_DAYS + 1 }, (_, back) => addDays(today, -back))
    // One DEL per key id: its keys share a hash slot, so this works on a cluster too.
    await Promise.all(
      keyIds.map((id) =>
        this.redis.del(
          ...days.flatMap((day) => [QuotaStore.key(id, day), QuotaStore.usageKey(id, day)]),
        ),
      ),
    ).catch((error: Error) => this.opts.onDegraded?.(error))
  }
}
