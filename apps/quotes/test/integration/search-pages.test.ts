import { describe, expect, it } from 'vitest'
import * as search from '../../src/lib/search-query.js'
import { loadSearchSample } from '../../src/lib/search-sample.js'
import { PLAN_SETTINGS } from '../../src/lib/search-statement.js'
import { taggedMatches } from '../../src/lib/tag-search.js'
import { useSearchCorpus } from '../support/search-corpus.js'
import { recordingPool } from '../support/small-corpus.js'

// The pages of an estimated term and the strategy each step takes (the totals:
// search-query.test.ts), and a term within a tag.
const { c, corpus, truth } = useSearchCorpus('search_pages')

describe('pages of an estimated term', () => {
  it('are the same whichever strategy finds them (walk, index range, whole index)', async () => {
    const all = await corpus()
    const expected = await truth('even')
    const matches = { total: expected.length, estimated: true, ids: new Int32Array(0) }
    for (const offset of [0, 20, 900, expected.length - 5]) {
      const want = expected.slice(offset, offset + 20)
      for (const walkMaxRows of [Number.POSITIVE_INFINITY, 0]) {
        const got = await search.estimatedPage(c.pool, all, 'even', matches, offset, 20, {
          walkMaxRows,
        })
        expect(got, `offset ${offset}, walk up to ${walkMaxRows}`).toEqual(want)
      }
    }
    // An estimate far too high puts the page past the range searched first: asked again whole.
    const tooHigh = { ...matches, total: 1_000_000 }
    const got = await search.estimatedPage(c.pool, all, 'even', tooHigh, 100, 20, {
      walkMaxRows: 0,
    })
    expect(got).toEqual(expected.slice(100, 120))
    // A term without letters or digits is always walked.
    expect(await search.estimatedPage(c.pool, all, '!', matches, 0, 5, { walkMaxRows: 0 })).toEqual(
      await truth('!'),
    )
  })
})

describe('strategies', () => {
  const { index, walk, planner } = PLAN_SETTINGS
  const matches = { total: 2000, estimated: true, ids: new Int32Array(0) }

  it('count a term from the index, or a term without letters by walking the table', async () => {
    const r = recordingPool(c.pool)
    await search.firstMatches(r.pool, 'even')
    await search.firstMatches(r.pool, '!')
    expect(r.sent.map((text) => text.startsWith(`${index}; `))).toEqual([true, false])
    expect(r.sent[1]?.startsWith(`${walk}; `)).toBe(true)
  })

  it('take a common term from the sample without a query', async () => {
    const r = recordingPool(c.pool)
    const sample = await loadSearchSample(c.pool)
    await search.termMatches(r.pool, await corpus(sample), 'owl')
    expect(r.sent).toEqual([])
  })

  it('walk a page near the start, search a rarer page within twice its expected range', async () => {
    const all = await corpus()
    const r = recordingPool(c.pool)
    await search.estimatedPage(r.pool, all, 'even', matches, 0, 20)
    expect(r.sent).toHaveLength(1)
    expect(r.sent[0]?.startsWith(`${walk}; `)).toBe(true)
    expect(r.sent[0]).not.toContain('quote_search_quads')
    // Each row walked is tested with strpos (the key holds no LIKE wildcard).
    expect(r.sent[0]).toMatch(/strpos\(s\.words, [^)]*quote_search_key\('even'\)[^)]*\) > 0/)
    expect(r.sent[0]).not.toContain('LIKE')
    // 100 rows to walk (40 pages of 2,000 matches in 4,006 quotes): searched up to the 201st id.
    r.sent.length = 0
    await search.estimatedPage(r.pool, all, 'even', matches, 30, 20, { walkMaxRows: 99 })
    expect(r.sent).toHaveLength(1)
    expect(r.sent[0]?.startsWith(`${planner}; `)).toBe(true)
    expect(r.sent[0]).toContain(`AND s.num <= ${all.idAt(Math.ceil((2 * 50 * all.size) / 2000))} `)
    expect(r.sent[0]).toContain('quote_search_quads(s.words) @>')
    // A range past the last id: the whole index at once.
    r.sent.length = 0
    await search.estimatedPage(r.pool, all, 'even', { ...matches, total: 20 }, 30, 20, {
      walkMaxRows: 99,
    })
    expect(r.sent).toHaveLength(1)
    expect(r.sent[0]?.startsWith(`${index}; `)).toBe(true)
    expect(r.sent[0]).toContain('quote_search_quads(s.words) @>')
    // Exactly walkMaxRows rows to walk (50 of 2,003 matches in 4,006): walked; and a term
    // without letters or digits always is.
    r.sent.length = 0
    await search.estimatedPage(r.pool, all, 'even', { ...matches, total: 2003 }, 30, 20, {
      walkMaxRows: 100,
    })
    await search.estimatedPage(r.pool, all, '!', matches, 30, 20, { walkMaxRows: 0 })
    expect(r.sent.map((text) => text.startsWith(`${walk}; `))).toEqual([true, true])
  })
})

describe('a term within a tag', () => {
  it('counts up to EXACT_LIMIT matches exactly, and estimates more from the term’s share', async () => {
    const { rows } = await c.pool.query<{ id: number; num: number }>(
      "SELECT t.id, qt.num FROM tags t JOIN quote_tags qt ON qt.tag_id = t.id WHERE t.slug = 'wisdom' ORDER BY qt.num",
    )
    const tag = { id: rows[0]?.id as number, nums: Int32Array.from(rows, (row) => row.num) }
    const all = await corpus()
    const owl = { total: 4000, estimated: true, ids: new Int32Array(0) }
    // 1,333 synthetic quotes carry the tag, all with "owl" (plus q2, "The owl of Minerva").
    const within = await taggedMatches(c.pool, all, 'owl', owl, tag)
    const share = 4000 / all.size
    expect(within).toEqual({
      total: Math.round(share * tag.nums.length),
      estimated: true,
      ids: new Int32Array(0),
    })
    // Exactly EXACT_LIMIT within a tag (quad quotes tagged love here) is still exact.
    await c.pool.query(
      `INSERT INTO quote_tags (tag_id, num) SELECT t.id, q.num FROM tags t, quotes q
        WHERE t.slug = 'love' AND q.quote LIKE '%quad'`,
    )
    const love = (await c.pool.query("SELECT id FROM tags WHERE slug = 'love'")).rows[0].id
    const quad = await taggedMatches(c.pool, all, 'quad', owl, { id: love, nums: tag.nums })
    expect({ total: quad.total, estimated: quad.estimated }).toEqual({
      total: search.EXACT_LIMIT,
      estimated: false,
    })
    // A share too small to reach EXACT_LIMIT still says more than EXACT_LIMIT.
    const rare = await taggedMatches(c.pool, all, 'owl', { ...owl, total: 100 }, tag)
    expect(rare.total).toBe(search.EXACT_LIMIT + 1)
    const even = await taggedMatches(c.pool, all, 'even', { ...owl, total: 2000 }, tag)
    const evenIds = (await truth('even')).filter((num) => tag.nums.includes(num))
    expect({ ...even, ids: [...even.ids] }).toEqual({
      total: evenIds.length,
      estimated: false,
      ids: evenIds,
    })
  })
})
