import { SEARCH_DEFAULT_LIMIT, type SearchResponse } from '@repo/contracts'
import { pageLinks } from './link-header.js'
import { type PageInfo, pagingMembers } from './pagination.js'
import { quoteItem, type StoredQuote } from './stored-quote.js'

export interface SearchPage {
  info: PageInfo
  term: string
  /** The tag searched within, if any. */
  tag?: string
  total: number
  /** The total is an estimate (a term with more matches than are counted exactly). */
  estimated: boolean
  results: StoredQuote[]
}

/** The JSON body, assembled from each quote's pre-serialized form (same shape as SearchResponse). */
export function searchPageJson(page: SearchPage): string {
  const { info } = page
  return (
    `{"current_page":${info.current_page},"limit":${info.limit},` +
    `"next_page":${info.next_page},"previous_page":${info.previous_page},` +
    `"results":[${page.results.map((q) => q.itemJson).join(',')}],` +
    `"search_term":${JSON.stringify(page.term)},"status":200,` +
    `"total_quotes":${page.total},"total_is_estimate":${page.estimated},` +
    `"total_pages":${info.total_pages}}`
  )
}

/** Plain text: the texts of the results, one per line, nothing else. */
export function searchPageText(page: SearchPage): string {
  return page.results.map((q) => `${q.line}\n`).join('')
}

/** The object form, for templates and tests. */
export function searchPageObject(page: SearchPage): SearchResponse {
  return {
    ...pagingMembers(page.info),
    results: page.results.map(quoteItem),
    search_term: page.term,
    total_quotes: page.total,
    total_is_estimate: page.estimated,
  }
}

/** Links a page's navigation uses (nice URLs, keeping the term, tag and a non-default limit). */
export function searchLinks(page: SearchPage, defaultLimit = SEARCH_DEFAULT_LIMIT) {
  const params = new URLSearchParams()
  if (page.term !== '') params.set('term', page.term)
  if (page.tag !== undefined) params.set('tag', page.tag)
  if (page.info.limit !== defaultLimit) params.set('limit', String(page.info.limit))
  return pageLinks(`/search?${params.toString()}`, page.info)
}
