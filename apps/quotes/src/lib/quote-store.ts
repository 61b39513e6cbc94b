import { LRUCache } from 'lru-cache'
import type pg from 'pg'
import { corpusFits, loadCorpusIds } from './corpus-ids.js'
import { corpusVersion } from './corpus-version.js'
import { Refresher } from './refresher.js'
import { type CorpusIds, estimatedPage, type TermMatches, termMatches } from './search-query.js'
import { loadSearchSample, loadTextSample, type TextSample } from './search-sample.js'
import { type StoredQuote, storedQuote } from './stored-quote.js'
import { intersectSorted, type TagIds, taggedMatches, taggedPage } from './tag-search.js'

export interface QuoteStoreOptions {
  /** Quotes kept in memory. A corpus no larger than this is loaded whole. */
  cacheMax: number
  /** Milliseconds between reloads of the corpus view (ids, and the quotes of a small corpus). */
  refreshMs: number
  /** Told of a failed reload (the store keeps serving what it has). */
  onRefreshError?: (error: unknown) => void
}

export interface SearchResult {
  total: number
  /** True when `total` is an estimate (a term with more than EXACT_LIMIT matches). */
  estimated: boolean
  results: StoredQuote[]
}

interface Row {
  num: string
  quote: string
  author: string
  author_slug: string | null
  tags: string[]
}

/** A quote as served: with its author's slug and its tags (see migration 20). */
const QUOTE_ROWS = 'SELECT num, quote, author, author_slug, tags FROM quote_view'
/**
 * The quotes of `$1` (ids), each looked up on its own (migration 110). `quote_view WHERE num =
 * ANY($1)` joined `authors` through a hash of every author, built for each page (Postgres's costs
 * take an index probe for a disk read): at a million quotes 1.2 ms warm and 13 ms cold for 20
 * quotes, against 0.3 and 0.9 this way. The function keeps its plan per connection: 20 ids took
 * 0.64 ms warm and 0.75 cold through it, 0.94 and 1.01 as a statement planned at every call
 * (medians of 400 each, alternated). A single id is not worth it (0.51 against 0.45 ms warm):
 * getByNum asks the view.
 */
const QUOTES_BY_ID = 'SELECT num, quote, author, author_slug, tags FROM quotes_by_ids($1::int[])'

const EMPTY = new Int32Array(0)

/**
 * One search of each shape (see search-query.ts): a word from the search vocabulary, a phrase
 * through the 4-gram index, a common word walked in id order, a short word. Each also reads its
 * page's quotes. In a large corpus the first four are common enough to be estimated from the
 * sample and walked, so the lookups are warmed by terms no quote holds, which take that path at
 * any size (a phrase, a term with punctuation checked against the quotes' own text, a word, a
 * 3-character key through the trigram index): at a million quotes the first rare phrase's count
 * then takes 2.1-2.2 ms instead of 2.8-3.4 (its connection had not planned the join with the
 * 4-gram index yet).
 */
export const WARM_UP_TERMS = [
  ...['wisdom', 'of the', 'the', 'be'],
  ...['qjxz vkqw', 'qjxz, vkqw', 'qjxzvkqw', 'q j'],
]

interface TaggedContext {
  term: string
  matches: TermMatches
  tag: TagIds
}

/**
 * Read side of the corpus. Postgres is the source of truth; memory holds:
 * - the sorted ids of every quote (4 bytes each), for uniform random picks and unfiltered pages;
 * - up to `cacheMax` quotes with their serialized forms (the whole corpus when it fits);
 * - per search term, its total and (when counted exactly) its sorted ids, so the pages of a term
 *   counted exactly cost no query (see search-query.ts).
 * Everything is reloaded every `refreshMs` when the corpus has changed (its counter, see
 * corpus-version.ts), so re-seeding shows up without a restart.
 */
