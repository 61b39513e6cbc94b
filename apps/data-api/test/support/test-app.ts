import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { fastifyOptions } from '@repo/service-kit'
import {
  createTestDatabase,
  TEST_REDIS_URL,
  type TestDatabase,
  type TestRedisNamespace,
  testRedisNamespace,
} from '@repo/service-kit/testing'
import Fastify, { type FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import app from '../../src/app.js'
import { type DataApiConfig, loadDataApiConfig } from '../../src/config.js'
import type { Clock } from '../../src/lib/clock.js'
import { prepareDatabase } from '../../src/lib/database.js'
import { serverOverrides } from '../../src/server-options.js'

export interface TestApp {
  app: FastifyInstance
  config: DataApiConfig
  db: TestDatabase
  redis: TestRedisNamespace
  close: () => Promise<void>
}

export interface TestAppOptions {
  env?: Record<string, string>
  clock?: Clock
  /** Share another app's database and Redis namespace (a second instance of the service). */
  shareWith?: TestApp
}

/** A settable clock: `clock.now = new Date(...)` moves time for the app. */
export function movableClock(start = new Date()): Clock & { now: Date } {
  const clock = (() => clock.now) as Clock & { now: Date }
  clock.now = start
  return clock
}

/**
 * The real data service on a fresh, migrated database and its own Redis key prefix.
 * `env` overrides configuration as environment variables would.
 */
export async function createTestApp(label: string, opts: TestAppOptions = {}): Promise<TestApp> {
  const db = opts.shareWith?.db ?? (await createTestDatabase(`data_${label}`))
  const redis = opts.shareWith?.redis ?? testRedisNamespace(`data-${label}`)
  const config = loadDataApiConfig({
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: redis.prefix,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    ...opts.env,
  })
  if (!opts.shareWith) await prepareDatabase(config.DATABASE_URL)
  const instance = Fastify(
    fastifyOptions(config, serverOverrides),
  ).withTypeProvider<TypeBoxTypeProvider>()
  // fp exposes the app's decorators (pg, redis, apiKeys, ...) to the test.
  await instance.register(fp(app), { config, ...(opts.clock ? { clock: opts.clock } : {}) })
  await instance.ready()
  return {
    app: instance,
    config,
    db,
    redis,
    close: async () => {
      await instance.close()
      if (!opts.shareWith) {
        await redis.clear()
        await db.drop()
      }
    },
  }
}
