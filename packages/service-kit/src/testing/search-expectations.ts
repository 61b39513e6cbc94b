// What a quotes search page must say, asserted alike by the quotes app's tests (app.inject) and
// the e2e suite (real HTTP): vitest-bound, through '@repo/service-kit/vitest'.
import {
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  type SearchResponse,
  SearchResponse as SearchResponseSchema,
} from '@repo/contracts'
import { Value } from 'typebox/value'
import { expect } from 'vitest'

/** A search answer's JSON body, checked against the contract; returned typed. */
export function expectSearchPage(body: unknown): SearchResponse {
  expect(Value.Check(SearchResponseSchema, body), JSON.stringify(body).slice(0, 300)).toBe(true)
  return body as SearchResponse
}

/** The first page of a search, `limit` results a page: paging fields consistent with the total. */
export function expectFirstPage(page: SearchResponse, term: string, limit: number): void {
  expect(page).toMatchObject({
    current_page: 1,
    limit,
    next_page: 2,
    previous_page: 1,
    search_term: term,
    status: 200,
  })
  expect(page.results).toHaveLength(limit)
  expect(page.total_pages).toBe(Math.ceil(page.total_quotes / limit))
}

/** No term: the first page of every quote, at the default limit. */
export const expectEveryQuoteFirstPage = (page: SearchResponse): void =>
  expectFirstPage(page, '', SEARCH_DEFAULT_LIMIT)

/** A limit above the maximum, clamped to it (and said so in `limit`). */
export function expectClampedLimit(page: SearchResponse, term: string): void {
  expectFirstPage(page, term, SEARCH_MAX_LIMIT)
  expect(page.total_quotes).toBeGreaterThan(SEARCH_MAX_LIMIT)
}

/** Quotes that all contain `term` (any case) in their text or author, by id, none twice. */
export function expectMatchesInIdOrder(results: SearchResponse['results'], term: string): void {
  for (const q of results) expect(`${q.quote}\n${q.author}`.toLowerCase()).toContain(term)
  const ids = results.map((q) => Number(q.id.slice(1)))
  expect(ids).toEqual([...ids].sort((a, b) => a - b))
  expect(new Set(ids).size).toBe(ids.length)
}

/** A term nothing matches: total 0, one page, no results. */
export function expectNoMatch(page: SearchResponse, term: string): void {
  expect(page).toEqual({
    current_page: 1,
    limit: SEARCH_DEFAULT_LIMIT,
    next_page: 1,
    previous_page: 1,
    results: [],
    search_term: term,
    status: 200,
    total_quotes: 0,
    total_is_estimate: false,
    total_pages: 1,
  })
}

/** The plain-text form of a search page: each result's text on one line. */
export function expectPlainResults(text: string, page: SearchResponse): void {
  const lines = text.split('\n')
  expect(lines.pop()).toBe('')
  expect(lines).toEqual(page.results.map((q) => q.quote.replace(/\s*[\r\n]+\s*/g, ' ')))
}

/** The HTML search page: the form with the term, and a link to the next page. */
export function expectSearchHtml(html: string, term: string): void {
  expect(html).toContain('name="term"')
  expect(html).toContain(`value="${term}"`)
  expect(html).toContain('rel="next"')
}
