import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMBEDDED_REDIS_URL, resolveStores } from '../src/embedded.js'
import {
  createRedisClient,
  isCluster,
  isClusterNode,
  type RedisClient,
} from '../src/redis/client.js'
import {
  addRedisUser,
  freePort,
  type PrivateRedis,
  startPrivateRedis,
} from '../src/testing/index.js'

// The kit's Redis clients against a Redis server of the test's own: credentials from the URL,
// key prefixes, commands that fail fast (no offline queue, a time limit) instead of piling up.

const PASSWORD = 'p@ss word/ü'
let redis: PrivateRedis
let url: string
const clients: RedisClient[] = []
beforeAll(async () => {
  redis = await startPrivateRedis({ password: PASSWORD })
  url = `redis://default:${encodeURIComponent(PASSWORD)}@127.0.0.1:${redis.port}`
})
afterAll(async () => {
  for (const client of clients) client.disconnect()
  await redis?.close()
})

function client(opts: Parameters<typeof createRedisClient>[0]) {
  const made = createRedisClient(opts)
  made.on('error', () => {})
  clients.push(made)
  return made
}

const BUSY_SCRIPT = `
local function now() local t = redis.call('TIME') return tonumber(t[1]) * 1000000 + tonumber(t[2]) end
local start = now()
while now() - start < tonumber(ARGV[1]) do end
return 1`

/** A plain connection that sees keys as they are stored. */
async function raw() {
  const plain = new Redis(redis.port, '127.0.0.1', { password: PASSWORD, lazyConnect: true })
  clients.push(plain)
  await plain.connect()
  return plain
}

describe('createRedisClient (one server)', () => {
  it('is made unconnected, and connects with the URL’s (encoded) credentials', async () => {
    const made = client({ url })
    expect(isCluster(made)).toBe(false)
    expect(made.status).toBe('wait')
    await made.connect()
    expect(await made.ping()).toBe('PONG')
  })

  it('is refused without the password', async () => {
    const made = createRedisClient({ url: `redis://127.0.0.1:${redis.port}` })
    clients.push(made)
    const errors: string[] = []
    made.on('error', (error: Error) => errors.push(error.message))
    await expect(made.connect()).rejects.toThrow()
    expect(errors.join()).toMatch(/NOAUTH/)
  })

  it('puts its key prefix before every key, and none without one', async () => {
    const prefixed = client({ url, keyPrefix: 'kit-test:' })
    const bare = client({ url })
    await prefixed.connect()
    await bare.connect()
    await prefixed.set('a', '1')
    await bare.set('b', '2')
    const plain = await raw()
    expect(await plain.get('kit-test:a')).toBe('1')
    expect(await plain.get('b')).toBe('2')
  })

  it('fails a command at once while disconnected instead of queueing it', async () => {
    const down = await startPrivateRedis({ running: false })
    try {
      const made = client({ url: down.url })
      await made.connect().catch(() => undefined)
      const started = Date.now()
      await expect(made.get('k')).rejects.toThrow(/enableOfflineQueue/)
      expect(Date.now() - started).toBeLessThan(500)
    } finally {
      await down.close()
    }
  })

  it('fails a command that Redis does not answer within its time limit (1 s by default)', async () => {
    const quick = client({ url, commandTimeout: 150 })
    const usual = client({ url })
    await quick.connect()
    await usual.connect()
    const blocker = await raw()
    // A script blocks the whole server while it runs (here 2.5 s).
    const asleep = blocker.eval(BUSY_SCRIPT, 0, '2500000')
    await new Promise((resolve) => setTimeout(resolve, 50))
    let started = Date.now()
    await expect(quick.get('k')).rejects.toThrow(/timed out/)
    expect(Date.now() - started).toBeLessThan(900)
    started = Date.now()
    await expect(usual.get('k')).rejects.toThrow(/timed out/)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(Date.now() - started).toBeLessThan(1_900)
    await asleep
  })

  it('reconnects by itself, backing off 100 ms a try up to 2 s', async () => {
    const made = client({ url })
    const retry = (made as Redis).options.retryStrategy as (times: number) => number
    expect([1, 2, 5, 20, 21, 100].map(retry)).toEqual([100, 200, 500, 2_000, 2_000, 2_000])
    expect((made as Redis).options).toMatchObject({
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      enableAutoPipelining: false,
    })
  })

  it('speaks TLS for a rediss:// URL', async () => {
    const made = client({ url: url.replace('redis://', 'rediss://') })
    expect((made as Redis).options.tls).toBeTruthy()
    expect((client({ url }) as Redis).options.tls).toBeFalsy()
    // The test's Redis speaks no TLS: the handshake fails.
    await expect(made.connect()).rejects.toThrow()
  })

  it('tells a cluster node from a plain server', async () => {
    const made = client({ url })
    await made.connect()
    expect(await isClusterNode(made as Redis)).toBe(false)
  })

  it('tells a plain server from a cluster node for an ACL user denied INFO', async () => {
    const rules = ['+@all', '-@dangerous']
    await addRedisUser(redis.port, {
      name: 'no-info',
      password: 'pw',
      rules,
      adminPassword: PASSWORD,
    })
    const made = client({ url: `redis://no-info:pw@127.0.0.1:${redis.port}` })
    await made.connect()
    await expect(made.info('cluster')).rejects.toThrow(/^NOPERM/)
    expect(await isClusterNode(made as Redis)).toBe(false)
  })

  it('does not take a failure to ask for an answer', async () => {
    const unconnected = client({ url }) as Redis
    await expect(isClusterNode(unconnected)).rejects.toThrow(/enableOfflineQueue/)
  })
})

describe('createRedisClient (embedded)', () => {
  it('refuses the embedded Redis before the stores were resolved to it', async () => {
    expect(() => createRedisClient({ url: EMBEDDED_REDIS_URL })).toThrow(/was not started/)
  })

  it('makes an in-process Redis with its key prefix once resolveStores chose it', async () => {
    const nothing = `redis://127.0.0.1:${await freePort()}`
    const stores = await resolveStores({
      service: 'kit-test',
      mode: 'auto',
      databaseUrl: 'postgres://unused',
      redisUrl: nothing,
      databaseUrlSet: true,
      redisUrlSet: false,
      dataDir: '/nonexistent',
    })
    expect(stores.redisUrl).toBe(EMBEDDED_REDIS_URL)
    const made = client({ url: EMBEDDED_REDIS_URL, keyPrefix: 'emb:' })
    const other = client({ url: EMBEDDED_REDIS_URL })
    await made.connect()
    await other.connect()
    await made.set('k', 'v')
    expect(await other.get('emb:k')).toBe('v')
  })
})
