import { SearchResponse } from '@repo/contracts'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { pageInfo } from '../../src/lib/pagination.js'
import {
  searchLinks,
  searchPageJson,
  searchPageObject,
  searchPageText,
} from '../../src/lib/search-page.js'
import { storedQuote } from '../../src/lib/stored-quote.js'

const results = [storedQuote(3, 'First\nquote', 'A'), storedQuote(9, 'Second "quote"', 'B')]

describe('search page representations', () => {
  const page = { info: pageInfo(42, 2, 2), term: 'quo"te', total: 42, estimated: false, results }

  it('writes JSON equal to the object form, and valid per the contract', () => {
    const parsed = JSON.parse(searchPageJson(page))
    expect(parsed).toEqual(searchPageObject(page))
    expect(Value.Check(SearchResponse, parsed)).toBe(true)
    expect(parsed).toMatchObject({
      current_page: 2,
      limit: 2,
      next_page: 3,
      previous_page: 1,
      search_term: 'quo"te',
      total_quotes: 42,
      total_pages: 21,
    })
  })

  it('writes plain text one quote per line, nothing else', () => {
    expect(searchPageText(page)).toBe('First quote\nSecond "quote"\n')
    expect(searchPageText({ ...page, results: [] })).toBe('')
  })

  it('links to neighbouring pages with nice URLs, keeping term and a non-default limit', () => {
    const links = searchLinks(page, 20)
    expect(links.previous).toBe('/search?term=quo%22te&limit=2&page=1')
    expect(links.next).toBe('/search?term=quo%22te&limit=2&page=3')
  })

  it('has no previous link on page 1 and no next link on the last page', () => {
    expect(searchLinks({ ...page, info: pageInfo(42, 1, 20) }, 20)).toMatchObject({
      previous: undefined,
    })
    expect(searchLinks({ ...page, info: pageInfo(42, 3, 20) }, 20)).toMatchObject({
      next: undefined,
    })
  })

  it('sends a page past the end back to the last page', () => {
    const links = searchLinks({ ...page, info: pageInfo(42, 10, 20), results: [] }, 20)
    expect(links.previous).toBe('/search?term=quo%22te&page=3')
    expect(links.last).toBe('/search?term=quo%22te&page=3')
  })
})
