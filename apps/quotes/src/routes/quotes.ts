import etag from '@fastify/etag'
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { QuoteParams, SEARCH_DEFAULT_LIMIT, SearchQuery } from '@repo/contracts'
import { HttpProblem } from '@repo/service-kit'
import type { FastifyReply } from 'fastify'
import { negotiate } from '../lib/negotiate.js'
import { clampLimit, pageInfo } from '../lib/pagination.js'
import {
  type SearchPage,
  searchLinks,
  searchPageJson,
  searchPageObject,
  searchPageText,
} from '../lib/search-page.js'
import { termProblem } from '../lib/search-term.js'
import { parseQuoteId, type StoredQuote } from '../lib/stored-quote.js'
import { quoteByIdResponses, quoteResponses, searchResponses } from './schemas.js'

export interface QuoteRoutesOptions {
  cacheMaxAgeSeconds: number
}

/** The schema has checked the digits; this only turns them into a number. */
const optionalInt = (value: string | undefined) => (value === undefined ? undefined : Number(value))

const JSON_TYPE = 'application/json; charset=utf-8'
const TEXT_TYPE = 'text/plain; charset=utf-8'

async function sendQuote(accept: string | undefined, reply: FastifyReply, quote: StoredQuote) {
  reply.header('vary', 'Accept')
  switch (negotiate(accept)) {
    case 'json':
      return reply.type(JSON_TYPE).send(quote.json)
    case 'text':
      return reply.type(TEXT_TYPE).send(`${quote.quote}\n`)
    default:
      return reply.viewAsync('quote', {
        title: `${quote.author}: “${quote.quote.length > 60 ? `${quote.quote.slice(0, 57)}…` : quote.quote}”`,
        description: `${quote.quote} — ${quote.author}`,
        heading: `A quote by ${quote.author}`,
        quote,
        paragraphs: quote.quote.split(/\n+/),
      })
  }
}

/**
 * The API and the website are the same URLs: /api… and the browser-friendly /, /q/:id, /search
 * answer identically, in HTML, JSON or plain text by the Accept header.
 */
const quoteRoutes: FastifyPluginAsyncTypebox<QuoteRoutesOptions> = async (fastify, opts) => {
  const cacheControl = `public, max-age=${opts.cacheMaxAgeSeconds}`
  const store = fastify.quoteStore

  for (const url of ['/api', '/']) {
    fastify.get(
      url,
      {
        schema: {
          tags: ['quotes'],
          summary: 'A random quote',
          description: 'Uniform over all quotes. Not cacheable: every request draws again.',
          hide: url !== '/api',
          response: quoteResponses,
        },
      },
      async (request, reply) => {
        const quote = await store.random()
        if (!quote) throw new HttpProblem('SERVICE_UNAVAILABLE', 'There are no quotes yet.')
        reply.header('cache-control', 'no-store')
        return sendQuote(request.headers.accept, reply, quote)
      },
    )
  }

  // Cacheable representations get an ETag and answer If-None-Match with 304.
  await fastify.register(async (scope) => {
    await scope.register(etag, { hashFn: etag.fnv1a })
    const cacheable = scope.withTypeProvider<TypeBoxTypeProvider>()

    for (const url of ['/api/q/:id', '/q/:id']) {
      cacheable.get(
        url,
        {
          schema: {
            tags: ['quotes'],
            summary: 'A quote by id',
            hide: url !== '/api/q/:id',
            params: QuoteParams,
            response: quoteByIdResponses,
          },
        },
        async (request, reply) => {
          const { id } = request.params
          const num = parseQuoteId(id)
          const quote = num === undefined ? undefined : await store.getByNum(num)
          if (!quote) throw new HttpProblem('NOT_FOUND', `No quote has the id ${id}.`)
          reply.header('cache-control', cacheControl)
          return sendQuote(request.headers.accept, reply, quote)
        },
      )
    }

    for (const url of ['/api/search', '/search']) {
      cacheable.get(
        url,
        {
          schema: {
            tags: ['quotes'],
            summary: 'Search quotes',
            description:
              'Case-insensitive substring match on the quote text or the author name, ordered by id. ' +
              'Without a term, pages through every quote.',
            hide: url !== '/api/search',
            querystring: SearchQuery,
            response: searchResponses,
          },
        },
        async (request, reply) => {
          const term = request.query.term ?? ''
          const invalid = termProblem(term)
          if (invalid) throw new HttpProblem('INVALID_REQUEST', invalid)
          const limit = clampLimit(optionalInt(request.query.limit))
          const info = pageInfo(0, optionalInt(request.query.page) ?? 1, limit)
          const found = await store.search(term, info.offset, limit)
          const page: SearchPage = {
            info: pageInfo(found.total, info.current_page, limit),
            term,
            total: found.total,
            results: found.results,
          }
          reply.header('cache-control', cacheControl).header('vary', 'Accept')
          switch (negotiate(request.headers.accept)) {
            case 'json':
              return reply.type(JSON_TYPE).send(searchPageJson(page))
            case 'text':
              return reply.type(TEXT_TYPE).send(searchPageText(page))
            default:
              return reply.viewAsync('search', {
                title: term ? `Search: ${term}` : 'All quotes',
                term,
                page: searchPageObject(page),
                links: searchLinks(page, SEARCH_DEFAULT_LIMIT),
              })
          }
        },
      )
    }
  })
}

export default quoteRoutes
