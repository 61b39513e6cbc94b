import { beforeAll } from 'vitest'
import type { CorpusIds } from '../../src/lib/search-query.js'
import { likePattern } from '../../src/lib/search-term.js'
import { useSmallCorpus } from './small-corpus.js'

/**
 * The corpus of search-query.test.ts and search-pages.test.ts: 1, 2, 3, 5, 6, 9 (seed) and
 * 1001..5000 (synthetic: "owl" in all, "even" in half, every third tagged wisdom). Quote 1012 is
 * rewritten, so its search row moves to the end of the table: matches come out of id order.
 * `corpus()`: its ids as the store holds them, with a planner's `sample`; `truth(term)`: what
 * Postgres finds holding the term as a substring of the quotes' own text, in id order.
 */
export function useSearchCorpus(label: string) {
  const c = useSmallCorpus(label, { synthetic: 4000 })
  beforeAll(async () => {
    await c.pool.query('UPDATE quotes SET quote = quote WHERE num = 1012')
  })
  async function corpus(sample: readonly string[] = []): Promise<CorpusIds> {
    const { rows } = await c.pool.query<{ num: number }>('SELECT num FROM quotes ORDER BY num')
    return { size: rows.length, idAt: (i) => rows[i]?.num, sample }
  }
  async function truth(term: string): Promise<number[]> {
    const { rows } = await c.pool.query<{ num: number }>(
      'SELECT num FROM quotes WHERE search_text LIKE lower($1) ORDER BY num',
      [likePattern(term)],
    )
    return rows.map((row) => row.num)
  }
  return { c, corpus, truth }
}
