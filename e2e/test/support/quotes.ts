// The quotes service over HTTP: requests in a chosen format and the checks of each format,
// shared by the quotes*.e2e.test.ts files.
import { randomBytes } from 'node:crypto'
import { unwrap } from '@repo/client'
import type { QuoteResponse, SearchResponse } from '@repo/contracts'
import { expectSearchPage } from '@repo/service-kit/vitest'
import { expect } from 'vitest'
import { quotesApi } from './clients.js'
import { QUOTES_URL } from './env.js'
import { type Answer, http, listHeader } from './http.js'

export const JSON_TYPE = 'application/json'
export const HTML_TYPE = 'text/html'

/** A GET of the quotes service, with an Accept header when `accept` is given. */
export function get(path: string, accept?: string, headers: Record<string, string> = {}) {
  return http(`${QUOTES_URL}${path}`, { headers: { ...(accept ? { accept } : {}), ...headers } })
}

export function expectPlain(res: Answer) {
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
}
export function expectHtml(res: Answer) {
  expect(res.headers.get('content-type')).toMatch(/^text\/html/)
  expect(res.text).toMatch(/^<!doctype html>/i)
}
export function expectVaryAccept(res: Answer) {
  expect(listHeader(res.headers, 'vary')).toContain('accept')
}

/**
 * GET /api/search?`query` as JSON through the typed client (`page` and `limit` are numbers
 * there), checked against the contract.
 */
export async function searchJson(query: string): Promise<SearchResponse> {
  const { term, page, limit, ...rest } = Object.fromEntries(new URLSearchParams(query))
  expect(rest, 'searchJson takes term, page and limit only').toEqual({})
  const { data, response } = await quotesApi.GET('/api/search', {
    params: {
      query: {
        ...(term === undefined ? {} : { term }),
        ...(page === undefined ? {} : { page: Number(page) }),
        ...(limit === undefined ? {} : { limit: Number(limit) }),
      },
    },
  })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  return expectSearchPage(data)
}

/** A term no quote contains: a random run of rare letters. */
export function noMatchTerm(): string {
  return `zqx${[...randomBytes(10)].map((b) => 'qxzjvk'[b % 6]).join('')}`
}

/** A quote that exists, found through the API itself (the suite assumes no fixed corpus). */
export async function someQuote(): Promise<QuoteResponse> {
  const first = await searchJson('limit=1')
  expect(first.results).toHaveLength(1)
  return unwrap(
    quotesApi.GET('/api/q/{id}', { params: { path: { id: first.results[0]?.id ?? '' } } }),
  )
}
