import { QuoteResponse } from '@repo/contracts'
import { Value } from 'typebox/value'
import { beforeAll, describe, expect, it } from 'vitest'
import { QUOTES_URL } from './support/env.js'
import { getWithoutAccept } from './support/http.js'
import {
  expectHtml,
  expectPlain,
  expectVaryAccept,
  get,
  HTML_TYPE,
  JSON_TYPE,
  someQuote,
} from './support/quotes.js'

// The quotes service's resources in each negotiated format: the random quote, a quote by id.
let known: QuoteResponse

beforeAll(async () => {
  known = await someQuote()
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
