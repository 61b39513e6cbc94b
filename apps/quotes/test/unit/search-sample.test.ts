import { describe, expect, it } from 'vitest'
import { sampleHits } from '../../src/lib/search-sample.js'
import type { TermKind } from '../../src/lib/search-term.js'

// 200 sampled `search_text` values (quote and author, lower-cased): "the" in all, "owl" in one.
const sample = Array.from({ length: 200 }, (_, i) =>
  i === 7 ? "the prowling owl's night\u001fa. b" : 'the singing, night\u001fa. b',
)

const hitsOf = (cases: [string, TermKind][], texts: readonly string[] = sample) =>
  cases.map(([term, kind]) => sampleHits(texts, term, kind))

describe('sampleHits', () => {
  it('counts the sampled texts holding the term as search matches it', () => {
    const cases: [string, TermKind][] = [
      ['THE', 'plain'],
      ['owl', 'plain'],
      ['sing', 'plain'],
      ['the singing', 'exact'],
    ]
    expect(hitsOf(cases)).toEqual([200, 1, 199, 199])
  })

  it('matches a term of 1-2 letters or digits as a whole word only', () => {
    // Inside a word ("singing", "prowling") is no match; after an apostrophe is.
    const cases: [string, TermKind][] = [
      ['a', 'word'],
      ['B', 'word'],
      ['in', 'word'],
      ['ow', 'word'],
      ['s', 'word'],
    ]
    expect(hitsOf(cases)).toEqual([200, 200, 0, 0, 1])
    // A word found inside another first and on its own later in the same text.
    expect(sampleHits(['grow ow'], 'ow', 'word')).toBe(1)
    expect(sampleHits(['ow', 'owl', 'low', '1ow', 'ow2', 'éow'], 'ow', 'word')).toBe(1)
  })

  it('matches punctuation and spaces literally, as the search does', () => {
    // The same words with other characters between them are not the term.
    const cases: [string, TermKind][] = [
      ["owl's", 'exact'],
      ['singing, night', 'exact'],
      ['singing night', 'exact'],
      ['the -- singing', 'exact'],
      ["night's", 'exact'],
      ['a.', 'exact'],
      [', ', 'scan'],
    ]
    expect(hitsOf(cases)).toEqual([1, 199, 0, 0, 0, 200, 199])
  })

  it('is 0 without a sample (a table not analyzed yet)', () => {
    expect(sampleHits([], 'the', 'plain')).toBe(0)
  })
})
