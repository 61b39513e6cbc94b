import { Problem } from '@repo/contracts'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('errors')
})
afterAll(async () => {
  await t?.close()
})

describe('unknown ids answer 404 in the negotiated format', () => {
  it.each(['q99999999', 'q0', 'abc', 'q1x', 'q99999999999999999999', '%00', 'Q1'])(
    '%s as problem+json',
    async (id) => {
      const res = await t.app.inject({
        url: `/api/q/${id}`,
        headers: { accept: 'application/json' },
      })
      expect(res.statusCode).toBe(404)
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8')
      const problem = res.json()
      expect(Value.Check(Problem, problem)).toBe(true)
      expect(problem).toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
        type: '/problems/not-found',
      })
      expect(problem.request_id).toBe(res.headers['x-request-id'])
    },
  )

  it('as a plain sentence for curl', async () => {
    const res = await t.app.inject({ url: '/api/q/q99999999' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.body).toBe('No quote has the id q99999999.\n')
  })

  it('as an HTML page for browsers', async () => {
    const res = await t.app.inject({ url: '/q/q99999999', headers: { accept: 'text/html' } })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toContain('No quote has the id q99999999.')
    expect(res.headers.vary).toBe('Accept')
  })

  it('unknown routes are 404 problems too', async () => {
    const res = await t.app.inject({ url: '/nope', headers: { accept: 'application/json' } })
    expect(res.statusCode).toBe(404)
    expect(res.json().code).toBe('NOT_FOUND')
  })
})

describe('bad search parameters answer 400 and change nothing', () => {
  it.each([
    'page=0',
    'page=-1',
    'page=1.5',
    'page=abc',
    'page=',
    'limit=0',
    'limit=-5',
    'limit=2.5',
    'limit=ten',
    'limit=1e400',
    'page=99999999999999999999',
    'limit=1e3',
    'page=0x10',
    'page=%201',
    'limit=%2B5',
    `term=${'x'.repeat(201)}`,
    'term=%00',
    'term=a%0Ab',
    'page=1&page=2',
    'term=a&term=b',
    'term=%zz',
    'term=%E0%A4%A',
    'term=%ED%A0%80',
    'term=caf%C3',
  ])('%s', async (query) => {
    const res = await t.app.inject({
      url: `/api/search?${query}`,
      headers: { accept: 'application/json' },
    })
    expect(res.statusCode).toBe(400)
    const problem = res.json()
    expect(Value.Check(Problem, problem)).toBe(true)
    expect(problem.code).toBe('INVALID_REQUEST')
    expect(problem.detail.length).toBeGreaterThan(0)
  })

  it('a term of exactly 200 characters is fine', async () => {
    const res = await t.app.inject({
      url: `/api/search?term=${'x'.repeat(200)}`,
      headers: { accept: 'application/json' },
    })
    expect(res.statusCode).toBe(200)
  })

  it('explains in plain text too', async () => {
    const res = await t.app.inject({ url: '/api/search?page=0' })
    expect(res.statusCode).toBe(400)
    expect(res.body).toMatch(/page/)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
  })
})

describe('hostile input', () => {
  it('escapes a term reflected into HTML', async () => {
    const term = '<script>alert(1)</script>"\'&'
    const res = await t.app.inject({
      url: `/search?term=${encodeURIComponent(term)}`,
      headers: { accept: 'text/html' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).not.toContain('<script>alert(1)</script>')
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('answers other methods on a known path with 405 and Allow, whatever the body', async () => {
    for (const url of ['/api', '/api/q/q1', '/api/search?term=love', '/']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        payload: '{not json',
      })
      expect(res.statusCode, url).toBe(405)
      expect(res.headers.allow).toBe('GET, HEAD')
      expect(res.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 })
    }
    const unknown = await t.app.inject({ method: 'DELETE', url: '/api/nothing' })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.headers.allow).toBeUndefined()
  })

  it('survives invalid percent-encoding', async () => {
    const res = await t.app.inject({
      url: '/api/search?term=%E0%A4%A',
      headers: { accept: 'application/json' },
    })
    expect(res.statusCode).toBeLessThan(500)
  })
})
