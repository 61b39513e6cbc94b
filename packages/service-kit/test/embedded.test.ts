import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { Type } from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseConfigProperties, loadConfig } from '../src/config.js'
import {
  answers,
  EMBEDDED_REDIS_URL,
  embeddedRedis,
  type ResolveStoresOptions,
  resolveConfigStores,
  resolveStores,
} from '../src/embedded.js'
import { freePort, waitFor } from '../src/testing/index.js'

// Embedded stores for a run with nothing installed: the configured store when it is set or
// answers, PGlite and an in-process Redis otherwise; never in `off` mode.

let dataDir: string
let listening: Server
let port: number
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kit-embedded-'))
  listening = createServer((socket) => socket.destroy())
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
  port = (listening.address() as { port: number }).port
})
afterAll(async () => {
  await new Promise((resolve) => listening.close(resolve))
  rmSync(dataDir, { recursive: true, force: true })
})

const nowhere = async (scheme: string) => `${scheme}://127.0.0.1:${await freePort()}/db`

describe('answers', () => {
  it('says whether something accepts connections at the URL’s address', async () => {
    expect(await answers(`redis://127.0.0.1:${port}`, 1)).toBe(true)
    expect(await answers(await nowhere('redis'), 1)).toBe(false)
  })

  it('uses the default port when the URL names none', async () => {
    expect(await answers('redis://127.0.0.1', port)).toBe(true)
    expect(await answers('redis://127.0.0.1', await freePort())).toBe(false)
  })

  it('reads an IPv6 host without its brackets', async () => {
    const v6 = createServer((socket) => socket.destroy())
    const bound = await new Promise<boolean>((resolve) => {
      v6.once('error', () => resolve(false))
      v6.listen(0, '::1', () => resolve(true))
    })
    if (!bound) return // no IPv6 loopback on this machine
    try {
      const v6port = (v6.address() as { port: number }).port
      expect(await answers(`redis://[::1]:${v6port}`, 1)).toBe(true)
    } finally {
      await new Promise((resolve) => v6.close(resolve))
    }
  })

  it('closes its own connection once it knows', async () => {
    const keeping = createServer(() => {})
    await new Promise<void>((resolve) => keeping.listen(0, '127.0.0.1', resolve))
    try {
      const keepingPort = (keeping.address() as { port: number }).port
      expect(await answers(`redis://127.0.0.1:${keepingPort}`, 1)).toBe(true)
      await waitFor(
        'the connection to end',
        async () => {
          const open = await new Promise<number>((resolve) =>
            keeping.getConnections((_error, count) => resolve(count)),
          )
          return open === 0
        },
        2_000,
      )
    } finally {
      await new Promise((resolve) => keeping.close(resolve))
    }
  })
})

async function options(overrides: Partial<ResolveStoresOptions>): Promise<ResolveStoresOptions> {
  return {
    service: 'svc',
    mode: 'auto',
    databaseUrl: await nowhere('postgres'),
    redisUrl: await nowhere('redis'),
    databaseUrlSet: false,
    redisUrlSet: false,
    dataDir,
    ...overrides,
  }
}

