import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from '@repo/contracts'

export interface PageInfo {
  current_page: number
  limit: number
  next_page: number
  previous_page: number
  total_pages: number
  offset: number
}

/** Larger requested limits are clamped, and the response says so by echoing the clamped value. */
export function clampLimit(limit: number | undefined): number {
  return Math.min(limit ?? SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT)
}

/**
 * The spec's paging rules: at least one page; `next_page` never passes the last page and
 * `previous_page` never goes below 1, so both are 1 when there is a single page. A page past the
 * end keeps its own number (and gets no results).
 */
export function pageInfo(total: number, page: number, limit: number): PageInfo {
  const total_pages = Math.max(1, Math.ceil(total / limit))
  return {
    current_page: page,
    limit,
    next_page: Math.min(page + 1, total_pages),
    previous_page: Math.max(page - 1, 1),
    total_pages,
    offset: (page - 1) * limit,
  }
}

/** The paging members of a paged JSON body (search, authors, an author's quotes), and `status`. */
export function pagingMembers(info: PageInfo) {
  return {
    current_page: info.current_page,
    limit: info.limit,
    next_page: info.next_page,
    previous_page: info.previous_page,
    total_pages: info.total_pages,
    status: 200 as const,
  }
}
