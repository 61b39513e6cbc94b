import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DependencyState } from '../src/dependency-state.js'
import { type RateLimitStore, sharedCounterStore } from '../src/rate-limit-store.js'
import { TEST_REDIS_URL, testRedisNamespace } from '../src/testing/index.js'

const ns = testRedisNamespace('rlstore')
let redis: Redis
const logged: string[] = []
const log = {
  warn: (_o: object, msg?: string) => logged.push(`warn ${msg}`),
  info: (_o: object, msg?: string) => logged.push(`info ${msg}`),
  error: (_o: object, msg?: string) => logged.push(`error ${msg}`),
}

beforeAll(async () => {
  redis = new Redis(TEST_REDIS_URL, { keyPrefix: ns.prefix })
})
afterAll(async () => {
  redis.disconnect()
  await ns.clear()
})

type Result = { current: number; ttl: number }

function incr(store: RateLimitStore, key: string, max: number, windowMs = 60_000) {
  return new Promise<Result>((resolve, reject) =>
    store.incr(key, (err, res) => (err || !res ? reject(err) : resolve(res)), windowMs, max),
  )
}

function makeStore(client: Redis, maxLease: number, nameSpace = 'rl:') {
  const state = new DependencyState({ name: 'redis', log })
  const Store = sharedCounterStore(client, { nameSpace, maxLease, state })
  return { store: new Store({}), state }
}

const client = () => `ip-${randomBytes(4).toString('hex')}`
const admitted = (results: Result[], max: number) => results.filter((r) => r.current <= max).length

describe('sharedCounterStore', () => {
  it('admits exactly the limit across instances hit concurrently', async () => {
    const a = makeStore(redis, 64).store
    const b = makeStore(redis, 64).store
    const key = client()
    const results = await Promise.all(
      Array.from({ length: 1_500 }, (_, i) => incr(i % 2 === 0 ? a : b, key, 1_000)),
    )
    expect(admitted(results, 1_000)).toBe(1_000)
    expect(Number(await redis.get(`rl:${key}`))).toBe(1_000)
  })

  it('reserves hits in batches instead of a round trip per request', async () => {
    const { store } = makeStore(redis, 64)
    const key = client()
    await incr(store, key, 1_000)
    // The first reservation is 4 hits: the next three need no Redis.
    expect(await redis.get(`rl:${key}`)).toBe('4')
    for (let i = 0; i < 3; i += 1) await incr(store, key, 1_000)
    expect(await redis.get(`rl:${key}`)).toBe('4')
    await incr(store, key, 1_000)
    expect(await redis.get(`rl:${key}`)).toBe('12')
    expect(await redis.pttl(`rl:${key}`)).toBeGreaterThan(50_000)
  })

  it('is exact to the hit with a lease of one, and reports the shared count', async () => {
    const a = makeStore(redis, 1).store
    const b = makeStore(redis, 1).store
    const key = client()
    expect((await incr(a, key, 3)).current).toBe(1)
    expect((await incr(b, key, 3)).current).toBe(2)
    expect((await incr(a, key, 3)).current).toBe(3)
    expect((await incr(b, key, 3)).current).toBe(4)
    expect(await redis.get(`rl:${key}`)).toBe('3')
  })

  it('refuses without asking Redis once the limit is reached, until the window ends', async () => {
    const { store } = makeStore(redis, 1)
    const key = client()
    await incr(store, key, 1, 300)
    const refused = await incr(store, key, 1, 300)
    expect(refused.current).toBe(2)
    expect(refused.ttl).toBeGreaterThan(0)
    await redis.set(`rl:${key}`, '0', 'PX', 300) // another window, but this instance knows the old one
    expect((await incr(store, key, 1, 300)).current).toBe(2)
    await new Promise((resolve) => setTimeout(resolve, 350))
    expect((await incr(store, key, 1, 300)).current).toBe(1)
  })

  it('keeps limiting in memory while Redis is unreachable, logging the outage once', async () => {
    const down = new Redis({
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    })
    down.on('error', () => {})
    logged.length = 0
    const { store, state } = makeStore(down, 64)
    const key = client()
    const results = []
    for (let i = 0; i < 5; i += 1) results.push(await incr(store, key, 3))
    expect(results.map((r) => r.current)).toEqual([1, 2, 3, 4, 4])
    expect(state.status).toBe('down')
    expect(logged.filter((line) => line.startsWith('warn'))).toHaveLength(1)
    down.disconnect()
  })

  it('keeps the counts of each route apart (child stores)', async () => {
    const { store } = makeStore(redis, 1)
    const route = (url: string) => ({ routeInfo: { method: 'POST', url } }) as never
    const login = store.child(route('/login'))
    const signup = store.child(route('/signup'))
    const key = client()
    await incr(login, key, 5)
    await incr(login, key, 5)
    expect((await incr(signup, key, 5)).current).toBe(1)
    expect(await redis.get(`rl:POST/login-${key}`)).toBe('2')
  })
})
