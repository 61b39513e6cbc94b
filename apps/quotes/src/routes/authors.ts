import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  type Author as AuthorJson,
  AuthorResponse,
  AuthorsQuery,
  AuthorsResponse,
  PageQuery,
  SlugParams,
} from '@repo/contracts'
import { HttpProblem, textProblem } from '@repo/service-kit'
import type { AuthorEntry } from '../lib/catalog.js'
import { sendPaged } from '../lib/paged-response.js'
import { clampLimit, pageInfo, pagingMembers } from '../lib/pagination.js'
import { quoteItem } from '../lib/stored-quote.js'
import { cacheable, negotiated, problem } from './schemas.js'

export interface AuthorRoutesOptions {
  cacheMaxAgeSeconds: number
}

const authorJson = (a: AuthorEntry): AuthorJson => ({
  slug: a.slug,
  name: a.name,
  quote_count: a.count,
})

const common = { ...cacheable, 400: problem('A parameter is invalid') }

/** /api/authors and /api/authors/:slug, and the same pages at /authors and /authors/:slug. */
const authorRoutes: FastifyPluginAsyncTypebox<AuthorRoutesOptions> = async (fastify, opts) => {
  const cacheControl = `public, max-age=${opts.cacheMaxAgeSeconds}`
  const { catalog, quoteStore } = fastify

  for (const url of ['/api/authors', '/authors']) {
    fastify.get(
      url,
      {
        schema: {
          tags: ['authors'],
          summary: 'Authors, paged',
          description:
            'Every author with at least one quote, with a slug and a quote count; `term` keeps ' +
            'names containing it (case and accents ignored). Sorted by name, or by count. ' +
            'A `Link` header (RFC 8288) gives the first, prev, next and last pages.',
          operationId: url === '/api/authors' ? 'listAuthors' : 'authorsPage',
          security: [],
          hide: url !== '/api/authors',
          querystring: AuthorsQuery,
          response: {
            200: negotiated(
              'A page of authors: JSON, names one per line, or a page',
              AuthorsResponse,
            ),
            ...common,
          },
        },
      },
      async (request, reply) => {
        const invalid = textProblem(request.query, { term: { maxLength: 200 } })
        if (invalid) throw new HttpProblem('INVALID_REQUEST', invalid)
        await catalog.whenReady()
        const term = request.query.term ?? ''
        const sort = request.query.sort ?? 'name'
        const limit = clampLimit(request.query.limit)
        const authors = catalog.authors(term, sort)
        const info = pageInfo(authors.length, request.query.page ?? 1, limit)
        const results = authors.slice(info.offset, info.offset + limit)
        const page = (): AuthorsResponse => ({
          ...pagingMembers(info),
          results: results.map(authorJson),
          search_term: term,
          sort,
          total_authors: authors.length,
        })
        return sendPaged(request, reply, cacheControl, {
          info,
          json: page,
          text: () => results.map((a) => `${a.name}\n`).join(''),
          view: 'authors',
          title: term ? `Authors matching ${term}` : 'Authors',
          page,
        })
      },
    )
  }

  for (const url of ['/api/authors/:slug', '/authors/:slug']) {
    fastify.get(
      url,
      {
        schema: {
          tags: ['authors'],
          summary: 'An author and their quotes, paged',
          description: 'Quotes in id order. A `Link` header gives the neighbouring pages.',
          operationId: url === '/api/authors/:slug' ? 'getAuthor' : 'authorPage',
          security: [],
          hide: url !== '/api/authors/:slug',
          params: SlugParams,
          querystring: PageQuery,
          response: {
            200: negotiated(
              'The author and a page of their quotes: JSON, the texts one per line, or a page',
              AuthorResponse,
            ),
            ...common,
            404: problem('No author has this slug'),
          },
        },
      },
      async (request, reply) => {
        await catalog.whenReady()
        const author = catalog.author(request.params.slug)
        if (!author) {
          throw new HttpProblem('NOT_FOUND', `No author has the slug ${request.params.slug}.`)
        }
        const limit = clampLimit(request.query.limit)
        const nums = catalog.quotesOf(author)
        const info = pageInfo(nums.length, request.query.page ?? 1, limit)
        const quotes = await quoteStore.getMany(nums.subarray(info.offset, info.offset + limit))
        const page = (): AuthorResponse => ({
          author: authorJson(author),
          ...pagingMembers(info),
          results: quotes.map(quoteItem),
          total_quotes: nums.length,
        })
        return sendPaged(request, reply, cacheControl, {
          info,
          json: page,
          text: () => quotes.map((q) => `${q.line}\n`).join(''),
          view: 'author',
          title: `Quotes by ${author.name}`,
          page,
        })
      },
    )
  }
}

export default authorRoutes
