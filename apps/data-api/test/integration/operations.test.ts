import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('ops', { env: { LAST_USED_FLUSH_MS: '600000' } })
})
afterAll(async () => {
  await t?.close()
})

describe('operations', () => {
  it('/health and /ready', async () => {
    expect((await t.app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' })
    expect((await t.app.inject({ url: '/ready' })).json()).toEqual({
      status: 'ready',
      checks: { load: 'up', postgres: 'up', redis: 'up' },
    })
  })

  it('/metrics counts requests by route and status, and quota decisions', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('metrics'))
    const key = await client.createKey()
    await callData(t.app, key)
    const body = (await t.app.inject({ url: '/metrics' })).body
    expect(body).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/data"[^}]*status_code="200"/,
    )
    expect(body).toMatch(/quota_decisions_total\{decision="allowed"\} [1-9]/)
    expect(body).toContain('dependency_errors_total')
  })

  it('/docs/json documents the API with the bearer scheme and hides the dashboard', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json()
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    })
    expect(doc.paths['/api/v1/data'].get.security).toEqual([{ bearerAuth: [] }])
    expect(Object.keys(doc.paths['/api/v1/data'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '413', '415', '429', '503']),
    )
    const usage = doc.paths['/api/v1/usage'].get
    expect(usage).toMatchObject({
      operationId: 'getUsage',
      tags: ['data'],
      security: [{ bearerAuth: [] }],
    })
    expect(usage.parameters).toEqual([expect.objectContaining({ in: 'query', name: 'days' })])
    expect(Object.keys(usage.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '429', '503']),
    )
    expect(usage.responses['200'].content['application/json'].schema.properties.days.items).toEqual(
      { $ref: '#/components/schemas/UsageDay' },
    )
    expect(doc.paths['/api/v1/data'].get.operationId).toBe('getData')
    expect(doc.paths['/dashboard']).toBeUndefined()
    expect(doc.paths['/dashboard/usage']).toBeUndefined()
    expect(doc.paths['/login']).toBeUndefined()
  })

  it('authenticates keys without a Postgres query per request', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('fastpath'))
    const key = await client.createKey()
    await callData(t.app, key) // first use: looks the key up once
    let queries = 0
    const original = t.app.pg.query.bind(t.app.pg)
    t.app.pg.query = ((...args: Parameters<typeof original>) => {
      queries += 1
      return original(...args)
    }) as typeof original
    try {
      for (let i = 0; i < 50; i += 1) expect((await callData(t.app, key)).statusCode).toBe(200)
    } finally {
      t.app.pg.query = original
    }
    expect(queries).toBe(0)
  })

  it('writes last use in batches', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('lastused'))
    const key = await client.createKey()
    const id = (await callData(t.app, key)).json().key.id
    const before = await t.app.pg.query('SELECT last_used_at FROM api_keys WHERE id = $1', [id])
    expect(before.rows[0].last_used_at).toBeNull()
    await t.app.lastUsed.flush()
    const after = await t.app.pg.query('SELECT last_used_at FROM api_keys WHERE id = $1', [id])
    expect(after.rows[0].last_used_at).toBeInstanceOf(Date)
  })
})

describe('when Redis is unreachable', () => {
  it('fails open: keeps serving, says so in /ready and /metrics', async () => {
    const app = await createTestApp('failopen')
    try {
      const client = new DashboardClient(app.app)
      await client.signUp(uniqueEmail('open'))
      const key = await client.createKey()
      expect((await callData(app.app, key)).statusCode).toBe(200)
      app.app.redis.disconnect(false)
      const res = await callData(app.app, key)
      expect(res.statusCode).toBe(200)
      expect(res.headers.ratelimit).toBeDefined()
      const ready = await app.app.inject({ url: '/ready' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toEqual({
        status: 'degraded',
        checks: { load: 'up', postgres: 'up', redis: 'down' },
      })
      const metrics = (await app.app.inject({ url: '/metrics' })).body
      expect(metrics).toMatch(/quota_decisions_total\{decision="allowed_degraded"\} [1-9]/)
      expect(metrics).toMatch(/dependency_errors_total\{dependency="redis"\} [1-9]/)
    } finally {
      await app.close()
    }
  })

  it('fails closed when configured: 503 and not ready', async () => {
    const app = await createTestApp('failclosed', { env: { QUOTA_FAIL_MODE: 'closed' } })
    try {
      const client = new DashboardClient(app.app)
      await client.signUp(uniqueEmail('closed'))
      const key = await client.createKey()
      app.app.redis.disconnect(false)
      const res = await callData(app.app, key)
      expect(res.statusCode).toBe(503)
      expect(res.json().code).toBe('SERVICE_UNAVAILABLE')
      expect(res.headers['retry-after']).toBe('5')
      expect((await app.app.inject({ url: '/ready' })).statusCode).toBe(503)
    } finally {
      await app.close()
    }
  })
})
