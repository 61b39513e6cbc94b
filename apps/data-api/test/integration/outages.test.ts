import {
  type PrivatePostgres,
  type PrivateRedis,
  startPrivatePostgres,
  startPrivateRedis,
  waitFor,
} from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

/*
 * Outages on real processes the test stops and starts: a Postgres and a Redis of its own. Nothing
 * a client sends may answer 500; the service recovers without a restart.
 */

let postgres: PrivatePostgres
let redis: PrivateRedis
let t: TestApp
let key: string
let cachedKey: string
let browser: DashboardClient

beforeAll(async () => {
  ;[postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()])
  t = await createTestApp('outages', {
    pgAdminUrl: postgres.url(),
    env: { REDIS_URL: redis.url, REDIS_KEY_PREFIX: '' },
  })
  browser = new DashboardClient(t.app)
  await browser.signUp(uniqueEmail('outage'), 'PRO')
  key = await browser.createKey('not used before the outage')
  cachedKey = await browser.createKey('cached')
  expect((await callData(t.app, cachedKey)).statusCode).toBe(200)
}, 60_000)
afterAll(async () => {
  await t?.close()
  await Promise.all([postgres?.close(), redis?.close()])
})

describe('Postgres down', () => {
  it('answers 503 with Retry-After everywhere it is needed, and recovers without a restart', async () => {
    await postgres.stop()
    try {
      // The API: problem+json.
      const api = await callData(t.app, key)
      expect(api.statusCode).toBe(503)
      expect(api.headers['retry-after']).toBe('5')
      expect(api.headers['content-type']).toContain('application/problem+json')
      expect(api.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 })
      // A key this instance knows is still served: it needs no Postgres.
      expect((await callData(t.app, cachedKey)).statusCode).toBe(200)
      // The dashboard: an HTML page.
      const page = await browser.get('/dashboard')
      expect(page.statusCode).toBe(503)
      expect(page.headers['retry-after']).toBe('5')
      expect(page.headers['content-type']).toContain('text/html')
      expect(page.body).toContain('unavailable')
      const login = await new DashboardClient(t.app).logIn(uniqueEmail('nobody'))
      expect(login.statusCode).toBe(503)
      // Readiness: this instance cannot serve.
      expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(503)
      expect((await t.app.inject({ url: '/health' })).statusCode).toBe(200)
    } finally {
      await postgres.start()
    }
    await waitFor('Postgres to serve the API again', async () => {
      return (await callData(t.app, key)).statusCode === 200
    })
    expect((await browser.get('/dashboard')).statusCode).toBe(200)
    expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(200)
  })
})

describe('Redis down', () => {
  it('keeps serving (fail open) with throttles counted in memory, and recovers', async () => {
    await redis.stop()
    try {
      const res = await callData(t.app, cachedKey)
      expect(res.statusCode).toBe(200)
      const ready = await t.app.inject({ url: '/ready' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toMatchObject({ status: 'degraded', checks: { redis: 'down' } })
      // Sign-up still works, and its per-address throttle still counts (in memory).
      const visitor = new DashboardClient(t.app, '203.0.113.77')
      expect((await visitor.signUp(uniqueEmail('redis-down'))).statusCode).toBe(303)
      expect((await browser.get('/dashboard')).statusCode).toBe(200)
    } finally {
      await redis.start()
    }
    await waitFor('Redis to count again', async () => {
      const res = await callData(t.app, cachedKey)
      return res.statusCode === 200 && t.app.redisState.isUp
    })
    expect((await t.app.inject({ url: '/ready' })).json().status).toBe('ready')
  })
})

describe('starting while Redis is down', () => {
  it('starts degraded (fail open: ready) or unavailable (fail closed: 503), and uses Redis once up', async () => {
    const down = await startPrivateRedis({ running: false })
    const env = { REDIS_URL: down.url, REDIS_KEY_PREFIX: '' }
    const open = await createTestApp('outages', { env, shareWith: t })
    const closed = await createTestApp('outages', {
      env: { ...env, QUOTA_FAIL_MODE: 'closed' },
      shareWith: t,
    })
    try {
      const ready = await open.app.inject({ url: '/ready' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toEqual({
        status: 'degraded',
        checks: { load: 'up', postgres: 'up', redis: 'down' },
      })
      expect((await closed.app.inject({ url: '/ready' })).statusCode).toBe(503)
      expect((await callData(open.app, cachedKey)).statusCode).toBe(200)
      expect((await callData(closed.app, cachedKey)).statusCode).toBe(503)
      await down.start()
      await waitFor('both to see Redis', async () => {
        const statuses = await Promise.all(
          [open, closed].map(async (app) => (await app.app.inject({ url: '/ready' })).statusCode),
        )
        return statuses.every((status) => status === 200)
      })
      expect((await callData(closed.app, cachedKey)).statusCode).toBe(200)
    } finally {
      await closed.close()
      await open.close()
      await down.close()
    }
  })
})
