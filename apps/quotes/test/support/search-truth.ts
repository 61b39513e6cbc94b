import type pg from 'pg'
import { expect } from 'vitest'
import { QuoteStore } from '../../src/lib/quote-store.js'
import { likePattern, termKind } from '../../src/lib/search-term.js'
import { type SmallCorpus, useSmallCorpus } from './small-corpus.js'

/**
 * What Postgres says matches the term in the quotes' own text, in id order: a whole word for a
 * term of 1-2 letters or digits, else a substring.
 */
export async function textMatches(pool: pg.Pool, term: string): Promise<number[]> {
  const word = termKind(term) === 'word'
  const { rows } = await pool.query<{ num: number }>(
    word
      ? "SELECT num FROM quotes WHERE search_text ~ ('(^|[^[:alnum:]])' || lower($1) || '([^[:alnum:]]|$)') ORDER BY num"
      : 'SELECT num FROM quotes WHERE search_text LIKE lower($1) ORDER BY num',
    [word ? term : likePattern(term)],
  )
  return rows.map((row) => row.num)
}

/** Adds `quotes` as 101, 102... by `author` (once: a second call changes nothing), analyzed. */
export async function addNumberedQuotes(
  pool: pg.Pool,
  quotes: readonly string[],
  author: string,
): Promise<void> {
  await pool.query(
    `INSERT INTO quotes (num, quote, author, source)
     SELECT 100 + i, q, $2, 'synthetic' FROM unnest($1::text[]) WITH ORDINALITY AS t(q, i)
     ON CONFLICT (num) DO NOTHING`,
    [quotes, author],
  )
  await pool.query('ANALYZE quotes, quote_search')
}

/** Each term's search (its first 50 results and total) is what the quotes' own text holds. */
export async function expectSearchesMatchText(
  store: QuoteStore,
  pool: pg.Pool,
  terms: readonly string[],
): Promise<void> {
  for (const term of terms) {
    const expected = await textMatches(pool, term)
    const found = await store.search(term, 0, 50)
    expect(found.total, JSON.stringify(term)).toBe(expected.length)
    expect(
      found.results.map((q) => q.num),
      JSON.stringify(term),
    ).toEqual(expected.slice(0, 50))
  }
}

export interface SearchFixture {
  /** The suite's own small corpus (200 synthetic quotes), created before its tests. */
  c: SmallCorpus
  /** textMatches in the corpus. */
  truth: (term: string) => Promise<number[]>
  /** addNumberedQuotes of the suite's quotes. */
  addQuotes: () => Promise<void>
  /** A store of the corpus as it is now, loaded. */
  loadedStore: () => Promise<QuoteStore>
}

/**
 * The prelude of a search suite checked against the quotes' own text: its corpus (`label`), and
 * `quotes` by `author` to add to it.
 */
export function useSearchFixture(
  label: string,
  quotes: readonly string[],
  author: string,
): SearchFixture {
  const c = useSmallCorpus(label, { synthetic: 200 })
  return {
    c,
    truth: (term) => textMatches(c.pool, term),
    addQuotes: () => addNumberedQuotes(c.pool, quotes, author),
    loadedStore: async () => {
      const store = new QuoteStore(c.pool, { cacheMax: 10, refreshMs: 3_600_000 })
      await store.load()
      return store
    },
  }
}
