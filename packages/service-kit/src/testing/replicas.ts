import type { BaseConfig } from '../config.js'
import {
  createServiceTestApp,
  type ServiceTestApp,
  type ServiceTestAppOptions,
} from './service-app.js'
import {
  createTestDatabase,
  type TestDatabase,
  type TestRedisNamespace,
  testRedisNamespace,
} from './stores.js'

export interface Replica<C> {
  instance: ServiceTestApp<C>
  /** Its HTTP address (it listens on 127.0.0.1). */
  url: string
}

export interface Replicas<C> {
  db: TestDatabase
  redis: TestRedisNamespace
  /** The replicas that started. */
  started: Replica<C>[]
  /** Why the others did not. */
  failures: unknown[]
  /** Closes every replica, then drops the database and clears the Redis namespace. */
  close: () => Promise<void>
}

export interface StartReplicasOptions<C extends BaseConfig, O>
  extends Omit<ServiceTestAppOptions<C, O>, 'env' | 'shareWith' | 'prepare'> {
  count: number
  /** Every replica's configuration, given the new database they share. */
  env: (db: TestDatabase) => Record<string, string>
}

/**
 * `count` replicas of a service started at the same moment on one new, empty database and one
 * Redis namespace, each taking the start-up path of server.ts: prepare the database
 * (migrations, seed), build the app, listen. Some may fail: they are reported, not thrown, so a
 * test can say how many did.
 */
export async function startReplicas<C extends BaseConfig, O = object>(
  opts: StartReplicasOptions<C, O>,
): Promise<Replicas<C>> {
  const { count, env, ...appOptions } = opts
  const db = await createTestDatabase(opts.label)
  const redis = testRedisNamespace(opts.label)
  const outcomes = await Promise.allSettled(
    Array.from({ length: count }, async () => {
      const instance = await createServiceTestApp<C, O>({
        ...appOptions,
        env: env(db),
        shareWith: { db, redis },
        prepare: true,
      })
      try {
        return { instance, url: await instance.app.listen({ host: '127.0.0.1', port: 0 }) }
      } catch (error) {
        await instance.close()
        throw error
      }
    }),
  )
  const started = outcomes.flatMap((outcome) =>
    outcome.status === 'fulfilled' ? [outcome.value] : [],
  )
  return {
    db,
    redis,
    started,
    failures: outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [outcome.reason] : [],
    ),
    close: async () => {
      for (const replica of started) await replica.instance.close()
      await redis.clear()
      await db.drop()
    },
  }
}
