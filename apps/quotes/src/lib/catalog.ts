import { LRUCache } from 'lru-cache'
import type pg from 'pg'
import { corpusVersion } from './corpus-version.js'
import { GroupIndex } from './group-index.js'
import { Refresher } from './refresher.js'
import { fold } from './slug.js'
import type { TagIds } from './tag-search.js'

export interface AuthorEntry {
  id: number
  slug: string
  name: string
  /** The name lower-cased without accents, what the `term` filter matches. */
  folded: string
  count: number
}

export interface TagEntry {
  id: number
  slug: string
  name: string
  count: number
}

export interface RandomFilter {
  author?: AuthorEntry
  tag?: TagEntry
  minLength?: number
  maxLength?: number
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, 'en') || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

/** `1,22,333` → Int32Array [1, 22, 333], without an intermediate array of a million numbers. */
export function parseIntList(text: string | null): Int32Array {
  if (!text) return new Int32Array(0)
  let count = 1
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 44) count += 1
  const out = new Int32Array(count)
  let value = 0
  let at = 0
  let negative = false
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i)
    if (c === 44) {
      out[at++] = negative ? -value : value
      value = 0
      negative = false
    } else if (c === 45) negative = true
    else value = value * 10 + (c - 48)
  }
  out[at] = negative ? -value : value
  return out
}

/**
 * (group, length, num) triples in index order; the sort is checked, not assumed. Each column
 * comes as one comma-separated string (a few MB at a million quotes) parsed straight into an
 * Int32Array: parsing a Postgres array builds a JS array of numbers, several times larger.
 */
async function loadIndex(pool: pg.Pool, rowsSql: string): Promise<GroupIndex> {
  type Columns = { g: string | null; l: string | null; n: string | null }
  const { rows } = await pool.query<Columns>(
    `SELECT string_agg(g::text, ',') AS g, string_agg(l::text, ',') AS l,
            string_agg(n::text, ',') AS n
       FROM (${rowsSql} ORDER BY 1, 2, 3) AS s(g, l, n)`,
  )
  // An aggregate without GROUP BY: always one row (of nulls when there are no rows).
  const [{ g, l, n }] = rows as [Columns]
  return groupIndexOf(parseIntList(g), parseIntList(l), parseIntList(n))
}

/** The index of (group, length, num) triples, sorted first if they are not in index order. */
export function groupIndexOf(g: Int32Array, l: Int32Array, n: Int32Array): GroupIndex {
  const after = (i: number, j: number) =>
    (g[i] as number) - (g[j] as number) ||
    (l[i] as number) - (l[j] as number) ||
    (n[i] as number) - (n[j] as number)
  // Stryker disable next-line EqualityOperator: one more turn compares with nothing (NaN), which is not out of order
  for (let i = 1; i < n.length; i += 1) {
    // Stryker disable next-line EqualityOperator: two triples are never equal (ids are unique in a group)
    if (after(i - 1, i) > 0) {
      const order = Array.from(n, (_, k) => k).sort(after)
      return GroupIndex.build(
        order.map((k) => g[k] as number),
        order.map((k) => l[k] as number),
        order.map((k) => n[k] as number),
      )
    }
  }
  return GroupIndex.build(g, l, n)
}

/**
 * Authors, tags and the indexes behind the filtered random quote, in memory (about 8 bytes per
 * quote and per tag of a quote: some 25 MB at a million quotes). Reloaded every `refreshMs`
 * like the quote store when the corpus has changed, so a re-seed or a synthetic load shows up
 * without a restart (and an unchanged corpus costs one small query, not seconds of loading).
 */
export class Catalog {
  version = 0
  private readonly refresher: Refresher
  private authorsByName: AuthorEntry[] = []
  private authorsByCount: AuthorEntry[] = []
  private authorBySlug = new Map<string, AuthorEntry>()
  private tagList: TagEntry[] = []
  private tagBySlug = new Map<string, TagEntry>()
  private byAuthor = GroupIndex.EMPTY
  private byTag = GroupIndex.EMPTY
  private byLength = GroupIndex.EMPTY
  /** Quotes of an author and a tag at once (and a length range), computed once per filter. */
  private readonly intersections = new LRUCache<string, Int32Array>({
    // Stryker disable next-line ArithmeticOperator: a smaller cache only computes an intersection again, to the same ids
    maxSize: 16 * 1024 * 1024,
    // Stryker disable next-line MethodExpression: sizes only decide what is evicted; the ids are the same either way
    sizeCalculation: (ids) => Math.max(ids.byteLength, 16),
  })
  /** An author's or a tag's quote ids in id order (pages, search), computed once per group. */
  private readonly idOrdered = new LRUCache<string, Int32Array>({
    maxSize: 16 * 1024 * 1024,
    // Stryker disable next-line MethodExpression: sizes only decide what is evicted; the ids are the same either way
    sizeCalculation: (ids) => Math.max(ids.byteLength, 16),
  })

  constructor(
    private readonly pool: pg.Pool,
    refreshMs: number,
    onRefreshError?: (error: unknown) => void,
  ) {
    this.refresher = new Refresher(
      () => this.read(),
      refreshMs,
      onRefreshError,
      () => corpusVersion(pool),
    )
  }

  /** Loads the catalog now (and records it with the corpus counter it was read at). */
  load(): Promise<void> {
    return this.refresher.loadNow()
  }

