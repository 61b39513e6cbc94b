import { seededRandom } from '@repo/service-kit'
import { describe, expect, it } from 'vitest'
import { searchKey, spelledQuads } from '../../src/lib/search-key.js'
import { firstMatches, firstMatchesQuery } from '../../src/lib/search-query.js'
import { PLAN_SETTINGS } from '../../src/lib/search-statement.js'
import { termKind } from '../../src/lib/search-term.js'
import { expectSearchesMatchText, useSearchFixture } from '../support/search-truth.js'
import { explain } from '../support/small-corpus.js'

// Apostrophes in quote_search.words (migration 1700000000060): ' is 'ǂǁǂ' and ’ 'ǂǁǁǂ' (090), so
// a term holding one is narrowed by it (a term of ASCII letters, digits, ' and single spaces is
// decided by the words alone), and every search still finds exactly what the quotes' text holds.

const QUOTES = [
  "It's the dogs' toys, isn’t it?",
  "Rock 'n' roll 'til dawn.",
  "Th' old man said 'twas so.",
  'It s not the same, with or without the letters.',
  "O'Brien's law: what can go wrong, won’t.",
]

const { c, truth, addQuotes, loadedStore } = useSearchFixture(
  'apostrophes',
  QUOTES,
  'Flann O’Brien',
)

describe('search terms with apostrophes', () => {
  it('writes each apostrophe as ǂǁǂ or ǂǁǁǂ in the words table, as searchKey writes a term', async () => {
    const { rows } = await c.pool.query<{ words: string }>(
      'SELECT quote_search_words($1, $2) AS words',
      [QUOTES[0], 'Flann O’Brien'],
    )
    expect(rows[0]?.words).toBe('ǂitǂǁǂsǂtheǂdogsǂǁǂǂtoysǂǀǂisnǂǁǁǂtǂitǂǀǂǂǂflannǂoǂǁǁǂbrienǂ')
    for (const term of [
      ...["it's", 'it’s', "th'", "'til", "dogs' toys", "''", "a, 'b", 'ßAB', 'x—y', "'’", "x' ’y"],
      // Single spaces and other runs (migration 080), the marks themselves read as separators.
      ...['are for', 'are  for', ' are, for ', 'a\tb', 'aǂb ǀ c', 'x ǁ', "x '", 'a , , b'],
    ]) {
      const key = await c.pool.query<{ key: string }>('SELECT quote_search_key($1) AS key', [term])
      expect(searchKey(term), term).toBe(key.rows[0]?.key)
    }
  })

  it('finds every match and only those, for terms with and without apostrophes', async () => {
    await addQuotes()
    const store = await loadedStore()
    const terms = [
      "it's",
      'it’s',
      "'s",
      "s'",
      "th'",
      "'til",
      "'n'",
      "isn't",
      'isn’t',
      'n’t',
      "dogs' toys",
      "o'brien",
      'o’brien',
      "'twas so",
      "' ",
      " '",
      // Whole words and substrings: what they found before the change.
      'it',
      's',
      't',
      'n',
      'til',
      'its',
      'brien',
      'it s',
    ]
    await expectSearchesMatchText(store, c.pool, terms)
    // Whole words: "It's" holds the word "it" (an apostrophe is not a letter), and "s" after it.
    expect((await store.search('it', 0, 10)).results.map((q) => q.num)).toEqual(
      expect.arrayContaining([101, 104]),
    )
  })

  it("decides a term of letters, digits, ' and single spaces by the words alone, without reading the quotes", async () => {
    await addQuotes()
    for (const term of ["it's", "dogs' toys", "'til dawn", "won't"]) {
      expect(termKind(term), term).toBe('phrase')
      const explained = await explain(c.pool, PLAN_SETTINGS.index, firstMatchesQuery(term))
      expect(explained, term).not.toMatch(/ on quotes /)
      expect([...(await firstMatches(c.pool, term)).ids], term).toEqual(await truth(term))
    }
    // "won't" is not "won’t": the quote holds the typographic one.
    expect(await truth("won't")).toEqual([])
    expect(await truth('won’t')).toEqual([105])
  })

  it('finds what the text holds for random terms of letters, apostrophes and spaces', async () => {
    // Texts and terms over a small alphabet, so that apostrophes, single and double spaces and
    // other separators meet in every order: the words must decide each term as the text does.
    const random = seededRandom(90)
    const pick = (chars: readonly string[], length: number) =>
      Array.from({ length }, () => chars[Math.floor(random() * chars.length)]).join('')
    const texts = Array.from({ length: 300 }, () =>
      pick(['a', 'b', 'a', 'b', "'", '’', ' ', ' ', ',', '  ', 'ǁ', 'ǂ'], 12),
    )
    await c.pool.query(
      `INSERT INTO quotes (num, quote, author, source)
       SELECT 5000 + i, 'x' || q || 'x', 'A B', 'synthetic' FROM unnest($1::text[]) WITH ORDINALITY AS t(q, i)
       ON CONFLICT (num) DO NOTHING`,
      [texts],
    )
    const terms = new Set<string>()
    for (let tries = 0; tries < 2000 && terms.size < 150; tries += 1) {
      const term = pick(['a', 'b', "'", ' '], 2 + Math.floor(random() * 4))
      if (termKind(term) === 'phrase') terms.add(term)
    }
    expect(terms.size).toBe(150)
    const store = await loadedStore()
    await expectSearchesMatchText(store, c.pool, [...terms])
  })

  it('looks up the 4-grams of an apostrophe phrase that spell two letters, or all if none does', async () => {
    const quads = async (key: string, grams: string[]) => {
      const { rows } = await c.pool.query<{ spelled: number[]; expected: number[] }>(
        `SELECT ARRAY(SELECT unnest(${spelledQuads('$1::text')}) ORDER BY 1) AS spelled,
                ARRAY(SELECT hashtext(g) FROM unnest($2::text[]) AS g ORDER BY 1) AS expected`,
        [key, grams],
      )
      expect(rows[0]?.spelled, key).toEqual(rows[0]?.expected)
    }
    // Not tǂǁǂ, ǂǁǂs, ǁǂsǂ: a mark and one letter, in every "t'" and "'s".
    await quads(searchKey("it's never"), ['itǂǁ', 'ǂsǂn', 'sǂne', 'ǂnev', 'neve', 'ever'])
    // None spells two: all of them.
    await quads(searchKey("'s'"), ['ǂǁǂs', 'ǁǂsǂ', 'ǂsǂǁ', 'sǂǁǂ'])
    await addQuotes()
    for (const term of ["it's the", "'s the dog", "'n' roll", "'s'", "n't it"]) {
      expect([...(await firstMatches(c.pool, term)).ids], term).toEqual(await truth(term))
    }
  })

  it('narrows a term with an apostrophe to the rows holding it, not every word ending so', async () => {
    await addQuotes()
    // Before: "th'" was looked up as 'thǂ', which every "with " and "both " holds.
    const { rows } = await c.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM quote_search WHERE strpos(words, quote_search_key($1)) > 0',
      ["th'"],
    )
    expect(rows[0]?.n).toBe((await truth("th'")).length)
    expect(rows[0]?.n).toBe(1)
  })
})
