import { transact } from '@repo/service-kit'
import type pg from 'pg'
import { likePattern, type TermKind, termKind } from './search-term.js'

/**
 * Search over `quote_search` (migration 1700000000010), planned per term rather than left to the
 * planner's guess of a LIKE's selectivity:
 *
 * 1. `firstMatches`: the GIN trigram index finds the candidates, the heap check stops at
 *    EXACT_LIMIT + 1 matches. Fewer: that is every match, counted exactly, and pages come from
 *    them. Otherwise the total is estimated from how far into the table (in blocks, which follow
 *    the ids) those matches reached, and each page is its own query:
 * 2. `page`: a common term walks the primary key in id order and stops after the page (a few
 *    hundred rows read); a rarer one asks the GIN index again, limited to the id range where the
 *    page should lie, so the heap check reads only that range's candidates.
 *
 * Statements run in a transaction with `SET LOCAL` plan settings, which end with it (safe behind
 * a transaction-mode pooler).
 */

/** Totals up to this are exact; above it they are estimates (`total_is_estimate`). */
export const EXACT_LIMIT = 1000
/** A page whose expected id-order walk reads at most this many rows walks; else the index. */
export const WALK_MAX_ROWS = 4000

export interface TermMatches {
  total: number
  estimated: boolean
  /** Every matching id, sorted, when the total is exact; empty otherwise. */
  ids: Int32Array
}

/** The sorted ids of the corpus, as the store holds them. */
export interface CorpusIds {
  readonly size: number
  at(index: number): number | undefined
}

interface Query {
  text: string
  values: unknown[]
}

const BITMAP_ONLY =
  'SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; ' +
  'SET LOCAL max_parallel_workers_per_gather = 0'
const WALK_ONLY =
  'SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; ' +
  'SET LOCAL max_parallel_workers_per_gather = 0'

/**
 * FROM and WHERE of a term's search (parameters: `values`). The words table narrows (or decides);
 * terms with other characters than letters and digits are decided by the quote's own text.
 */
export function matchClause(kind: TermKind): { from: string; where: string; table: string } {
  switch (kind) {
    case 'word':
      return {
        table: 'quote_search',
        from: 'quote_search s',
        where: `s.words LIKE '%ǂ' || quote_search_key($1) || 'ǂ%'`,
      }
    case 'plain':
      return {
        table: 'quote_search',
        from: 'quote_search s',
        where: `s.words LIKE '%' || quote_search_key($1) || '%'`,
      }
    case 'exact':
      return {
        table: 'quote_search',
        from: 'quote_search s JOIN quotes q ON q.num = s.num',
        where: `s.words LIKE '%' || quote_search_key($1) || '%' AND q.search_text LIKE lower($2)`,
      }
    case 'scan':
      return { table: 'quotes', from: 'quotes s', where: 's.search_text LIKE lower($1)' }
  }
}

/** The parameters of matchClause's WHERE. */
function values(term: string, kind: TermKind): unknown[] {
  if (kind === 'scan') return [likePattern(term)]
  return kind === 'exact' ? [term, likePattern(term)] : [term]
}

/** Up to EXACT_LIMIT + 1 matches in table order, with the block each lies in. */
export function firstMatchesQuery(term: string): Query {
  const kind = termKind(term)
  const { from, where, table } = matchClause(kind)
  return {
    text:
      `SELECT s.num, (s.ctid::text::point)[0]::int AS block, ` +
      `(SELECT pg_relation_size('${table}') / current_setting('block_size')::int) AS blocks ` +
      `FROM ${from} WHERE ${where} LIMIT ${EXACT_LIMIT + 1}`,
    values: values(term, kind),
  }
}

/** One page in id order; `below` limits the ids searched (the index strategy). */
export function pageQuery(term: string, offset: number, limit: number, below?: number): Query {
  const kind = termKind(term)
  const { from, where } = matchClause(kind)
  const vals = values(term, kind)
  const range = below === undefined ? '' : ` AND s.num <= $${vals.push(below)}`
  const o = vals.push(offset)
  const l = vals.push(limit)
  return {
    text: `SELECT s.num FROM ${from} WHERE ${where}${range} ORDER BY s.num OFFSET $${o} LIMIT $${l}`,
    values: vals,
  }
}

async function run(pool: pg.Pool, settings: string, query: Query) {
  return transact(pool, async (client) => {
    await client.query(settings)
    return (await client.query(query.text, query.values)).rows
  })
}

/** The settings each strategy runs with, for EXPLAIN in tests. */
export const PLAN_SETTINGS = { index: BITMAP_ONLY, walk: WALK_ONLY }

export async function firstMatches(pool: pg.Pool, term: string): Promise<TermMatches> {
  const query = firstMatchesQuery(term)
  // A term without letters or digits can only be read from the quotes in order.
  const settings = termKind(term) === 'scan' ? WALK_ONLY : BITMAP_ONLY
  const rows = await run(pool, settings, query)
  if (rows.length <= EXACT_LIMIT) {
    const ids = Int32Array.from(rows, (row) => Number(row.num)).sort()
    return { total: ids.length, estimated: false, ids }
  }
  // The matches found fill the first `reached` blocks: the rest of the table holds as many per
  // block. Never below what was found, so the estimate stays above EXACT_LIMIT.
  const reached = Math.max(...rows.map((row) => Number(row.block))) + 1
  const blocks = Math.max(Number(rows[0].blocks), reached)
  const total = Math.max(EXACT_LIMIT + 1, Math.round((rows.length * blocks) / reached))
  return { total, estimated: true, ids: new Int32Array(0) }
}

/** The ids of one page of an estimated term, in id order. */
export async function estimatedPage(
  pool: pg.Pool,
  corpus: CorpusIds,
  term: string,
  matches: TermMatches,
  offset: number,
  limit: number,
  { walkMaxRows = WALK_MAX_ROWS }: { walkMaxRows?: number } = {},
): Promise<number[]> {
  const toNums = (rows: { num: number }[]) => rows.map((row) => Number(row.num))
  const needed = offset + limit
  // Rows an id-order walk reads to find the page, at the term's estimated density.
  const walk = (needed * corpus.size) / Math.max(matches.total, 1)
  if (walk <= walkMaxRows || termKind(term) === 'scan') {
    return toNums(await run(pool, WALK_ONLY, pageQuery(term, offset, limit)))
  }
  // Twice the expected range; a page that falls short there (or past it) is asked again whole.
  const below = corpus.at(Math.ceil(2 * walk))
  if (below !== undefined) {
    const nums = toNums(await run(pool, BITMAP_ONLY, pageQuery(term, offset, limit, below)))
    if (nums.length === limit) return nums
  }
  return toNums(await run(pool, BITMAP_ONLY, pageQuery(term, offset, limit)))
}
