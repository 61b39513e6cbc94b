import { describe, expect, it } from 'vitest'
import * as search from '../../src/lib/search-query.js'
import {
  loadSearchSample,
  lowerAsPostgres,
  TEXT_SAMPLED_HITS,
  textSample,
} from '../../src/lib/search-sample.js'
import { inlined, PLAN_SETTINGS, type Query } from '../../src/lib/search-statement.js'
import { vocabularyMatches } from '../../src/lib/search-vocabulary.js'
import { useSearchCorpus } from '../support/search-corpus.js'
import { explain, recordingPool } from '../support/small-corpus.js'

// How a term's total is found (counted, estimated from a sample or from the table); its pages:
// search-pages.test.ts.
const { c, corpus, truth } = useSearchCorpus('search_query')

const plan = (settings: string, query: Query, options = '') =>
  explain(c.pool, settings, query, options)

describe('inlined queries', () => {
  it('write integers and escaped strings in place of the parameters', () => {
    const values = [...Array.from({ length: 10 }, (_, i) => i), "it's"]
    expect(inlined({ text: 'SELECT $11, $1, $10', values })).toBe("SELECT 'it''s', 0, 9")
  })

  it('refuse what they cannot write safely', () => {
    for (const value of [1.5, null, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => inlined({ text: 'SELECT $1', values: [value] })).toThrow(
        'cannot inline parameter $1',
      )
    }
  })
})

