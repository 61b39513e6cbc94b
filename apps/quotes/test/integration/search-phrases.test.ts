import { describe, expect, it } from 'vitest'
import { firstMatches, firstMatchesQuery } from '../../src/lib/search-query.js'
import { PLAN_SETTINGS } from '../../src/lib/search-statement.js'
import { termKind } from '../../src/lib/search-term.js'
import { expectSearchesMatchText, useSearchFixture } from '../support/search-truth.js'
import { explain } from '../support/small-corpus.js'

// Single spaces in quote_search.words (migration 1700000000080): a single space is 'ǂ' and every
// other run of separators 'ǂǀǂ', so a phrase of words and single spaces is decided by the words
// alone, and every search still finds exactly what the quotes' own text holds.

const QUOTES = [
  'We are for it.',
  'We are, for now, here.',
  'They are  for two spaces.',
  'They are\tfor a tab.',
  'They are\nfor a line.',
  'Take care forward.',
  'ARE FOR in capitals.',
  'A no-break: are\u00a0for.',
  'A mark: areǂfor, areǀfor and areǁfor.',
  'Fore are for. For are.',
]

const { c, truth, addQuotes, loadedStore } = useSearchFixture('phrases', QUOTES, 'Ann Are-For')

describe('search phrases', () => {
  it('finds every match and only those, for phrases and for terms with other separators', async () => {
    await addQuotes()
    const store = await loadedStore()
    const terms = [
      ...['are for', 'ARE for', 're fo', 'care for', 'are for it', 'for are', 'fore are for'],
      ...['are  for', 'are, for', 'are\tfor', 'are\u00a0for', ' are for', 'are for ', 'are-for'],
      ...['areǂfor', 'areǀfor', 'areǁfor', 'ann are', 'here ann', 'for ann'],
    ]
    await expectSearchesMatchText(store, c.pool, terms)
    // The phrase holds in four of the texts (not in the author's "Are-For").
    expect(await truth('are for')).toEqual([101, 106, 107, 110])
  })

  it('decides a phrase of words and single spaces by the words alone, without reading the quotes', async () => {
    await addQuotes()
    expect(termKind('are for')).toBe('phrase')
    const explained = await explain(c.pool, PLAN_SETTINGS.index, firstMatchesQuery('are for'))
    expect(explained).not.toMatch(/ on quotes /)
    const matches = await firstMatches(c.pool, 'are for')
    expect([...matches.ids]).toEqual(await truth('are for'))
  })
})
