import type pg from 'pg'
import { type CorpusIds, EXACT_LIMIT, matchClause, type TermMatches } from './search-query.js'
import { PLAN_SETTINGS, type Query, run } from './search-statement.js'

/**
 * Search within a tag (`/api/search?tag=`). The catalog holds every tag's quote ids in memory, in
 * id order, so (QuoteStore.search):
 * - without a term, the pages are slices of them;
 * - a term counted exactly (its at most EXACT_LIMIT ids in memory) is intersected with them;
 * - a term with more matches is looked for among the tag's quotes in Postgres, `quote_tags`
 *   joined to the term's match, the planner choosing which side to start from (`taggedMatches`):
 *   up to EXACT_LIMIT matches are kept like a term's. More: the total is the term's share of the
 *   corpus applied to the tag (an estimate, as for a term), and each page walks the tag's quotes
 *   in id order (`taggedPage`): about (offset + limit) / (that share) rows, at most the tag's size.
 */

/** Index lookups cost about a sequential read here (hot pages): the planner is told so. */
// Stryker disable next-line StringLiteral: a cost setting only weighs the planner's choice between plans that give the same rows
const HOT = 'SET LOCAL random_page_cost = 1.1'
/**
 * The plans of the two queries (for EXPLAIN in tests): the matches the planner's choice (from the
 * tag or from the term's index, whichever it finds smaller); a page only ever walks the tag's
 * quotes in id order, each looked up (not the whole corpus in id order, merged with the tag).
 */
export const TAG_PLAN_SETTINGS = {
  matches: `${HOT}; ${PLAN_SETTINGS.planner}`,
  page: `${HOT}; SET LOCAL enable_mergejoin = off; SET LOCAL enable_hashjoin = off; ${PLAN_SETTINGS.walk}`,
}

/** A tag's id and its quote ids in id order. */
export interface TagIds {
  id: number
  nums: Int32Array
}

/** The ids in both sorted lists, in order: each of the shorter looked up in the longer. */
export function intersectSorted(a: Int32Array, b: Int32Array): Int32Array {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: either way round gives the same ids; the shorter only means fewer lookups
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  const out: number[] = []
  let lo = 0
  for (const num of short) {
    let hi = long.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((long[mid] as number) < num) lo = mid + 1
      else hi = mid
    }
    if (long[lo] === num) out.push(num)
  }
  return Int32Array.from(out)
}

/**
 * The quotes carrying the tag that match the term, without order; `indexed`: the term's index
 * may find them (the planner chooses), rather than a walk of the tag's quotes.
 */
function taggedQuery(term: string, tagId: number, indexed: boolean): Query {
  const { from, where, values } = matchClause(term, { indexed })
  const t = values.push(tagId)
  return {
    text: `SELECT s.num FROM ${from} JOIN quote_tags qt ON qt.num = s.num WHERE ${where} AND qt.tag_id = $${t}`,
    values,
  }
}

/** Up to EXACT_LIMIT + 1 of the term's matches among the tag's quotes. */
export function taggedMatchesQuery(term: string, tagId: number): Query {
  const query = taggedQuery(term, tagId, true)
  return { ...query, text: `${query.text} LIMIT ${EXACT_LIMIT + 1}` }
}

/** One page of them in id order. */
export function taggedPageQuery(term: string, tagId: number, offset: number, limit: number): Query {
  const { text, values } = taggedQuery(term, tagId, false)
  const o = values.push(offset)
  const l = values.push(limit)
  return { text: `${text} ORDER BY s.num OFFSET $${o} LIMIT $${l}`, values }
}

/** The term's matches among the tag's quotes: exact up to EXACT_LIMIT, estimated above. */
export async function taggedMatches(
  pool: pg.Pool,
  corpus: CorpusIds,
  term: string,
  matches: TermMatches,
  tag: TagIds,
): Promise<TermMatches> {
  const rows = await run(pool, TAG_PLAN_SETTINGS.matches, taggedMatchesQuery(term, tag.id))
  if (rows.length <= EXACT_LIMIT) {
    const ids = Int32Array.from(rows, (row) => Number(row.num)).sort()
    return { total: ids.length, estimated: false, ids }
  }
  const share = matches.total / Math.max(corpus.size, 1)
  const total = Math.max(EXACT_LIMIT + 1, Math.round(share * tag.nums.length))
  return { total, estimated: true, ids: new Int32Array(0) }
}

/** One page, in id order, of a term with more than EXACT_LIMIT matches among a tag's quotes. */
export async function taggedPage(
  pool: pg.Pool,
  term: string,
  tagId: number,
  offset: number,
  limit: number,
): Promise<number[]> {
  const query = taggedPageQuery(term, tagId, offset, limit)
  const rows = await run(pool, TAG_PLAN_SETTINGS.page, query)
  return rows.map((row) => Number(row.num))
}
