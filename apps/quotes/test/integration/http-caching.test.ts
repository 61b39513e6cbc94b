import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('caching')
})
afterAll(async () => {
  await t?.close()
})

describe('caching', () => {
  it('quotes by id carry Cache-Control and an ETag, and answer If-None-Match with 304', async () => {
    const first = await t.app.inject({ url: '/api/q/q2', headers: { accept: 'application/json' } })
    expect(first.headers['cache-control']).toBe('public, max-age=3600')
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^"/)
    const again = await t.app.inject({
      url: '/api/q/q2',
      headers: { accept: 'application/json', 'if-none-match': etag },
    })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
  })

  it('gives each representation its own ETag (Vary: Accept)', async () => {
    const json = await t.app.inject({ url: '/api/q/q2', headers: { accept: 'application/json' } })
    const text = await t.app.inject({ url: '/api/q/q2' })
    expect(json.headers.vary).toBe('Accept')
    expect(json.headers.etag).not.toBe(text.headers.etag)
  })

  it('search pages are cacheable', async () => {
    const res = await t.app.inject({
      url: '/api/search?term=hope',
      headers: { accept: 'application/json' },
    })
    expect(res.headers['cache-control']).toBe('public, max-age=3600')
    expect(res.headers.vary).toBe('Accept')
    // The ETag is the page's own: sent back, it gets 304 Not Modified with no body.
    const again = await t.app.inject({
      url: '/api/search?term=hope',
      headers: { accept: 'application/json', 'if-none-match': String(res.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers.etag).toBe(res.headers.etag)
  })

  it('errors are never cacheable, whatever the route set before failing', async () => {
    for (const url of ['/api/q/q999999', '/api/q/nope', '/api/search?page=0', '/nowhere']) {
      const res = await t.app.inject({ url, headers: { accept: 'application/json' } })
      expect(res.statusCode).toBeGreaterThanOrEqual(400)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.headers.etag).toBeUndefined()
    }
  })

  it('every response carries X-Request-Id', async () => {
    for (const url of ['/api', '/api/q/q2', '/api/search?term=a', '/health', '/api/q/q999999']) {
      const res = await t.app.inject({ url })
      expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]+$/)
    }
  })

  it('the random quote is not cacheable', async () => {
    const res = await t.app.inject({ url: '/api' })
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers.etag).toBeUndefined()
    expect(res.headers.vary).toBe('Accept')
  })
})

describe('CORS (@fastify/cors)', () => {
  const EXPOSED =
    'Allow, ETag, Link, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id'

  it('lets any origin read answers and errors, exposing the same headers, without Vary: Origin', async () => {
    for (const url of [
      '/api/q/q1',
      '/api',
      '/api/search?term=hope',
      '/api/q/q999999',
      '/nowhere',
    ]) {
      const res = await t.app.inject({ url, headers: { origin: 'https://example.org' } })
      expect([url, res.headers['access-control-allow-origin']]).toEqual([url, '*'])
      expect([url, res.headers['access-control-expose-headers']]).toEqual([url, EXPOSED])
      expect(String(res.headers.vary ?? '')).not.toMatch(/origin/i)
    }
  })

  it('answers preflight for GET, echoing the requested headers (Vary on them), cached a day', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/search',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    })
    expect(res.statusCode).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD')
    expect(res.headers['access-control-allow-headers']).toBe('if-none-match')
    expect(res.headers['access-control-max-age']).toBe('86400')
    expect(res.headers.vary).toBe('Access-Control-Request-Headers')
    expect(res.body).toBe('')
  })

  it('answers any OPTIONS request with the preflight answer, never an error', async () => {
    for (const url of ['/api/q/q1', '/nowhere']) {
      const res = await t.app.inject({ method: 'OPTIONS', url })
      expect([url, res.statusCode]).toEqual([url, 204])
      expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD')
      expect(res.headers['access-control-allow-headers']).toBeUndefined()
    }
  })
})

describe('security headers', () => {
  it('pages get a strict CSP; data responses get nosniff', async () => {
    const page = await t.app.inject({ url: '/q/q1', headers: { accept: 'text/html' } })
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    expect(page.headers['x-frame-options']).toBeDefined()
    const data = await t.app.inject({ url: '/api/q/q1', headers: { accept: 'application/json' } })
    expect(data.headers['x-content-type-options']).toBe('nosniff')
  })

  it('keeps a safe client request id and replaces an unsafe one (echoed on errors)', async () => {
    const kept = await t.app.inject({ url: '/api/q/q0', headers: { 'x-request-id': 'abc-123' } })
    expect(kept.headers['x-request-id']).toBe('abc-123')
    const replaced = await t.app.inject({
      url: '/api/q/q0',
      headers: { 'x-request-id': 'bad id\n{"x":1}', accept: 'application/json' },
    })
    expect(replaced.headers['x-request-id']).not.toContain('bad')
    expect(replaced.json().request_id).toBe(replaced.headers['x-request-id'])
  })

  it('answers If-None-Match listing several tags, and ignores a stale one', async () => {
    const first = await t.app.inject({
      url: '/api/search?term=hope',
      headers: { accept: 'application/json' },
    })
    const etag = first.headers.etag as string
    const listed = await t.app.inject({
      url: '/api/search?term=hope',
      headers: { accept: 'application/json', 'if-none-match': `"old", ${etag}` },
    })
    expect(listed.statusCode).toBe(304)
    const stale = await t.app.inject({
      url: '/api/search?term=hope',
      headers: { accept: 'application/json', 'if-none-match': '"old"' },
    })
    expect(stale.statusCode).toBe(200)
  })
})
