import {
  boundedCache,
  type DependencyState,
  REDIS_RETRY_MS,
  type RedisClient,
} from '@repo/service-kit'

// Counts one hit and starts the window with the first; returns {hits, seconds left}.
const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
`

type RedisWithHit = RedisClient & {
  windowHit(key: string, windowSeconds: number): Promise<[number, number]>
}

export interface WindowCount {
  hits: number
  /** Seconds until the window ends. */
  ttl: number
}

/**
 * Hits per name in a fixed window, counted atomically in Redis (one key, one round trip: shared
 * by replicas, fine on a cluster) and in memory, per instance, while Redis is unreachable. After
 * a failure the counter stays in memory for the kit's REDIS_RETRY_MS, as the rate-limit store
 * does.
 */
export class WindowCounter {
  private readonly redis: RedisWithHit
  private readonly local = boundedCache<string, { hits: number; until: number }>(100_000)
  private retryAt = 0

  constructor(
    redis: RedisClient,
    private readonly state: DependencyState,
    private readonly prefix: string,
    readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.redis = redis as RedisWithHit
    if (typeof this.redis.windowHit !== 'function') {
      redis.defineCommand('windowHit', { numberOfKeys: 1, lua: HIT })
    }
  }

  async hit(name: string): Promise<WindowCount> {
    const key = `${this.prefix}${name}`
    if (this.now() >= this.retryAt) {
      try {
        const [hits, ttl] = await this.state.track(this.redis.windowHit(key, this.windowSeconds))
        return { hits, ttl }
      } catch {
        this.retryAt = this.now() + REDIS_RETRY_MS
      }
    }
    return this.hitLocally(key)
  }

  private hitLocally(key: string): WindowCount {
    const now = this.now()
    let entry = this.local.get(key)
    if (!entry || entry.until <= now) {
      entry = { hits: 0, until: now + this.windowSeconds * 1000 }
      this.local.set(key, entry)
    }
    entry.hits += 1
    return { hits: entry.hits, ttl: Math.ceil((entry.until - now) / 1000) }
  }

  async reset(name: string): Promise<void> {
    const key = `${this.prefix}${name}`
    this.local.delete(key)
    await this.redis.del(key).catch((error: Error) => this.state.down(error))
  }
}
