import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EMBEDDED_REDIS_URL, resolveStores } from '@repo/service-kit'
import { withEmbeddedApp } from '@repo/service-kit/testing'
import { afterAll, describe, expect, it, vi } from 'vitest'
import app from '../../src/app.js'
import { loadQuotesConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'

const dataDir = mkdtempSync(join(tmpdir(), 'quotes-embedded-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('embedded stores (no Postgres or Redis configured or answering)', () => {
  it('runs the same migrations, seed and queries on PGlite and an in-process Redis', async () => {
    const service = { service: 'quotes', loadConfig: loadQuotesConfig, prepareDatabase, app }
    await withEmbeddedApp(
      { ...service, env: { RATE_LIMIT_MAX: '2' } },
      async (instance, stores, embeddedDir) => {
        expect(stores.embedded.postgres).toContain(embeddedDir)
        expect(stores.redisUrl).toBe(EMBEDDED_REDIS_URL)
        const search = await instance.inject({
          url: '/api/search?term=love',
          headers: { accept: 'application/json' },
        })
        expect(search.statusCode).toBe(200)
        expect(search.json().total_quotes).toBeGreaterThan(100)
        // Ready once its warm-up requests have run (they wait behind the search on its one
        // connection).
        await vi.waitFor(
          async () =>
            expect((await instance.inject({ url: '/ready' })).json().status).toBe('ready'),
          { timeout: 30_000, interval: 100 },
        )
        // The rate limit counts in the in-process Redis.
        await instance.inject({ url: '/api', remoteAddress: '192.0.2.1' })
        await instance.inject({ url: '/api', remoteAddress: '192.0.2.1' })
        expect(
          (await instance.inject({ url: '/api', remoteAddress: '192.0.2.1' })).statusCode,
        ).toBe(429)
      },
    )
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
