import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { boundedCache } from './bounded-cache.js'
import type { DependencyState } from './dependency-state.js'
import type { RedisClient } from './redis/client.js'

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void

/*
 * Reserves up to ARGV[1] hits of a window's allowance (ARGV[2] = max) for one instance, never more
 * than what is left, and at most an eighth of it (so instances near the limit share what remains
 * in small pieces). The first reservation of a window starts its expiry (ARGV[3] ms). Returns
 * {granted, used after the grant, window ms left}. One key: fine on a Redis Cluster.
 */
const LEASE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local max = tonumber(ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
local grant = 0
if used < max then
  grant = math.min(tonumber(ARGV[1]), math.max(1, math.floor((max - used) / 8)))
  used = redis.call('INCRBY', KEYS[1], grant)
end
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
end
return {grant, used, ttl}
`

interface RedisWithLease {
  rateLimitLease(key: string, want: number, max: number, windowMs: number): Promise<number[]>
}

interface Lease {
  /** Hits reserved in Redis and not used yet. */
  tokens: number
  /** The window's shared count after the last reservation (every instance's). */
  used: number
  windowEnd: number
  /** What to ask for next time: doubles while this client keeps using its reservations. */
  want: number
  /** Redis said the allowance is gone: refuse without asking until the window ends. */
  exhausted: boolean
}

export interface SharedCounterOptions {
  /** Prepended to each client key (after the Redis client's own prefix). */
  nameSpace: string
  /**
   * Most hits an instance reserves at once. 1: every hit is one atomic round trip (exact to the
   * hit, for low-volume limits such as log-ins). More: one round trip per reservation.
   */
  maxLease: number
  /** Reports Redis failures (one log line per outage) and recoveries. */
  state: DependencyState
}

/**
 * A store for @fastify/rate-limit that is exact across any number of instances without a Redis
 * round trip per request: an instance reserves a batch of hits from the shared count in Redis
 * (one atomic script) and admits requests from its reservation locally, so the total admitted
 * never passes the limit. Near the limit the batches shrink to single hits; once the limit is
 * reached, refusals cost nothing until the window ends. Hits reserved by an instance that then
 * gets no more traffic are lost for that window, so a client may be refused slightly before the
 * limit when its requests stop reaching some instances, never after.
 *
 * With Redis unreachable, each instance counts in memory against the same limit (so the limit
 * holds per instance) until Redis answers again.
 *
 * (@fastify/rate-limit's own Redis store costs one round trip per request, which on the quotes
 * service's hot endpoints costs about as much CPU as the rest of the request.)
 */
export type RateLimitStore = FastifyRateLimitStore

/**
 * After a Redis failure, how long a counter counts locally before asking Redis again, so an
 * unresponsive Redis (each command waits for its timeout) does not slow every request down.
 */
export const REDIS_RETRY_MS = 1_000

/** Clients (addresses) a store remembers per route; the least recently seen go first. */
const CLIENTS_PER_ROUTE = 100_000

export function sharedCounterStore(
  redis: RedisClient,
  opts: SharedCounterOptions,
): FastifyRateLimitStoreCtor {
  const client = redis as unknown as RedisWithLease & RedisClient
  // Defining it again (a store per limit on one client) only replaces it with the same script.
  redis.defineCommand('rateLimitLease', { numberOfKeys: 1, lua: LEASE })

  // After a failure, counted locally for REDIS_RETRY_MS.
  let retryAt = 0

  return class SharedCounterStore implements RateLimitStore {
    // boundedCache: @fastify/rate-limit makes a store per route (child()), and an LRUCache with a
    // `max` allocates its slots up front (about 1.7 MB each at 100,000): for every route of a
    // service tens of MB of resident memory that most routes never touch, and, made on a route's
    // first request instead, 3.3 ms of that request (a quotes service's first /api answer).
    private readonly leases = boundedCache<string, Lease>(CLIENTS_PER_ROUTE)
    private readonly local = boundedCache<string, { count: number; windowEnd: number }>(
      CLIENTS_PER_ROUTE,
    )
    private readonly pending = new Map<string, Promise<void>>()

    constructor(
      _params?: unknown,
      private readonly prefix = opts.nameSpace,
    ) {}

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      const now = Date.now()
      let lease = this.leases.get(key)
      // An ended window's lease is replaced by the next reservation.
      if (lease && lease.windowEnd <= now) lease = undefined
      if (lease?.exhausted) {
        callback(null, { current: max + 1, ttl: lease.windowEnd - now })
        return
      }
      if (lease && lease.tokens > 0) {
        lease.tokens -= 1
        callback(null, { current: lease.used - lease.tokens, ttl: lease.windowEnd - now })
        return
      }
      if (now < retryAt) {
        this.incrLocally(key, callback, timeWindow, max)
        return
      }
      let wait = this.pending.get(key)
      if (wait === undefined) {
        wait = this.reserve(key, lease, timeWindow, max, now).finally(() => {
          this.pending.delete(key)
        })
        this.pending.set(key, wait)
      }
      wait.then(
        () => this.incr(key, callback, timeWindow, max),
        () => this.incrLocally(key, callback, timeWindow, max),
      )
    }

    private async reserve(
      key: string,
      previous: Lease | undefined,
      timeWindow: number,
      max: number,
      now: number,
    ): Promise<void> {
      const want = previous
        ? Math.min(previous.want * 2, opts.maxLease)
        : Math.min(4, opts.maxLease)
      const reply = await opts.state
        .track(client.rateLimitLease(`${this.prefix}${key}`, want, max, timeWindow))
        .catch((error: unknown) => {
          retryAt = Date.now() + REDIS_RETRY_MS
          throw error
        })
      const [granted = 0, used = 0, ttl = timeWindow] = reply
      this.leases.set(key, {
        tokens: granted,
        used,
        windowEnd: now + ttl,
        want,
        exhausted: granted === 0,
      })
    }

    private incrLocally(key: string, callback: Callback, timeWindow: number, max: number): void {
      const now = Date.now()
      let counter = this.local.get(key)
      if (counter === undefined || counter.windowEnd <= now) {
        counter = { count: 0, windowEnd: now + timeWindow }
        this.local.set(key, counter)
      }
      counter.count += 1
      callback(null, { current: Math.min(counter.count, max + 1), ttl: counter.windowEnd - now })
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): SharedCounterStore {
      // @fastify/rate-limit passes the route's merged options, with the route as `routeInfo`.
      const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo
      return new SharedCounterStore(
        undefined,
        `${this.prefix}${route?.method ?? ''}${route?.url ?? ''}-`,
      )
    }
  }
}
