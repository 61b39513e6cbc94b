import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  QuoteParams,
  RandomQuery,
  SEARCH_TERM_MAX_LENGTH,
  SearchQuery,
  SearchQueryDocumented,
} from '@repo/contracts'
import { documentedAs, HttpProblem, textProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import { etagOf, sendCacheable } from '../lib/etag.js'
import { highlightResults } from '../lib/highlight.js'
import { pagingLinkHeader } from '../lib/link-header.js'
import { type Format, negotiate } from '../lib/negotiate.js'
import { clampLimit, pageInfo } from '../lib/pagination.js'
import type { SearchResult } from '../lib/quote-store.js'
import { hasFilter, sendFilteredRandom } from '../lib/random-filter.js'
import { JSON_TYPE, sendPage, sendQuote, TEXT_TYPE } from '../lib/respond.js'
import {
  type SearchPage,
  searchLinks,
  searchPageJson,
  searchPageObject,
  searchPageText,
} from '../lib/search-page.js'
import { parseQuoteId } from '../lib/stored-quote.js'
import { quoteByIdResponses, quoteResponses, searchResponses } from './schemas.js'

export interface QuoteRoutesOptions {
  cacheMaxAgeSeconds: number
}

interface Rendered {
  body: string
  etag: string
  link: string
}

function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  format: Format,
  page: Rendered,
) {
  return sendCacheable(
    request,
    reply.type(format === 'json' ? JSON_TYPE : TEXT_TYPE).header('link', page.link),
    page.etag,
    page.body,
  )
}

/** The query fields search reads: control characters cannot be searched for (nor stored). */
const SEARCH_FIELDS = {
  term: { maxLength: SEARCH_TERM_MAX_LENGTH },
  tag: { maxLength: 100 },
  page: { maxLength: 20 },
  limit: { maxLength: 20 },
}

/** The search result of a tag no quote carries. */
const NOTHING_FOUND: SearchResult = { total: 0, estimated: false, results: [] }

/** The schema has checked the digits; this only turns them into a number. */
const optionalInt = (value: string | undefined) => (value === undefined ? undefined : Number(value))

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
          summary: 'A random quote, optionally filtered',
          security: [],
          description:
            'Uniform over all quotes, or over those matching every filter given (author slug, ' +
            'tag slug, length in characters); 404 when none matches. Not cacheable: every ' +
            'request draws again.',
          hide: url !== '/api',
          querystring: RandomQuery,
          response: quoteResponses,
        },
      },
      (request, reply) => {
        reply.header('cache-control', 'no-store')
        if (hasFilter(request.query)) return sendFilteredRandom(request, reply, request.query)
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
            'Case-insensitive substring match on the quote text or the author name, ordered by id; ' +
            'a term of 1-2 letters or digits matches that whole word. Without a term, pages ' +
            'through every quote. Totals above 1,000 matches are estimates ' +
            '(`total_is_estimate`: true; `total_pages` follows the estimate). `tag` keeps the ' +
            'quotes carrying that tag (slugs from `GET /api/tags`), with or without a term; a ' +
            'tag no quote carries gives an empty page (200, `total_quotes` 0), as a term that ' +
            'matches nothing does.',
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
        const { tag } = request.query
        const limit = clampLimit(optionalInt(request.query.limit))
        const pageNumber = optionalInt(request.query.page) ?? 1
        const format = negotiate(request.headers.accept)
        reply.header('cache-control', cacheControl).header('vary', 'Accept')
        // Popular pages are served as stored bytes, without awaiting anything.
        const within = tag === undefined ? '' : `${fastify.catalog.version}:${tag}`
        const key = `${store.version}|${format}|${limit}|${pageNumber}|${within}|${term}`
        const cached = rendered.get(key)
        if (cached) {
          store.maybeRefresh()
          return sendRendered(request, reply, format, cached)
        }

        const offset = (pageNumber - 1) * limit
        const searching =
          tag === undefined
            ? store.search(term, offset, limit)
            : fastify.catalog.whenReady().then(() => {
                const ids = fastify.catalog.tagIds(tag)
                return ids ? store.search(term, offset, limit, ids) : NOTHING_FOUND
              })
        return searching.then((found) => {
          const page: SearchPage = {
            info: pageInfo(found.total, pageNumber, limit),
            term,
            ...(tag === undefined ? {} : { tag }),
            total: found.total,
            estimated: found.estimated,
            results: found.results,
          }
          const link = pagingLinkHeader(request.url, page.info)
          if (format === 'html') {
            reply.header('link', link)
            return sendPage(request, reply, 'search', true, {
              title: `${term ? `Search: ${term}` : 'All quotes'}${tag ? `, tagged ${tag}` : ''}`,
              term,
              tag,
              page: searchPageObject(page),
              marked: highlightResults(page.results, term),
              links: searchLinks(page),
            })
          }
          const body = format === 'json' ? searchPageJson(page) : searchPageText(page)
          const entry = { body, etag: etagOf(body), link }
          rendered.set(key, entry)
          return sendRendered(request, reply, format, entry)
        })
      },
    )
  }
}

export default quoteRoutes
