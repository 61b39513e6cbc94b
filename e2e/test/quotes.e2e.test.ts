import { randomBytes } from 'node:crypto'
import { unwrap } from '@repo/client'
import { QuoteResponse, SearchResponse } from '@repo/contracts'
import { Value } from 'typebox/value'
import { beforeAll, describe, expect, it } from 'vitest'
import { quotesApi } from './support/clients.js'
import { QUOTES_URL } from './support/env.js'
import { type Answer, expectProblem, getWithoutAccept, http, listHeader } from './support/http.js'

const JSON_TYPE = 'application/json'
const HTML_TYPE = 'text/html'

function get(path: string, accept?: string, headers: Record<string, string> = {}) {
  return http(`${QUOTES_URL}${path}`, { headers: { ...(accept ? { accept } : {}), ...headers } })
}

function expectPlain(res: Answer) {
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
}
function expectHtml(res: Answer) {
  expect(res.headers.get('content-type')).toMatch(/^text\/html/)
  expect(res.text).toMatch(/^<!doctype html>/i)
}
function expectVaryAccept(res: Answer) {
  expect(listHeader(res.headers, 'vary')).toContain('accept')
}

/** A search page through the typed client (`page` and `limit` are numbers there). */
async function searchJson(query: { term?: string; page?: number; limit?: number }) {
  const { data, response } = await quotesApi.GET('/api/search', { params: { query } })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  expect(Value.Check(SearchResponse, data), JSON.stringify(data).slice(0, 300)).toBe(true)
  return data as SearchResponse
}

/** A term no quote contains: a random run of rare letters. */
function noMatchTerm(): string {
  return `zqx${[...randomBytes(10)].map((b) => 'qxzjvk'[b % 6]).join('')}`
}

// A quote that exists, found through the API itself (the suite assumes no fixed corpus).
let known: QuoteResponse

beforeAll(async () => {
  const first = await searchJson({ limit: 1 })
  expect(first.results).toHaveLength(1)
  known = await unwrap(
    quotesApi.GET('/api/q/{id}', { params: { path: { id: first.results[0]?.id ?? '' } } }),
  )
})

describe('GET /api: a random quote in the negotiated format', () => {
  it('plain text when there is no Accept header at all', async () => {
    const res = await getWithoutAccept(`${QUOTES_URL}/api`)
    expect(res.status).toBe(200)
    expectPlain(res)
    expect(res.text.trim().length).toBeGreaterThan(0)
    expect(res.text).not.toMatch(/^\s*[{<]/)
    expectVaryAccept(res)
  })

  it('plain text for Accept: */* (what curl and most libraries send)', async () => {
    const res = await get('/api', '*/*')
    expect(res.status).toBe(200)
    expectPlain(res)
    expect(res.text.trim().length).toBeGreaterThan(0)
    expect(res.text).not.toMatch(/^\s*[{<]/)
  })

  it('JSON with id, quote, author and status', async () => {
    const res = await get('/api', JSON_TYPE)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = res.json()
    expect(Value.Check(QuoteResponse, body), res.text).toBe(true)
    expect(body.status).toBe(200)
  })

  it('an HTML page for browsers, with "Another one"', async () => {
    const res = await get('/api', 'text/html,application/xhtml+xml,*/*;q=0.8')
    expect(res.status).toBe(200)
    expectHtml(res)
    expect(res.text).toContain('Another one')
  })

  it('HTML when Accept names none of the three formats', async () => {
    expectHtml(await get('/api', 'image/png'))
    expectHtml(await get('/api', 'application/xml, image/*;q=0.5'))
  })

  it('HTML on ties, when HTML is listed first', async () => {
    expectHtml(await get('/api', 'text/html, application/json'))
    expectHtml(await get('/api', 'text/html;q=0.5, text/plain;q=0.5'))
  })

  it('on equal q-values, the type the client lists first', async () => {
    const json = await get('/api', 'application/json, text/html')
    expect(json.headers.get('content-type')).toMatch(/^application\/json/)
    expectHtml(await get('/api', 'text/html;q=0.5, text/plain;q=0.5'))
  })

  it('honours q-values', async () => {
    const json = await get('/api', 'text/html;q=0.5, application/json')
    expect(json.headers.get('content-type')).toMatch(/^application\/json/)
    const plain = await get('/api', 'text/plain, application/json;q=0.1')
    expectPlain(plain)
  })

  it('is never cached', async () => {
    const res = await get('/api', JSON_TYPE)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('etag')).toBeNull()
    expectVaryAccept(res)
  })

  it('draws different quotes', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 10; i += 1) ids.add((await get('/api', JSON_TYPE)).json().id as string)
    expect(ids.size).toBeGreaterThan(1)
  })
})

