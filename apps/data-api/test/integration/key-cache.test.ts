import { setTimeout as sleep } from 'node:timers/promises'
import type { RedisClient } from '@repo/service-kit'
import { createTestDatabase, type TestDatabase, waitFor } from '@repo/service-kit/testing'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Accounts } from '../../src/lib/accounts.js'
import { generateApiKey } from '../../src/lib/api-key.js'
import { ApiKeys } from '../../src/lib/api-keys.js'
import { prepareDatabase } from '../../src/lib/database.js'
import { invalidationChannel, KeyCache } from '../../src/lib/key-cache.js'
import { type RedisWithClient, startRedisWithClient } from '../support/private-redis.js'

/*
 * The key cache of two instances (one Postgres database, one Redis of the test's own, which it
 * stops): what each remembers, what the other is told, and when a cache is not trusted.
 */

let redis: RedisWithClient
let client: RedisClient
let db: TestDatabase
let pool: pg.Pool
let keys: ApiKeys
let accounts: Accounts
const caches: KeyCache[] = []
const errors: Error[] = []
const channel = invalidationChannel('kc-test:')

function cache(opts: { ttlMs?: number; unknownTtlMs?: number; report?: boolean } = {}) {
  const made = new KeyCache(keys, client, {
    ttlMs: opts.ttlMs ?? 60_000,
    channel,
    ...(opts.unknownTtlMs === undefined ? {} : { unknownTtlMs: opts.unknownTtlMs }),
    ...(opts.report === false ? {} : { onError: (error: Error) => void errors.push(error) }),
  })
  caches.push(made)
  return made
}

/** A started cache, once it listens (it then keeps a key it loads). */
async function listening(made: KeyCache, key: string): Promise<KeyCache> {
  made.start()
  await waitFor('the cache to listen', async () => {
    await made.load(key)
    return made.peek(key) !== undefined
  })
  return made
}

let n = 0
async function userWithKeys(count: number) {
  const user = await accounts.create(`kc-${++n}@example.com`, 'x', 'FREE')
  const made = []
  for (let i = 0; i < count; i += 1) made.push(await keys.create(user.id, `key ${i}`))
  return { user, keys: made }
}

beforeAll(async () => {
  redis = await startRedisWithClient()
  client = redis.client
  db = await createTestDatabase('key_cache')
  await prepareDatabase(db.url)
  pool = new pg.Pool({ connectionString: db.url, max: 4 })
  accounts = new Accounts(pool)
  keys = new ApiKeys(pool, 10, () => new Date())
}, 60_000)
afterAll(async () => {
  await Promise.all(caches.map((c) => c.stop()))
  await redis?.close()
  await pool?.end()
  await db?.drop()
})