  private async read(): Promise<void> {
    // One index after the other: each passes through a few tens of MB of parsed arrays at a
    // million quotes, which should not pile up.
    const byAuthor = await loadIndex(
      this.pool,
      'SELECT author_id, length, num FROM quotes WHERE author_id IS NOT NULL',
    )
    const byTag = await loadIndex(
      this.pool,
      'SELECT t.tag_id, q.length, q.num FROM quote_tags t JOIN quotes q USING (num)',
    )
    const byLength = await loadIndex(this.pool, 'SELECT 0, length, num FROM quotes')
    const authors = await this.pool.query<{ id: number; slug: string; name: string }>(
      'SELECT id, slug, name FROM authors',
    )
    const tags = await this.pool.query<{ id: number; slug: string; name: string }>(
      'SELECT id, slug, name FROM tags',
    )
    const authorEntries = authors.rows
      .map((row) => ({ ...row, folded: fold(row.name), count: byAuthor.count(row.id) }))
      .filter((author) => author.count > 0)
      .sort(byName)
    const tagEntries = tags.rows
      .map((row) => ({ ...row, count: byTag.count(row.id) }))
      .filter((tag) => tag.count > 0)
      .sort((a, b) => b.count - a.count || (a.slug < b.slug ? -1 : 1))
    // Swapped in without an await in between: requests never see a half-loaded catalog.
    this.byAuthor = byAuthor
    this.byTag = byTag
    this.byLength = byLength
    this.authorsByName = authorEntries
    this.authorsByCount = [...authorEntries].sort((a, b) => b.count - a.count || byName(a, b))
    this.authorBySlug = new Map(authorEntries.map((author) => [author.slug, author]))
    this.tagList = tagEntries
    this.tagBySlug = new Map(tagEntries.map((tag) => [tag.slug, tag]))
    this.intersections.clear()
    this.idOrdered.clear()
    this.version += 1
  }

  private first: Promise<void> | undefined

  /**
   * Resolves once the catalog has been loaded (at once afterwards). The first load starts on the
   * first call (the plugin makes it at start-up, in the background: at a million quotes it takes
   * seconds, which must not hold the server's start); a failed first load is tried again by the
   * next call.
   */
  whenReady(): Promise<void> {
    if (this.version > 0) return Promise.resolve()
    this.first ??= this.load().catch((error: unknown) => {
      this.first = undefined
      throw error
    })
    return this.first
  }

  author(slug: string): AuthorEntry | undefined {
    this.refresher.maybe()
    return this.authorBySlug.get(slug)
  }

  tag(slug: string): TagEntry | undefined {
    this.refresher.maybe()
    return this.tagBySlug.get(slug)
  }

  /** Authors whose name contains `term` (accents and case ignored), by name or by count. */
  authors(term: string, sort: 'name' | 'count'): AuthorEntry[] {
    this.refresher.maybe()
    const list = sort === 'count' ? this.authorsByCount : this.authorsByName
    // Stryker disable next-line ConditionalExpression: every name contains the empty term; this only skips the copy
    if (term === '') return list
    const folded = fold(term)
    return list.filter((author) => author.folded.includes(folded))
  }

  /** Tags by number of quotes, most first. */
  tags(): TagEntry[] {
    this.refresher.maybe()
    return this.tagList
  }

  /** The author's quote ids in id order. */
  quotesOf(author: AuthorEntry): Int32Array {
    return this.inIdOrder(this.byAuthor, author.id, `author ${author.id}`)
  }

  /** A tag's id and the ids of the quotes carrying it in id order; undefined for an unknown tag. */
  tagIds(slug: string): TagIds | undefined {
    const tag = this.tag(slug)
    return tag && { id: tag.id, nums: this.inIdOrder(this.byTag, tag.id, `tag ${tag.id}`) }
  }

  private inIdOrder(index: GroupIndex, group: number, key: string): Int32Array {
    let nums = this.idOrdered.get(key)
    if (!nums) {
      const [lo, hi] = index.range(group)
      nums = index.nums.slice(lo, hi).sort()
      this.idOrdered.set(key, nums)
    }
    return nums
  }

  /** A quote id drawn uniformly among those matching every filter; undefined when none does. */
  pick(filter: RandomFilter, random = Math.random): number | undefined {
    this.refresher.maybe()
    const { author, tag, minLength: min = 0, maxLength: max = Number.MAX_SAFE_INTEGER } = filter
    if (author && tag) {
      const ids = this.intersection(author.id, tag.id, min, max)
      return ids[Math.floor(random() * ids.length)]
    }
    const [index, group] = author
      ? [this.byAuthor, author.id]
      : tag
        ? [this.byTag, tag.id]
        : [this.byLength, 0]
    const [lo, hi] = index.range(group, min, max)
    return hi <= lo ? undefined : index.nums[lo + Math.floor(random() * (hi - lo))]
  }

  /** An author's quotes that carry a tag: the smaller side, each looked up in the other. */
  private intersection(authorId: number, tagId: number, min: number, max: number): Int32Array {
    const key = `${authorId}|${tagId}|${min}|${max}`
    const cached = this.intersections.get(key)
    // Stryker disable next-line ConditionalExpression: computing again gives the same ids
    if (cached) return cached
    const a = {
      index: this.byAuthor,
      group: authorId,
      range: this.byAuthor.range(authorId, min, max),
    }
    const t = { index: this.byTag, group: tagId, range: this.byTag.range(tagId, min, max) }
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: either side gives the same ids; the smaller only means fewer lookups
    const [small, large] = a.range[1] - a.range[0] <= t.range[1] - t.range[0] ? [a, t] : [t, a]
    const found: number[] = []
    for (let i = small.range[0]; i < small.range[1]; i += 1) {
      const num = small.index.nums[i] as number
      if (large.index.has(large.group, small.index.length(i), num)) found.push(num)
    }
    const ids = Int32Array.from(found)
    // Stryker disable next-line CallExpression: computing again gives the same ids
    this.intersections.set(key, ids)
    return ids
  }
}
