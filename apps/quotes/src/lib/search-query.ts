import type pg from 'pg'
import { searchKeyLength, spelledQuads } from './search-key.js'
import { acrossCondition, acrossPays, pairRun, pairsCondition, pairsWith } from './search-pairs.js'
import {
  lowerAsPostgres,
  sampleHits,
  type TextSample,
  textSampleEstimate,
} from './search-sample.js'
import {
  INDEX_ONLY,
  type MatchRow,
  NO_PARALLEL_OR_JIT,
  type Query,
  run,
  WALK_ONLY,
} from './search-statement.js'
import { likePattern, termKind } from './search-term.js'
import { vocabularyMatches } from './search-vocabulary.js'

/**
 * Search over `quote_search` (migration 1700000000010), planned per term rather than left to the
 * planner's guess:
 *
 * 0. `termMatches`: the share of the planner's own sample of the quotes' search text (the
 *    column's 1,000-entry histogram, held in memory: search-sample.ts) the term matches. A common
 *    term (estimated above SAMPLED_ABOVE, from SAMPLED_HITS sampled texts or more) gets that
 *    estimate as its total, without a query: the index would read its trigrams' long posting
 *    lists, and its pages are short walks.
 * 1. Otherwise a term of ASCII letters and digits is looked up in the search vocabulary
 *    (search-vocabulary.ts): the union of its words' ids is every match, counted exactly, and
 *    pages come from them. Where the vocabulary cannot answer (a phrase, a term of other
 *    characters, a common word), the term is looked for in the wider text sample
 *    (search-sample.ts): held by TEXT_SAMPLED_HITS of its texts or more, it is estimated from
 *    them. Otherwise `firstMatches`: a GIN index finds the candidates (the word pairs' index of
 *    migration 1700000000100 for a phrase of plain words, search-pairs.ts; the 4-gram index of
 *    migration 1700000000030 for other terms of QUAD_LENGTH characters or more, only the 4-grams
 *    spelling two letters for a phrase with an apostrophe; the trigram index for shorter ones)
 *    and the heap check stops at EXACT_LIMIT + 1 matches. Fewer: that is
 *    every match, counted exactly, and pages come from them. Otherwise the total is estimated
 *    from how far into the table (in blocks, which follow the ids) those matches reached, and
 *    each page is its own query:
 * 2. `estimatedPage`: a common term walks the primary key in id order and stops after the page
 *    (a few hundred rows read); a rarer one is searched within the primary-key range where the
 *    page should lie (the planner reads that range, ANDed with the GIN index where that pays),
 *    and again without the range if the page falls short there.
 *
 * Each step is one round trip (search-statement.ts).
 */

/**
 * Totals up to this are exact; above it they may be estimates (`total_is_estimate`): a term the
 * vocabulary answers is exact at any count.
 */
export const EXACT_LIMIT = 1000
/**
 * A term the sample says matches more than this is not counted: its total is the sample's
 * estimate. Its first page is a walk of at most (20 / 3,000) of the corpus, far cheaper than the
 * index, whose trigrams' posting lists are long for such a term.
 */
export const SAMPLED_ABOVE = 3 * EXACT_LIMIT
/**
 * ...and only when at least this many sampled texts hold it. Fewer is too few to trust: a word in
 * 146 quotes of a million was in 3 of the 1,000 sampled texts (taken for 3,020), and its first
 * page walked 54,000 quotes (25-28 ms) instead of counting its matches through the index (3-8 ms).
 * A term expected 0.3 times in the sample is in 3 or more sampled texts once in 280 (Poisson), so
 * among the 150 rare words of the benchmark's cold pass one is, every other sample; in 6 or more,
 * less than once in a million. A term in 1,000-3,000 quotes still reaches 6 now and then (once in
 * 1,700 to once in 12): its estimate is 2-6 times too high and its walk 2-6 times longer than
 * planned, at most about 20,000 rows. At a million quotes (1,000 sampled texts) this floor, about
 * 6,000 matches, is what decides; SAMPLED_ABOVE does below half a million. Six hits estimate a
 * total within about ±40 % (1/√6); more hits, closer.
 */
export const SAMPLED_HITS = 6
/** A page whose expected id-order walk reads at most this many rows walks; else the index. */
export const WALK_MAX_ROWS = 10_000

