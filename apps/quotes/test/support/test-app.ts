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
import { loadQuotesConfig, type QuotesConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'

export interface TestApp {
  app: FastifyInstance
  config: QuotesConfig
  db: TestDatabase
  redis: TestRedisNamespace
  close: () => Promise<void>
}

/**
 * The real app on a fresh, migrated and seeded database and its own Redis key prefix.
 * `env` overrides configuration as environment variables would.
 */
export async function createTestApp(
  label: string,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const db = await createTestDatabase(`quotes_${label}`)
  const redis = testRedisNamespace(`quotes-${label}`)
  const config = loadQuotesConfig({
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: redis.prefix,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
  })
  await prepareDatabase(config.DATABASE_URL)
  const instance = Fastify(fastifyOptions(config)).withTypeProvider<TypeBoxTypeProvider>()
  // fp exposes the app's decorators (pg, redis, quoteStore) to the test.
  await instance.register(fp(app), { config })
  await instance.ready()
  return {
    app: instance,
    config,
    db,
    redis,
    close: async () => {
      await instance.close()
      await redis.clear()
      await db.drop()
    },
  }
}
