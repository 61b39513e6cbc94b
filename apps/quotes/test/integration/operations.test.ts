import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('ops')
})
afterAll(async () => {
  await t?.close()
})

describe('operations endpoints', () => {
  it('/health says the process is alive', async () => {
    const res = await t.app.inject({ url: '/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
  })

  it('/ready checks Postgres and Redis', async () => {
    const res = await t.app.inject({ url: '/ready' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { load: 'up', postgres: 'up', redis: 'up' },
    })
  })

  it('/metrics exposes request counts and latencies by route and status', async () => {
    await t.app.inject({ url: '/api/q/q1' })
    await t.app.inject({ url: '/api/q/q99999999' })
    const res = await t.app.inject({ url: '/metrics' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/q\/:id"[^}]*status_code="200"[^}]*\} 1/,
    )
    expect(res.body).toMatch(/http_request_duration_seconds_count\{[^}]*status_code="404"/)
    expect(res.body).toContain('dependency_errors_total')
    expect(res.body).toContain('process_resident_memory_bytes')
  })

  it('/docs/json is an OpenAPI 3 document generated from the routes', async () => {
    const res = await t.app.inject({ url: '/docs/json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api', '/api/q/{id}', '/api/search', '/health', '/ready']),
    )
    expect(doc.paths['/q/{id}']).toBeUndefined()
    const search = doc.paths['/api/search'].get
    expect(search.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['term', 'page', 'limit']),
    )
    expect(Object.keys(search.responses)).toEqual(expect.arrayContaining(['200', '400', '429']))
    expect(Object.keys(search.responses['200'].content)).toEqual(
      expect.arrayContaining(['application/json', 'text/plain', 'text/html']),
    )
  })

  it('/docs serves the interactive reference page', async () => {
    const res = await t.app.inject({ url: '/docs/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
  })
})
