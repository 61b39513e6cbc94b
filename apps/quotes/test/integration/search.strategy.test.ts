import { SearchResponse } from '@repo/contracts'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EXACT_LIMIT,
  estimatedPage,
  firstMatches,
  firstMatchesQuery,
  pageQuery,
} from '../../src/lib/search-query.js'
import { PLAN_SETTINGS, type Query } from '../../src/lib/search-statement.js'
import { likePattern } from '../../src/lib/search-term.js'
import { explain } from '../support/small-corpus.js'
import { createTestApp, JSON_ACCEPT, type TestApp } from '../support/test-app.js'

let t: TestApp
let nums: Int32Array

beforeAll(async () => {
  t = await createTestApp('search_strategy')
  await t.app.pg.query('ANALYZE quotes, quote_search')
  const { rows } = await t.app.pg.query('SELECT num FROM quotes ORDER BY num')
  nums = Int32Array.from(rows, (row) => row.num)
})
afterAll(async () => {
  await t?.close()
})

async function search(term: string, query = ''): Promise<SearchResponse> {
  const res = await t.app.inject({
    url: `/api/search?term=${encodeURIComponent(term)}${query}`,
    headers: JSON_ACCEPT,
  })
  expect(res.statusCode).toBe(200)
  const body = res.json()
  expect(Value.Check(SearchResponse, body)).toBe(true)
  return body
}

/** What Postgres says matches `where` ($1), in id order: the ground truth. */
async function truth(where: string, value: string): Promise<number[]> {
  const { rows } = await t.app.pg.query(`SELECT num FROM quotes WHERE ${where} ORDER BY num`, [
    value,
  ])
  return rows.map((row) => row.num)
}
const substring = (term: string) => truth('search_text LIKE lower($1)', likePattern(term))
const ids = (page: SearchResponse) => page.results.map((q) => Number(q.id.slice(1)))

/**
 * The plan of one of the service's own queries, sent as the service sends it: its plan settings
 * and the statement with the term inlined, in one message.
 */
const plan = (settings: string, query: Query) => explain(t.app.pg, settings, query)

describe('search plans (the service’s own queries through EXPLAIN)', () => {
  it('finds candidates with an index of quote_search, for every kind of term', async () => {
    // 4-grams from 4 characters of the normalized key ('of' is the word 'ǂofǂ'), trigrams below.
    const quads = ['wisdom', 'of', "don't", 'einstein']
    for (const term of [...quads, 'the', 'a']) {
      const index = quads.includes(term) ? 'quads' : 'trgm'
      const explained = await plan(PLAN_SETTINGS.index, firstMatchesQuery(term))
      expect(explained, term).toContain(`Bitmap Index Scan on quote_search_words_${index}`)
    }
    // A page searched in an id range reads that range only: the primary key's range, ANDed with
    // a GIN index where that pays (Postgres's choice; a narrow range alone here).
    const ranged = await plan(PLAN_SETTINGS.planner, pageQuery('love', 0, 20, { below: nums[300] }))
    expect(ranged).toMatch(/quote_search_pkey[\s\S]*Index Cond: \(num <= \d+\)/)
    expect(ranged).not.toContain('Seq Scan')
  })

  it('walks the primary key in id order for a common term’s page', async () => {
    const explained = await plan(PLAN_SETTINGS.walk, pageQuery('the', 0, 20, { walk: true }))
    expect(explained).toContain('Index Scan using quote_search_pkey')
    expect(explained).not.toContain('Sort')
  })
})

