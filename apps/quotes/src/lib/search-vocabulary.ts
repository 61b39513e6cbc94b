import pg from 'pg'
import type { TermMatches } from './search-query.js'
import type { TermKind } from './search-term.js'

/**
 * A term's matches from the search vocabulary (migration 1700000000070): the words of
 * `quote_search.words` with the ids of the quotes holding each. A term of ASCII letters and
 * digits is in a quote's words exactly when one of its words holds it (`plain`: as a substring)
 * or is it (`word`), so the union of those words' ids is every match, counted exactly and in id
 * order. One round trip reads the words' arrays: a few blocks, where counting through
 * quote_search read a heap block per match (about 1,000 for a term of 2,000 matches). The arrays
 * come back as one comma-separated text, merged here (sorted, duplicates dropped): Postgres's
 * `array_agg(DISTINCT n ORDER BY n)` and the driver's parsing of an `int[]` took 2-3 times as long
 * (bench/README.md, "The vocabulary's ids as text").
 *
 * `undefined` when the vocabulary cannot answer: a matching word is common (it keeps no ids), the
 * words together hold more than UNION_LIMIT ids, or the vocabulary is not ready (a bulk load
 * deferred it). Search then counts through the indexes as before (search-query.ts).
 */

/** Above this many ids in the matching words together, the union is not built. */
export const UNION_LIMIT = 50_000

const COMMA = 0x2c
const ZERO = 0x30

interface VocabularyRow {
  ready: boolean | null
  /** The matching words' ids, comma-separated, unsorted across words; null when not answered. */
  ids: string | null
}

/**
 * The ids of `text` (comma-separated, each word's run ascending; ids are positive: migration
 * 1700000000000), sorted, each once. Read digit by digit into the array, which is sorted only
 * when it is not in order already (several words' runs): splitting the text made a string per id,
 * and `Number` read each (6,400 ids: 1.1-3.7 ms in a fresh process, against 0.5-1.0;
 * bench/README.md, "The vocabulary's ids read in place").
 */
export function mergedIds(text: string): Int32Array {
  if (text === '') return new Int32Array(0)
  let count = 1
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === COMMA) count += 1
  const ids = new Int32Array(count)
  let at = 0
  let value = 0
  let ascending = true
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : COMMA
    if (code === COMMA) {
      ids[at] = value
      if (at > 0 && (ids[at] as number) < (ids[at - 1] as number)) ascending = false
      at += 1
      value = 0
    } else value = value * 10 + (code - ZERO)
  }
  if (!ascending) ids.sort()
  let kept = 0
  for (let i = 0; i < ids.length; i += 1) {
    if (i === 0 || ids[i] !== ids[i - 1]) ids[kept++] = ids[i] as number
  }
  // A copy when some were dropped: the search cache counts an array's bytes by its length.
  return kept === ids.length ? ids : ids.slice(0, kept)
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
    "(SELECT coalesce(string_agg(array_to_string(v.nums, ','), ','), '') FROM v " +
    'WHERE cardinality(v.nums) > 0) ' +
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
  const ids = mergedIds(row.ids)
  return { total: ids.length, estimated: false, ids }
}
