import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { QuoteStore } from '../../src/lib/quote-store.js'
import { EXACT_LIMIT } from '../../src/lib/search-query.js'
import { recordingPool } from '../support/small-corpus.js'
import { HOUR, nums, SYNTHETIC, useStoreCorpus } from '../support/store-corpus.js'

// Searches within a tag: quote-store.tags.test.ts.
const { c, loadedStore, truth } = useStoreCorpus('store')

describe('QuoteStore', () => {
  it('loads a corpus that fits whole and serves it without Postgres', async () => {
    const own = new pg.Pool({ connectionString: c.db.url, max: 1 })
    const errors: unknown[] = []
    const store = await loadedStore(10_000, own, errors)
    expect(store.version).toBe(1)
    expect(store.size).toBe(6 + SYNTHETIC)
    expect([store.idAt(0), store.idAt(5), store.idAt(6)]).toEqual([1, 9, 1001])
    await own.end()
    expect(store.peek(2)).toMatchObject({
      num: 2,
      author: 'Hegel',
      author_slug: 'hegel',
      tags: ['philosophy', 'wisdom'],
    })
    expect(nums(await store.search('', 3, 4))).toEqual([5, 6, 9, 1001])
    expect(nums(await store.search('', 6 + SYNTHETIC, 4))).toEqual([])
    expect((await store.getMany([9, 1])).map((q) => q.num)).toEqual([9, 1])
    expect((await store.getByNum(3))?.quote).toBe('Know thyself.')
    const draws = new Set(Array.from({ length: 50 }, () => store.randomNum()))
    expect(draws.size).toBeGreaterThan(10)
    for (const num of draws) expect(store.peek(num as number)).toBeDefined()
    // Loaded just now: no background reload (which would fail on the closed pool).
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(errors).toEqual([])
  })

  it('reads a larger corpus on demand: ids first, quotes as they are asked for', async () => {
    const store = await loadedStore(3)
    expect(store.size).toBe(6 + SYNTHETIC)
    expect(store.idAt(6)).toBe(1001)
    expect(store.peek(2)).toBeUndefined()
    expect((await store.getByNum(2))?.author).toBe('Hegel')
    expect(store.peek(2)?.author).toBe('Hegel')
    expect(await store.getByNum(4)).toBeUndefined()
    expect((await store.getMany([6, 4, 2, 1])).map((q) => q.num)).toEqual([6, 2, 1])
    expect((await store.random(5))?.num).toBe(5)
    // A quote deleted since the last load: the first quote instead.
    expect((await store.random(4))?.num).toBe(1)
    expect(store.peek(4000)).toBeUndefined()
  })

  it('has nothing to draw from an empty corpus', async () => {
    const store = new QuoteStore(c.pool, { cacheMax: 10, refreshMs: HOUR })
    expect(store.randomNum()).toBeUndefined()
    expect(await store.random()).toBeUndefined()
    expect(await store.search('', 0, 10)).toEqual({ total: 0, estimated: false, results: [] })
  })

  it('counts a term with few matches exactly and pages through them', async () => {
    const store = await loadedStore(10)
    for (const term of ['love', 'of', "don't", '!']) {
      const expected = await truth(term)
      expect(expected.length, term).toBeGreaterThan(0)
      const page = await store.search(term, 1, 2)
      expect(page.total, term).toBe(expected.length)
      expect(page.estimated, term).toBe(false)
      expect(nums(page), term).toEqual(expected.slice(1, 3))
    }
    expect(await store.search('xyzzy', 0, 5)).toEqual({ total: 0, estimated: false, results: [] })
  })

  it('counts a word of many matches exactly, estimates the others, and pages each in id order', async () => {
    const store = await loadedStore(10)
    // "even": 2,000 matches, counted from the search vocabulary; "is even": as many, estimated
    // from the index (a phrase); "owl": in nearly every quote (estimated from the sample).
    for (const [term, estimated] of [
      ['even', false],
      ['is even', true],
      ['owl', true],
    ] as const) {
      const expected = await truth(term)
      expect(expected.length).toBeGreaterThan(EXACT_LIMIT)
      const page = await store.search(term, 30, 5)
      expect(page.estimated, term).toBe(estimated)
      if (!estimated) expect(page.total, term).toBe(expected.length)
      expect(Math.abs(page.total - expected.length), term).toBeLessThan(expected.length / 3)
      expect(nums(page), term).toEqual(expected.slice(30, 35))
    }
  })

  it('draws the wider search sample from the quotes’ own texts at each load', async () => {
    const store = await loadedStore(10)
    const wide = store.textSample
    if (!wide) throw new Error('no wider sample loaded')
    const texts = wide.parts.flatMap((part) => part.split('\u0000').slice(0, -1))
    expect(texts).toHaveLength(wide.count)
    // One quote in 32 (BERNOULLI: 125 expected of 4,006, standard deviation 11).
    expect(wide.count).toBeGreaterThan(80)
    expect(wide.count).toBeLessThan(170)
    const { rows } = await c.pool.query<{ search_text: string }>('SELECT search_text FROM quotes')
    const all = new Set(rows.map((row) => row.search_text))
    for (const text of texts) expect(all.has(text), text).toBe(true)
    // Drawn again, alike while the table is unchanged (REPEATABLE).
    await store.load()
    expect(store.textSample).toEqual(wide)
    expect(store.textSample).not.toBe(wide)
  })

  it('reads a page’s quotes by id whatever their order, repeats and gaps', async () => {
    const store = await loadedStore(10)
    const quotes = await store.getMany([1002, 2, 9, 2, 4, 1002, 1001])
    // 4 is no quote: skipped; the others in the order asked, repeats kept.
    expect(quotes.map((q) => q.num)).toEqual([1002, 2, 9, 2, 1002, 1001])
    expect(quotes[1]).toMatchObject({ author: 'Hegel', author_slug: 'hegel' })
    expect(quotes[1]?.tags).toEqual(['philosophy', 'wisdom'])
    expect(await store.getMany([])).toEqual([])
  })

  it('reads the quotes by id exactly as quote_view serves them (migration 110)', async () => {
    const ids = [1, 2, 3, 4, 5, 6, 9, 1001, 1002, 1003]
    const view = await c.pool.query('SELECT * FROM quote_view WHERE num = ANY($1) ORDER BY num', [
      ids,
    ])
    const byIds = await c.pool.query('SELECT * FROM quotes_by_ids($1::int[]) ORDER BY num', [ids])
    expect(view.rows.length).toBeGreaterThan(5)
    expect(byIds.rows).toEqual(view.rows)
    expect(byIds.fields.map((f) => f.name)).toEqual(view.fields.map((f) => f.name))
  })

  it('keeps a term’s matches until the next load', async () => {
    const store = await loadedStore(10)
    const before = await store.search('minerva', 0, 5)
    expect(before.total).toBe(1)
    await c.pool.query(
      "INSERT INTO quotes (num, quote, author, source) VALUES (7, 'Minerva again', 'X', 'synthetic')",
    )
    try {
      expect((await store.search('minerva', 0, 5)).total).toBe(1)
      const version = store.version
      await store.load()
      expect(store.version).toBe(version + 1)
      expect(nums(await store.search('minerva', 0, 5))).toEqual([2, 7])
    } finally {
      await c.pool.query('DELETE FROM quotes WHERE num = 7')
    }
    // A whole corpus reloaded forgets the quotes deleted since.
    const whole = await loadedStore(10_000)
    await c.pool.query(
      "INSERT INTO quotes (num, quote, author, source) VALUES (8, 'Gone soon', 'X', 'synthetic')",
    )
    await whole.load()
    expect(whole.peek(8)?.quote).toBe('Gone soon')
    await c.pool.query('DELETE FROM quotes WHERE num = 8')
    await whole.load()
    expect(whole.peek(8)).toBeUndefined()
    expect(whole.size).toBe(6 + SYNTHETIC)
  })

  it('reloads on use once older than refreshMs and the corpus has changed, whichever read comes first', async () => {
    const store = new QuoteStore(c.pool, { cacheMax: 10, refreshMs: 20 })
    await store.load()
    const reads: [string, () => unknown][] = [
      ['peek', () => store.peek(1)],
      ['search', () => store.search('', 0, 1)],
      ['maybeRefresh', () => store.maybeRefresh()],
    ]
    for (const [name, read] of reads) {
      const version = store.version
      // A statement on quotes, even one that writes no row, counts as a change.
      await c.pool.query('UPDATE quotes SET quote = quote WHERE false')
      await new Promise((resolve) => setTimeout(resolve, 30))
      await read()
      await expect.poll(() => store.version, { timeout: 5_000, message: name }).toBe(version + 1)
    }
  })

  it('skips the reload while the corpus is unchanged: one look at its counter, the version kept', async () => {
    const r = recordingPool(c.pool)
    const store = new QuoteStore(r.pool, { cacheMax: 10, refreshMs: 20 })
    await store.load()
    await new Promise((resolve) => setTimeout(resolve, 30))
    r.sent.length = 0
    store.maybeRefresh()
    await expect.poll(() => r.sent).toEqual(['SELECT version FROM corpus_version'])
    // Counted as a reload: no look again within refreshMs, and nothing else read.
    store.maybeRefresh()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(r.sent).toEqual(['SELECT version FROM corpus_version'])
    // Caches built on the corpus (rendered search pages) key on the version: they are kept.
    expect(store.version).toBe(1)
  })

  it('warms each search shape up: words from the vocabulary, a phrase from the words, punctuation checked on the quote, a common word walked, a page read', async () => {
    const r = recordingPool(c.pool)
    const store = new QuoteStore(r.pool, { cacheMax: 10, refreshMs: HOUR })
    await store.load()
    r.sent.length = 0
    await store.warmUp()
    const sent = r.sent.join('\n')
    expect(sent).toContain("FROM quote_search_vocabulary WHERE word = 'be'")
    expect(sent).toContain("FROM quote_search_vocabulary WHERE word LIKE '%wisdom%'")
    expect(sent).toContain("quote_search_quads(quote_search_key('of the'))")
    expect(sent).not.toContain("strpos(q.search_text, lower('of the')) > 0")
    expect(sent).toContain("strpos(q.search_text, lower('qjxz, vkqw')) > 0")
    // A common word: its page is a walk in id order, testing each row it reads.
    expect(sent).toMatch(
      /enable_bitmapscan = off;.*strpos\(s\.words, quote_search_key\('the'\)\) > 0/,
    )
    expect(sent).toContain('FROM quotes_by_ids($1::int[])')
  })

  it('warms the vocabulary and index lookups up where the common warm-up terms are estimated and walked', async () => {
    const r = recordingPool(c.pool)
    const store = new QuoteStore(r.pool, { cacheMax: 10, refreshMs: HOUR })
    await store.load()
    // As in a large corpus: every sampled text holds the common terms, so they are not counted.
    store.sample = Array.from({ length: 1000 }, () => 'wisdom of the be')
    r.sent.length = 0
    await store.warmUp()
    const sent = r.sent.join('\n')
    expect(sent).not.toContain("quote_search_quads(quote_search_key('wisdom'))")
    expect(sent).toContain("strpos(q.search_text, lower('qjxz, vkqw')) > 0")
    expect(sent).toContain("quote_search_quads(quote_search_key('qjxz vkqw'))")
    expect(sent).toContain("FROM quote_search_vocabulary WHERE word LIKE '%qjxzvkqw%'")
    expect(sent).toContain("s.words LIKE '%' || quote_search_key('q j') || '%'")
    // They hold no quote: the warm-up leaves nothing but empty answers behind.
    for (const term of ['qjxz vkqw', 'qjxz, vkqw', 'qjxzvkqw', 'q j']) {
      expect((await store.search(term, 0, 20)).total).toBe(0)
    }
  })
})