describe('key cache', () => {
  it('names its channel after the Redis key prefix', () => {
    expect(invalidationChannel('data:')).toBe('data:api-keys:invalidate')
  })

  it('serves a loaded key from memory until it is evicted, on every instance', async () => {
    const { user, keys: made } = await userWithKeys(1)
    const { key, hash, row } = made[0] as (typeof made)[number]
    const [a, b] = [await listening(cache(), key), await listening(cache(), key)]
    expect(a.peek(key)).toMatchObject({ keyId: row.id, userId: user.id, keyName: 'key 0' })
    // Revoked in Postgres only: the caches still answer, from memory, even after a while.
    await keys.revoke(user.id, row.id)
    await sleep(20)
    expect(a.peek(key)?.keyId).toBe(row.id)
    await a.evictKey(hash)
    expect(a.peek(key)).toBeUndefined()
    await waitFor('the other instance to evict', async () => b.peek(key) === undefined)
    expect(await a.load(key)).toBeUndefined()
  })

  it("evicts a user's keys, and only theirs, on a plan change", async () => {
    const owner = await userWithKeys(2)
    const other = await userWithKeys(1)
    const [k1, k2] = owner.keys.map((k) => k.key) as [string, string]
    const k3 = other.keys[0]?.key as string
    const a = await listening(cache(), k1)
    const b = await listening(cache(), k1)
    for (const key of [k2, k3]) {
      await a.load(key)
      await b.load(key)
    }
    await a.evictUser(owner.user.id)
    expect([a.peek(k1), a.peek(k2), a.peek(k3)?.userId]).toEqual([
      undefined,
      undefined,
      other.user.id,
    ])
    await waitFor('the other instance to evict', async () => b.peek(k1) === undefined)
    expect(b.peek(k2)).toBeUndefined()
    expect(b.peek(k3)?.userId).toBe(other.user.id)
  })

  it('remembers unknown keys until one is created, then finds it on every instance', async () => {
    const { user } = await userWithKeys(0)
    const { key: known } = await keys.create(user.id, 'known')
    const [a, b] = [await listening(cache(), known), await listening(cache(), known)]
    const later = generateApiKey()
    expect(await a.load(later.key)).toBeUndefined()
    expect(await b.load(later.key)).toBeUndefined()
    // The row appears without an announcement: still unknown to both.
    const { rows } = await pool.query(
      `INSERT INTO api_keys (user_id, name, display_prefix, key_hash) VALUES ($1, 'later', $2, $3)
       RETURNING id`,
      [user.id, later.displayPrefix, later.hash],
    )
    expect(await a.load(later.key)).toBeUndefined()
    await a.created(later.hash)
    expect((await a.load(later.key))?.keyId).toBe(rows[0].id)
    await waitFor('the other instance to hear of it', async () => {
      return (await b.load(later.key))?.keyId === rows[0].id
    })
  })

  it('forgets unknown keys after unknownTtlMs, and known ones after ttlMs', async () => {
    const { user, keys: made } = await userWithKeys(1)
    const { key } = made[0] as (typeof made)[number]
    const short = await listening(cache({ ttlMs: 150, unknownTtlMs: 100 }), key)
    const later = generateApiKey()
    expect(await short.load(later.key)).toBeUndefined()
    await pool.query(
      `INSERT INTO api_keys (user_id, name, display_prefix, key_hash) VALUES ($1, 'x', $2, $3)`,
      [user.id, later.displayPrefix, later.hash],
    )
    await short.load(key)
    await sleep(300)
    expect(short.peek(key)).toBeUndefined()
    expect(await short.load(later.key)).toBeDefined()
  })

  it('trusts nothing once stopped', async () => {
    const { keys: made } = await userWithKeys(1)
    const { key } = made[0] as (typeof made)[number]
    const a = await listening(cache(), key)
    await a.stop()
    expect(a.peek(key)).toBeUndefined()
  })

  it('trusts nothing with a ttl of 0, nor before it listens', async () => {
    const { keys: made } = await userWithKeys(1)
    const { key } = made[0] as (typeof made)[number]
    const off = cache({ ttlMs: 0 })
    off.start()
    const idle = cache()
    expect(await idle.load(key)).toBeDefined()
    expect(idle.peek(key)).toBeUndefined()
    await sleep(200)
    expect(await off.load(key)).toBeDefined()
    expect(off.peek(key)).toBeUndefined()
    await idle.stop()
  })

  it('drops and distrusts its memory while Redis is down, and reports failed announcements', async () => {
    const { user, keys: made } = await userWithKeys(2)
    const [{ key, hash }, second] = made as [(typeof made)[number], (typeof made)[number]]
    const a = await listening(cache(), key)
    await a.load(second.key)
    const quiet = cache({ report: false })
    errors.length = 0
    await redis.redis.stop()
    await waitFor('the cache to stop trusting', async () => a.peek(key) === undefined)
    expect(await a.load(key)).toBeDefined()
    expect(a.peek(key)).toBeUndefined()
    await a.evictKey(hash)
    await a.created(hash)
    await a.evictUser('nobody')
    await quiet.evictKey(hash)
    expect(errors).toHaveLength(3)
    // Revoked while nobody could be told.
    await keys.revoke(user.id, second.row.id)
    await redis.redis.start()
    await waitFor('the cache to trust again', async () => {
      await a.load(key)
      return a.peek(key) !== undefined
    })
    // What it knew before the outage is gone: it may have missed announcements.
    expect(a.peek(second.key)).toBeUndefined()
    expect(await a.load(second.key)).toBeUndefined()
  }, 60_000)
})