export interface TermMatches {
  total: number
  estimated: boolean
  /** Every matching id, sorted, when the total is exact; empty otherwise. */
  ids: Int32Array
}

/** The sorted ids of the corpus, as the store holds them, and the search sample. */
export interface CorpusIds {
  readonly size: number
  idAt(index: number): number | undefined
  /** `quotes.search_text` values sampled by ANALYZE (search-sample.ts). */
  readonly sample: readonly string[]
  /** The wider sample of search texts (search-sample.ts); absent, terms are counted instead. */
  readonly textSample?: TextSample
}

/** A term whose key is at least this long is found by the 4-gram index (migration 30). */
export const QUAD_LENGTH = 4

/**
 * FROM and WHERE of a term's search, and their parameters (`values`: the term, or for a term
 * without letters or digits its LIKE pattern). The words table narrows (or decides);
 * terms with other characters than letters and digits are decided by the quote's own text.
 * `indexed`: the query finds its candidates through an index (not a walk in id order), so a term
 * of QUAD_LENGTH or more characters is looked up in the 4-gram index, and its substring test
 * (`strpos`, which the trigram index cannot serve) only checks those candidates.
 */
export function matchClause(
  term: string,
  { indexed }: { indexed: boolean },
): { from: string; where: string; table: string; values: unknown[] } {
  const kind = termKind(term)
  // A term without letters or digits keeps LIKE: Postgres estimates it from the column's
  // histogram, which a search within a large tag needs to join well (strpos, which it cannot
  // estimate, took a third of the quotes for ', ' and merge-joined: 650-690 ms against 350-395).
  if (kind === 'scan') {
    const values = [likePattern(term)]
    return { table: 'quotes', from: 'quotes s', where: 's.search_text LIKE lower($1)', values }
  }
  const word = kind === 'word'
  const key = word ? `'ǂ' || quote_search_key($1) || 'ǂ'` : 'quote_search_key($1)'
  const keyLength = word ? term.length + 2 : searchKeyLength(term)
  // A walk tests each row it reads with strpos: twice as fast as the same LIKE '%key%' (the key
  // holds no wildcard: letters, digits, 'ǂ' and 'ǁ'), which only the trigram index needs.
  const contains = `strpos(s.words, ${key}) > 0`
  const quads =
    kind === 'phrase' && term.includes("'") ? spelledQuads(key) : `quote_search_quads(${key})`
  const words = !indexed
    ? contains
    : keyLength >= QUAD_LENGTH
      ? `quote_search_quads(s.words) @> ${quads} AND ${contains}`
      : `s.words LIKE '%' || ${key} || '%'`
  // `plain` and `phrase` are decided by the words alone (a single space is 'ǂ' there, migration
  // 080, and ' and ’ have marks of their own, 090); `exact` terms by the quote's own text.
  return kind === 'exact'
    ? {
        table: 'quote_search',
        from: 'quote_search s JOIN quotes q ON q.num = s.num',
        // strpos, not LIKE: Postgres plans a LIKE by trying its pattern on each of the column's
        // 1,000 histogram values (see search-sample.ts): 0.76 ms of planning, 0.20 with strpos.
        where: `${words} AND strpos(q.search_text, lower($1)) > 0`,
        values: [term],
      }
    : { table: 'quote_search', from: 'quote_search s', where: words, values: [term] }
}

/**
 * Up to EXACT_LIMIT + 1 matches in table order, with the block each lies in. A phrase with a run
 * of word pairs (search-pairs.ts, `pairRun`) is looked up in the word pairs' index where its ends
 * make few pairs, in the 4-gram index otherwise: the statement holds both, and runs one. With
 * `across` (search-pairs.ts, `acrossPays`), the pairs' candidates must also hold the run's
 * 4-grams across its apostrophes, the two indexes ANDed.
 */
