import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import pg from 'pg'

/**
 * Test helpers shared by both apps: every test file gets its own database and its own Redis key
 * prefix, so files run in parallel and never depend on leftovers.
 */

/** Where tests create their databases; override with TEST_PG_ADMIN_URL. */
export const PG_ADMIN_URL =
  process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

export interface TestDatabase {
  url: string
  name: string
  drop: () => Promise<void>
}

export async function createTestDatabase(
  label: string,
  adminUrl = PG_ADMIN_URL,
): Promise<TestDatabase> {
  const name = `test_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`)
  } finally {
    await admin.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      try {
        // A pool's end() resolves before its clients' sockets have closed: terminating those
        // backends now (FORCE) would reach a client with no error listener left (an unhandled
        // 57P01). Give connections that are closing up to 2 s to go; FORCE ends the rest.
        for (let waited = 0; waited < 2_000; waited += 50) {
          const { rows } = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          )
          if (rows[0]?.n === 0) break
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`)
      } finally {
        await client.end()
      }
    },
  }
}

export interface TestRedisNamespace {
  prefix: string
  /** Deletes every key under the prefix. */
  clear: () => Promise<void>
}

/** Deletes every key under `prefix` (SCAN + DEL, so a large keyspace is never blocked); returns how many. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 })
  await redis.connect()
  let deleted = 0
  try {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
      cursor = next
      if (keys.length > 0) deleted += await redis.del(...keys)
    } while (cursor !== '0')
  } finally {
    redis.disconnect()
  }
  return deleted
}

export function testRedisNamespace(label: string): TestRedisNamespace {
  const prefix = `test:${label}:${randomBytes(4).toString('hex')}:`
  return {
    prefix,
    clear: async () => {
      await deleteRedisKeys(TEST_REDIS_URL, prefix)
    },
  }
}
