import type pg from 'pg'
import { LETTER_OR_DIGIT, type TermKind } from './search-term.js'

/**
 * The planner's own sample of the quotes' search text (`quotes.search_text`: the quote and its
 * author, lower-cased): the histogram ANALYZE keeps (1,000 values drawn from 300,000 sampled rows;
 * see migration 1700000000050). Held in memory (about 150 kB), it tells the share of quotes a term
 * matches without a round trip to Postgres.
 *
 * It is the literal text, not `quote_search.words`: a term with punctuation matches its own
 * characters (search-term.ts), which `words` does not hold. Matched against `words`, "night's"
 * was estimated as `nightǂs` (every "night s..."): 3,020 quotes of a million where 152 hold it, so
 * its first page walked 130,000 quotes (72-77 ms end to end) instead of counting its matches.
 */
export async function loadSearchSample(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ sample: string[] | null }>(
    `SELECT histogram_bounds::text::text[] AS sample FROM pg_stats
      WHERE schemaname = current_schema() AND tablename = 'quotes' AND attname = 'search_text'`,
  )
  return rows[0]?.sample ?? []
}

/** Whether `text` holds `word` not preceded or followed by a letter or digit. */
function holdsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text.charAt(at - 1)
    const after = text.charAt(at + word.length)
    if (!LETTER_OR_DIGIT.test(before) && !LETTER_OR_DIGIT.test(after)) return true
  }
  return false
}

/** How many of the sampled texts hold the term (0 without a sample: a table not analyzed yet). */
export function sampleHits(sample: readonly string[], term: string, kind: TermKind): number {
  const lower = term.toLowerCase()
  let hits = 0
  for (const text of sample) {
    if (kind === 'word' ? holdsWord(text, lower) : text.includes(lower)) hits += 1
  }
  return hits
}
