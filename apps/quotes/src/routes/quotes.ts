import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  QuoteParams,
  SEARCH_TERM_MAX_LENGTH,
  SearchQuery,
  SearchQueryDocumented,
} from '@repo/contracts'
import { documentedAs, HttpProblem, textProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import { etagOf, sendCacheable } from '../lib/etag.js'
import { type Format, negotiate } from '../lib/negotiate.js'
import { clampLimit, pageInfo } from '../lib/pagination.js'
import {
  type SearchPage,
  searchLinks,
  searchPageJson,
  searchPageObject,
  searchPageText,
} from '../lib/search-page.js'
import { parseQuoteId, type StoredQuote } from '../lib/stored-quote.js'
import { quoteByIdResponses, quoteResponses, searchResponses } from './schemas.js'

export interface QuoteRoutesOptions {
  cacheMaxAgeSeconds: number
}

interface Rendered {
  body: string
  etag: string
}

function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  format: Format,
  page: Rendered,
) {
  return sendCacheable(
    request,
    reply.type(format === 'json' ? JSON_TYPE : TEXT_TYPE),
    page.etag,
    page.body,
  )
}

/** Sends `body`, with its ETag (and 304 when the client has it) when one is given. */
function sendBody(request: FastifyRequest, reply: FastifyReply, body: string, etag?: string) {
  return etag === undefined ? reply.send(body) : sendCacheable(request, reply, etag, body)
}

/** The query fields search reads: control characters cannot be searched for (nor stored). */
const SEARCH_FIELDS = {
  term: { maxLength: SEARCH_TERM_MAX_LENGTH },
  page: { maxLength: 20 },
  limit: { maxLength: 20 },
}

/** The schema has checked the digits; this only turns them into a number. */
const optionalInt = (value: string | undefined) => (value === undefined ? undefined : Number(value))

const JSON_TYPE = 'application/json; charset=utf-8'
const TEXT_TYPE = 'text/plain; charset=utf-8'

/** Sends a quote in the negotiated format; cacheable representations carry an ETag. */
function sendQuote(
  request: FastifyRequest,
  reply: FastifyReply,
  quote: StoredQuote,
  cacheable: boolean,
): FastifyReply | Promise<FastifyReply> {
  reply.header('vary', 'Accept')
  switch (negotiate(request.headers.accept)) {
    case 'json':
      reply.type(JSON_TYPE)
      return sendBody(request, reply, quote.json, cacheable ? quote.jsonEtag : undefined)
    case 'text':
      reply.type(TEXT_TYPE)
      return sendBody(request, reply, quote.text, cacheable ? quote.textEtag : undefined)
    default:
      return sendPage(request, reply, 'quote', cacheable, {
        title: `${quote.author}: “${quote.quote.length > 60 ? `${quote.quote.slice(0, 57)}…` : quote.quote}”`,
        description: `${quote.quote} — ${quote.author}`,
        heading: `A quote by ${quote.author}`,
        quote,
        paragraphs: quote.quote.split(/\n+/),
      })
  }
}

