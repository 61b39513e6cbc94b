import { type PrivatePostgres, startPrivatePostgres, waitFor } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

// Postgres stopped and started under a running quotes service (a Postgres of the test's own).

let postgres: PrivatePostgres
let t: TestApp

beforeAll(async () => {
  postgres = await startPrivatePostgres()
  t = await createTestApp('outages', {}, { pgAdminUrl: postgres.url() })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await postgres?.close()
})

const search = (term: string, accept?: string) =>
  t.app.inject({
    url: `/api/search?term=${encodeURIComponent(term)}`,
    headers: accept ? { accept } : {},
  })

describe('Postgres down', () => {
  it('answers 503 with Retry-After in the negotiated format, serves what it holds, recovers', async () => {
    await postgres.stop()
    try {
      const json = await search('never searched before', 'application/json')
      expect(json.statusCode).toBe(503)
      expect(json.headers['retry-after']).toBe('5')
      expect(json.headers['cache-control']).toBe('no-store')
      expect(json.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 })
      const text = await search('nor this one')
      expect(text.statusCode).toBe(503)
      expect(text.headers['content-type']).toContain('text/plain')
      expect(text.body).toMatch(/unavailable/)
      const html = await search('nor that one', 'text/html')
      expect(html.statusCode).toBe(503)
      expect(html.headers['content-type']).toContain('text/html')
      // Quotes are held in memory: they are still served.
      expect((await t.app.inject({ url: '/api/q/q1' })).statusCode).toBe(200)
      expect((await t.app.inject({ url: '/api' })).statusCode).toBe(200)
      expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(503)
    } finally {
      await postgres.start()
    }
    await waitFor(
      'search to work again',
      async () => (await search('again', 'application/json')).statusCode === 200,
    )
    expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(200)
  })
})
