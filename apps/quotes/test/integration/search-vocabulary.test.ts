import { describe, expect, it } from 'vitest'
import { termMatches } from '../../src/lib/search-query.js'
import { termKind } from '../../src/lib/search-term.js'
import { vocabularyMatches, vocabularyQuery } from '../../src/lib/search-vocabulary.js'
import { recordingPool, useSmallCorpus } from '../support/small-corpus.js'

// 1, 2, 3, 5, 6, 9 (seed) and 1001..5000 (synthetic: "owl" in all, "even" in half, every fourth
// "quad").
const c = useSmallCorpus('search_vocabulary', { synthetic: 4000 })

/** What quote_search.words says matches a term (the search this vocabulary answers). */
async function wordsTruth(term: string): Promise<number[]> {
  const key = termKind(term) === 'word' ? `ǂ${term.toLowerCase()}ǂ` : term.toLowerCase()
  const { rows } = await c.pool.query<{ num: number }>(
    'SELECT num FROM quote_search WHERE strpos(words, $1) > 0 ORDER BY num',
    [key],
  )
  return rows.map((row) => row.num)
}

/** The vocabulary as it is, word by word. */
async function vocabulary(): Promise<Record<string, number[] | null>> {
  const { rows } = await c.pool.query<{ word: string; nums: number[] | null }>(
    "SELECT word, nums FROM quote_search_vocabulary WHERE nums IS NULL OR nums <> '{}' ORDER BY word",
  )
  return Object.fromEntries(rows.map((row) => [row.word, row.nums]))
}

/** The vocabulary as a rebuild from quote_search makes it (the rebuild itself is not kept). */
async function rebuilt(): Promise<Record<string, number[] | null>> {
  const client = await c.pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('SELECT quote_search_vocabulary_rebuild()')
    const { rows } = await client.query<{ word: string; nums: number[] | null }>(
      'SELECT word, nums FROM quote_search_vocabulary ORDER BY word',
    )
    return Object.fromEntries(rows.map((row) => [row.word, row.nums]))
  } finally {
    await client.query('ROLLBACK')
    client.release()
  }
}

async function matches(term: string): Promise<number[] | undefined> {
  const found = await vocabularyMatches(c.pool, term, termKind(term))
  return found && [...found.ids]
}

