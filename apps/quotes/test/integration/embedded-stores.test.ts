import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { EMBEDDED_REDIS_URL, fastifyOptions, resolveStores } from '@repo/service-kit'
import Fastify from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import app from '../../src/app.js'
import { loadQuotesConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'

const dataDir = mkdtempSync(join(tmpdir(), 'quotes-embedded-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('embedded stores (no Postgres or Redis configured or answering)', () => {
  it('runs the same migrations, seed and queries on PGlite and an in-process Redis', async () => {
    const stores = await resolveStores({
      service: 'quotes',
      mode: 'auto',
      // Nothing listens on port 1: as on a machine without Postgres and Redis.
      databaseUrl: 'postgres://127.0.0.1:1/quotes',
      redisUrl: 'redis://127.0.0.1:1',
      databaseUrlSet: false,
      redisUrlSet: false,
      dataDir,
    })
    try {
      expect(stores.embedded.postgres).toContain(dataDir)
      expect(stores.redisUrl).toBe(EMBEDDED_REDIS_URL)
      await prepareDatabase(stores.databaseUrl)
      const config = loadQuotesConfig({
        DATABASE_URL: stores.databaseUrl,
        REDIS_URL: stores.redisUrl,
        PG_POOL_MAX: '1',
        RATE_LIMIT_MAX: '2',
        LOG_LEVEL: 'silent',
      })
      const instance = Fastify(fastifyOptions(config)).withTypeProvider<TypeBoxTypeProvider>()
      await instance.register(app, { config })
      try {
        const search = await instance.inject({
          url: '/api/search?term=love',
          headers: { accept: 'application/json' },
        })
        expect(search.statusCode).toBe(200)
        expect(search.json().total_quotes).toBeGreaterThan(100)
        expect((await instance.inject({ url: '/ready' })).json().status).toBe('ready')
        // The rate limit counts in the in-process Redis.
        await instance.inject({ url: '/api', remoteAddress: '192.0.2.1' })
        await instance.inject({ url: '/api', remoteAddress: '192.0.2.1' })
        expect(
          (await instance.inject({ url: '/api', remoteAddress: '192.0.2.1' })).statusCode,
        ).toBe(429)
      } finally {
        await instance.close()
      }
    } finally {
      await stores.close()
    }
  }, 120_000)

  it('never falls back when told not to, or when the stores are configured', async () => {
    const off = await resolveStores({
      service: 'quotes',
      mode: 'off',
      databaseUrl: 'postgres://127.0.0.1:1/quotes',
      redisUrl: 'redis://127.0.0.1:1',
      databaseUrlSet: false,
      redisUrlSet: false,
      dataDir,
    })
    expect(off.embedded).toEqual({})
    const configured = await resolveStores({
      service: 'quotes',
      mode: 'auto',
      databaseUrl: 'postgres://127.0.0.1:1/quotes',
      redisUrl: 'redis://127.0.0.1:1',
      databaseUrlSet: true,
      redisUrlSet: true,
      dataDir,
    })
    expect(configured.embedded).toEqual({})
    expect(configured.databaseUrl).toBe('postgres://127.0.0.1:1/quotes')
  })
})
