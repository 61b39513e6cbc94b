import { DependencyState, REDIS_RETRY_MS, type RedisClient } from '@repo/service-kit'
import { type PrivateRedis, waitFor } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WindowCounter } from '../../src/lib/window-counter.js'
import { type RedisWithClient, startRedisWithClient } from '../support/private-redis.js'

/*
 * The login and sign-up throttles' counter on a Redis of the test's own, which it stops: shared
 * by two counters (replicas) while Redis answers, in memory while it does not, and back on Redis
 * only once the back-off after a failure has passed. The clock is the test's.
 */

let redis: PrivateRedis
let client: RedisClient
let now = 1_000_000
const quiet = { warn() {}, info() {}, error() {} }
const state = new DependencyState({ name: 'redis', log: quiet })
const counter = (prefix: string) => new WindowCounter(client, state, prefix, 60, () => now)

let stores: RedisWithClient | undefined
beforeAll(async () => {
  stores = await startRedisWithClient()
  ;({ redis, client } = stores)
}, 60_000)
afterAll(async () => {
  await stores?.close()
})

describe('window counter', () => {
  it('counts one window in Redis, shared by every instance', async () => {
    const [a, b] = [counter('wc-shared:'), counter('wc-shared:')]
    expect((await a.hit('x')).hits).toBe(1)
    expect((await b.hit('x')).hits).toBe(2)
    const third = await a.hit('x')
    expect(third.hits).toBe(3)
    expect(third.ttl).toBeGreaterThan(55)
    expect(third.ttl).toBeLessThanOrEqual(60)
  })

  it('counts in memory while Redis is down, and asks it again only after the back-off', async () => {
    const c = counter('wc-down:')
    expect((await c.hit('y')).hits).toBe(1)
    await redis.stop()
    try {
      expect((await c.hit('y')).hits).toBe(1)
      expect(state.isUp).toBe(false)
      expect((await c.hit('y')).hits).toBe(2)
    } finally {
      await redis.start()
    }
    await waitFor('the client to reconnect', async () => client.status === 'ready')
    // Redis answers again, but the back-off has not passed: still in memory.
    now += REDIS_RETRY_MS - 1
    expect((await c.hit('y')).hits).toBe(3)
    // Past it: Redis again (a fresh server, so a fresh window), and the state is up.
    now += 1
    expect((await c.hit('y')).hits).toBe(1)
    expect(state.isUp).toBe(true)
  }, 60_000)

  it('starts a new window in memory once the old one has passed', async () => {
    const c = counter('wc-window:')
    await redis.stop()
    try {
      now += REDIS_RETRY_MS
      expect((await c.hit('z')).hits).toBe(1)
      expect((await c.hit('z')).hits).toBe(2)
      now += 60_000
      expect(await c.hit('z')).toEqual({ hits: 1, ttl: 60 })
    } finally {
      await redis.start()
    }
  }, 60_000)

  it('forgets a name on reset (a successful log-in), in Redis and in memory', async () => {
    now += REDIS_RETRY_MS
    const c = counter('wc-reset:')
    await c.hit('w')
    await c.hit('w')
    await c.reset('w')
    expect((await c.hit('w')).hits).toBe(1)
    await redis.stop()
    try {
      now += REDIS_RETRY_MS
      expect((await c.hit('v')).hits).toBe(1)
      expect((await c.hit('v')).hits).toBe(2)
      // Redis cannot be told: the reset still clears the count kept here, and says Redis is down.
      await c.reset('v')
      expect(state.isUp).toBe(false)
      expect((await c.hit('v')).hits).toBe(1)
    } finally {
      await redis.start()
    }
  }, 60_000)
})
