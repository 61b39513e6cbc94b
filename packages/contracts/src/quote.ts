import { type Static, Type } from 'typebox'
import { Closed } from './schema-helpers.js'

/** Quote ids are `q` followed by digits; they never change once assigned. */
/** URL slugs of authors and tags: ASCII lower-case words joined by hyphens. */
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$'
export const Slug = (description: string) =>
  Type.String({ pattern: SLUG_PATTERN, maxLength: 100, description, examples: ['albert-einstein'] })

export const QuoteId = Type.String({ pattern: '^q[0-9]{1,15}$', examples: ['q42'] })

export const Quote = Closed('Quote', {
  id: QuoteId,
  quote: Type.String({ description: 'The quotation text' }),
  author: Type.String({ description: "The author's name" }),
  author_slug: Slug("The author's slug: the author's page is /authors/{author_slug}"),
  tags: Type.Array(Slug('A tag slug'), { description: 'Tag slugs, sorted (often none)' }),
})
export type Quote = Static<typeof Quote>

export const QuoteResponse = Closed('QuoteResponse', {
  id: QuoteId,
  quote: Type.String(),
  author: Type.String(),
  author_slug: Slug("The author's slug"),
  tags: Type.Array(Slug('A tag slug')),
  status: Type.Literal(200),
})
export type QuoteResponse = Static<typeof QuoteResponse>

export const QuoteParams = Type.Object({ id: Type.String({ maxLength: 64 }) })
export type QuoteParams = Static<typeof QuoteParams>

/** The largest page size the search answers; larger `limit` values are clamped to it. */
export const SEARCH_MAX_LIMIT = 30
export const SEARCH_DEFAULT_LIMIT = 20
export const SEARCH_TERM_MAX_LENGTH = 200

/**
 * A positive integer written in decimal digits (at most 15, so it is exact in JSON). Query
 * parameters arrive as text; this pattern refuses `1.5`, `1e3`, `0x10`, ` 1` and `-1` alike.
 */
export const PositiveIntegerParam = (description: string) =>
  Type.String({ pattern: '^0*[1-9][0-9]{0,14}$', description, examples: ['1'] })

const PAGE_DESCRIPTION = 'Page number, from 1 (default 1)'
const LIMIT_DESCRIPTION = `Results per page (default ${SEARCH_DEFAULT_LIMIT}); values above ${SEARCH_MAX_LIMIT} are clamped to ${SEARCH_MAX_LIMIT}`
const TERM = Type.Optional(
  Type.String({
    maxLength: SEARCH_TERM_MAX_LENGTH,
    description:
      'Case-insensitive substring of the quote text or the author name; a term of 1-2 ' +
      'letters or digits matches that whole word',
  }),
)

const SEARCH_TAG = Type.Optional(
  Type.String({
    pattern: SLUG_PATTERN,
    maxLength: 100,
    description:
      'A tag slug (see /api/tags): only quotes carrying that tag; a tag no quote carries ' +
      'gives an empty page',
    examples: ['wisdom'],
  }),
)

export const SearchQuery = Type.Object({
  term: TERM,
  tag: SEARCH_TAG,
  page: Type.Optional(PositiveIntegerParam(PAGE_DESCRIPTION)),
  limit: Type.Optional(PositiveIntegerParam(LIMIT_DESCRIPTION)),
})
export type SearchQuery = Static<typeof SearchQuery>

/** A positive integer of at most 15 digits, as the OpenAPI document shows the digits above. */
const PositiveInteger = (description: string) =>
  Type.Integer({ minimum: 1, maximum: 999_999_999_999_999, description, examples: [1] })

/** SearchQuery as documented: `page` and `limit` are integers (sent as decimal digits). */
export const SearchQueryDocumented = Type.Object({
  term: TERM,
  tag: SEARCH_TAG,
  page: Type.Optional(PositiveInteger(PAGE_DESCRIPTION)),
  limit: Type.Optional(PositiveInteger(LIMIT_DESCRIPTION)),
})

export const SearchResponse = Closed('SearchResponse', {
  current_page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: SEARCH_MAX_LIMIT }),
  next_page: Type.Integer({ minimum: 1 }),
  previous_page: Type.Integer({ minimum: 1 }),
  results: Type.Array(Quote),
  search_term: Type.String(),
  status: Type.Literal(200),
  total_quotes: Type.Integer({
    minimum: 0,
    description:
      'Matching quotes: exact up to 1,000 (and at any count for many terms of letters and digits), an estimate above (see total_is_estimate)',
  }),
  total_is_estimate: Type.Boolean({
    description:
      'True when total_quotes (and so total_pages) is an estimate: a term with more than ' +
      '1,000 matches may not be counted exactly. Pages stay exact: in id order, without overlap.',
  }),
  total_pages: Type.Integer({ minimum: 1 }),
})
export type SearchResponse = Static<typeof SearchResponse>