export function firstMatchesQuery(term: string, { across = false } = {}): Query {
  const { from, where, table, values } = matchClause(term, { indexed: true })
  const select =
    `SELECT s.num, (s.ctid::text::point)[0]::int AS block, ` +
    `(SELECT pg_relation_size('${table}') / current_setting('block_size')::int) AS blocks ` +
    `FROM ${from} WHERE `
  const run = pairRun(term)
  if (!run) return { text: `${select}${where} LIMIT ${EXACT_LIMIT + 1}`, values }
  // The pairs only narrow: the substring check decides, as a walk's does.
  const { where: contains } = matchClause(term, { indexed: false })
  return {
    text:
      `WITH ${pairsWith(run)} ` +
      `${select}(SELECT pairs FROM k) AND ${pairsCondition(run)} AND ` +
      `${across && run.across.length > 0 ? `${acrossCondition(run)} AND ` : ''}${contains} UNION ALL ` +
      `${select}NOT (SELECT pairs FROM k) AND ${where} LIMIT ${EXACT_LIMIT + 1}`,
    values,
  }
}

/**
 * One page in id order: a walk of the primary key (`walk`), or through the index, where `below`
 * limits the ids searched.
 */
export function pageQuery(
  term: string,
  offset: number,
  limit: number,
  { walk = false, below }: { walk?: boolean; below?: number } = {},
): Query {
  const { from, where, values: vals } = matchClause(term, { indexed: !walk })
  const range = below === undefined ? '' : ` AND s.num <= $${vals.push(below)}`
  const o = vals.push(offset)
  const l = vals.push(limit)
  return {
    text: `SELECT s.num FROM ${from} WHERE ${where}${range} ORDER BY s.num OFFSET $${o} LIMIT $${l}`,
    values: vals,
  }
}

/** A term's total (exact, with its ids, or estimated), choosing how to find it (steps 0 and 1). */
export async function termMatches(
  pool: pg.Pool,
  corpus: CorpusIds,
  term: string,
): Promise<TermMatches> {
  const kind = termKind(term)
  // The samples hold texts lower-cased by Postgres: the term is too.
  const lower = await lowerAsPostgres(pool, term)
  const hits = sampleHits(corpus.sample, lower, kind)
  const planned = (hits / Math.max(corpus.sample.length, 1)) * corpus.size
  if (hits >= SAMPLED_HITS && planned > SAMPLED_ABOVE) {
    return { total: Math.round(planned), estimated: true, ids: new Int32Array(0) }
  }
  const counted = await vocabularyMatches(pool, term, kind)
  if (counted) return counted
  // The wider sample matches literally: not a whole word of 1-2 characters.
  const wide = corpus.textSample
  if (wide && kind !== 'word') {
    const total = textSampleEstimate(wide, corpus.size, lower, 2 * EXACT_LIMIT)
    if (total !== undefined) return { total, estimated: true, ids: new Int32Array(0) }
  }
  const run = pairRun(term)
  return firstMatches(pool, term, {
    across: run !== undefined && acrossPays(run, wide, corpus.size),
  })
}

/** Up to EXACT_LIMIT + 1 matches (`across`: see firstMatchesQuery), or the total they imply. */
export async function firstMatches(
  pool: pg.Pool,
  term: string,
  options: { across?: boolean } = {},
): Promise<TermMatches> {
  const query = firstMatchesQuery(term, options)
  // A term without letters or digits can only be read from the quotes in id order.
  const rows = await run(pool, termKind(term) === 'scan' ? WALK_ONLY : INDEX_ONLY, query)
  if (rows.length <= EXACT_LIMIT) {
    const ids = Int32Array.from(rows, (row) => Number(row.num)).sort()
    return { total: ids.length, estimated: false, ids }
  }
  // The matches found fill the first `reached` blocks: the rest of the table holds as many per
  // block. Never fewer blocks than reached, so the estimate stays above EXACT_LIMIT.
  const reached = Math.max(...rows.map((row) => Number(row.block))) + 1
  const blocks = Math.max(Number((rows[0] as MatchRow).blocks), reached)
  const total = Math.round((rows.length * blocks) / reached)
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
    return toNums(await run(pool, WALK_ONLY, pageQuery(term, offset, limit, { walk: true })))
  }
  // Twice the expected range; a page that falls short there (or past it) is asked again whole.
  const below = corpus.idAt(Math.ceil(2 * walk))
  if (below !== undefined) {
    // The planner picks the primary key's range, or that ANDed with the trigram index.
    const nums = toNums(
      await run(pool, NO_PARALLEL_OR_JIT, pageQuery(term, offset, limit, { below })),
    )
    if (nums.length === limit) return nums
  }
  return toNums(await run(pool, INDEX_ONLY, pageQuery(term, offset, limit)))
}
