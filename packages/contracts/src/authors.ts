import { type Static, Type } from 'typebox'
import { Quote, SEARCH_MAX_LIMIT, SEARCH_TERM_MAX_LENGTH, Slug } from './quote.js'
import { Count } from './schema-helpers.js'

/*
 * Authors, tags, the filtered random quote and the quote of the day (quotes service).
 * Numeric query parameters are integers (the server coerces the query text to numbers).
 */

export const LENGTH_MAX = 100_000

export const Page = (description: string) =>
  Type.Integer({ minimum: 1, maximum: 1_000_000_000, description, examples: [1] })
export const Limit = Type.Integer({
  minimum: 1,
  maximum: 1_000_000_000,
  description: `Results per page (default 20); values above ${SEARCH_MAX_LIMIT} are clamped to ${SEARCH_MAX_LIMIT}`,
  examples: [20],
})

/** `GET /api?author=&tag=&minLength=&maxLength=`: every filter optional. */
export const RandomQuery = Type.Object({
  author: Type.Optional(Type.String({ maxLength: 100, description: "An author's slug" })),
  tag: Type.Optional(Type.String({ maxLength: 100, description: 'A tag slug' })),
  minLength: Type.Optional(
    Type.Integer({ minimum: 0, maximum: LENGTH_MAX, description: 'Shortest text, in characters' }),
  ),
  maxLength: Type.Optional(
    Type.Integer({ minimum: 0, maximum: LENGTH_MAX, description: 'Longest text, in characters' }),
  ),
})
export type RandomQuery = Static<typeof RandomQuery>

export const AuthorsQuery = Type.Object({
  term: Type.Optional(
    Type.String({
      maxLength: SEARCH_TERM_MAX_LENGTH,
      description: 'Case-insensitive substring of the name (accents ignored)',
    }),
  ),
  sort: Type.Optional(
    Type.Union([Type.Literal('name'), Type.Literal('count')], {
      description: 'By name (A to Z, the default) or by number of quotes (most first)',
    }),
  ),
  page: Type.Optional(Page('Page number, from 1 (default 1)')),
  limit: Type.Optional(Limit),
})
export type AuthorsQuery = Static<typeof AuthorsQuery>

export const PageQuery = Type.Object({
  page: Type.Optional(Page('Page number, from 1 (default 1)')),
  limit: Type.Optional(Limit),
})
export type PageQuery = Static<typeof PageQuery>

export const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100 }) })
export type SlugParams = Static<typeof SlugParams>

export const Author = Type.Object(
  {
    slug: Slug("The author's slug"),
    name: Type.String(),
    quote_count: Count('How many quotes the author has'),
  },
  { $id: 'Author', additionalProperties: false },
)
export type Author = Static<typeof Author>

/** Paging members shared with the search page. */
const paging = {
  current_page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: SEARCH_MAX_LIMIT }),
  next_page: Type.Integer({ minimum: 1 }),
  previous_page: Type.Integer({ minimum: 1 }),
  total_pages: Type.Integer({ minimum: 1 }),
  status: Type.Literal(200),
}

export const AuthorsResponse = Type.Object(
  {
    ...paging,
    results: Type.Array(Author),
    search_term: Type.String(),
    sort: Type.Union([Type.Literal('name'), Type.Literal('count')]),
    total_authors: Count('Authors matching the term'),
  },
  { $id: 'AuthorsResponse', additionalProperties: false },
)
export type AuthorsResponse = Static<typeof AuthorsResponse>

export const AuthorResponse = Type.Object(
  {
    ...paging,
    author: Author,
    results: Type.Array(Quote),
    total_quotes: Count("The author's quotes"),
  },
  { $id: 'AuthorResponse', additionalProperties: false },
)
export type AuthorResponse = Static<typeof AuthorResponse>

export const Tag = Type.Object(
  {
    slug: Slug('The tag slug, for ?tag='),
    name: Type.String({ description: 'The name as the source spells it' }),
    quote_count: Count('How many quotes carry it'),
  },
  { $id: 'Tag', additionalProperties: false },
)
export type Tag = Static<typeof Tag>

export const TagsResponse = Type.Object(
  { results: Type.Array(Tag), total_tags: Count('Tags'), status: Type.Literal(200) },
  { $id: 'TagsResponse', additionalProperties: false },
)
export type TagsResponse = Static<typeof TagsResponse>

export const TodayResponse = Type.Object(
  {
    ...Quote.properties,
    date: Type.String({ format: 'date', description: 'The UTC day, YYYY-MM-DD' }),
    status: Type.Literal(200),
  },
  { $id: 'TodayResponse', additionalProperties: false },
)
export type TodayResponse = Static<typeof TodayResponse>
