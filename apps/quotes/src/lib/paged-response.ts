import type { FastifyReply, FastifyRequest } from 'fastify'
import { pageLinks, pagingLinkHeader } from './link-header.js'
import type { PageInfo } from './pagination.js'
import { sendNegotiated } from './respond.js'

export interface PagedResource {
  info: PageInfo
  /** The JSON body (an object with the paging members). */
  json: () => unknown
  /** The plain-text body. */
  text: () => string
  view: string
  title: string
  /** What the view reads as `it.page`. */
  page: () => unknown
}

/**
 * Sends one page of a paged list (authors, an author's quotes) in the negotiated format:
 * cacheable (`Cache-Control` and an ETag), with an RFC 8288 `Link` header to its neighbours.
 */
export function sendPaged(
  request: FastifyRequest,
  reply: FastifyReply,
  cacheControl: string,
  resource: PagedResource,
) {
  reply
    .header('cache-control', cacheControl)
    .header('link', pagingLinkHeader(request.url, resource.info))
  return sendNegotiated(request, reply, {
    view: resource.view,
    data: () => ({
      title: resource.title,
      page: resource.page(),
      links: pageLinks(request.url, resource.info),
    }),
    json: resource.json,
    text: resource.text,
  })
}
