import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchedRedisStore } from '../src/rate-limit-store.js'
import { TEST_REDIS_URL, testRedisNamespace } from '../src/testing/index.js'

const ns = testRedisNamespace('rlstore')
let redis: Redis

beforeAll(async () => {
  redis = new Redis(TEST_REDIS_URL, { keyPrefix: ns.prefix })
})
afterAll(async () => {
  redis.disconnect()
  await ns.clear()
})

type Result = { current: number; ttl: number }
type IncrCallback = (err: Error | null, res?: Result) => void

function incr(
  store: { incr: (key: string, cb: IncrCallback, windowMs: number) => void },
  key: string,
  windowMs = 60_000,
) {
  return new Promise<Result>((resolve, reject) =>
    store.incr(key, (err, res) => (err || !res ? reject(err) : resolve(res)), windowMs),
  )
}

describe('batchedRedisStore', () => {
  it('counts locally at once and shares the count through Redis', async () => {
    const a = batchedRedisStore(redis, { nameSpace: 'rl:', flushMs: 10_000 })
    const b = batchedRedisStore(redis, { nameSpace: 'rl:', flushMs: 10_000 })
    const storeA = new a.Store()
    const storeB = new b.Store()
    const client = `ip-${randomBytes(3).toString('hex')}`
    expect((await incr(storeA, client)).current).toBe(1)
    expect((await incr(storeA, client)).current).toBe(2)
    await a.flush()
    expect(await redis.get(`rl:${client}`)).toBe('2')
    expect(await redis.pttl(`rl:${client}`)).toBeGreaterThan(50_000)

    // B counts its own hit, then learns A's two from Redis at its flush.
    expect((await incr(storeB, client)).current).toBe(1)
    await b.flush()
    expect((await incr(storeB, client)).current).toBe(4)
    await a.close()
    await b.close()
  })

  it('keeps route-specific limits apart from the global one', async () => {
    const s = batchedRedisStore(redis, { nameSpace: 'rl:', flushMs: 10_000 })
    const global = new s.Store()
    const route = global.child({ routeInfo: { method: 'POST', url: '/login' } })
    await incr(global, 'k')
    expect((await incr(route, 'k')).current).toBe(1)
    await s.close()
  })

  it('keeps limiting on its own when Redis is unreachable', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    })
    const errors: Error[] = []
    const s = batchedRedisStore(dead, {
      nameSpace: 'rl:',
      flushMs: 10_000,
      onError: (e) => errors.push(e),
    })
    const store = new s.Store()
    await incr(store, 'k')
    await s.flush()
    expect(errors.length).toBe(1)
    expect((await incr(store, 'k')).current).toBe(2)
    await s.close()
    dead.disconnect()
  })

  it('starts a new window when the old one has passed', async () => {
    const s = batchedRedisStore(redis, { nameSpace: 'rl:', flushMs: 10_000 })
    const store = new s.Store()
    const client = `w-${randomBytes(3).toString('hex')}`
    await incr(store, client, 50)
    await new Promise((r) => setTimeout(r, 80))
    expect((await incr(store, client, 50)).current).toBe(1)
    await s.close()
  })
})
