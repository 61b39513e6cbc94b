import * as searchPage from '@repo/service-kit/vitest'
import { describe, expect, it } from 'vitest'
import { QUOTES_URL } from './support/env.js'
import { getWithoutAccept } from './support/http.js'
import {
  expectHtml,
  expectPlain,
  get,
  HTML_TYPE,
  noMatchTerm,
  searchJson,
} from './support/quotes.js'

// GET /api/search (and the /search page): paging, matching, each format.
describe('GET /api/search', () => {
  it('without a term: search_term "", page 1, limit 20, every quote', async () => {
    const page = await searchJson('')
    searchPage.expectEveryQuoteFirstPage(page)
    expect(page.total_quotes).toBeGreaterThan(1000)
  })

  it('clamps limit=50 to 30 and says so, with consistent paging fields', async () => {
    searchPage.expectClampedLimit(await searchJson('term=love&limit=50'), 'love')
  })

  it('matches case-insensitively in text or author, ordered by id, pages without overlap', async () => {
    const first = await searchJson('term=LoVe&limit=30')
    const second = await searchJson('term=LoVe&limit=30&page=2')
    expect(first.search_term).toBe('LoVe')
    expect(second).toMatchObject({
      current_page: 2,
      previous_page: 1,
      next_page: Math.min(3, first.total_pages),
    })
    searchPage.expectMatchesInIdOrder([...first.results, ...second.results], 'love')
  })

  it('the last page: next_page stays at total_pages', async () => {
    const first = await searchJson('term=love&limit=30')
    const last = await searchJson(`term=love&limit=30&page=${first.total_pages}`)
    expect(last).toMatchObject({
      current_page: first.total_pages,
      next_page: first.total_pages,
      previous_page: Math.max(first.total_pages - 1, 1),
    })
    expect(last.results.length).toBe(first.total_quotes - 30 * (first.total_pages - 1))
  })

  it('no match: total 0, one page, no results', async () => {
    const term = noMatchTerm()
    searchPage.expectNoMatch(await searchJson(`term=${term}`), term)
  })

  it('a page past the end: no results, its own current_page', async () => {
    const page = await searchJson('term=love&page=99999')
    expect(page.results).toEqual([])
    expect(page.current_page).toBe(99999)
    expect(page.total_quotes).toBeGreaterThan(0)
    expect(page.next_page).toBe(page.total_pages)
    expect(page.previous_page).toBe(99998)
  })

  it('plain text: the result texts, one per line', async () => {
    const json = await searchJson('term=love&limit=5')
    for (const res of [
      await getWithoutAccept(`${QUOTES_URL}/api/search?term=love&limit=5`),
      await get('/api/search?term=love&limit=5', '*/*'),
    ]) {
      expect(res.status).toBe(200)
      expectPlain(res)
      searchPage.expectPlainResults(res.text, json)
    }
  })

  it('HTML: the form, the results and pagination links (also at /search)', async () => {
    for (const path of ['/api/search?term=love', '/search?term=love']) {
      const res = await get(path, HTML_TYPE)
      expect(res.status).toBe(200)
      expectHtml(res)
      searchPage.expectSearchHtml(res.text, 'love')
    }
  })
})
