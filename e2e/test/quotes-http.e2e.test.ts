import type { QuoteResponse } from '@repo/contracts'
import { beforeAll, describe, expect, it } from 'vitest'
import { QUOTES_URL } from './support/env.js'
import { expectProblem, getWithoutAccept, http } from './support/http.js'
import * as quotes from './support/quotes.js'

// The quotes service's HTTP around the resources: errors in each format, caching, CORS.
let known: QuoteResponse

beforeAll(async () => {
  known = await quotes.someQuote()
})

describe('errors in the negotiated format', () => {
  const unknownId = 'q99999999'

  it('404 for an unknown id as problem+json, with the request id', async () => {
    const res = await quotes.get(`/api/q/${unknownId}`, quotes.JSON_TYPE)
    const problem = expectProblem(res, 404, 'NOT_FOUND')
    expect(problem.request_id).toBe(res.headers.get('x-request-id'))
    quotes.expectVaryAccept(res)
  })

  it('404 as a plain sentence for no Accept and */*', async () => {
    for (const res of [
      await getWithoutAccept(`${QUOTES_URL}/api/q/${unknownId}`),
      await quotes.get(`/api/q/${unknownId}`, '*/*'),
    ]) {
      expect(res.status).toBe(404)
      quotes.expectPlain(res)
      expect(res.text).toContain(unknownId)
      expect(res.text.trim().split('\n')).toHaveLength(1)
    }
  })

  it('404 as an HTML page', async () => {
    for (const path of [`/api/q/${unknownId}`, `/q/${unknownId}`]) {
      const res = await quotes.get(path, quotes.HTML_TYPE)
      expect(res.status).toBe(404)
      quotes.expectHtml(res)
      expect(res.text).toContain(unknownId)
      quotes.expectVaryAccept(res)
    }
  })

  it('404 for a malformed id and for an unknown route', async () => {
    expectProblem(await quotes.get('/api/q/not-an-id', quotes.JSON_TYPE), 404, 'NOT_FOUND')
    expectProblem(await quotes.get('/api/nope', quotes.JSON_TYPE), 404, 'NOT_FOUND')
  })

  it('405 with Allow for another method on a known path', async () => {
    const res = await http(`${QUOTES_URL}/api/q/${known.id}`, {
      method: 'DELETE',
      headers: { accept: quotes.JSON_TYPE },
    })
    expectProblem(res, 405, 'METHOD_NOT_ALLOWED')
    expect(res.headers.get('allow')).toBe('GET, HEAD')
  })

  it.each([
    'page=0',
    'page=-1',
    'page=1.5',
    'page=abc',
    'page=0x10',
    'limit=0',
    'limit=1e3',
    'limit=2.5',
    `term=${'x'.repeat(201)}`,
    'term=a%0Ab',
  ])('400 for %s as problem+json', async (query) => {
    expectProblem(
      await quotes.get(`/api/search?${query}`, quotes.JSON_TYPE),
      400,
      'INVALID_REQUEST',
    )
  })

  it('a term of exactly 200 characters is fine', async () => {
    const page = await quotes.searchJson(`term=${'x'.repeat(200)}`)
    expect(page.search_term).toHaveLength(200)
  })

  it('400 as a plain sentence and as an HTML page', async () => {
    const plain = await getWithoutAccept(`${QUOTES_URL}/api/search?page=0`)
    expect(plain.status).toBe(400)
    quotes.expectPlain(plain)
    expect(plain.text).toMatch(/page/)
    const html = await quotes.get('/search?limit=1.5', quotes.HTML_TYPE)
    expect(html.status).toBe(400)
    quotes.expectHtml(html)
  })
})

describe('HTTP caching', () => {
  it('a quote by id: Cache-Control, ETag, Vary, and 304 for If-None-Match', async () => {
    const first = await quotes.get(`/api/q/${known.id}`, quotes.JSON_TYPE)
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=[1-9]\d*$/)
    quotes.expectVaryAccept(first)
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^(W\/)?"/)
    const again = await quotes.get(`/api/q/${known.id}`, quotes.JSON_TYPE, {
      'if-none-match': etag as string,
    })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    const stale = await quotes.get(`/api/q/${known.id}`, quotes.JSON_TYPE, {
      'if-none-match': '"stale"',
    })
    expect(stale.status).toBe(200)
  })

  it('each representation has its own ETag', async () => {
    const json = await quotes.get(`/api/q/${known.id}`, quotes.JSON_TYPE)
    const plain = await quotes.get(`/api/q/${known.id}`, '*/*')
    const html = await quotes.get(`/api/q/${known.id}`, quotes.HTML_TYPE)
    const tags = [json, plain, html].map((res) => res.headers.get('etag'))
    expect(new Set(tags).size).toBe(3)
  })

  it('a search page: Cache-Control, ETag, Vary, and 304', async () => {
    const first = await quotes.get('/api/search?term=hope', quotes.JSON_TYPE)
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=[1-9]\d*$/)
    quotes.expectVaryAccept(first)
    const etag = first.headers.get('etag') as string
    expect(etag).toMatch(/^(W\/)?"/)
    const again = await quotes.get('/api/search?term=hope', quotes.JSON_TYPE, {
      'if-none-match': etag,
    })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
  })
})

describe('CORS', () => {
  it('lets any origin read', async () => {
    const res = await quotes.get(`/api/q/${known.id}`, quotes.JSON_TYPE, {
      origin: 'https://example.org',
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('answers a GET preflight', async () => {
    const res = await http(`${QUOTES_URL}/api/search?term=x`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    })
    expect(res.status).toBeGreaterThanOrEqual(200)
    expect(res.status).toBeLessThan(300)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toContain('GET')
  })
})
