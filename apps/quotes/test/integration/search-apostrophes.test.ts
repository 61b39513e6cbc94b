import { describe, expect, it } from 'vitest'
import { QuoteStore } from '../../src/lib/quote-store.js'
import { searchKey } from '../../src/lib/search-query.js'
import { addNumberedQuotes, expectSearchesMatchText, textMatches } from '../support/search-truth.js'
import { useSmallCorpus } from '../support/small-corpus.js'

// Apostrophes in quote_search.words (migration 1700000000060): each is 'ǂǁǂ', so a term holding
// one is narrowed by it, and every search still finds exactly what the quotes' text holds.

const c = useSmallCorpus('apostrophes', { synthetic: 200 })

const QUOTES = [
  "It's the dogs' toys, isn’t it?",
  "Rock 'n' roll 'til dawn.",
  "Th' old man said 'twas so.",
  'It s not the same, with or without the letters.',
  "O'Brien's law: what can go wrong, won’t.",
]

const truth = (term: string) => textMatches(c.pool, term)
const addQuotes = () => addNumberedQuotes(c.pool, QUOTES, 'Flann O’Brien')

describe('search terms with apostrophes', () => {
  it('writes each apostrophe as ǂǁǂ in the words table, as searchKey writes a term', async () => {
    const { rows } = await c.pool.query<{ words: string }>(
      'SELECT quote_search_words($1, $2) AS words',
      [QUOTES[0], 'Flann O’Brien'],
    )
    expect(rows[0]?.words).toBe('ǂitǂǁǂsǂtheǂdogsǂǁǂǂtoysǂǀǂisnǂǁǂtǂitǂǀǂǂǂflannǂoǂǁǂbrienǂ')
    for (const term of [
      ...["it's", 'it’s', "th'", "'til", "dogs' toys", "''", "a, 'b", 'ßAB', 'x—y'],
      // Single spaces and other runs (migration 080), the marks themselves read as separators.
      ...['are for', 'are  for', ' are, for ', 'a\tb', 'aǂb ǀ c', 'x ǁ', "x '", 'a , , b'],
    ]) {
      const key = await c.pool.query<{ key: string }>('SELECT quote_search_key($1) AS key', [term])
      expect(searchKey(term), term).toBe(key.rows[0]?.key)
    }
  })

  it('finds every match and only those, for terms with and without apostrophes', async () => {
    await addQuotes()
    const store = new QuoteStore(c.pool, { cacheMax: 10, refreshMs: 3_600_000 })
    await store.load()
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