describe('the search vocabulary', () => {
  it('finds exactly what the words table finds, for substrings and whole words', async () => {
    const terms = [
      ...['owl', 'OWL', 'even', 'quad', 'ven', 'number', 'numb', 'love', 'dusk', 'minerva'],
      ...['nin', 'adams', 'don', 'panic', 'wings', 'ings', 'thyself', 'qjxz', '4000', '12'],
      ...['a', 'is', 'of', 't', 's', 'ow', 'Is', '1', '99'],
    ]
    for (const term of terms) {
      const truth = await wordsTruth(term)
      const found = await vocabularyMatches(c.pool, term, termKind(term))
      expect(found, term).toEqual({
        total: truth.length,
        estimated: false,
        ids: Int32Array.from(truth),
      })
    }
  })

  it('answers only terms of ASCII letters and digits, and refuses anything else in its statement', async () => {
    for (const term of ['owl number', "don't", 'anaïs', '!', 'owl.']) {
      expect(await vocabularyMatches(c.pool, term, termKind(term)), term).toBeUndefined()
    }
    expect(() => vocabularyQuery("x' OR true --", 'plain')).toThrow('not a plain term')
  })

  it('leaves a term to the indexes when its words hold more ids than the union may', async () => {
    expect(await vocabularyMatches(c.pool, 'owl', 'plain', { unionLimit: 4000 })).toBeUndefined()
    expect((await vocabularyMatches(c.pool, 'owl', 'plain', { unionLimit: 4001 }))?.total).toBe(
      4001,
    )
  })

  it('counts a term of many matches exactly, in one statement', async () => {
    const r = recordingPool(c.pool)
    const even = await termMatches(
      r.pool,
      { size: 4006, idAt: () => undefined, sample: [] },
      'even',
    )
    expect(r.sent).toHaveLength(1)
    expect({ total: even.total, estimated: even.estimated }).toEqual({
      total: 2000,
      estimated: false,
    })
    expect([...even.ids]).toEqual(await wordsTruth('even'))
  })

  it('stays in step with the quotes through inserts, updates and deletes', async () => {
    await c.pool.query(
      `INSERT INTO quotes (num, quote, author, source) VALUES
         (901, 'Zephyrs blow, zephyrs go.', 'Aeolus', 'test'),
         (902, 'An owl and a zephyr.', 'Aeolus', 'test')`,
    )
    try {
      expect(await matches('zephyr')).toEqual([901, 902])
      expect(await matches('aeolus')).toEqual([901, 902])
      await c.pool.query("UPDATE quotes SET quote = 'A calm day.' WHERE num = 901")
      expect(await matches('zephyr')).toEqual([902])
      expect(await matches('calm')).toEqual([901])
      // quote_search rewritten in place (as a migration does) rather than deleted and inserted.
      await c.pool.query(
        "UPDATE quote_search SET words = quote_search_words('A breeze.', 'Aeolus') WHERE num = 901",
      )
      expect(await matches('breeze')).toEqual([901])
      expect(await matches('calm')).toEqual([])
      await c.pool.query("UPDATE quotes SET quote = 'A calm day.' WHERE num = 901")
      expect(await matches('calm')).toEqual([901])
      await c.pool.query('DELETE FROM quotes WHERE num = 902')
      expect(await matches('zephyr')).toEqual([])
      expect(await matches('owl')).toEqual(await wordsTruth('owl'))
      expect(await vocabulary()).toEqual(await rebuilt())
    } finally {
      await c.pool.query('DELETE FROM quotes WHERE num IN (901, 902)')
    }
    expect(await vocabulary()).toEqual(await rebuilt())
  })

  it('rebuilds itself for a statement of more than 10,000 quotes, and keeps no ids for a word in more', async () => {
    await c.pool.query(
      `INSERT INTO quotes (num, quote, author, source)
       SELECT 20000 + i, 'A zebra crossing number ' || i, 'Zed', 'test' FROM generate_series(1, 10001) i`,
    )
    try {
      const { rows } = await c.pool.query(
        "SELECT nums IS NULL AS common FROM quote_search_vocabulary WHERE word = 'zebra'",
      )
      expect(rows).toEqual([{ common: true }])
      expect(await matches('zebra')).toBeUndefined()
      expect(await matches('crossing')).toBeUndefined()
      // The indexes answer instead: an estimate.
      const zebra = await termMatches(
        c.pool,
        { size: 14007, idAt: () => undefined, sample: [] },
        'zebra',
      )
      expect(zebra.estimated).toBe(true)
      expect(await matches('quad')).toEqual(await wordsTruth('quad'))
      expect(await vocabulary()).toEqual(await rebuilt())
    } finally {
      await c.pool.query('DELETE FROM quotes WHERE num > 20000')
    }
    // The removal rebuilt it too: the word is gone with its quotes.
    expect(await matches('zebra')).toEqual([])
    expect(await vocabulary()).toEqual(await rebuilt())
  })

  it('is not read, nor kept, while a load has set it aside, until it is rebuilt', async () => {
    await c.pool.query('UPDATE quote_search_vocabulary_state SET ready = false')
    try {
      expect(await matches('owl')).toBeUndefined()
      await c.pool.query(
        "INSERT INTO quotes (num, quote, author, source) VALUES (903, 'Quokkas smile.', 'Q', 'test')",
      )
      const { rows } = await c.pool.query(
        "SELECT count(*)::int AS n FROM quote_search_vocabulary WHERE word = 'quokkas'",
      )
      expect(rows).toEqual([{ n: 0 }])
      await c.pool.query('SELECT quote_search_vocabulary_rebuild()')
      expect(await matches('quokkas')).toEqual([903])
    } finally {
      await c.pool.query('DELETE FROM quotes WHERE num = 903')
      await c.pool.query('SELECT quote_search_vocabulary_rebuild()')
    }
    expect(await matches('quokkas')).toEqual([])
  })

  it('makes a quote written during a rebuild wait for it, so the rebuilt vocabulary holds it', async () => {
    await c.pool.query('UPDATE quote_search_vocabulary_state SET ready = false')
    const rebuilding = await c.pool.connect()
    let writing: Promise<unknown> | undefined
    try {
      await rebuilding.query('BEGIN')
      await rebuilding.query('SELECT quote_search_vocabulary_rebuild()')
      // Seen from outside, the vocabulary is still set aside: without the wait, this quote's
      // trigger would skip it and the rebuild's snapshot would not hold it.
      let written = false
      writing = c.pool
        .query(
          "INSERT INTO quotes (num, quote, author, source) VALUES (904, 'Wombats dig.', 'W', 'test')",
        )
        .then(() => {
          written = true
        })
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(written).toBe(false)
      await rebuilding.query('COMMIT')
      await writing
      expect(await matches('wombats')).toEqual([904])
    } finally {
      rebuilding.release()
      await writing
      await c.pool.query('DELETE FROM quotes WHERE num = 904')
    }
    expect(await vocabulary()).toEqual(await rebuilt())
  })
})