export class QuoteStore implements CorpusIds {
  private nums: Int32Array = EMPTY
  /** Search's sample of the corpus (see search-sample.ts). */
  // Stryker disable next-line ArrayDeclaration: before the first load the corpus has no quotes, so no sample changes a plan
  sample: readonly string[] = []
  /** Search's wider sample of the corpus (search-sample.ts). */
  textSample: TextSample | undefined
  /** Changes at every (re)load: caches built on the corpus key on it. */
  version = 0
  private readonly refresher: Refresher
  private readonly quotes: LRUCache<number, StoredQuote>
  private readonly matches: LRUCache<string, TermMatches>
  /** Per tag and term (a term with more than EXACT_LIMIT matches), as `matches` (tag-search.ts). */
  private readonly tagged: LRUCache<string, TermMatches, TaggedContext>

  constructor(
    private readonly pool: pg.Pool,
    private readonly opts: QuoteStoreOptions,
  ) {
    this.refresher = new Refresher(
      () => this.read(),
      opts.refreshMs,
      opts.onRefreshError,
      () => corpusVersion(pool),
    )
    this.quotes = new LRUCache({ max: opts.cacheMax })
    this.matches = new LRUCache({
      // Bounded by bytes: up to EXACT_LIMIT ids (4 kB) per term, or UNION_LIMIT (200 kB) for a
      // term the search vocabulary counts.
      maxSize: 8 * 1024 * 1024,
      sizeCalculation: (m) => m.ids.byteLength + 64,
      fetchMethod: (term) => termMatches(this.pool, this, term),
    })
    this.tagged = new LRUCache({
      maxSize: 8 * 1024 * 1024,
      sizeCalculation: (m) => m.ids.byteLength + 64,
      fetchMethod: (_key, _stale, { context }) =>
        taggedMatches(this.pool, this, context.term, context.matches, context.tag),
    })
  }

  get size(): number {
    return this.nums.length
  }

  /** The `index`-th smallest id (search plans id ranges with it). */
  idAt(index: number): number | undefined {
    return this.nums[index]
  }

  /** Loads the id list (and a small corpus entirely). Call once before serving. */
  /** Loads the view now (and records it with the corpus counter it was read at). */
  load(): Promise<void> {
    return this.refresher.loadNow()
  }

  private async read(): Promise<void> {
    // A corpus that fits is read whole, its ids taken from the rows; a larger one only has its
    // ids read (its quotes come into memory as they are asked for).
    const readIds = async () => {
      const fits = await corpusFits(this.pool, this.opts.cacheMax)
      const rows = fits
        ? (await this.pool.query<Row>(`${QUOTE_ROWS} ORDER BY num`)).rows
        : undefined
      const nums = rows
        ? Int32Array.from(rows, (row) => Number(row.num))
        : await loadCorpusIds(this.pool)
      return { rows, nums }
    }
    // The ids and both samples at once: the wider sample's table scan (0.2-0.3 s at a million
    // quotes) need not wait for the ids.
    const [{ rows, nums }, sample, textSample] = await Promise.all([
      readIds(),
      loadSearchSample(this.pool),
      loadTextSample(this.pool),
    ])
    // Swapped in without an await in between: requests never see a half-loaded view.
    this.quotes.clear()
    this.matches.clear()
    this.tagged.clear()
    for (const row of rows ?? []) this.remember(row)
    this.nums = nums
    this.sample = sample
    this.textSample = textSample
    this.version += 1
  }

  /**
   * Runs a search of each shape once, so that the first searches after a start do not pay for
   * opening a connection, Postgres's first plans of these queries in it (its catalog caches) and
   * compiling this code: at a million quotes the first search took 64 ms, the next ones 2-10.
   * Their results stay cached like any search's.
   */
  async warmUp(): Promise<void> {
    for (const term of WARM_UP_TERMS) await this.search(term, 0, 20)
  }

  /** Starts a background reload when the corpus view is older than refreshMs. */
  maybeRefresh(): void {
    this.refresher.maybe()
  }