describe('GET /api/q/:id', () => {
  it('JSON: the quote', async () => {
    const res = await get(`/api/q/${known.id}`, JSON_TYPE)
    expect(res.status).toBe(200)
    const body = res.json()
    expect(Value.Check(QuoteResponse, body)).toBe(true)
    expect(body).toEqual(known)
  })

  it('plain text: the quote text only, for no Accept and for */*', async () => {
    for (const res of [
      await getWithoutAccept(`${QUOTES_URL}/api/q/${known.id}`),
      await get(`/api/q/${known.id}`, '*/*'),
    ]) {
      expect(res.status).toBe(200)
      expectPlain(res)
      expect(res.text).toBe(`${known.quote}\n`)
    }
  })

  it('HTML: a page with the quote, its author and a permalink (also at /q/:id)', async () => {
    for (const path of [`/api/q/${known.id}`, `/q/${known.id}`]) {
      const res = await get(path, HTML_TYPE)
      expect(res.status).toBe(200)
      expectHtml(res)
      expect(res.text).toContain(`href="/q/${known.id}"`)
      expect(res.text).toContain('<html lang="en">')
      const escapedAuthor = known.author
        .replaceAll('&', '&amp;')
        .replaceAll('<', '&lt;')
        .replaceAll('>', '&gt;')
      expect(res.text).toContain(escapedAuthor)
    }
  })
})

