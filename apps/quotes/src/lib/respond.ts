import type { FastifyReply, FastifyRequest } from 'fastify'
import { etagOf, sendCacheable } from './etag.js'
import { negotiate } from './negotiate.js'
import type { StoredQuote } from './stored-quote.js'

export const JSON_TYPE = 'application/json; charset=utf-8'
export const TEXT_TYPE = 'text/plain; charset=utf-8'

/** Sends `body`, with its ETag (and 304 when the client has it) when one is given. */
export function sendBody(
  request: FastifyRequest,
  reply: FastifyReply,
  body: string,
  etag?: string,
) {
  return etag === undefined ? reply.send(body) : sendCacheable(request, reply, etag, body)
}

/** Renders a view in the layout; cacheable pages carry the ETag of their HTML. */
export async function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  view: string,
  cacheable: boolean,
  data: Record<string, unknown>,
): Promise<FastifyReply> {
  const html = await reply.viewAsync(view, data)
  reply.type('text/html; charset=utf-8')
  return sendBody(request, reply, html, cacheable ? etagOf(html) : undefined)
}

/** A cacheable resource in the three negotiated formats (each built only when asked for). */
export interface Negotiated {
  view: string
  /** The view's data (`title` and what the view reads). */
  data: () => Record<string, unknown>
  /** The JSON body, as an object. */
  json: () => unknown
  /** The plain-text body. */
  text: () => string
}

/** Sends a resource as a page, JSON or plain text by the Accept header, with its ETag. */
export function sendNegotiated(request: FastifyRequest, reply: FastifyReply, resource: Negotiated) {
  reply.header('vary', 'Accept')
  const format = negotiate(request.headers.accept)
  if (format === 'html') return sendPage(request, reply, resource.view, true, resource.data())
  const body = format === 'json' ? JSON.stringify(resource.json()) : resource.text()
  reply.type(format === 'json' ? JSON_TYPE : TEXT_TYPE)
  return sendCacheable(request, reply, etagOf(body), body)
}

/** The origin absolute links are built on: PUBLIC_URL when set, else the request's own. */
export function originOf(request: FastifyRequest): string {
  return request.server.publicUrl || `${request.protocol}://${request.host}`
}

/** Open Graph and Twitter card tags of a quote page: its share card, at an absolute URL. */
export function shareMeta(request: FastifyRequest, quote: StoredQuote) {
  const origin = originOf(request)
  const image = `${origin}/q/${quote.id}.png`
  const title = `${quote.author} on Quotes`
  const text = quote.quote.length > 200 ? `${quote.quote.slice(0, 197)}…` : quote.quote
  return [
    { attr: 'property', key: 'og:type', content: 'article' },
    { attr: 'property', key: 'og:site_name', content: 'Quotes' },
    { attr: 'property', key: 'og:title', content: title },
    { attr: 'property', key: 'og:description', content: text },
    { attr: 'property', key: 'og:url', content: `${origin}/q/${quote.id}` },
    { attr: 'property', key: 'og:image', content: image },
    { attr: 'property', key: 'og:image:type', content: 'image/png' },
    { attr: 'property', key: 'og:image:width', content: '1200' },
    { attr: 'property', key: 'og:image:height', content: '630' },
    { attr: 'property', key: 'og:image:alt', content: `“${text}” — ${quote.author}` },
    { attr: 'name', key: 'twitter:card', content: 'summary_large_image' },
    { attr: 'name', key: 'twitter:title', content: title },
    { attr: 'name', key: 'twitter:description', content: text },
    { attr: 'name', key: 'twitter:image', content: image },
  ]
}

export interface QuotePageOptions {
  /** Page heading (visually hidden on a plain quote page). */
  heading?: string
  headingVisible?: boolean
  /** Where "Another one" leads (a filtered random keeps its filters). */
  anotherHref?: string
  /** JSON body instead of the quote's own (the quote of the day adds its date). */
  json?: string
}

/** Sends a quote in the negotiated format; cacheable representations carry an ETag. */
export function sendQuote(
  request: FastifyRequest,
  reply: FastifyReply,
  quote: StoredQuote,
  cacheable: boolean,
  options: QuotePageOptions = {},
): FastifyReply | Promise<FastifyReply> {
  reply.header('vary', 'Accept')
  switch (negotiate(request.headers.accept)) {
    case 'json': {
      reply.type(JSON_TYPE)
      const body = options.json ?? quote.json
      // Stryker disable next-line ConditionalExpression: jsonEtag is etagOf(quote.json), kept so it is not hashed again
      const etag = options.json === undefined ? quote.jsonEtag : etagOf(body)
      return sendBody(request, reply, body, cacheable ? etag : undefined)
    }
    case 'text':
      // Stryker disable next-line CallExpression: Fastify types a string body so by default; said here, not relied on
      reply.type(TEXT_TYPE)
      return sendBody(request, reply, quote.text, cacheable ? quote.textEtag : undefined)
    default:
      return sendPage(request, reply, 'quote', cacheable, {
        title: `${quote.author}: “${quote.quote.length > 60 ? `${quote.quote.slice(0, 57)}…` : quote.quote}”`,
        description: `${quote.quote} — ${quote.author}`,
        heading: options.heading ?? `A quote by ${quote.author}`,
        headingVisible: options.headingVisible ?? false,
        anotherHref: options.anotherHref ?? '/',
        meta: shareMeta(request, quote),
        quote,
        paragraphs: quote.quote.split(/\n+/),
      })
  }
}
