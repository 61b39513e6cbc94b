import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { corpusFits, loadCorpusIds } from '../../src/lib/corpus-ids.js'
import { loadSearchSample } from '../../src/lib/search-sample.js'
import { useSmallCorpus } from '../support/small-corpus.js'

// What QuoteStore loads from Postgres before it serves (quote-store.test.ts tests the store):
// 1, 2, 3, 5, 6, 9 (seed) and 1001..5000 (synthetic: "owl" in all, "even" in half).
const SYNTHETIC = 4000
const c = useSmallCorpus('store_loads', { synthetic: SYNTHETIC })

describe('corpus ids', () => {
  it('are read back exactly from runs of consecutive ids', async () => {
    const ids = await loadCorpusIds(c.pool)
    const expected = [1, 2, 3, 5, 6, 9, ...Array.from({ length: SYNTHETIC }, (_, i) => 1001 + i)]
    expect([...ids]).toEqual(expected)
  })

  it('tell whether the corpus fits in a number of quotes', async () => {
    const size = 6 + SYNTHETIC
    expect(await corpusFits(c.pool, size)).toBe(true)
    expect(await corpusFits(c.pool, size - 1)).toBe(false)
  })
})

describe('the search sample', () => {
  it('is the search texts ANALYZE sampled, and empty before any ANALYZE', async () => {
    const sample = await loadSearchSample(c.pool)
    // 1,000 values (migration 50), not the default 100.
    expect(sample.length).toBeGreaterThan(500)
    // The quote and its author, lower-cased, as quotes.search_text holds them.
    for (const text of sample) {
      expect(text).toBe(text.toLowerCase())
      expect(text.split('\u001f')).toHaveLength(2)
    }
    expect(sample.some((text) => text.startsWith('the owl number '))).toBe(true)
    // A schema without statistics (a table not analyzed yet): no sample.
    await c.pool.query('CREATE SCHEMA IF NOT EXISTS unanalyzed')
    const fresh = new pg.Pool({
      connectionString: c.db.url,
      max: 1,
      options: '-c search_path=unanalyzed',
    })
    try {
      expect(await loadSearchSample(fresh)).toEqual([])
    } finally {
      await fresh.end()
    }
  })
})
