import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DependencyState } from '../src/dependency-state.js'
import { type RateLimitStore, REDIS_RETRY_MS, sharedCounterStore } from '../src/rate-limit-store.js'
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
  const failures: Error[] = []
  const state = new DependencyState({
    name: 'redis',
    log,
    onFailure: (error) => failures.push(error),
  })
  const Store = sharedCounterStore(client, { nameSpace, maxLease, state })
  return { store: new Store({}), state, failures }
}

function unreachableRedis() {
  const down = new Redis({
    port: 1,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  down.on('error', () => {})
  return down
}

/** A window of `windowMs` that started a moment ago. */
function expectTimeLeft(ttl: number, windowMs: number) {
  expect(ttl).toBeGreaterThan(windowMs * 0.5)
  expect(ttl).toBeLessThanOrEqual(windowMs)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
    expectTimeLeft(refused.ttl, 300)
    await redis.set(`rl:${key}`, '0', 'PX', 300) // another window, but this instance knows the old one
    expect((await incr(store, key, 1, 300)).current).toBe(2)
    await new Promise((resolve) => setTimeout(resolve, 350))
    expect((await incr(store, key, 1, 300)).current).toBe(1)
  })

  it('keeps limiting in memory while Redis is unreachable, logging the outage once', async () => {
    const down = unreachableRedis()
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

  it('counts hits from its reservation one by one, with the window’s time left', async () => {
    const { store } = makeStore(redis, 64)
    const key = client()
    const results = []
    for (let i = 0; i < 6; i += 1) results.push(await incr(store, key, 1_000, 5_000))
    expect(results.map((r) => r.current)).toEqual([1, 2, 3, 4, 5, 6])
    for (const { ttl } of results) expectTimeLeft(ttl, 5_000)
  })

  it('asks an unreachable Redis again only after a second, counting in memory meanwhile', async () => {
    const down = unreachableRedis()
    const { store, failures } = makeStore(down, 64)
    const key = client()
    const results = []
    for (let i = 0; i < 5; i += 1) results.push(await incr(store, key, 10, 5_000))
    expect(failures).toHaveLength(1)
    for (const { ttl } of results) expectTimeLeft(ttl, 5_000)
    await sleep(REDIS_RETRY_MS + 100)
    await incr(store, key, 10, 5_000)
    expect(failures).toHaveLength(2)
    down.disconnect()
  })

  it('starts a new window in memory when the last one ended', async () => {
    const down = unreachableRedis()
    const { store } = makeStore(down, 64)
    const key = client()
    const counts = []
    for (let i = 0; i < 3; i += 1) counts.push((await incr(store, key, 2, 100)).current)
    await sleep(150)
    counts.push((await incr(store, key, 2, 100)).current)
    expect(counts).toEqual([1, 2, 3, 1])
    down.disconnect()
  })

  it('keeps a child store for a route it cannot name apart under the parent’s prefix', async () => {
    const { store } = makeStore(redis, 1)
    const unnamed = store.child({} as never)
    const key = client()
    await incr(unnamed, key, 5)
    expect(await redis.get(`rl:-${key}`)).toBe('1')
  })

  it('can make several stores on one client', async () => {
    const a = makeStore(redis, 1, 'rl-a:').store
    const b = makeStore(redis, 1, 'rl-b:').store
    const key = client()
    expect((await incr(a, key, 5)).current).toBe(1)
    expect((await incr(b, key, 5)).current).toBe(1)
  })
})