describe('totals: exact up to EXACT_LIMIT, estimated above', () => {
  it('counts a term with few matches exactly', async () => {
    const expected = await substring('wisdom')
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThanOrEqual(EXACT_LIMIT)
    const page = await search('wisdom')
    expect(page.total_is_estimate).toBe(false)
    expect(page.total_quotes).toBe(expected.length)
    expect(ids(page)).toEqual(expected.slice(0, 20))
  })

  it('estimates a common term, says so, and still pages exactly in id order', async () => {
    const expected = await substring('the')
    expect(expected.length).toBeGreaterThan(EXACT_LIMIT)
    const first = await search('the', '&limit=30')
    expect(first.total_is_estimate).toBe(true)
    expect(first.total_quotes).toBeGreaterThan(EXACT_LIMIT)
    // An estimate, but a fair one: within a third of the true count.
    expect(Math.abs(first.total_quotes - expected.length)).toBeLessThan(expected.length / 3)
    expect(first.total_pages).toBe(Math.ceil(first.total_quotes / 30))
    for (const page of [1, 2, 7, 40]) {
      const body = page === 1 ? first : await search('the', `&limit=30&page=${page}`)
      expect(body.total_quotes).toBe(first.total_quotes)
      expect(ids(body)).toEqual(expected.slice((page - 1) * 30, page * 30))
    }
  })

  it('gives the same pages whichever strategy finds them (walk, index range, whole index)', async () => {
    const term = 'love'
    const expected = await substring(term)
    const matches = { ...(await firstMatches(t.app.pg, term)), estimated: true }
    const corpus = { size: nums.length, idAt: (i: number) => nums[i], sample: [] }
    for (const offset of [0, 20, 300, expected.length - 5]) {
      const want = expected.slice(offset, offset + 20)
      for (const walkMaxRows of [Number.POSITIVE_INFINITY, 0]) {
        const got = await estimatedPage(t.app.pg, corpus, term, matches, offset, 20, {
          walkMaxRows,
        })
        expect(got, `offset ${offset}, walk up to ${walkMaxRows}`).toEqual(want)
      }
    }
    // An estimate far too high puts the page past the range first searched: asked again whole.
    const tooHigh = { ...matches, total: 1_000_000 }
    const got = await estimatedPage(t.app.pg, corpus, term, tooHigh, 100, 20, { walkMaxRows: 0 })
    expect(got).toEqual(expected.slice(100, 120))
  })

  it('renders an estimate as “About N quotes” (and its pager as “of about”) in HTML', async () => {
    const res = await t.app.inject({ url: '/search?term=the', headers: { accept: 'text/html' } })
    expect(res.statusCode).toBe(200)
    expect(res.body).toMatch(/About [\d,]+ quotes, page 1 of about [\d,]+\./)
    expect(res.body).toMatch(/<span aria-current="page">Page 1 of about [\d,]+<\/span>/)
    const exact = await t.app.inject({
      url: '/search?term=wisdom',
      headers: { accept: 'text/html' },
    })
    expect(exact.body).not.toContain('About')
    expect(exact.body).toMatch(/<span aria-current="page">Page 1 of \d+<\/span>/)
  })
})

describe('terms of 1-2 letters or digits match whole words', () => {
  const wholeWord = (term: string) =>
    truth('search_text ~ $1', `(^|[^[:alnum:]])${term}($|[^[:alnum:]])`)

  it('matches the word, not the letters inside other words', async () => {
    for (const term of ['of', 'A', 'me']) {
      const expected = await wholeWord(term.toLowerCase())
      const page = await search(term)
      expect(ids(page), term).toEqual(expected.slice(0, 20))
      if (!page.total_is_estimate) expect(page.total_quotes).toBe(expected.length)
      for (const q of page.results) {
        expect(`${q.quote}\u001f${q.author}`.toLowerCase()).toMatch(
          new RegExp(`(^|[^\\p{L}\\p{N}])${term.toLowerCase()}($|[^\\p{L}\\p{N}])`, 'u'),
        )
      }
    }
  })

  it('answers a two-letter string that is no word with no match, quickly', async () => {
    const started = performance.now()
    const page = await search('xq')
    expect(page).toMatchObject({ total_quotes: 0, total_is_estimate: false, results: [] })
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('keeps punctuation literal and does not let a phrase span the quote and the author', async () => {
    for (const term of ["don't", 'life.', ', and', '%', '!', '\\', 'a_b', 'A_B']) {
      const expected = await substring(term)
      const page = await search(term)
      expect(ids(page), term).toEqual(expected.slice(0, 20))
      if (!page.total_is_estimate) expect(page.total_quotes, term).toBe(expected.length)
    }
  })
})
