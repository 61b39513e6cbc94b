import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { BaseConfig } from '../config.js'
import { type EmbeddedDecision, resolveStores } from '../embedded.js'
import { fastifyOptions } from '../fastify-options.js'
import type { ServiceTestAppOptions } from './service-app.js'

export type EmbeddedAppOptions<C extends BaseConfig, O> = Pick<
  ServiceTestAppOptions<C, O>,
  'loadConfig' | 'prepareDatabase' | 'app' | 'env' | 'fastifyOverrides'
> & {
  /** The service's name (its embedded data folder and database are named after it). */
  service: string
}

/**
 * Runs `use` on the service's real app as a machine without Postgres and Redis would start it:
 * nothing configured, nothing listening (port 1), so the stores fall back to the embedded ones
 * (PGlite and an in-process Redis) in a temporary folder; prepared (migrations, seed) as
 * server.ts would. The app, the stores and the folder are gone afterwards.
 */
export async function withEmbeddedApp<C extends BaseConfig, O = object>(
  opts: EmbeddedAppOptions<C, O>,
  use: (instance: FastifyInstance, stores: EmbeddedDecision, dataDir: string) => Promise<void>,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), `${opts.service}-embedded-`))
  try {
    const stores = await resolveStores({
      service: opts.service,
      mode: 'auto',
      databaseUrl: `postgres://127.0.0.1:1/${opts.service.replaceAll('-', '_')}`,
      redisUrl: 'redis://127.0.0.1:1',
      databaseUrlSet: false,
      redisUrlSet: false,
      dataDir,
    })
    try {
      await opts.prepareDatabase(stores.databaseUrl)
      const config = opts.loadConfig({
        DATABASE_URL: stores.databaseUrl,
        REDIS_URL: stores.redisUrl,
        PG_POOL_MAX: '1',
        LOG_LEVEL: 'silent',
        ...opts.env,
      })
      const instance = Fastify(
        fastifyOptions(config, opts.fastifyOverrides),
      ).withTypeProvider<TypeBoxTypeProvider>()
      await instance.register(fp(opts.app), { config } as { config: C } & O)
      try {
        await use(instance, stores, dataDir)
      } finally {
        await instance.close()
      }
    } finally {
      await stores.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
