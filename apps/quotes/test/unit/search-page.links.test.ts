import { describe, expect, it } from 'vitest'
import { pageInfo } from '../../src/lib/pagination.js'
import { searchLinks } from '../../src/lib/search-page.js'

describe('searchLinks without a term', () => {
  it('leaves the term out of the URL (the page lists every quote)', () => {
    const links = searchLinks(
      { info: pageInfo(50, 2, 20), term: '', total: 50, estimated: false, results: [] },
      20,
    )
    expect(links.previous).toBe('/search?page=1')
    expect(links.next).toBe('/search?page=3')
    expect(links.last).toBe('/search?page=3')
  })
})
