import type pg from 'pg'
import { QuoteStore } from '../../src/lib/quote-store.js'
import { likePattern } from '../../src/lib/search-term.js'
import type { TagIds } from '../../src/lib/tag-search.js'
import { useSmallCorpus } from './small-corpus.js'

/** Synthetic quotes of the store's corpus: 1001..5000 ("owl" in all, "even" in half). */
export const SYNTHETIC = 4000
export const HOUR = 3_600_000

/** The ids of a page of results. */
export const nums = (result: { results: { num: number }[] }) => result.results.map((q) => q.num)

/**
 * The corpus of quote-store.test.ts and quote-store.tags.test.ts: 1, 2, 3, 5, 6, 9 (seed) and the
 * SYNTHETIC quotes. `loadedStore`: a store on it, loaded; `truth`: what Postgres says matches the
 * term (as a substring), in id order, within the tag if any; `tagIds`: a tag as the catalog holds it.
 */
export function useStoreCorpus(label: string) {
  const c = useSmallCorpus(label, { synthetic: SYNTHETIC })

  async function loadedStore(cacheMax: number, pool: pg.Pool = c.pool, errors: unknown[] = []) {
    const store = new QuoteStore(pool, {
      cacheMax,
      refreshMs: HOUR,
      onRefreshError: (error) => errors.push(error),
    })
    await store.load()
    return store
  }

  async function truth(term: string, tag?: string): Promise<number[]> {
    const { rows } = await c.pool.query<{ num: number }>(
      `SELECT q.num FROM quotes q WHERE q.search_text LIKE lower($1)
          AND ($2::text IS NULL OR q.num IN (SELECT qt.num FROM quote_tags qt JOIN tags t
                                              ON t.id = qt.tag_id WHERE t.slug = $2))
        ORDER BY q.num`,
      [likePattern(term), tag ?? null],
    )
    return rows.map((row) => row.num)
  }

  async function tagIds(slug: string): Promise<TagIds> {
    const { rows } = await c.pool.query<{ id: number; num: number }>(
      `SELECT t.id, qt.num FROM tags t JOIN quote_tags qt ON qt.tag_id = t.id
        WHERE t.slug = $1 ORDER BY qt.num`,
      [slug],
    )
    return { id: rows[0]?.id as number, nums: Int32Array.from(rows, (row) => row.num) }
  }

  return { c, loadedStore, truth, tagIds }
}