describe('totals', () => {
  it('count only quotes holding the term itself, not just its 4-grams apart', async () => {
    // 'wxyzq' has the 4-grams 'wxyz' and 'xyzq'; this quote holds both, but not the term.
    await c.pool.query(
      "INSERT INTO quotes (num, quote, author, source) VALUES (999, 'Say wxyz, then xyzq.', 'Nobody', 'test')",
    )
    try {
      const apart = await search.firstMatches(c.pool, 'wxyzq')
      expect({ total: apart.total, ids: [...apart.ids] }).toEqual({ total: 0, ids: [] })
      const together = await search.firstMatches(c.pool, 'wxyz, then')
      expect({ total: together.total, ids: [...together.ids] }).toEqual({ total: 1, ids: [999] })
      // The 4-gram index found it as a candidate: the substring check is what refused it.
      const query = search.firstMatchesQuery('wxyzq')
      const explained = await plan(PLAN_SETTINGS.index, query, '(ANALYZE)')
      expect(explained).toMatch(/Bitmap Index Scan on quote_search_words_quads.*rows=1 /)
      expect(explained).toMatch(/Rows Removed by Filter: 1\n/)
    } finally {
      await c.pool.query('DELETE FROM quotes WHERE num = 999')
    }
  })

  it('count exactly EXACT_LIMIT matches exactly', async () => {
    const quad = await search.firstMatches(c.pool, 'quad')
    expect({ total: quad.total, estimated: quad.estimated }).toEqual({
      total: search.EXACT_LIMIT,
      estimated: false,
    })
  })

  it('count up to EXACT_LIMIT matches exactly, with their ids', async () => {
    const expected = await truth('number 12')
    expect(expected.length).toBeLessThanOrEqual(search.EXACT_LIMIT)
    const matches = await search.firstMatches(c.pool, 'number 12')
    expect({ ...matches, ids: [...matches.ids] }).toEqual({
      total: expected.length,
      estimated: false,
      ids: expected,
    })
  })

  it('estimate more from how far into the table the first matches reach', async () => {
    const expected = await truth('even')
    expect(expected.length).toBe(2000)
    const matches = await search.firstMatches(c.pool, 'even')
    expect(matches.estimated).toBe(true)
    expect(matches.ids).toHaveLength(0)
    expect(Math.abs(matches.total - 2000)).toBeLessThan(250)
    // The first 1,001 matches (in table order) fill `reached` of the table's blocks.
    const { rows } = await c.pool.query(
      `SELECT max(block) + 1 AS reached,
              (SELECT pg_relation_size('quote_search') / current_setting('block_size')::int) AS blocks
         FROM (SELECT (ctid::text::point)[0]::int AS block FROM quote_search
                WHERE words LIKE '%even%' ORDER BY ctid LIMIT 1001) AS m`,
    )
    const { reached, blocks } = rows[0]
    expect(matches.total).toBe(Math.round((1001 * Number(blocks)) / reached))
  })

  it('match a term of one or two letters or digits as a whole word only', async () => {
    expect((await truth('ow')).length).toBeGreaterThan(search.EXACT_LIMIT)
    expect(await search.firstMatches(c.pool, 'ow')).toEqual({
      total: 0,
      estimated: false,
      ids: new Int32Array(0),
    })
  })

  it('take a total from the sample only above SAMPLED_ABOVE', async () => {
    const sample = Array.from({ length: search.SAMPLED_HITS }, () => 'the owl\u001fnobody')
    const at = (size: number) => ({ size, idAt: () => undefined, sample })
    const above = await search.termMatches(c.pool, at(search.SAMPLED_ABOVE + 1), 'owl')
    expect(above.total).toBe(search.SAMPLED_ABOVE + 1)
    // At the line: counted from the index instead (about 4,000).
    const at3000 = await search.termMatches(c.pool, at(search.SAMPLED_ABOVE), 'owl')
    expect(at3000.total).toBeGreaterThan(search.SAMPLED_ABOVE + 500)
  })

  it('take a total from the sample only when SAMPLED_HITS sampled texts hold the term', async () => {
    // 100 sampled texts standing for a million quotes: each one holding "owl" stands for 10,000.
    const sampleHolding = (held: number) =>
      Array.from({ length: 100 }, (_, i) => (i < held ? 'the owl\u001fnobody' : 'the dusk\u001fx'))
    const at = (held: number) => ({
      size: 1_000_000,
      idAt: () => undefined,
      sample: sampleHolding(held),
    })
    const r = recordingPool(c.pool)
    const trusted = await search.termMatches(r.pool, at(search.SAMPLED_HITS), 'owl')
    expect(trusted.total).toBe(search.SAMPLED_HITS * 10_000)
    expect(r.sent).toEqual([])
    // One sampled text fewer is too few to trust, however common it makes the term: counted
    // (from the search vocabulary, exactly).
    const counted = await search.termMatches(r.pool, at(search.SAMPLED_HITS - 1), 'owl')
    expect(r.sent).toHaveLength(1)
    expect(counted).toEqual(await vocabularyMatches(c.pool, 'owl', 'plain'))
    expect(counted.total).toBe(4001)
  })

  it('take a phrase’s total from the wider sample when TEXT_SAMPLED_HITS of its texts hold it', async () => {
    // A million quotes, 1,000 of them in the wider sample: each text holding "is even" stands for
    // 1,000 quotes. The planner's sample saw the phrase once (too few to trust on its own).
    const at = (held: number, { size = 1_000_000 } = {}) => ({
      size,
      idAt: () => undefined,
      sample: ['owl number 2 is even\u001fx'],
      textSample: textSample(
        // `held` texts spread evenly over the sample.
        Array.from({ length: 1000 }, (_, i) =>
          Math.floor(((i + 1) * held) / 1000) > Math.floor((i * held) / 1000)
            ? 'the owl number 2 is even'
            : 'the owl number 1',
        ),
      ),
    })
    const r = recordingPool(c.pool)
    const estimated = await search.termMatches(r.pool, at(TEXT_SAMPLED_HITS), 'is even')
    expect(estimated).toEqual({
      total: TEXT_SAMPLED_HITS * 1000,
      estimated: true,
      ids: new Int32Array(0),
    })
    expect(r.sent).toEqual([])
    // One text fewer, or an estimate not above twice EXACT_LIMIT: counted from the index (2,000
    // matches here, estimated past EXACT_LIMIT).
    for (const corpus of [
      at(TEXT_SAMPLED_HITS - 1),
      at(TEXT_SAMPLED_HITS, { size: (2 * search.EXACT_LIMIT * 1000) / 60 }),
    ]) {
      const sent = r.sent.length
      const counted = await search.termMatches(r.pool, corpus, 'is even')
      expect(r.sent.length).toBe(sent + 1)
      expect(Math.abs(counted.total - 2000)).toBeLessThan(700)
    }
    // A term of one or two characters is a whole word, which the wider sample cannot tell: with
    // the vocabulary set aside (as a bulk load does), it is counted from the index.
    await c.pool.query('UPDATE quote_search_vocabulary_state SET ready = false')
    try {
      const sent = r.sent.length
      const word = await search.termMatches(r.pool, at(1000), 'is')
      expect(r.sent.length).toBe(sent + 2)
      expect(word.total).toBeGreaterThan(search.EXACT_LIMIT)
      expect(word.total).toBeLessThan(1000 * 1000)
    } finally {
      await c.pool.query('UPDATE quote_search_vocabulary_state SET ready = true')
    }
  })

  it('lower-case a term as Postgres does before looking it up in the samples', async () => {
    // JS writes a final Σ as ς, Postgres as σ: the samples hold Postgres's lower-casing, so a
    // term lowered by JS would be found in texts that do not hold it (found by review: an
    // estimate of 2,601 for a term of no match).
    const { rows } = await c.pool.query<{ lower: string }>("SELECT lower('ΛΌΓΟΣ') AS lower")
    expect(await lowerAsPostgres(c.pool, 'ΛΌΓΟΣ')).toBe(rows[0]?.lower)
    expect('ΛΌΓΟΣ'.toLowerCase()).toBe('λόγος')
    expect(rows[0]?.lower).not.toBe('λόγος')
    expect(await lowerAsPostgres(c.pool, 'Are FOR')).toBe('are for')
    const corpus = {
      size: 1_000_000,
      idAt: () => undefined,
      sample: Array.from({ length: search.SAMPLED_HITS }, () => 'ο λόγος\u001fx'),
      textSample: textSample(Array.from({ length: 1000 }, () => 'ο λόγος')),
    }
    // No quote holds it: counted, none.
    expect(await search.termMatches(c.pool, corpus, 'ΛΌΓΟΣ')).toEqual({
      total: 0,
      estimated: false,
      ids: new Int32Array(0),
    })
    // As the texts write it, it is in every sampled text: estimated.
    expect((await search.termMatches(c.pool, corpus, 'λόγος')).estimated).toBe(true)
  })

  it('take a common term’s total from the sample, without a query', async () => {
    const sample = await loadSearchSample(c.pool)
    const owl = await search.termMatches(c.pool, await corpus(sample), 'owl')
    expect(owl.estimated).toBe(true)
    expect(Math.abs(owl.total - 4000)).toBeLessThan(200)
    // Not common enough for the sample alone: counted or estimated from the index.
    const even = await search.termMatches(c.pool, await corpus(sample), 'even')
    expect(Math.abs(even.total - 2000)).toBeLessThan(250)
    // Without a sample (not analyzed yet), and for a term without letters: from the table.
    expect((await search.termMatches(c.pool, await corpus(), 'owl')).total).toBeGreaterThan(
      search.EXACT_LIMIT,
    )
    expect((await search.termMatches(c.pool, await corpus(sample), '!')).total).toBe(1)
  })

  it('estimate a term with punctuation by its own characters, not its words', async () => {
    const sample = await loadSearchSample(c.pool)
    // Every synthetic quote holds "owl number", none "owl. number": the words alone would have
    // taken it for about 4,000 quotes without a query, and an empty page for a total of 4,000.
    const dotted = await search.termMatches(c.pool, await corpus(sample), 'owl. number')
    expect({ ...dotted, ids: [...dotted.ids] }).toEqual({ total: 0, estimated: false, ids: [] })
    // As written, it is common: estimated from the sample without a query, as is a common term
    // without letters or digits (every quote holds a space).
    const r = recordingPool(c.pool)
    const spaced = await search.termMatches(r.pool, await corpus(sample), 'OWL NUMBER')
    expect(spaced.estimated).toBe(true)
    expect(Math.abs(spaced.total - 4000)).toBeLessThan(200)
    const space = await search.termMatches(r.pool, await corpus(sample), ' ')
    expect(space.estimated).toBe(true)
    expect(Math.abs(space.total - 4006)).toBeLessThan(100)
    expect(r.sent).toEqual([])
  })
})
