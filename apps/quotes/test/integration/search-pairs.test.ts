import { seededRandom } from '@repo/service-kit'
import { describe, expect, it } from 'vitest'
import { PAIR_KEYS_LIMIT, pairRun } from '../../src/lib/search-pairs.js'
import { firstMatches, firstMatchesQuery } from '../../src/lib/search-query.js'
import { PLAN_SETTINGS } from '../../src/lib/search-statement.js'
import { expectSearchesMatchText, useSearchFixture } from '../support/search-truth.js'
import { explain } from '../support/small-corpus.js'

// Phrases found through the index of adjacent word pairs (migration 1700000000100): a phrase's
// ends are looked up in the search vocabulary, and its candidates are the rows holding one of the
// pairs they make. Every search still finds exactly what the quotes' own text holds.

const QUOTES = [
  'So when this ends, we go.',
  'Somewhen thistles grow.',
  'When, this time, we go.',
  'When  this has two spaces.',
  'Whenthis is one word.',
  "When this's an apostrophe, and when's this one.",
  'Then we went home when this was over and done with.',
  'We went home when this was new.',
  'It was over when this was over.',
  'when\tthis has a tab.',
]

const { c, truth, addQuotes, loadedStore } = useSearchFixture('pairs', QUOTES, 'Ann Pairs')

/** Which indexes found the term's candidates (EXPLAIN ANALYZE: the branch that ran), sorted. */
async function indexesUsed(term: string, options: { across?: boolean } = {}): Promise<string[]> {
  const query = firstMatchesQuery(term, options)
  const plan = await explain(c.pool, PLAN_SETTINGS.index, query, '(ANALYZE)')
  return plan
    .split('\n')
    .filter((line) => /Bitmap Index Scan on quote_search_words/.test(line))
    .filter((line) => !line.includes('never executed'))
    .map((line) => /on (quote_search_words_\w+)/.exec(line)?.[1] as string)
    .sort()
}

/** The one index that found the term's candidates. */
async function indexUsed(term: string): Promise<string> {
  const used = await indexesUsed(term)
  expect(used, term).toHaveLength(1)
  return used[0] as string
}

/** What pairRun says of a phrase's run. */
const run = (words: string[], openStart: boolean, openEnd: boolean, across: string[] = []) => ({
  words,
  openStart,
  openEnd,
  across,
})

