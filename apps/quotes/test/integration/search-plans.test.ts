import { describe, expect, it } from 'vitest'
import { searchKey, searchKeyLength } from '../../src/lib/search-key.js'
import * as search from '../../src/lib/search-query.js'
import { PLAN_SETTINGS, type Query } from '../../src/lib/search-statement.js'
import { TAG_PLAN_SETTINGS, taggedMatchesQuery, taggedPageQuery } from '../../src/lib/tag-search.js'
import { explain, useSmallCorpus } from '../support/small-corpus.js'

// Which index or walk the service's own search queries take (through EXPLAIN): 1, 2, 3, 5, 6, 9
// (seed) and 1001..5000 (synthetic: "owl" in all, "even" in half, every third tagged wisdom).
const c = useSmallCorpus('search_plans', { synthetic: 4000 })

const plan = (settings: string, query: Query, options = '') =>
  explain(c.pool, settings, query, options)

describe('plans', () => {
  it('find candidates with the 4-gram index from 4 characters, the trigram index below', async () => {
    // The key's length decides: 'of' is the word 'ǂofǂ', "don't" is 'donǂt', 'a' is 'ǂaǂ'.
    const expected = {
      owl: 'quote_search_words_trgm',
      a: 'quote_search_words_trgm',
      even: 'quote_search_words_quads',
      of: 'quote_search_words_quads',
      "don't": 'quote_search_words_quads',
    }
    for (const [term, index] of Object.entries(expected)) {
      const explained = await plan(PLAN_SETTINGS.index, search.firstMatchesQuery(term))
      expect(explained, term).toContain(`Bitmap Index Scan on ${index}`)
      expect(explained.match(/Bitmap Index Scan on quote_search_words_/g), term).toHaveLength(1)
    }
  })

  it('count a term’s key as quote_search_key() writes it, deciding which index finds it', async () => {
    const expected = {
      // Each run of other characters counts as one: 'aǂb' (3), 'abǂc' (4), 'aǂǀǂb' (as 3).
      'a b': 'quote_search_words_trgm',
      'ab c': 'quote_search_words_quads',
      'a, b': 'quote_search_words_trgm',
      // Digits are kept: 'a123' (4).
      a123: 'quote_search_words_quads',
      // Lower-cased, 'ß' stays one letter (upper-cased it would be two): 'ßab' (3).
      ßab: 'quote_search_words_trgm',
      // 'abi' in Postgres, 'abi' and a mark in JS: no 4-gram, so the trigram index (an empty
      // 4-gram set would match every row).
      abİ: 'quote_search_words_trgm',
      // Beyond ASCII, two characters less a code point: 'straße' (6) counts 4.
      straße: 'quote_search_words_quads',
    }
    for (const [term, index] of Object.entries(expected)) {
      const explained = await plan(PLAN_SETTINGS.index, search.firstMatchesQuery(term))
      expect(explained, term).toContain(`Bitmap Index Scan on ${index}`)
    }
    const key = await c.pool.query<{ key: string }>('SELECT quote_search_key($1) AS key', ['ßAB'])
    expect(searchKey('ßAB')).toBe(key.rows[0]?.key)
    // Letters JS takes for separators and the locale for letters (vowel signs, circled letters),
    // and letters outside the BMP: never measured longer than Postgres writes them.
    for (const term of ['किस', 'กิน', 'Ⓐbc', '𠀀𠀁', 'ßAB', 'a1 b2']) {
      const { rows } = await c.pool.query<{ n: number }>(
        'SELECT char_length(quote_search_key($1)) AS n',
        [term],
      )
      expect(searchKeyLength(term), term).toBeLessThanOrEqual(rows[0]?.n ?? 0)
    }
  })

  it('read the quotes themselves only for a term with characters other than letters and digits', async () => {
    // The words table decides a term of letters and digits, or of such words, typewriter
    // apostrophes and single spaces; other punctuation and spaces are checked on the quote's own
    // text.
    const reads = async (term: string) =>
      / on quotes [qs]\b/.test(await plan(PLAN_SETTINGS.index, search.firstMatchesQuery(term)))
    expect(await Promise.all(['even', 'of', 'owl', 'is even', "don't"].map(reads))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ])
    expect(await Promise.all(['don’t', 'is  even', 'is, even', ', '].map(reads))).toEqual([
      true,
      true,
      true,
      true,
    ])
  })

  it('of a term within a tag look 4-grams up for its matches, never for its pages', () => {
    expect(taggedMatchesQuery('even', 2).text).toContain('quote_search_quads(s.words) @>')
    expect(taggedPageQuery('even', 2, 0, 20).text).not.toContain('quote_search_quads')
    expect(search.pageQuery('even', 0, 20).text).toContain('quote_search_quads(s.words) @>')
  })

  it('walk the primary key in id order, without computing any 4-grams', async () => {
    for (const term of ['owl', 'even']) {
      const query = search.pageQuery(term, 0, 20, { walk: true })
      const walk = await plan(PLAN_SETTINGS.walk, query)
      expect(walk, term).toContain('Index Scan using quote_search_pkey')
      expect(walk, term).not.toMatch(/Sort|Bitmap|quote_search_quads/)
    }
    const tagged = await plan(TAG_PLAN_SETTINGS.page, taggedPageQuery('owl', 1, 600, 20))
    expect(tagged).toMatch(/Nested Loop[\s\S]*quote_tags_pkey[\s\S]*quote_search_pkey/)
    expect(tagged).not.toMatch(/Sort|Seq Scan|Merge|Hash/)
  })
})

describe('plans', () => {
  // Parallel workers as cheap as can be: a plan without them is the settings' doing.
  const CHEAP_PARALLEL = [
    'parallel_setup_cost = 0',
    'parallel_tuple_cost = 0',
    'min_parallel_table_scan_size = 0',
    'min_parallel_index_scan_size = 0',
  ]
    .map((setting) => `SET LOCAL ${setting}`)
    .join('; ')

  it('of a term within a tag never go parallel', async () => {
    // A join of the tag's quotes and the term's matches would go parallel if it could.
    const planned = [
      [TAG_PLAN_SETTINGS.matches, taggedPageQuery('owl', 2, 0, 20)],
      [TAG_PLAN_SETTINGS.page, taggedPageQuery('owl', 2, 600, 20)],
    ] as const
    for (const [settings, query] of planned) {
      const allowed = `${CHEAP_PARALLEL}; ${settings}; SET LOCAL max_parallel_workers_per_gather = 2`
      expect(await plan(allowed, query), settings).toContain('Gather')
      expect(await plan(`${CHEAP_PARALLEL}; ${settings}`, query), settings).not.toContain('Gather')
    }
  })
})
