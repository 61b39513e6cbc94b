import { QuoteResponse, SearchResponse } from '@repo/contracts'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/test-app.js'

const JSON_ACCEPT = { accept: 'application/json' }
let t: TestApp

beforeAll(async () => {
  t = await createTestApp('happy')
})
afterAll(async () => {
  await t?.close()
})

describe('GET /api (random quote)', () => {
  it('prints the text only to curl-like clients (no Accept, or */*)', async () => {
    for (const headers of [{}, { accept: '*/*' }]) {
      const res = await t.app.inject({ url: '/api', headers })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(res.body.trim().length).toBeGreaterThan(0)
      expect(res.body).not.toMatch(/^\{/)
    }
  })

  it('answers JSON with id, quote, author and status', async () => {
    const res = await t.app.inject({ url: '/api', headers: JSON_ACCEPT })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const body = res.json()
    expect(Value.Check(QuoteResponse, body)).toBe(true)
  })

  it('serves a page to browsers', async () => {
    const res = await t.app.inject({ url: '/api', headers: { accept: 'text/html' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toContain('Another one')
  })

  it('draws different quotes (uniform over the corpus)', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 30; i += 1) {
      ids.add((await t.app.inject({ url: '/api', headers: JSON_ACCEPT })).json().id)
    }
    expect(ids.size).toBeGreaterThan(20)
  })

  it('is the same resource as /', async () => {
    const res = await t.app.inject({ url: '/', headers: JSON_ACCEPT })
    expect(Value.Check(QuoteResponse, res.json())).toBe(true)
  })
})

describe('GET /api/q/:id', () => {
  it('answers the quote in each format', async () => {
    const json = await t.app.inject({ url: '/api/q/q1', headers: JSON_ACCEPT })
    expect(json.statusCode).toBe(200)
    const quote = json.json()
    expect(quote).toMatchObject({ id: 'q1', status: 200 })
    expect(Value.Check(QuoteResponse, quote)).toBe(true)

    const text = await t.app.inject({ url: '/api/q/q1' })
    expect(text.body).toBe(`${quote.quote}\n`)

    const html = await t.app.inject({ url: '/q/q1', headers: { accept: 'text/html' } })
    expect(html.body).toContain('href="/q/q1"')
    expect(html.body).toContain('<html lang="en">')
  })

  it('serves both the quotable and the fortunes seed sources', async () => {
    const { rows } = await t.app.pg.query(
      'SELECT source, count(*)::int AS n FROM quotes GROUP BY source ORDER BY source',
    )
    expect(rows.map((r) => r.source)).toEqual(['fortunes', 'quotable'])
    expect(rows.reduce((sum, r) => sum + r.n, 0)).toBeGreaterThanOrEqual(7000)
  })
})

describe('GET /api/search', () => {
  async function search(query: string) {
    const res = await t.app.inject({ url: `/api/search?${query}`, headers: JSON_ACCEPT })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(Value.Check(SearchResponse, body)).toBe(true)
    return body as SearchResponse
  }

  it('defaults: page 1, limit 20, search_term "" and every quote', async () => {
    const { rows } = await t.app.pg.query('SELECT count(*)::int AS n FROM quotes')
    const page = await search('')
    expect(page).toMatchObject({
      current_page: 1,
      limit: 20,
      next_page: 2,
      previous_page: 1,
      search_term: '',
      total_quotes: rows[0].n,
      total_pages: Math.ceil(rows[0].n / 20),
    })
    expect(page.results).toHaveLength(20)
  })

  it('clamps limit to 30 and says so', async () => {
    const page = await search('term=love&limit=50')
    expect(page.limit).toBe(30)
    expect(page.results).toHaveLength(30)
    expect(page.next_page).toBe(2)
    expect(page.previous_page).toBe(1)
    expect(page.total_pages).toBe(Math.ceil(page.total_quotes / 30))
  })

  it('matches case-insensitively in the text or the author, ordered by id', async () => {
    const page = await search('term=LoVe&limit=30')
    expect(page.total_quotes).toBeGreaterThan(30)
    for (const q of page.results) {
      expect(`${q.quote}\n${q.author}`.toLowerCase()).toContain('love')
    }
    const nums = page.results.map((q) => Number(q.id.slice(1)))
    expect(nums).toEqual([...nums].sort((a, b) => a - b))

    const byAuthor = await search('term=einstein')
    expect(byAuthor.total_quotes).toBeGreaterThan(0)
    expect(byAuthor.results.some((q) => q.author.toLowerCase().includes('einstein'))).toBe(true)
  })

  it('counts exactly what Postgres counts', async () => {
    const { rows } = await t.app.pg.query(
      "SELECT count(*)::int AS n FROM quotes WHERE lower(quote) LIKE '%love%' OR lower(author) LIKE '%love%'",
    )
    expect((await search('term=love')).total_quotes).toBe(rows[0].n)
  })

  it('pages without overlap or gaps', async () => {
    const first = await search('term=life&limit=7')
    const seen: string[] = []
    for (let page = 1; page <= first.total_pages; page += 1) {
      const body = await search(`term=life&limit=7&page=${page}`)
      expect(body.current_page).toBe(page)
      expect(body.next_page).toBe(Math.min(page + 1, first.total_pages))
      expect(body.previous_page).toBe(Math.max(page - 1, 1))
      seen.push(...body.results.map((q) => q.id))
    }
    expect(seen).toHaveLength(first.total_quotes)
    expect(new Set(seen).size).toBe(seen.length)
  })

  it('answers no match with total 0, one page and no results', async () => {
    const page = await search('term=zzqxjvkwzzqxjv')
    expect(page).toMatchObject({
      total_quotes: 0,
      total_pages: 1,
      next_page: 1,
      previous_page: 1,
      current_page: 1,
      results: [],
      search_term: 'zzqxjvkwzzqxjv',
    })
  })

  it('answers a page past the end with no results and its own current_page', async () => {
    const page = await search('term=love&page=9999')
    expect(page.results).toEqual([])
    expect(page.current_page).toBe(9999)
    expect(page.total_quotes).toBeGreaterThan(0)
  })

  it('treats LIKE wildcards and quotes in the term literally', async () => {
    expect((await search('term=%25')).total_quotes).toBeLessThan(50)
    expect((await search('term=_')).total_quotes).toBeLessThan(50)
    const apostrophe = await search(`term=${encodeURIComponent("don't")}`)
    expect(apostrophe.total_quotes).toBeGreaterThan(0)
  })

  it('prints one quote per line in plain text', async () => {
    const json = await search('term=love&limit=5')
    const text = await t.app.inject({ url: '/api/search?term=love&limit=5' })
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8')
    const lines = text.body.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toEqual(json.results.map((q) => q.quote.replace(/\s*[\r\n]+\s*/g, ' ')))
  })

  it('renders a page with a form, results and pagination links', async () => {
    const res = await t.app.inject({ url: '/search?term=love', headers: { accept: 'text/html' } })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('name="term"')
    expect(res.body).toContain('value="love"')
    expect(res.body).toContain('rel="next"')
    expect(res.body).toContain('href="/search?term=love&amp;page=2"')
  })
})
