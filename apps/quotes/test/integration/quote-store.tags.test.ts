import { describe, expect, it } from 'vitest'
import { QuoteStore } from '../../src/lib/quote-store.js'
import { EXACT_LIMIT } from '../../src/lib/search-query.js'
import { recordingPool } from '../support/small-corpus.js'
import { HOUR, nums, useStoreCorpus } from '../support/store-corpus.js'

// Every third synthetic quote is tagged wisdom.
const { c, loadedStore, truth, tagIds } = useStoreCorpus('store_tags')

describe('QuoteStore within a tag', () => {
  it('intersects a term counted exactly with a tag in memory, without another query', async () => {
    const r = recordingPool(c.pool)
    const store = new QuoteStore(r.pool, { cacheMax: 10_000, refreshMs: HOUR })
    await store.load()
    const wisdom = await tagIds('wisdom')
    await store.search('love', 0, 5)
    r.sent.length = 0
    const found = await store.search('love', 0, 5, wisdom)
    expect(nums(found)).toEqual(await truth('love', 'wisdom'))
    expect(r.sent).toEqual([])
  })

  it('keeps a term’s matches within a tag until the next load', async () => {
    const store = await loadedStore(10)
    const wisdom = await tagIds('wisdom')
    const before = await store.search('owl', 0, 1, wisdom)
    expect(before.estimated).toBe(true)
    // The tag grown by 600 quotes (as a reload would see it): the estimate is the one kept...
    const grown = { id: wisdom.id, nums: Int32Array.from([...wisdom.nums, ...Array(600).keys()]) }
    expect((await store.search('owl', 0, 1, grown)).total).toBe(before.total)
    // ... until the next load.
    await store.load()
    expect((await store.search('owl', 0, 1, grown)).total).toBeGreaterThan(before.total + 400)
  })

  it('searches within a tag: its quotes, a term counted exactly, a term estimated', async () => {
    const store = await loadedStore(10)
    const wisdom = await tagIds('wisdom')
    const all = await truth('', 'wisdom')
    const page = await store.search('', 2, 3, wisdom)
    expect({ total: page.total, nums: nums(page) }).toEqual({
      total: all.length,
      nums: all.slice(2, 5),
    })
    // "love": exact overall; "even": estimated overall, exact within the tag (about 660)...
    for (const term of ['love', 'even']) {
      const expected = await truth(term, 'wisdom')
      const found = await store.search(term, 1, 3, wisdom)
      expect(found.total, term).toBe(expected.length)
      expect(found.estimated, term).toBe(false)
      expect(nums(found), term).toEqual(expected.slice(1, 4))
    }
    // ... "owl": estimated within the tag too (about 1,330), paged exactly.
    const expected = await truth('owl', 'wisdom')
    expect(expected.length).toBeGreaterThan(EXACT_LIMIT)
    const owl = await store.search('owl', 40, 3, wisdom)
    expect(owl.estimated).toBe(true)
    expect(Math.abs(owl.total - expected.length)).toBeLessThan(expected.length / 3)
    expect(nums(owl)).toEqual(expected.slice(40, 43))
    // Kept per tag: another tag's matches of the same term are its own.
    const love = await tagIds('love')
    expect(await truth('owl', 'love')).toEqual([])
    expect(await store.search('owl', 0, 3, love)).toEqual({
      total: 0,
      estimated: false,
      results: [],
    })
  })
})
