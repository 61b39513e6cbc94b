import type { Redis } from 'ioredis'

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void

interface Counter {
  /** When this window ends (ms since epoch). */
  windowEnd: number
  /** The shared count as Redis last reported it (every instance's flushed hits). */
  known: number
  /** Hits counted here and not yet sent to Redis. */
  pending: number
  /** Hits on their way to Redis. */
  sending: number
  windowMs: number
}

// Adds a batch of hits; the first batch of a window starts its expiry. Returns the shared count
// and the window's remaining time, so every instance converges on the same window.
const BATCH_INCR = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
if total == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {total, ttl}
`

export interface BatchedStoreOptions {
  /** Prepended to each client key (after the Redis client's own keyPrefix). */
  nameSpace: string
  /** How often local hits are sent to Redis. */
  flushMs?: number
  onError?: (error: Error) => void
}

interface RedisWithBatchIncr extends Redis {
  rateLimitBatchIncr(key: string, hits: number, windowMs: number): Promise<[number, number]>
}

/**
 * A store for @fastify/rate-limit that counts in memory and shares the counts through Redis in
 * batches (every `flushMs`), instead of one Redis round trip per request. One instance enforces
 * its ceiling exactly; across N instances a client can pass the ceiling by at most what it sends
 * to the other instances within one flush interval, which is fine for an abuse ceiling and costs
 * nothing on the hot path. When Redis is unreachable each instance keeps limiting on its own.
 */
export function batchedRedisStore(redis: Redis, opts: BatchedStoreOptions) {
  const flushMs = opts.flushMs ?? 100
  const counters = new Map<string, Counter>()
  const client = redis as RedisWithBatchIncr
  if (typeof client.rateLimitBatchIncr !== 'function') {
    redis.defineCommand('rateLimitBatchIncr', { numberOfKeys: 1, lua: BATCH_INCR })
  }
  // The flush under way, if any: close() waits for it, then sends what came in meanwhile.
  let inFlight: Promise<void> | undefined

  function flush(): Promise<void> {
    inFlight ??= send().finally(() => {
      inFlight = undefined
    })
    return inFlight
  }

  async function send(): Promise<void> {
    const now = Date.now()
    const batch: [string, Counter, number][] = []
    for (const [key, counter] of counters) {
      if (counter.pending > 0) {
        batch.push([key, counter, counter.pending])
        counter.sending += counter.pending
        counter.pending = 0
      } else if (counter.windowEnd <= now && counter.sending === 0) {
        counters.delete(key)
      }
    }
    await Promise.all(
      batch.map(async ([key, counter, hits]) => {
        try {
          const [total, ttl] = await client.rateLimitBatchIncr(
            opts.nameSpace + key,
            hits,
            counter.windowMs,
          )
          counter.known = total
          counter.windowEnd = Date.now() + ttl
        } catch (error) {
          counter.known += hits
          opts.onError?.(error as Error)
        } finally {
          counter.sending -= hits
        }
      }),
    )
  }

  const timer = setInterval(() => void flush(), flushMs)
  timer.unref()

  class BatchedRedisStore {
    /** Route-specific limits (route config) count apart from the global one, as RedisStore does. */
    // @fastify/rate-limit constructs the store with its options; we need only our own prefix.
    readonly prefix: string
    constructor(_options?: unknown, prefix = '') {
      this.prefix = prefix
    }

    incr(clientKey: string, callback: Callback, timeWindow: number): void {
      const now = Date.now()
      const key = this.prefix + clientKey
      let counter = counters.get(key)
      if (counter === undefined || (counter.windowEnd <= now && counter.sending === 0)) {
        counter = {
          windowEnd: now + timeWindow,
          known: 0,
          pending: 0,
          sending: 0,
          windowMs: timeWindow,
        }
        counters.set(key, counter)
      }
      counter.pending += 1
      callback(null, {
        current: counter.known + counter.sending + counter.pending,
        ttl: Math.max(counter.windowEnd - now, 0),
      })
    }

    child(routeOptions: object): BatchedRedisStore {
      const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo
      return new BatchedRedisStore(
        undefined,
        `${this.prefix}${route?.method ?? ''}${route?.url ?? ''}-`,
      )
    }
  }

  return {
    Store: BatchedRedisStore,
    /** Sends what is pending and stops the timer (call on close, before Redis quits). */
    close: async () => {
      clearInterval(timer)
      await inFlight
      await flush()
    },
    flush,
  }
}
