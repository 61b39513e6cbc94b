import {
  hostileHeaders,
  hostileMethod,
  hostilePathSegment,
  hostileQuery,
  sendRaw,
} from '@repo/service-kit/testing'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

// Thousands of generated hostile requests over real HTTP: none may get a 5xx (or no answer).

let t: TestApp
let port: number

beforeAll(async () => {
  t = await createTestApp('hostile', { RATE_LIMIT_MAX: '0' })
  port = Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port)
})
afterAll(async () => {
  await t?.close()
})

const path = fc.oneof(
  fc.constantFrom(
    '/',
    '/api',
    '/search',
    '/api/search',
    '/docs',
    '/health',
    '/ready',
    '/static/style.css',
    '/api/authors',
    '/api/tags',
    '/api/today',
  ),
  hostilePathSegment.map((slug) => `/api/authors/${slug}`),
  hostilePathSegment.map((id) => `/q/${id}.png`),
  hostilePathSegment.map((id) => `/api/q/${id}`),
  hostilePathSegment.map((id) => `/q/${id}`),
  fc.array(hostilePathSegment, { maxLength: 3 }).map((segments) => `/${segments.join('/')}`),
)

describe('hostile requests to quotes', () => {
  it('never answer 5xx, whatever the method, path, query and headers', async () => {
    const seen = new Set<number>()
    await fc.assert(
      fc.asyncProperty(
        hostileMethod,
        path,
        hostileQuery(['term', 'page', 'limit']),
        hostileHeaders(),
        fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
        async (method, route, query, headers, body) => {
          const status = await sendRaw(port, {
            method,
            path: query ? `${route}?${query}` : route,
            headers,
            ...(body === undefined ? {} : { body }),
          })
          seen.add(status)
          expect(status, `${method} ${route}?${query}`).toBeGreaterThanOrEqual(200)
          expect(status, `${method} ${route}?${query} ${JSON.stringify(headers)}`).toBeLessThan(500)
        },
      ),
      { numRuns: 1_500 },
    )
    // The generators reach the service's answers, not just its front door.
    expect([...seen]).toEqual(expect.arrayContaining([200, 400, 404, 405]))
  }, 120_000)
})
