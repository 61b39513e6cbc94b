import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
} from 'fastify'
import fp from 'fastify-plugin'
import { type BaseConfig, migrationUrl } from '../config.js'
import { fastifyOptions } from '../fastify-options.js'
import {
  createTestDatabase,
  TEST_REDIS_URL,
  type TestDatabase,
  type TestRedisNamespace,
  testRedisNamespace,
} from './stores.js'

export interface ServiceTestApp<C> {
  app: FastifyInstance
  config: C
  db: TestDatabase
  redis: TestRedisNamespace
  close: () => Promise<void>
}

export interface ServiceTestAppOptions<C extends BaseConfig, O> {
  /** Names the test database and Redis namespace. */
  label: string
  loadConfig: (env: Record<string, string | undefined>) => C
  prepareDatabase: (databaseUrl: string) => Promise<unknown>
  app: FastifyPluginAsync<{ config: C } & O>
  /** Configuration, as environment variables would give it. */
  env?: Record<string, string>
  /** More options for the app plugin (a test clock, say). */
  appOptions?: O
  fastifyOverrides?: FastifyServerOptions
  /** Share another instance's database and Redis namespace (a second replica). */
  shareWith?: Pick<ServiceTestApp<C>, 'db' | 'redis'>
  /** A Postgres of the test's own (see startPrivatePostgres) instead of the machine's. */
  pgAdminUrl?: string
  /**
   * Prepare the database (migrations, seed) before building the app, as server.ts does at
   * start-up. Default: only for a database of its own; true makes a replica started on a shared
   * one (shareWith) run it too, as replicas starting together do.
   */
  prepare?: boolean
}

/**
 * A service's real app on a fresh, migrated database and its own Redis key prefix, built with the
 * same Fastify options as production. Registered with fastify-plugin so tests see its decorators.
 */
export async function createServiceTestApp<C extends BaseConfig, O = object>(
  opts: ServiceTestAppOptions<C, O>,
): Promise<ServiceTestApp<C>> {
  const db = opts.shareWith?.db ?? (await createTestDatabase(opts.label, opts.pgAdminUrl))
  const redis = opts.shareWith?.redis ?? testRedisNamespace(opts.label)
  const config = opts.loadConfig({
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: redis.prefix,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Tests share their process (and a busy machine) with the app: a lag there says nothing about
    // the app. The pressure check itself is tested on its own (pressure.test.ts).
    MAX_EVENT_LOOP_DELAY_MS: '60000',
    // Likewise a check that takes over a second on a loaded machine is not a dependency down (a
    // stopped Postgres or Redis refuses connections at once).
    READY_CHECK_TIMEOUT_MS: '10000',
    ...opts.env,
  })
  // The URL server.ts migrates with: past the pooler when DATABASE_DIRECT_URL is set.
  if (opts.prepare ?? !opts.shareWith) await opts.prepareDatabase(migrationUrl(config))
  const instance = Fastify(
    fastifyOptions(config, opts.fastifyOverrides),
  ).withTypeProvider<TypeBoxTypeProvider>()
  await instance.register(fp(opts.app), { config, ...opts.appOptions } as { config: C } & O)
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
