import { PLAN_LIMITS } from '@repo/contracts'
import { withEmbeddedApp } from '@repo/service-kit/testing'
import { describe, expect, it } from 'vitest'
import app from '../../src/app.js'
import { loadDataApiConfig } from '../../src/config.js'
import { prepareDatabase } from '../../src/lib/database.js'
import { serverOverrides } from '../../src/server-options.js'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'

describe('embedded stores (no Postgres or Redis configured or answering)', () => {
  // PGlite (Postgres in WebAssembly) migrates and answers slowly, and the first sign-up loads the
  // password dictionaries: 17-25 s on this 2-core machine shared with other work.
  it('signs up, issues keys, counts quotas and revokes on PGlite and an in-process Redis', {
    timeout: 120_000,
  }, async () => {
    const service = { service: 'data-api', loadConfig: loadDataApiConfig, prepareDatabase, app }
    await withEmbeddedApp({ ...service, fastifyOverrides: serverOverrides }, async (instance) => {
      const client = new DashboardClient(instance)
      expect((await client.signUp(uniqueEmail('embedded'), 'PRO')).statusCode).toBe(303)
      const key = await client.createKey()
      const first = await callData(instance, key)
      expect(first.statusCode).toBe(200)
      expect(first.json().quota).toMatchObject({ limit: PLAN_LIMITS.PRO.dailyRequests, used: 1 })
      const second = await callData(instance, key, {
        data: 'Hello there. Fine day.',
        options: { feature: 'stats' },
      })
      expect(second.json().quota.used).toBe(2)
      await client.revoke(first.json().key.id)
      expect((await callData(instance, key)).statusCode).toBe(401)
    })
  })
})