describe('GET /api/search', () => {
  it('without a term: search_term "", page 1, limit 20, every quote', async () => {
    const page = await searchJson({})
    expect(page).toMatchObject({
      current_page: 1,
      limit: 20,
      next_page: 2,
      previous_page: 1,
      search_term: '',
      status: 200,
    })
    expect(page.results).toHaveLength(20)
    expect(page.total_quotes).toBeGreaterThan(1000)
    expect(page.total_pages).toBe(Math.ceil(page.total_quotes / 20))
  })

  it('clamps limit=50 to 30 and says so, with consistent paging fields', async () => {
    const page = await searchJson({ term: 'love', limit: 50 })
    expect(page).toMatchObject({
      current_page: 1,
      limit: 30,
      next_page: 2,
      previous_page: 1,
      search_term: 'love',
    })
    expect(page.results).toHaveLength(30)
    expect(page.total_quotes).toBeGreaterThan(30)
    expect(page.total_pages).toBe(Math.ceil(page.total_quotes / 30))
  })

  it('matches case-insensitively in text or author, ordered by id, pages without overlap', async () => {
    const first = await searchJson({ term: 'LoVe', limit: 30 })
    const second = await searchJson({ term: 'LoVe', limit: 30, page: 2 })
    expect(first.search_term).toBe('LoVe')
    expect(second).toMatchObject({
      current_page: 2,
      previous_page: 1,
      next_page: Math.min(3, first.total_pages),
    })
    const results = [...first.results, ...second.results]
    for (const q of results) expect(`${q.quote}\n${q.author}`.toLowerCase()).toContain('love')
    const ids = results.map((q) => Number(q.id.slice(1)))
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('the last page: next_page stays at total_pages', async () => {
    const first = await searchJson({ term: 'love', limit: 30 })
    const last = await searchJson({ term: 'love', limit: 30, page: first.total_pages })
    expect(last).toMatchObject({
      current_page: first.total_pages,
      next_page: first.total_pages,
      previous_page: Math.max(first.total_pages - 1, 1),
    })
    expect(last.results.length).toBe(first.total_quotes - 30 * (first.total_pages - 1))
  })

  it('no match: total 0, one page, no results', async () => {
    const term = noMatchTerm()
    const page = await searchJson({ term })
    expect(page).toEqual({
      current_page: 1,
      limit: 20,
      next_page: 1,
      previous_page: 1,
      results: [],
      search_term: term,
      status: 200,
      total_quotes: 0,
      total_pages: 1,
    })
  })

  it('a page past the end: no results, its own current_page', async () => {
    const page = await searchJson({ term: 'love', page: 99999 })
    expect(page.results).toEqual([])
    expect(page.current_page).toBe(99999)
    expect(page.total_quotes).toBeGreaterThan(0)
    expect(page.next_page).toBe(page.total_pages)
    expect(page.previous_page).toBe(99998)
  })

  it('plain text: the result texts, one per line', async () => {
    const json = await searchJson({ term: 'love', limit: 5 })
    for (const res of [
      await getWithoutAccept(`${QUOTES_URL}/api/search?term=love&limit=5`),
      await get('/api/search?term=love&limit=5', '*/*'),
    ]) {
      expect(res.status).toBe(200)
      expectPlain(res)
      const lines = res.text.split('\n')
      expect(lines.pop()).toBe('')
      expect(lines).toEqual(json.results.map((q) => q.quote.replace(/\s*[\r\n]+\s*/g, ' ')))
    }
  })

  it('HTML: the form, the results and pagination links (also at /search)', async () => {
    for (const path of ['/api/search?term=love', '/search?term=love']) {
      const res = await get(path, HTML_TYPE)
      expect(res.status).toBe(200)
      expectHtml(res)
      expect(res.text).toContain('name="term"')
      expect(res.text).toContain('value="love"')
      expect(res.text).toContain('rel="next"')
    }
  })
})

describe('errors in the negotiated format', () => {
  const unknownId = 'q99999999'

  it('404 for an unknown id as problem+json, with the request id', async () => {
    const res = await get(`/api/q/${unknownId}`, JSON_TYPE)
    const problem = expectProblem(res, 404, 'NOT_FOUND')
    expect(problem.request_id).toBe(res.headers.get('x-request-id'))
    expectVaryAccept(res)
  })

  it('404 as a plain sentence for no Accept and */*', async () => {
    for (const res of [
      await getWithoutAccept(`${QUOTES_URL}/api/q/${unknownId}`),
      await get(`/api/q/${unknownId}`, '*/*'),
    ]) {
      expect(res.status).toBe(404)
      expectPlain(res)
      expect(res.text).toContain(unknownId)
      expect(res.text.trim().split('\n')).toHaveLength(1)
    }
  })

  it('404 as an HTML page', async () => {
    for (const path of [`/api/q/${unknownId}`, `/q/${unknownId}`]) {
      const res = await get(path, HTML_TYPE)
      expect(res.status).toBe(404)
      expectHtml(res)
      expect(res.text).toContain(unknownId)
      expectVaryAccept(res)
    }
  })

  it('404 for a malformed id and for an unknown route', async () => {
    expectProblem(await get('/api/q/not-an-id', JSON_TYPE), 404, 'NOT_FOUND')
    expectProblem(await get('/api/nope', JSON_TYPE), 404, 'NOT_FOUND')
  })

  it('405 with Allow for another method on a known path', async () => {
    const res = await http(`${QUOTES_URL}/api/q/${known.id}`, {
      method: 'DELETE',
      headers: { accept: JSON_TYPE },
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
    expectProblem(await get(`/api/search?${query}`, JSON_TYPE), 400, 'INVALID_REQUEST')
  })

  it('a term of exactly 200 characters is fine', async () => {
    const page = await searchJson({ term: 'x'.repeat(200) })
    expect(page.search_term).toHaveLength(200)
  })

  it('400 as a plain sentence and as an HTML page', async () => {
    const plain = await getWithoutAccept(`${QUOTES_URL}/api/search?page=0`)
    expect(plain.status).toBe(400)
    expectPlain(plain)
    expect(plain.text).toMatch(/page/)
    const html = await get('/search?limit=1.5', HTML_TYPE)
    expect(html.status).toBe(400)
    expectHtml(html)
  })
})

describe('HTTP caching', () => {
  it('a quote by id: Cache-Control, ETag, Vary, and 304 for If-None-Match', async () => {
    const first = await get(`/api/q/${known.id}`, JSON_TYPE)
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=[1-9]\d*$/)
    expectVaryAccept(first)
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^(W\/)?"/)
    const again = await get(`/api/q/${known.id}`, JSON_TYPE, { 'if-none-match': etag as string })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    const stale = await get(`/api/q/${known.id}`, JSON_TYPE, { 'if-none-match': '"stale"' })
    expect(stale.status).toBe(200)
  })

  it('each representation has its own ETag', async () => {
    const json = await get(`/api/q/${known.id}`, JSON_TYPE)
    const plain = await get(`/api/q/${known.id}`, '*/*')
    const html = await get(`/api/q/${known.id}`, HTML_TYPE)
    const tags = [json, plain, html].map((res) => res.headers.get('etag'))
    expect(new Set(tags).size).toBe(3)
  })

  it('a search page: Cache-Control, ETag, Vary, and 304', async () => {
    const first = await get('/api/search?term=hope', JSON_TYPE)
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=[1-9]\d*$/)
    expectVaryAccept(first)
    const etag = first.headers.get('etag') as string
    expect(etag).toMatch(/^(W\/)?"/)
    const again = await get('/api/search?term=hope', JSON_TYPE, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
  })
})

describe('CORS', () => {
  it('lets any origin read', async () => {
    const res = await get(`/api/q/${known.id}`, JSON_TYPE, { origin: 'https://example.org' })
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
