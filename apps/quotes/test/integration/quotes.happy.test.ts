import { QuoteResponse } from '@repo/contracts'
import {
  expectClampedLimit,
  expectEveryQuoteFirstPage,
  expectMatchesInIdOrder,
  expectNoMatch,
  expectPlainResults,
  expectSearchHtml,
  expectSearchPage,
} from '@repo/service-kit/vitest'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { JSON_ACCEPT, useTestApp } from '../support/test-app.js'

const t = useTestApp('happy')

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

describe('stylesheets', () => {
  it("links the kit's shared stylesheet, then its own, and serves both", async () => {
    const page = await t.app.inject({ url: '/', headers: { accept: 'text/html' } })
    const links = [...page.body.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map(
      (m) => m[1],
    )
    expect(links).toEqual(['/static/kit/kit.css', '/static/style.css'])
    const [kit, own] = await Promise.all(links.map((url) => t.app.inject({ url })))
    expect(kit?.statusCode).toBe(200)
    expect(kit?.headers['content-type']).toMatch(/^text\/css/)
    // The common rules are the kit's; the app's file sets its own look on top.
    expect(kit?.body).toContain('.skip-link')
    expect(own?.body).not.toContain('.skip-link')
    expect(own?.body).toContain('--font: Georgia')
  })
})

describe('GET /api/search', () => {
  async function search(query: string) {
    const res = await t.app.inject({ url: `/api/search?${query}`, headers: JSON_ACCEPT })
    expect(res.statusCode).toBe(200)
    return expectSearchPage(res.json())
  }

  it('defaults: page 1, limit 20, search_term "" and every quote', async () => {
    const { rows } = await t.app.pg.query('SELECT count(*)::int AS n FROM quotes')
    const page = await search('')
    expectEveryQuoteFirstPage(page)
    expect(page.total_quotes).toBe(rows[0].n)
  })

  it('clamps limit to 30 and says so', async () => {
    expectClampedLimit(await search('term=love&limit=50'), 'love')
  })

  it('matches case-insensitively in the text or the author, ordered by id', async () => {
    const page = await search('term=LoVe&limit=30')
    expect(page.total_quotes).toBeGreaterThan(30)
    expectMatchesInIdOrder(page.results, 'love')

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
    expectNoMatch(await search('term=zzqxjvkwzzqxjv'), 'zzqxjvkwzzqxjv')
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
    expectPlainResults(text.body, json)
  })

  it('renders a page with a form, results and pagination links', async () => {
    const res = await t.app.inject({ url: '/search?term=love', headers: { accept: 'text/html' } })
    expect(res.statusCode).toBe(200)
    expectSearchHtml(res.body, 'love')
    expect(res.body).toContain('href="/search?term=love&amp;page=2"')
  })
})