describe('search phrases through word pairs', () => {
  it('takes runs of plain words and single spaces, their ends open at the phrase’s ends', () => {
    const open = (words: string[]) => run(words, true, true)
    expect(pairRun('When this')).toEqual(open(['when', 'this']))
    expect(pairRun('ab c d2 ef')).toEqual(open(['ab', 'c', 'd2', 'ef']))
    expect(pairRun('to a be')).toEqual(open(['to', 'a', 'be']))
    const others = ['when', 'when  this', 'when, this', ' when', 'naïve one', 'when’s this']
    for (const term of [...others, 'a when', 'when a', 'a b', "when's", "a'b c", "a b'c"]) {
      expect(pairRun(term), term).toBeUndefined()
    }
  })

  it('cuts a phrase at its apostrophes, whose neighbours are whole words', () => {
    // Each with the 4-grams of its key across an apostrophe holding a letter outside the run.
    expect(pairRun("but you'd")).toEqual(run(['but', 'you'], true, false, ['ǂǁǂd']))
    expect(pairRun("it's never")).toEqual(run(['s', 'never'], false, true, ['itǂǁ', 'tǂǁǂ']))
    expect(pairRun("when's this")).toEqual(run(['s', 'this'], false, true, ['enǂǁ', 'nǂǁǂ']))
    expect(pairRun("dogs' toys grow")).toEqual(run(['toys', 'grow'], false, true, ['gsǂǁ', 'sǂǁǂ']))
    expect(pairRun("a'b c'd")).toEqual(run(['b', 'c'], false, false, ['aǂǁǂ', 'ǂǁǂd']))
    expect(pairRun("abc d'e")).toEqual(run(['abc', 'd'], true, false, ['ǂǁǂe']))
    // The longest run, the first of equals.
    expect(pairRun("abc de'fg hi jkl")).toEqual(
      run(['fg', 'hi', 'jkl'], false, true, ['deǂǁ', 'eǂǁǂ']),
    )
    expect(pairRun("abc de'fg hij")).toEqual(run(['abc', 'de'], true, false, ['ǂǁǂf', 'ǁǂfg']))
    // In a phrase with an apostrophe, an open end of two characters stands for too many pairs.
    for (const term of ["let's go", "ab cd'e", "isn't it", "a'b cd"]) {
      expect(pairRun(term), term).toBeUndefined()
    }
    expect(pairRun('ab cd')).toEqual(run(['ab', 'cd'], true, true))
  })

  it('finds every match and only those, through the pairs index', async () => {
    await addQuotes()
    const terms = [
      'when this',
      'en thi',
      'when this was',
      'when this was over',
      'went home when this',
    ]
    for (const term of terms) {
      expect(await indexUsed(term), term).toBe('quote_search_words_pairs')
      expect([...(await firstMatches(c.pool, term)).ids], term).toEqual(await truth(term))
    }
    for (const term of [
      "when this's",
      "this's an apo",
      "when's this",
      "'s this one",
      "'when this",
      "hen this's",
    ]) {
      expect(await indexUsed(term), term).toBe('quote_search_words_pairs')
      expect([...(await firstMatches(c.pool, term)).ids], term).toEqual(await truth(term))
    }
    // An end next to an apostrophe is a whole word: no quote has "'when"; an end of the phrase
    // may end a longer word ("When this's" holds "hen this's").
    expect(await truth("hen this's")).toEqual([106])
    expect(await truth("when this's")).toEqual([106])
    expect(await truth("'when this")).toEqual([])
    // A word's end and the next word's start: "Somewhen thistles" holds "when this".
    expect(await truth('when this')).toEqual([101, 102, 106, 107, 108, 109])
    expect(await truth('when this was over')).toEqual([107, 109])
    const store = await loadedStore()
    await expectSearchesMatchText(store, c.pool, [...terms, 'this when', 'zzqx when', 'when zzqx'])
  })

  it('narrows an apostrophe phrase’s pairs by its 4-grams across the apostrophe, when told to', async () => {
    await addQuotes()
    // "but you" in 400 quotes, "but you'd" in 4, "'d" elsewhere in 40.
    await c.pool.query(
      `INSERT INTO quotes (num, quote, author, source)
       SELECT 10000 + i, 'Number ' || i || ': but you' || CASE WHEN i % 100 = 0 THEN '''d go.'
              WHEN i % 10 = 0 THEN ' go, I''d say.' ELSE ' go.' END, 'Ann Pairs', 'synthetic'
         FROM generate_series(1, 400) AS i ON CONFLICT (num) DO NOTHING`,
    )
    for (const term of ["but you'd", "when this's", "when's this", "hen this's", "over when's"]) {
      // The pairs' index finds the candidates; at a million quotes the planner ANDs the 4-grams'
      // (bench/README.md), here it checks them on the rows: either way, a wrong 4-gram fails.
      expect(await indexesUsed(term, { across: true }), term).toContain('quote_search_words_pairs')
      const plan = await explain(
        c.pool,
        PLAN_SETTINGS.index,
        firstMatchesQuery(term, { across: true }),
      )
      expect(plan, term).toMatch(/quote_search_quads\(words\) @> '\{-?\d+(,-?\d+)*\}'/)
      const matches = await firstMatches(c.pool, term, { across: true })
      expect([...matches.ids], term).toEqual(await truth(term))
    }
    expect((await truth("but you'd")).length).toBe(4)
    expect(await truth("when's this")).toEqual([106])
    // Nothing across the apostrophe to add: the pairs alone.
    for (const term of ['when this', "'s this one"]) {
      expect(await indexesUsed(term, { across: true }), term).toEqual(['quote_search_words_pairs'])
      const matches = await firstMatches(c.pool, term, { across: true })
      expect([...matches.ids], term).toEqual(await truth(term))
    }
  })

  it('finds nothing, exactly, when no word has the phrase’s end', async () => {
    await addQuotes()
    for (const term of ['zzqx when', 'when zzqx', 'when zzqx this', 'when this zzqx']) {
      expect(await indexUsed(term), term).toBe('quote_search_words_pairs')
      const matches = await firstMatches(c.pool, term)
      expect(matches, term).toEqual({ total: 0, estimated: false, ids: new Int32Array(0) })
    }
  })

  it('falls back to the 4-gram index when the ends make too many pairs', async () => {
    await addQuotes()
    // PAIR_KEYS_LIMIT + 1 words starting with "qat": "be qat" would make that many pairs.
    const words = Array.from({ length: PAIR_KEYS_LIMIT + 1 }, (_, i) => `qat${i}`)
    await c.pool.query(
      `INSERT INTO quotes (num, quote, author, source)
       SELECT 3000 + i, 'To be ' || w || '.', 'Ann Pairs', 'synthetic'
         FROM unnest($1::text[]) WITH ORDINALITY AS t(w, i) ON CONFLICT (num) DO NOTHING`,
      [words],
    )
    expect(await indexUsed('be qat')).toBe('quote_search_words_quads')
    expect((await firstMatches(c.pool, 'be qat')).total).toBe(words.length)
    // Between apostrophes both ends are whole words: one pair, whatever starts with "qat".
    expect(await indexUsed("'be qat'")).toBe('quote_search_words_pairs')
    expect([...(await firstMatches(c.pool, "'be qat'")).ids]).toEqual(await truth("'be qat'"))
    // Fewer pairs: one word starts with "qat128", and a few end with "be".
    expect(await indexUsed('be qat128')).toBe('quote_search_words_pairs')
    expect([...(await firstMatches(c.pool, 'be qat128')).ids]).toEqual(await truth('be qat128'))
    // Three words: the pairs of both ends count (401 words start with "qat" after "to be").
    expect(await indexUsed('to be qat')).toBe('quote_search_words_quads')
    expect(await indexUsed('to be qat128')).toBe('quote_search_words_pairs')
  })

  it('falls back to the 4-gram index while the vocabulary is not ready', async () => {
    await addQuotes()
    await c.pool.query('UPDATE quote_search_vocabulary_state SET ready = false')
    try {
      expect(await indexUsed('when this')).toBe('quote_search_words_quads')
      expect([...(await firstMatches(c.pool, 'when this')).ids]).toEqual(await truth('when this'))
    } finally {
      await c.pool.query('SELECT quote_search_vocabulary_rebuild()')
    }
    expect(await indexUsed('when this')).toBe('quote_search_words_pairs')
  })

  it('finds what the text holds for random phrases over random texts', async () => {
    // Short words over two letters, joined by single and double spaces, apostrophes, commas and
    // the marks: phrases of their words meet every kind of neighbour, and their ends are words'
    // ends and starts.
    const random = seededRandom(100)
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T
    const word = () =>
      Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(['a', 'b'])).join('')
    const texts = Array.from({ length: 300 }, () =>
      Array.from({ length: 8 }, word).reduce(
        (text, w) => `${text}${pick([' ', ' ', ' ', '  ', "'", '’', ', ', 'ǂ', 'ǁ'])}${w}`,
      ),
    )
    await c.pool.query(
      `INSERT INTO quotes (num, quote, author, source)
       SELECT 5000 + i, q, 'Ann Pairs', 'synthetic' FROM unnest($1::text[]) WITH ORDINALITY AS t(q, i)
       ON CONFLICT (num) DO NOTHING`,
      [texts],
    )
    const terms = new Set<string>()
    for (let tries = 0; tries < 2000 && terms.size < 150; tries += 1) {
      const words = Array.from({ length: 2 + Math.floor(random() * 3) }, word)
      const term = words.reduce((phrase, w) => `${phrase}${pick([' ', ' ', ' ', "'"])}${w}`)
      if (pairRun(term)) terms.add(term)
    }
    expect(terms.size).toBe(150)
    // Most through the pairs; those ending with a letter that starts too many words, through
    // the 4-grams.
    const used = new Map<string, number>()
    for (const term of terms) {
      const index = await indexUsed(term)
      used.set(index, (used.get(index) ?? 0) + 1)
    }
    expect(used.get('quote_search_words_pairs')).toBeGreaterThan(75)
    const store = await loadedStore()
    await expectSearchesMatchText(store, c.pool, [...terms])
    // With the 4-grams across their apostrophes too (a million quotes' choice for common runs).
    for (const term of terms) {
      const matches = await firstMatches(c.pool, term, { across: true })
      expect([...matches.ids], term).toEqual(await truth(term))
    }
  })
})
