import type pg from 'pg'
import type { TermKind } from './search-term.js'

/**
 * The planner's own sample of `quote_search.words`: the histogram ANALYZE keeps (1,000 values
 * drawn from 300,000 sampled rows; see migration 1700000000010). Held in memory (about 150 kB),
 * it tells the share of quotes a term matches without a round trip to Postgres.
 */
export async function loadSearchSample(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ sample: string[] | null }>(
    `SELECT histogram_bounds::text::text[] AS sample FROM pg_stats
      WHERE schemaname = current_schema() AND tablename = 'quote_search' AND attname = 'words'`,
  )
  return rows[0]?.sample ?? []
}

/** The term as `quote_search.words` spells it (as quote_search_key does, for estimating). */
function wordsForm(term: string, kind: TermKind): string {
  const key = term.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, 'ǂ')
  return kind === 'word' ? `ǂ${key}ǂ` : key
}

/** The share of the sample the term matches, or undefined without a sample (not analyzed yet). */
export function sampleShare(
  sample: readonly string[],
  term: string,
  kind: TermKind,
): number | undefined {
  if (sample.length === 0) return undefined
  const form = wordsForm(term, kind)
  let hits = 0
  for (const words of sample) if (words.includes(form)) hits += 1
  return hits / sample.length
}
