import type { PageInfo } from './pagination.js'

/**
 * An RFC 8288 `Link` header for a paged resource: first, prev, next and last, as references
 * relative to the request (same path, same query, only `page` changed). `prev` and `next` are
 * left out on the first and last page; a page past the end gets `prev` to the last one.
 */
export function pagingLinkHeader(url: string, info: PageInfo): string {
  const href = pageHref(url)
  const { current_page: current, total_pages: last } = info
  const links = [`<${href(1)}>; rel="first"`]
  if (current > 1) links.push(`<${href(Math.min(current - 1, last))}>; rel="prev"`)
  if (current < last) links.push(`<${href(current + 1)}>; rel="next"`)
  links.push(`<${href(last)}>; rel="last"`)
  return links.join(', ')
}

/** Builds `url` with its `page` parameter set to a given page. */
function pageHref(url: string): (page: number) => string {
  const [path = '/', query = ''] = url.split('?', 2)
  return (page) => {
    const params = new URLSearchParams(query)
    params.set('page', String(page))
    return `${path}?${params.toString()}`
  }
}

/** The page navigation links of a paged HTML page (same path and query, `page` changed). */
export function pageLinks(url: string, info: PageInfo) {
  const href = pageHref(url)
  const { current_page: current, total_pages: last } = info
  return {
    previous: current > 1 ? href(Math.min(current - 1, last)) : undefined,
    next: current < last ? href(current + 1) : undefined,
    last: href(last),
  }
}
