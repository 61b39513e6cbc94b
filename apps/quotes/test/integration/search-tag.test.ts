import { Problem, SearchResponse } from '@repo/contracts'
import type { QueryResult } from 'pg'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { EXACT_LIMIT } from '../../src/lib/search-query.js'
import { inlined } from '../../src/lib/search-statement.js'
import { likePattern } from '../../src/lib/search-term.js'
import { TAG_PLAN_SETTINGS, taggedPageQuery } from '../../src/lib/tag-search.js'
import { JSON_ACCEPT, useTestApp } from '../support/test-app.js'

const t = useTestApp('search_tag')

async function search(query: string) {
  const res = await t.app.inject({ url: `/api/search?${query}`, headers: JSON_ACCEPT })
  expect(res.statusCode, query).toBe(200)
  const body: SearchResponse = res.json()
  expect(Value.Check(SearchResponse, body)).toBe(true)
  return { res, body, ids: body.results.map((q) => Number(q.id.slice(1))) }
}

/** The quotes carrying `tag` whose text or author contains `term`, in id order (from Postgres). */
async function truth(tag: string, term = ''): Promise<number[]> {
  const { rows } = await t.app.pg.query<{ num: number }>(
    `SELECT q.num FROM quotes q JOIN quote_tags qt ON qt.num = q.num JOIN tags g ON g.id = qt.tag_id
      WHERE g.slug = $1 AND q.search_text LIKE lower($2) ORDER BY q.num`,
    [tag, likePattern(term)],
  )
  return rows.map((row) => row.num)
}

describe('GET /api/search?tag=', () => {
  it('keeps the quotes carrying the tag, in id order, counted exactly, the tag kept in Link', async () => {
    const expected = await truth('wisdom')
    expect(expected.length).toBeGreaterThan(60)
    const { res, body, ids } = await search('tag=wisdom&limit=30&page=2')
    expect(body).toMatchObject({ total_quotes: expected.length, total_is_estimate: false })
    expect(ids).toEqual(expected.slice(30, 60))
    for (const quote of body.results) expect(quote.tags).toContain('wisdom')
    expect(res.headers.link).toContain('</api/search?tag=wisdom&limit=30&page=3>; rel="next"')
    expect(res.headers.link).toContain('</api/search?tag=wisdom&limit=30&page=1>; rel="first"')
  })

  it('combines a tag with a term: a term counted exactly, and one with more matches', async () => {
    // `life` has its matches in memory; `the` has more than EXACT_LIMIT (found in Postgres).
    for (const [term, tag] of [
      ['life', 'wisdom'],
      ['the', 'famous-quotes'],
      ["don't", 'famous-quotes'],
    ] as const) {
      const expected = await truth(tag, term)
      expect(expected.length, term).toBeGreaterThan(20)
      expect(expected.length, term).toBeLessThanOrEqual(EXACT_LIMIT)
      const { body, ids } = await search(`term=${encodeURIComponent(term)}&tag=${tag}&page=2`)
      expect(body, term).toMatchObject({ total_quotes: expected.length, total_is_estimate: false })
      expect(ids, term).toEqual(expected.slice(20, 40))
    }
  })

  it('estimates the total of more than EXACT_LIMIT matches within a tag, and pages exactly', async () => {
    const expected = await truth('famous-quotes', '.')
    expect(expected.length).toBeGreaterThan(EXACT_LIMIT)
    const first = await search('term=.&tag=famous-quotes&limit=30')
    expect(first.body.total_is_estimate).toBe(true)
    expect(first.body.total_quotes).toBeGreaterThan(EXACT_LIMIT)
    expect(Math.abs(first.body.total_quotes - expected.length)).toBeLessThan(expected.length / 3)
    expect(first.ids).toEqual(expected.slice(0, 30))
    for (const page of [2, 30, 36]) {
      const { ids } = await search(`term=.&tag=famous-quotes&limit=30&page=${page}`)
      expect(ids, `page ${page}`).toEqual(expected.slice((page - 1) * 30, page * 30))
    }
  })

  it('answers a tag no quote carries with an empty page (200), with or without a term', async () => {
    for (const query of ['tag=no-such-tag', 'tag=no-such-tag&term=love']) {
      const { body } = await search(query)
      expect(body).toMatchObject({ total_quotes: 0, total_pages: 1, results: [] })
    }
    const page = await t.app.inject({
      url: '/search?tag=no-such-tag',
      headers: { accept: 'text/html' },
    })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('No quote matches.')
  })

  it('refuses a tag that is not a slug with 400, in the negotiated format', async () => {
    const bad = ['Self%20Help', '', 'self--help', '-x', 'x'.repeat(101), '%00', 'wisdom&tag=life']
    for (const tag of bad) {
      const res = await t.app.inject({ url: `/api/search?tag=${tag}`, headers: JSON_ACCEPT })
      expect(res.statusCode, tag).toBe(400)
      expect(Value.Check(Problem, res.json()), tag).toBe(true)
    }
    const text = await t.app.inject({ url: '/api/search?term=love&tag=Self%20Help' })
    expect(text.statusCode).toBe(400)
    expect(text.headers['content-type']).toMatch(/^text\/plain/)
  })

  it('keeps the tag in the pages’ links and says it in the heading', async () => {
    const res = await t.app.inject({ url: '/search?tag=wisdom', headers: { accept: 'text/html' } })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('Quotes tagged “wisdom”')
    expect(res.body).toContain('href="/search?tag=wisdom&amp;page=2" rel="next"')
    const both = await t.app.inject({
      url: '/search?term=life&tag=wisdom&limit=5',
      headers: { accept: 'text/html' },
    })
    expect(both.body).toContain('Quotes matching “life” tagged “wisdom”')
    expect(both.body).toContain('href="/search?term=life&amp;tag=wisdom&amp;limit=5&amp;page=2"')
  })

  it('walks the tag’s quotes in id order for a page, never the whole corpus', async () => {
    await t.app.pg.query('ANALYZE quotes, quote_search, quote_tags')
    const { rows } = await t.app.pg.query<{ id: number }>(
      "SELECT id FROM tags WHERE slug = 'famous-quotes'",
    )
    const query = taggedPageQuery('the', rows[0]?.id as number, 600, 20)
    const results = (await t.app.pg.query(
      `${TAG_PLAN_SETTINGS.page}; EXPLAIN ${inlined(query)}`,
    )) as unknown as QueryResult[]
    const explained = (results.at(-1)?.rows ?? []).map((row) => row['QUERY PLAN']).join('\n')
    // The outer side (listed first) is the tag's quotes in id order; each is looked up.
    expect(explained).toMatch(/Nested Loop[\s\S]*quote_tags_pkey[\s\S]*quote_search_pkey/)
    expect(explained).not.toMatch(/Sort|Seq Scan|Merge|Hash/)
  })
})
