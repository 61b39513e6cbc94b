import { etagOf } from './etag.js'
import { slugify } from './slug.js'

/**
 * A quote with its representations serialized once, when it enters memory, instead of on
 * every request: the hot paths only concatenate strings.
 */
export interface StoredQuote {
  readonly num: number
  readonly id: string
  readonly quote: string
  readonly author: string
  /** The author's page is /authors/:author_slug. */
  readonly author_slug: string
  /** Tag slugs, sorted. */
  readonly tags: readonly string[]
  /** `{"id","quote","author","author_slug","tags"}`: one element of a search page's `results`. */
  readonly itemJson: string
  /** The single-quote JSON body: the item plus `"status":200`. */
  readonly json: string
  readonly jsonEtag: string
  /** The single-quote plain-text body: the text and a newline. */
  readonly text: string
  readonly textEtag: string
  /** The text on one line (newlines become spaces), as search results print in plain text. */
  readonly line: string
}

export function storedQuote(
  num: number,
  quote: string,
  author: string,
  // Rows always carry the slug; the fallback serves a row seeded before authors existed.
  author_slug: string | null = null,
  tags: readonly string[] = [],
): StoredQuote {
  const id = `q${num}`
  const slug = author_slug ?? slugify(author, 'author')
  const itemJson = JSON.stringify({ id, quote, author, author_slug: slug, tags })
  const json = `${itemJson.slice(0, -1)},"status":200}`
  const text = `${quote}\n`
  return {
    num,
    id,
    quote,
    author,
    author_slug: slug,
    tags,
    itemJson,
    json,
    jsonEtag: etagOf(json),
    text,
    textEtag: etagOf(text),
    line: quote.replace(/\s*[\r\n]\s*/g, ' '),
  }
}

/** Ids are Postgres integers. */
const MAX_NUM = 2_147_483_647

/** `q42` → 42; anything else (including numbers too large to be ours) → undefined. */
export function parseQuoteId(id: string): number | undefined {
  const num = Number(/^q([1-9][0-9]{0,9})$/.exec(id)?.[1])
  // NaN (no match) fails the comparison too.
  return num <= MAX_NUM ? num : undefined
}

/** The JSON object of a quote in a list (search results, an author's quotes). */
export function quoteItem({ id, quote, author, author_slug, tags }: StoredQuote) {
  return { id, quote, author, author_slug, tags: [...tags] }
}
