import { mkdirSync } from 'node:fs'
import { connect } from 'node:net'
import { join, resolve } from 'node:path'
import type { Redis } from 'ioredis'
import type { BaseConfig } from './config.js'

/**
 * Embedded stores for a local run with nothing installed: when no DATABASE_URL / REDIS_URL is
 * configured and nothing answers at the default addresses, a service runs on PGlite (real
 * Postgres compiled to WebAssembly, served to `pg` over a local socket, so the same migrations and
 * SQL run; data kept in a folder) and on an in-process Redis (ioredis-mock: the same commands and
 * Lua scripts, in memory). Production images set EMBEDDED_STORES=off and never fall back.
 */

/** REDIS_URL meaning "the in-process Redis" (see createRedisClient). */
export const EMBEDDED_REDIS_URL = 'redis://embedded.invalid:6379'

// The embedded stores' libraries are development dependencies of this package: a workspace
// install (`pnpm install && pnpm start`) has them, production images (`pnpm deploy --prod`) do
// not, and nothing loads them unless a fallback actually happens.
type RedisMockConstructor = new (options: object) => Redis
let RedisMock: RedisMockConstructor | undefined

/** A client of the in-process Redis; resolveStores must have chosen it (and loaded it) first. */
export function embeddedRedis(options: { keyPrefix: string; lazyConnect: boolean }): Redis {
  if (!RedisMock) throw new Error('the embedded Redis was not started (see resolveStores)')
  return new RedisMock(options)
}

export interface EmbeddedDecision {
  databaseUrl: string
  redisUrl: string
  /** What was replaced, for the start-up announcement. */
  embedded: { postgres?: string; redis?: boolean }
  close: () => Promise<void>
}

export interface ResolveStoresOptions {
  service: string
  mode: 'auto' | 'off'
  /** The configured URLs (defaults applied) and whether the environment set them. */
  databaseUrl: string
  redisUrl: string
  databaseUrlSet: boolean
  redisUrlSet: boolean
  dataDir: string
}

/** True when something accepts TCP connections at the URL's host and port within `ms`. */
export function answers(url: string, defaultPort: number, ms = 1_000): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((done) => {
    const socket = connect({
      host: hostname.replace(/^\[|\]$/g, ''),
      port: Number(port || defaultPort),
    })
    const finish = (ok: boolean) => {
      socket.destroy()
      done(ok)
    }
    socket.setTimeout(ms, () => finish(false))
    socket.once('connect', () => finish(true))
    socket.once('error', () => finish(false))
  })
}

async function startPglite(dir: string, extensions: Record<string, unknown>) {
  const { PGlite } = await import('@electric-sql/pglite')
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket')
  mkdirSync(dir, { recursive: true })
  const db = await PGlite.create({ dataDir: dir, extensions: { pg_trgm, ...extensions } })
  // Several connections may be open (migrations, then the pool), but the pool has one
  // connection in this mode, so transactions never interleave on PGlite's single session.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 })
  await server.start()
  const port = Number(server.getServerConn().split(':').pop())
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    close: async () => {
      await server.stop()
      await db.close()
    },
  }
}

/** Decides, per store, between the configured one and the embedded one. */
export async function resolveStores(opts: ResolveStoresOptions): Promise<EmbeddedDecision> {
  const decision: EmbeddedDecision = {
    databaseUrl: opts.databaseUrl,
    redisUrl: opts.redisUrl,
    embedded: {},
    close: async () => {},
  }
  if (opts.mode === 'off') return decision
  const [pgUp, redisUp] = await Promise.all([
    opts.databaseUrlSet ? true : answers(opts.databaseUrl, 5432),
    opts.redisUrlSet ? true : answers(opts.redisUrl, 6379),
  ])
  if (!pgUp) {
    const dir = resolve(join(opts.dataDir, opts.service, 'pglite'))
    const pglite = await startPglite(dir, {})
    decision.databaseUrl = pglite.url
    decision.embedded.postgres = dir
    decision.close = pglite.close
  }
  if (!redisUp) {
    RedisMock = (await import('ioredis-mock')).default as unknown as RedisMockConstructor
    decision.redisUrl = EMBEDDED_REDIS_URL
    decision.embedded.redis = true
  }
  return decision
}

/**
 * The configuration with its stores resolved (see resolveStores): where an embedded store was
 * chosen, its URL replaces the configured one, migrations follow the pool onto PGlite (a direct
 * URL would name the missing server) and the pool has one connection (PGlite has one session).
 * The services start this way, and so do the commands (migrate, seed, admin), so both find the
 * same data.
 */
export async function resolveConfigStores<C extends BaseConfig>(
  service: string,
  config: C,
  env: Record<string, string | undefined> = process.env,
): Promise<{ config: C; stores: EmbeddedDecision }> {
  const stores = await resolveStores({
    service,
    mode: config.EMBEDDED_STORES,
    databaseUrl: config.DATABASE_URL,
    redisUrl: config.REDIS_URL,
    databaseUrlSet: Boolean(env.DATABASE_URL),
    redisUrlSet: Boolean(env.REDIS_URL) || Boolean(env.REDIS_CLUSTER_NODES),
    dataDir: config.EMBEDDED_DATA_DIR,
  })
  if (!stores.embedded.postgres && !stores.embedded.redis) return { config, stores }
  const poolMax = stores.embedded.postgres ? 1 : config.PG_POOL_MAX
  return {
    stores,
    config: {
      ...config,
      DATABASE_URL: stores.databaseUrl,
      DATABASE_DIRECT_URL: stores.embedded.postgres ? undefined : config.DATABASE_DIRECT_URL,
      REDIS_URL: stores.redisUrl,
      PG_POOL_MAX: poolMax,
      PG_POOL_MIN: Math.min(config.PG_POOL_MIN, poolMax),
    },
  }
}
