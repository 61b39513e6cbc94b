import pg from 'pg'
import type { TermMatches } from './search-query.js'
import type { TermKind } from './search-term.js'

/**
 * A term's matches from the search vocabulary (migration 1700000000070): the words of
 * `quote_search.words` with the ids of the quotes holding each. A term of ASCII letters and
 * digits is in a quote's words exactly when one of its words holds it (`plain`: as a substring)
 * or is it (`word`), so the union of those words' ids is every match, counted exactly and in id
 * order. One round trip reads the words' arrays: a few blocks, where counting through
 * quote_search read a heap block per match (about 1,000 for a term of 2,000 matches).
 *
 * `undefined` when the vocabulary cannot answer: a matching word is common (it keeps no ids), the
 * words together hold more than UNION_LIMIT ids, or the vocabulary is not ready (a bulk load
 * deferred it). Search then counts through the indexes as before (search-query.ts).
 */

/** Above this many ids in the matching words together, the union is not built. */
export const UNION_LIMIT = 50_000

interface VocabularyRow {
  ready: boolean | null
  ids: number[] | null
}

/** The statement (its term inlined by the caller's escaping, as search-query.ts runs them). */
export function vocabularyQuery(
  term: string,
  kind: 'plain' | 'word',
  unionLimit = UNION_LIMIT,
): string {
  const lower = term.toLowerCase()
  // ASCII letters and digits only (termKind), so nothing in it is a LIKE wildcard.
  if (!/^[a-z0-9]+$/.test(lower)) throw new TypeError(`not a plain term: ${JSON.stringify(term)}`)
  const where =
    kind === 'word'
      ? `word = ${pg.escapeLiteral(lower)}`
      : `word LIKE ${pg.escapeLiteral(`%${lower}%`)}`
  return (
    `WITH v AS MATERIALIZED (SELECT nums FROM quote_search_vocabulary WHERE ${where}), ` +
    's AS (SELECT count(*) FILTER (WHERE nums IS NULL) AS common, ' +
    'coalesce(sum(cardinality(nums)), 0) AS postings FROM v) ' +
    'SELECT (SELECT ready FROM quote_search_vocabulary_state) AS ready, ' +
    `CASE WHEN s.common = 0 AND s.postings <= ${unionLimit} THEN ` +
    "(SELECT coalesce(array_agg(DISTINCT n ORDER BY n), '{}') FROM v, unnest(v.nums) AS n) " +
    'END AS ids FROM s'
  )
}

export async function vocabularyMatches(
  pool: pg.Pool,
  term: string,
  kind: TermKind,
  { unionLimit = UNION_LIMIT }: { unionLimit?: number } = {},
): Promise<TermMatches | undefined> {
  if (kind !== 'plain' && kind !== 'word') return undefined
  const { rows } = await pool.query<VocabularyRow>(vocabularyQuery(term, kind, unionLimit))
  const row = rows[0]
  if (!row?.ready || row.ids === null) return undefined
  const ids = Int32Array.from(row.ids)
  return { total: ids.length, estimated: false, ids }
}
