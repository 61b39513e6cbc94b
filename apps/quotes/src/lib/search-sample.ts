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

/** Longer terms are not narrowed (testing their many trigrams against the sample costs more). */
const NARROW_MAX_LENGTH = 24

/**
 * The term's rarest trigrams (at most two, each in at most 1 % of the sample), when they are
 * fewer than all of its trigrams: the index reads only their posting lists, not those of the
 * term's common trigrams (`ing`, `the`), and the full pattern filters the candidates. Empty when
 * narrowing would not help, or for a term Postgres might spell differently (not plain ASCII).
 */
export function rareTrigrams(sample: readonly string[], term: string, kind: TermKind): string[] {
  if (sample.length === 0 || kind === 'scan' || !/^[\x20-\x7e]+$/.test(term)) return []
  const form = wordsForm(term, kind)
  if (form.length > NARROW_MAX_LENGTH) return []
  const grams = new Set<string>()
  for (let i = 0; i + 3 <= form.length; i += 1) grams.add(form.slice(i, i + 3))
  const counted = [...grams].map((gram) => ({
    gram,
    hits: sample.reduce((n, words) => (words.includes(gram) ? n + 1 : n), 0),
  }))
  const rare = counted
    .filter(({ hits }) => hits <= sample.length / 100)
    .sort((a, b) => a.hits - b.hits)
    .slice(0, 2)
    .map(({ gram }) => gram)
  return rare.length < grams.size ? rare : []
}