describe('resolveStores', () => {
  it('refuses a client of the embedded Redis before it was chosen', () => {
    expect(() => embeddedRedis({ keyPrefix: '', lazyConnect: true })).toThrow(
      'the embedded Redis was not started (see resolveStores)',
    )
  })

  it('never falls back in off mode', async () => {
    const opts = await options({ mode: 'off' })
    const decision = await resolveStores(opts)
    expect(decision).toMatchObject({
      databaseUrl: opts.databaseUrl,
      redisUrl: opts.redisUrl,
      embedded: {},
    })
    await decision.close()
  })

  it('keeps stores that are configured, or answer, without starting anything', async () => {
    const configured = await options({ databaseUrlSet: true, redisUrlSet: true })
    expect((await resolveStores(configured)).embedded).toEqual({})
    const answering = await options({
      databaseUrl: `postgres://127.0.0.1:${port}/db`,
      redisUrl: `redis://127.0.0.1:${port}`,
    })
    const decision = await resolveStores(answering)
    expect(decision.embedded).toEqual({})
    expect(decision.databaseUrl).toBe(answering.databaseUrl)
  })

  it('runs PGlite in the data folder when Postgres is neither set nor answering', async () => {
    const decision = await resolveStores(await options({ redisUrlSet: true }))
    try {
      expect(decision.embedded).toEqual({ postgres: join(dataDir, 'svc', 'pglite') })
      const client = new pg.Client({ connectionString: decision.databaseUrl })
      await client.connect()
      try {
        await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm')
        const { rows } = await client.query("SELECT similarity('quote', 'quotes') > 0.5 AS close")
        expect(rows[0].close).toBe(true)
      } finally {
        await client.end()
      }
    } finally {
      await decision.close()
    }
    // Closed: nothing answers there any more.
    expect(await answers(decision.databaseUrl, 5432, 500)).toBe(false)
  }, 60_000)

  it('uses the in-process Redis when Redis is neither set nor answering', async () => {
    const decision = await resolveStores(await options({ databaseUrlSet: true }))
    expect(decision.embedded).toEqual({ redis: true })
    expect(decision.redisUrl).toBe(EMBEDDED_REDIS_URL)
    expect(EMBEDDED_REDIS_URL).toBe('redis://embedded.invalid:6379')
    const [a, b] = [
      embeddedRedis({ keyPrefix: 'p:', lazyConnect: true }),
      embeddedRedis({ keyPrefix: '', lazyConnect: true }),
    ]
    await a.set('k', 'v')
    // One in-process Redis: every client sees the same data.
    expect(await b.get('p:k')).toBe('v')
    a.disconnect()
    b.disconnect()
  })
})

describe('resolveConfigStores', () => {
  const schema = Type.Object(baseConfigProperties({ port: 3100, database: 'svc' }))

  it('returns the configuration as it is when nothing is embedded', async () => {
    const config = loadConfig(schema, { EMBEDDED_STORES: 'off' })
    const { config: resolved } = await resolveConfigStores('svc', config, {})
    expect(resolved).toBe(config)
  })

  it('moves the pool, migrations and Redis onto the embedded stores', async () => {
    const config = loadConfig(schema, {
      DATABASE_URL: await nowhere('postgres'),
      DATABASE_DIRECT_URL: await nowhere('postgres'),
      REDIS_URL: await nowhere('redis'),
      PG_POOL_MAX: '7',
      PG_POOL_MIN: '3',
      EMBEDDED_DATA_DIR: dataDir,
    })
    const { config: resolved, stores } = await resolveConfigStores('both', config, {})
    try {
      expect(resolved.DATABASE_URL).toBe(stores.databaseUrl)
      expect(resolved.DATABASE_URL).not.toBe(config.DATABASE_URL)
      expect(resolved.DATABASE_DIRECT_URL).toBeUndefined()
      expect(resolved.REDIS_URL).toBe(EMBEDDED_REDIS_URL)
      expect(resolved.PG_POOL_MAX).toBe(1)
      expect(resolved.PG_POOL_MIN).toBe(1)
    } finally {
      await stores.close()
    }
  }, 60_000)

  it('keeps the Postgres settings when only Redis is embedded', async () => {
    const direct = await nowhere('postgres')
    const config = loadConfig(schema, {
      DATABASE_URL: await nowhere('postgres'),
      DATABASE_DIRECT_URL: direct,
      REDIS_URL: await nowhere('redis'),
      PG_POOL_MAX: '7',
      PG_POOL_MIN: '3',
    })
    const { config: resolved } = await resolveConfigStores('svc', config, {
      DATABASE_URL: config.DATABASE_URL,
    })
    expect(resolved).toMatchObject({
      DATABASE_URL: config.DATABASE_URL,
      DATABASE_DIRECT_URL: direct,
      REDIS_URL: EMBEDDED_REDIS_URL,
      PG_POOL_MAX: 7,
      PG_POOL_MIN: 3,
    })
  })

  it('counts Redis as configured when the environment names a cluster or a URL', async () => {
    const config = loadConfig(schema, {
      DATABASE_URL: await nowhere('postgres'),
      REDIS_URL: await nowhere('redis'),
    })
    const env = { DATABASE_URL: config.DATABASE_URL }
    for (const named of [{ REDIS_CLUSTER_NODES: 'a:1' }, { REDIS_URL: config.REDIS_URL }]) {
      const { config: resolved } = await resolveConfigStores('svc', config, { ...env, ...named })
      expect(resolved).toBe(config)
    }
  })
})
