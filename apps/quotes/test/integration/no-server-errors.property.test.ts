import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('property')
})
afterAll(async () => {
  await t?.close()
})

const accept = fc.constantFrom(
  undefined,
  '*/*',
  'application/json',
  'text/plain',
  'text/html',
  'application/json;q=0',
  'image/*;q=0.5, */*;q=0.1',
)

// Values a client might send: numbers of every shape, unicode, LIKE and SQL metacharacters.
const value = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 240 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom('', '0', '-0', '1e9', 'NaN', 'Infinity', "' OR 1=1 --", '%', '_', '\\', '%00'),
)

const queryString = fc
  .array(fc.tuple(fc.constantFrom('term', 'page', 'limit', 'other', 'term[]'), value), {
    maxLength: 4,
  })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'))

// Raw, possibly malformed query text (broken percent-escapes and all).
const rawQuery = fc.string({
  unit: fc.constantFrom(...'abc=&%+;?#/[]019AF'.split('')),
  maxLength: 40,
})

describe('no query string produces a server error', () => {
  it('search: always 200 or 400, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(queryString, rawQuery), accept, async (query, acceptHeader) => {
        const res = await t.app.inject({
          url: `/api/search?${query}`,
          headers: acceptHeader ? { accept: acceptHeader } : {},
        })
        expect([200, 400]).toContain(res.statusCode)
        if (String(res.headers['content-type']).includes('json')) JSON.parse(res.body)
      }),
      { numRuns: 300 },
    )
  })

  it('filtered random and author lists: always 200, 400 or 404, never 5xx', async () => {
    const names = ['author', 'tag', 'minLength', 'maxLength', 'term', 'sort', 'page', 'limit']
    const filters = fc
      .array(
        fc.tuple(fc.constantFrom(...names), fc.oneof(value, fc.constantFrom('larry-wall', 'love'))),
        {
          maxLength: 4,
        },
      )
      .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'))
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api', '/api/authors', '/api/authors/larry-wall'),
        fc.oneof(filters, rawQuery),
        accept,
        async (path, query, acceptHeader) => {
          const res = await t.app.inject({
            url: `${path}?${query}`,
            headers: acceptHeader ? { accept: acceptHeader } : {},
          })
          expect([200, 400, 404]).toContain(res.statusCode)
          if (String(res.headers['content-type']).includes('json')) JSON.parse(res.body)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('quote by id: always 200 or 404, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(value, accept, async (id, acceptHeader) => {
        const res = await t.app.inject({
          url: `/api/q/${encodeURIComponent(id)}`,
          headers: acceptHeader ? { accept: acceptHeader } : {},
        })
        expect([200, 404]).toContain(res.statusCode)
      }),
      { numRuns: 300 },
    )
  })
})