  private remember(row: Row): StoredQuote {
    const quote = storedQuote(Number(row.num), row.quote, row.author, row.author_slug, row.tags)
    this.quotes.set(quote.num, quote)
    return quote
  }

  /** The quote if it is in memory, without I/O (the hot path); else undefined. */
  peek(num: number): StoredQuote | undefined {
    this.maybeRefresh()
    return this.quotes.get(num)
  }

  /** A uniformly random id, or undefined when the corpus is empty. */
  randomNum(): number | undefined {
    return this.nums[Math.floor(Math.random() * this.nums.length)]
  }

  async getByNum(num: number): Promise<StoredQuote | undefined> {
    const cached = this.peek(num)
    if (cached) return cached
    const { rows } = await this.pool.query<Row>(`${QUOTE_ROWS} WHERE num = $1`, [num])
    return rows[0] ? this.remember(rows[0]) : undefined
  }

  /** Uniform over all quotes; undefined only when the corpus is empty. */
  async random(num = this.randomNum()): Promise<StoredQuote | undefined> {
    if (num === undefined) return undefined
    // A quote deleted since the last refresh: try once more rather than fail.
    return (await this.getByNum(num)) ?? this.getByNum(this.nums[0] as number)
  }

  /**
   * Quotes whose text or author contains `term` (case-insensitive; 1-2 letters or digits: that
   * word), among those carrying `tag` when one is given, ordered by id. Totals above EXACT_LIMIT
   * are estimates.
   */
  async search(term: string, offset: number, limit: number, tag?: TagIds): Promise<SearchResult> {
    this.maybeRefresh()
    if (term === '') return this.pageOf(tag?.nums ?? this.nums, offset, limit)
    const matches = await this.matches.forceFetch(term)
    if (tag) return this.searchTagged(term, matches, tag, offset, limit)
    if (!matches.estimated) return this.pageOf(matches.ids, offset, limit)
    const nums = await estimatedPage(this.pool, this, term, matches, offset, limit)
    return { total: matches.total, estimated: true, results: await this.getMany(nums) }
  }

  /** A term within a tag (see tag-search.ts). */
  private async searchTagged(
    term: string,
    matches: TermMatches,
    tag: TagIds,
    offset: number,
    limit: number,
  ): Promise<SearchResult> {
    if (!matches.estimated)
      return this.pageOf(intersectSorted(matches.ids, tag.nums), offset, limit)
    const context = { term, matches, tag }
    const within = await this.tagged.forceFetch(`${tag.id}|${term}`, { context })
    if (!within.estimated) return this.pageOf(within.ids, offset, limit)
    const nums = await taggedPage(this.pool, term, tag.id, offset, limit)
    return { total: within.total, estimated: true, results: await this.getMany(nums) }
  }

  /** A page of a list of ids known whole (so its total is exact). */
  private async pageOf(ids: Int32Array, offset: number, limit: number): Promise<SearchResult> {
    const results = await this.getMany(ids.subarray(offset, offset + limit))
    return { total: ids.length, estimated: false, results }
  }

  /** The quotes of `nums` in that order (ids deleted meanwhile are skipped). */
  async getMany(nums: ArrayLike<number> & Iterable<number>): Promise<StoredQuote[]> {
    const found = new Map<number, StoredQuote>()
    const missing: number[] = []
    for (const num of nums) {
      const cached = this.quotes.get(num)
      if (cached) found.set(num, cached)
      else missing.push(num)
    }
    if (missing.length > 0) {
      const { rows } = await this.pool.query<Row>(QUOTES_BY_ID, [missing])
      for (const row of rows) found.set(Number(row.num), this.remember(row))
    }
    // Ids deleted since the last refresh are skipped rather than failing the page.
    return Array.from(nums, (num) => found.get(num)).filter(
      (q): q is StoredQuote => q !== undefined,
    )
  }
}