async function sendPage(
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

/**
 * The API and the website are the same URLs: /api… and the browser-friendly /, /q/:id, /search
 * answer identically, in HTML, JSON or plain text by the Accept header.
 */
const quoteRoutes: FastifyPluginAsyncTypebox<QuoteRoutesOptions> = async (fastify, opts) => {
  const cacheControl = `public, max-age=${opts.cacheMaxAgeSeconds}`
  const store = fastify.quoteStore
  // Search pages as sent (JSON and text), keyed by the corpus version, so a reload of the corpus
  // retires them all at once.
  const rendered = new LRUCache<string, Rendered>({ max: 5_000 })

  for (const url of ['/api', '/']) {
    fastify.get(
      url,
      {
        schema: {
          tags: ['quotes'],
          operationId: 'getRandomQuote',
          summary: 'A random quote',
          security: [],
          description: 'Uniform over all quotes. Not cacheable: every request draws again.',
          hide: url !== '/api',
          response: quoteResponses,
        },
      },
      (request, reply) => {
        reply.header('cache-control', 'no-store')
        const num = store.randomNum()
        if (num === undefined)
          throw new HttpProblem('SERVICE_UNAVAILABLE', 'There are no quotes yet.')
        // From memory without awaiting anything when the quote is there (always, for a corpus
        // that fits); from Postgres otherwise.
        const quote = store.peek(num)
        if (quote) return sendQuote(request, reply, quote, false)
        return store.random(num).then((found) => {
          if (!found) throw new HttpProblem('SERVICE_UNAVAILABLE', 'There are no quotes yet.')
          return sendQuote(request, reply, found, false)
        })
      },
    )
  }

  // Cacheable representations carry an ETag and answer If-None-Match with 304.
  for (const url of ['/api/q/:id', '/q/:id']) {
    fastify.get(
      url,
      {
        schema: {
          tags: ['quotes'],
          operationId: 'getQuote',
          summary: 'A quote by id',
          security: [],
          hide: url !== '/api/q/:id',
          params: QuoteParams,
          response: quoteByIdResponses,
        },
      },
      (request, reply) => {
        const { id } = request.params
        const num = parseQuoteId(id)
        if (num === undefined) throw new HttpProblem('NOT_FOUND', `No quote has the id ${id}.`)
        reply.header('cache-control', cacheControl)
        const cached = store.peek(num)
        if (cached) return sendQuote(request, reply, cached, true)
        return store.getByNum(num).then((quote) => {
          if (!quote) throw new HttpProblem('NOT_FOUND', `No quote has the id ${id}.`)
          return sendQuote(request, reply, quote, true)
        })
      },
    )
  }

  for (const url of ['/api/search', '/search']) {
    fastify.get(
      url,
      {
        schema: {
          tags: ['quotes'],
          operationId: 'searchQuotes',
          summary: 'Search quotes',
          security: [],
          description:
            'Case-insensitive substring match on the quote text or the author name, ordered by id. ' +
            'Without a term, pages through every quote.',
          hide: url !== '/api/search',
          querystring: SearchQuery,
          response: searchResponses,
        },
        // Validated as digits (no `1e3`, ` 1` or `0x10`), documented as the integers they are.
        config: { swaggerTransform: documentedAs({ querystring: SearchQueryDocumented }) },
      },
      (request, reply) => {
        const invalid = textProblem(request.query, SEARCH_FIELDS)
        if (invalid) throw new HttpProblem('INVALID_REQUEST', invalid)
        const term = request.query.term ?? ''
        const limit = clampLimit(optionalInt(request.query.limit))
        const pageNumber = optionalInt(request.query.page) ?? 1
        const format = negotiate(request.headers.accept)
        reply.header('cache-control', cacheControl).header('vary', 'Accept')
        // Popular pages are served as stored bytes, without awaiting anything.
        const key = `${store.version}|${format}|${limit}|${pageNumber}|${term}`
        const cached = rendered.get(key)
        if (cached) {
          store.maybeRefresh()
          return sendRendered(request, reply, format, cached)
        }

        return store.search(term, (pageNumber - 1) * limit, limit).then((found) => {
          const page: SearchPage = {
            info: pageInfo(found.total, pageNumber, limit),
            term,
            total: found.total,
            results: found.results,
          }
          if (format === 'html') {
            return sendPage(request, reply, 'search', true, {
              title: term ? `Search: ${term}` : 'All quotes',
              term,
              page: searchPageObject(page),
              links: searchLinks(page),
            })
          }
          const body = format === 'json' ? searchPageJson(page) : searchPageText(page)
          const entry = { body, etag: etagOf(body) }
          rendered.set(key, entry)
          return sendRendered(request, reply, format, entry)
        })
      },
    )
  }
}

export default quoteRoutes
