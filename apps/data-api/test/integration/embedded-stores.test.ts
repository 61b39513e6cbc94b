import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { fastifyOptions, resolveStores } from '@repo/service-kit'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import { afterAll, describe, expect, it } from 'vitest'
import app from '../../src/app.js'
import { loadDataApiConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'
import { serverOverrides } from '../../src/server-options.js'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'

const dataDir = mkdtempSync(join(tmpdir(), 'data-api-embedded-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('embedded stores (no Postgres or Redis configured or answering)', () => {
  // PGlite (Postgres in WebAssembly) migrates and answers slowly, and the first sign-up loads the
  // password dictionaries: 17-25 s on this 2-core machine shared with other work.
  it('signs up, issues keys, counts quotas and revokes on PGlite and an in-process Redis', {
    timeout: 120_000,
  }, async () => {
    const stores = await resolveStores({
      service: 'data-api',
      mode: 'auto',
      databaseUrl: 'postgres://127.0.0.1:1/data_api',
      redisUrl: 'redis://127.0.0.1:1',
      databaseUrlSet: false,
      redisUrlSet: false,
      dataDir,
    })
    try {
      await prepareDatabase(stores.databaseUrl)
      const config = loadDataApiConfig({
        DATABASE_URL: stores.databaseUrl,
        REDIS_URL: stores.redisUrl,
        PG_POOL_MAX: '1',
        LOG_LEVEL: 'silent',
      })
      const instance = Fastify(
        fastifyOptions(config, serverOverrides),
      ).withTypeProvider<TypeBoxTypeProvider>()
      await instance.register(fp(app), { config })
      try {
        const client = new DashboardClient(instance)
        expect((await client.signUp(uniqueEmail('embedded'), 'PRO')).statusCode).toBe(303)
        const key = await client.createKey()
        const first = await callData(instance, key)
        expect(first.statusCode).toBe(200)
        expect(first.json().quota).toMatchObject({ limit: 10_000, used: 1 })
        const second = await callData(instance, key, {
          data: 'Hello there. Fine day.',
          options: { feature: 'stats' },
        })
        expect(second.json().quota.used).toBe(2)
        await client.revoke(first.json().key.id)
        expect((await callData(instance, key)).statusCode).toBe(401)
      } finally {
        await instance.close()
      }
    } finally {
      await stores.close()
    }
  })
})
