import { CliError, createRedisClient, type RedisClient } from '@repo/service-kit'
import pg from 'pg'
import type { DataApiConfig } from '../config.js'
import { AccountEvents } from '../lib/account-events.js'
import { Accounts } from '../lib/accounts.js'
import { ApiKeys } from '../lib/api-keys.js'
import { systemClock } from '../lib/clock.js'
import { invalidationChannel, KeyCache } from '../lib/key-cache.js'
import { QuotaStore } from '../lib/quota.js'

/** The service's own stores, as the admin CLI uses them (the same classes the routes use). */
export interface AdminStores {
  accounts: Accounts
  apiKeys: ApiKeys
  events: AccountEvents
  /** Counts and cache evictions; undefined when Redis does not answer (`redisProblem` says why). */
  quota: QuotaStore | undefined
  keyCache: KeyCache | undefined
  redisProblem: string | undefined
  /** The last Redis error a store swallowed (QuotaStore.usage answers 0 rather than fail). */
  lastRedisError: () => Error | undefined
  close: () => Promise<void>
}

const REDIS_CONNECT_MS = 5_000

/** Postgres answers and is migrated, or a CliError that says what to do. */
async function checkDatabase(pool: pg.Pool): Promise<void> {
  try {
    await pool.query('SELECT disabled_at FROM users LIMIT 0')
  } catch (error) {
    const code = (error as { code?: string }).code
    // 42P01: no such table; 42703: no such column (an older schema).
    if (code === '42P01' || code === '42703') {
      throw new CliError(
        'the database is not migrated to this version: run "pnpm --filter @repo/data-api migrate"',
      )
    }
    throw error
  }
}

/** A connected Redis client, or the reason there is none. */
async function connectRedis(
  config: DataApiConfig,
): Promise<{ client: RedisClient } | { problem: string }> {
  const client = createRedisClient({
    url: config.REDIS_URL,
    ...(config.REDIS_CLUSTER_NODES ? { clusterNodes: config.REDIS_CLUSTER_NODES } : {}),
    keyPrefix: config.REDIS_KEY_PREFIX,
    commandTimeout: 2_000,
  })
  let lastError = ''
  client.on('error', (error: Error) => {
    lastError = error.message
  })
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), REDIS_CONNECT_MS)
      }),
    ])
    return { client }
  } catch (error) {
    client.disconnect()
    return { problem: `Redis does not answer (${lastError || (error as Error).message})` }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Opens Postgres (required) and Redis (optional: without it, today's usage is unknown, counts
 * cannot be reset, and changes reach other instances when their key caches expire, which they
 * do at once while their own Redis subscription is down).
 */
export async function openAdminStores(
  config: DataApiConfig,
  embeddedRedis: boolean,
): Promise<AdminStores> {
  const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 })
  pool.on('error', () => {})
  try {
    await checkDatabase(pool)
  } catch (error) {
    await pool.end()
    throw error
  }
  const apiKeys = new ApiKeys(pool, config.MAX_ACTIVE_KEYS, systemClock)
  const redis = embeddedRedis
    ? { problem: 'no Redis configured (REDIS_URL) or answering' }
    : await connectRedis(config)
  const client = 'client' in redis ? redis.client : undefined
  let lastRedisError: Error | undefined
  const onDegraded = (error: Error) => {
    lastRedisError = error
  }
  return {
    accounts: new Accounts(pool),
    apiKeys,
    events: new AccountEvents(pool),
    // Fail closed: an unanswered count is an error here, never a guess.
    quota: client && new QuotaStore(client, { clock: systemClock, failMode: 'closed', onDegraded }),
    keyCache:
      client &&
      new KeyCache(apiKeys, client, {
        ttlMs: 0,
        channel: invalidationChannel(config.REDIS_KEY_PREFIX),
        onError: onDegraded,
      }),
    redisProblem: 'problem' in redis ? redis.problem : undefined,
    lastRedisError: () => lastRedisError,
    close: async () => {
      await pool.end()
      await client?.quit().catch(() => client.disconnect())
    },
  }
}
