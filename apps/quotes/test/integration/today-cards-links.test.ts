import { TodayResponse } from '@repo/contracts'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QuoteStore } from '../../src/lib/quote-store.js'
import { QuoteOfTheDay } from '../../src/lib/today.js'
import { createTestApp, JSON_ACCEPT, type TestApp } from '../support/test-app.js'

let t: TestApp
let clock = new Date('2026-03-01T22:59:30Z')

beforeAll(async () => {
  t = await createTestApp('today_cards', {}, { now: () => clock })
})
afterAll(async () => {
  await t?.close()
})

describe('GET /api/today', () => {
  it('is the same quote all day, cacheable until the next UTC midnight', async () => {
    clock = new Date('2026-03-01T22:59:30Z')
    const first = await t.app.inject({ url: '/api/today', headers: JSON_ACCEPT })
    expect(first.statusCode).toBe(200)
    const body = first.json()
    expect(Value.Check(TodayResponse, body)).toBe(true)
    expect(body.date).toBe('2026-03-01')
    expect(first.headers['cache-control']).toBe('public, max-age=3630')
    expect(first.headers.expires).toBe('Mon, 02 Mar 2026 00:00:00 GMT')
    expect(first.headers.etag).toBeDefined()

    clock = new Date('2026-03-01T23:59:59Z')
    const later = await t.app.inject({ url: '/api/today', headers: JSON_ACCEPT })
    expect(later.json().id).toBe(body.id)
    expect(later.headers['cache-control']).toBe('public, max-age=1')
    const again = await t.app.inject({
      url: '/api/today',
      headers: { ...JSON_ACCEPT, 'if-none-match': String(first.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
  })

  it('is kept in Postgres, so every replica serves the same quote that day', async () => {
    clock = new Date('2026-03-02T08:00:00Z')
    const today = (await t.app.inject({ url: '/api/today', headers: JSON_ACCEPT })).json()
    expect(today.date).toBe('2026-03-02')
    const stored = await t.app.pg.query<{ num: number }>(
      "SELECT num FROM quote_of_the_day WHERE day = '2026-03-02'",
    )
    expect(`q${stored.rows[0]?.num}`).toBe(today.id)
  })

  it('is drawn once when replicas ask at the same moment, each with its own draw', async () => {
    const draws = [1, 2, 3, 4, 5, 6, 7, 8]
    const replicas = draws.map(
      (num) => new QuoteOfTheDay(t.app.pg, { randomNum: () => num } as QuoteStore),
    )
    const nums = await Promise.all(replicas.map((replica) => replica.num('2026-04-01')))
    expect(new Set(nums).size).toBe(1)
    expect(draws).toContain(nums[0])
    const stored = await t.app.pg.query<{ num: number }>(
      "SELECT num FROM quote_of_the_day WHERE day = '2026-04-01'",
    )
    expect(stored.rows).toEqual([{ num: nums[0] }])
  })

  it('has a page and a plain-text form', async () => {
    clock = new Date('2026-03-02T09:00:00Z')
    const page = await t.app.inject({ url: '/today', headers: { accept: 'text/html' } })
    expect(page.body).toContain('Quote of the day, 2026-03-02')
    const text = await t.app.inject({ url: '/api/today' })
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8')
  })
})

describe('share cards', () => {
  it('renders the SVG by hand, escaping the text', async () => {
    await t.app.pg.query('UPDATE quotes SET quote = \'Less <than> & "more"\' WHERE num = 2')
    await t.app.quoteStore.load()
    const res = await t.app.inject({ url: '/q/q2.svg' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(res.headers['cache-control']).toMatch(/^public, max-age=/)
    expect(res.body).toContain('Less &#60;than&#62; &#38; &#34;more&#34;')
    expect(res.body).not.toContain('<than>')
    expect(res.body).toContain('— Sophocles')
  })

  it('renders a PNG of 1200×630 with an ETag', async () => {
    const res = await t.app.inject({ url: '/q/q1.png' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    const png = res.rawPayload
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
    expect(png.readUInt32BE(16)).toBe(1200)
    expect(png.readUInt32BE(20)).toBe(630)
    // Text was drawn with the shipped font: far more than a blank card's bytes.
    expect(png.length).toBeGreaterThan(20_000)
    const again = await t.app.inject({
      url: '/q/q1.png',
      headers: { 'if-none-match': String(res.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
  })

  it('answers 404 for an unknown quote, not cacheable', async () => {
    const res = await t.app.inject({ url: '/q/q99999999.png', headers: JSON_ACCEPT })
    expect(res.statusCode).toBe(404)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.json().code).toBe('NOT_FOUND')
  })

  it('is announced on quote pages with Open Graph and Twitter tags (absolute URL)', async () => {
    const page = await t.app.inject({
      url: '/q/q1',
      headers: { accept: 'text/html', host: 'quotes.example:8080' },
    })
    expect(page.body).toContain(
      '<meta property="og:image" content="http://quotes.example:8080/q/q1.png">',
    )
    expect(page.body).toContain('<meta name="twitter:card" content="summary_large_image">')
    expect(page.body).toContain(
      '<meta name="twitter:image" content="http://quotes.example:8080/q/q1.png">',
    )
  })

  it('uses PUBLIC_URL when it is set', async () => {
    const other = await createTestApp('public_url', { PUBLIC_URL: 'https://quotes.example.org/' })
    try {
      const page = await other.app.inject({ url: '/q/q1', headers: { accept: 'text/html' } })
      expect(page.body).toContain('content="https://quotes.example.org/q/q1.png"')
    } finally {
      await other.close()
    }
  })
})

describe('search pages', () => {
  it('carry an RFC 8288 Link header: first, prev, next, last', async () => {
    const res = await t.app.inject({ url: '/api/search?term=love&page=2', headers: JSON_ACCEPT })
    const total = res.json().total_pages
    expect(res.headers.link).toBe(
      '</api/search?term=love&page=1>; rel="first", </api/search?term=love&page=1>; rel="prev", ' +
        `</api/search?term=love&page=3>; rel="next", </api/search?term=love&page=${total}>; rel="last"`,
    )
    // The cached copy of the page carries it too.
    const cached = await t.app.inject({ url: '/api/search?term=love&page=2', headers: JSON_ACCEPT })
    expect(cached.headers.link).toBe(res.headers.link)
    const first = await t.app.inject({ url: '/search?term=love', headers: { accept: 'text/html' } })
    expect(first.headers.link).not.toContain('rel="prev"')
  })

  it('highlight the term in HTML, escaped, even when it holds < and &', async () => {
    await t.app.pg.query(
      "UPDATE quotes SET quote = 'Fish & <chips> are < good & cheap' WHERE num = 3",
    )
    await t.app.quoteStore.load()
    const res = await t.app.inject({
      url: `/search?term=${encodeURIComponent('& <chips>')}`,
      headers: { accept: 'text/html' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('Fish <mark>&amp; &lt;chips&gt;</mark> are &lt; good &amp; cheap')
    expect(res.body).not.toContain('<chips>')
    const word = await t.app.inject({ url: '/search?term=LOVE', headers: { accept: 'text/html' } })
    expect(word.body).toMatch(/<mark>love<\/mark>/i)
  })
})
