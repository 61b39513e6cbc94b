import { describe, expect, it } from 'vitest'
import { ACROSS_ABOVE, acrossPays, type PairRun, pairRun } from '../../src/lib/search-pairs.js'
import {
  sampleHits,
  TEXT_SAMPLED_HITS,
  textSample,
  textSampleEstimate,
  textSampleHolds,
} from '../../src/lib/search-sample.js'
import type { TermKind } from '../../src/lib/search-term.js'

// 200 sampled `search_text` values (quote and author, lower-cased): "the" in all, "owl" in one.
const sample = Array.from({ length: 200 }, (_, i) =>
  i === 7 ? "the prowling owl's night\u001fa. b" : 'the singing, night\u001fa. b',
)

const hitsOf = (cases: [string, TermKind][], texts: readonly string[] = sample) =>
  cases.map(([term, kind]) => sampleHits(texts, term.toLowerCase(), kind))

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

describe('textSampleEstimate', () => {
  // 1,000 sampled texts of 100,000 quotes: each text stands for 100.
  const sampleHolding = (held: number[], text = 'we are for it') =>
    textSample(Array.from({ length: 1000 }, (_, i) => (held.includes(i) ? text : 'the owl')))
  const first = (n: number) => Array.from({ length: n }, (_, i) => i)
  // Lower-cased as lowerAsPostgres does an ASCII term.
  const estimate = (sample: ReturnType<typeof textSample>, term = 'Are For') =>
    textSampleEstimate(sample, 100_000, term.toLowerCase(), 2000)

  it('estimates a term from the sampled texts holding it, each text once, whatever the case', () => {
    expect(estimate(sampleHolding(first(TEXT_SAMPLED_HITS)))).toBe(TEXT_SAMPLED_HITS * 100)
    const twice = sampleHolding(first(TEXT_SAMPLED_HITS), 'are for, ARE FOR')
    expect(estimate(twice)).toBe(TEXT_SAMPLED_HITS * 100)
    expect(estimate(sampleHolding(first(TEXT_SAMPLED_HITS - 1)))).toBeUndefined()
  })

  it('leaves a term to be counted unless the estimate is above the given total', () => {
    const sample = sampleHolding(first(TEXT_SAMPLED_HITS))
    expect(textSampleEstimate(sample, 100_000, 'are for', TEXT_SAMPLED_HITS * 100)).toBeUndefined()
  })

  it('reads past the first quarter only for a term it holds TEXT_SAMPLED_HITS / 8 times', () => {
    // 250 texts a quarter; all 100 holding texts past it but 7: left to be counted.
    const late = (inFirst: number) => [
      ...first(inFirst),
      ...Array.from({ length: 100 - inFirst }, (_, i) => 500 + i),
    ]
    expect(estimate(sampleHolding(late(TEXT_SAMPLED_HITS / 8 - 0.5)))).toBeUndefined()
    expect(estimate(sampleHolding(late(8)))).toBe(100 * 100)
  })

  it('never finds a term across two sampled texts', () => {
    // "are" ends each text and "for" starts the next: no text holds "are for".
    const sample = textSample(Array.from({ length: 1000 }, () => 'for we are'))
    expect(estimate(sample)).toBeUndefined()
    expect(estimate(sample, 'are')).toBe(100_000)
    expect(estimate(sample, 'are\u0000for')).toBeUndefined()
    expect(estimate(sample, '')).toBeUndefined()
  })
})

describe('textSampleHolds', () => {
  // Read from its first quarter: these six texts, each standing for 100 quotes of 600.
  const texts = ["but you're late", 'but your turn', 'rebut you.', 'you but you', 'nothing', 'é']
  const wide = textSample([...texts, ...texts.map(() => 'but you'), ...texts, ...texts])
  /** The most quotes of 600 the sample holds the text in more than. */
  const most = (lower: string, start: boolean, end: boolean) =>
    [0, 99, 100, 199, 200, 299, 300, 399, 400, 499, 500]
      .filter((above) => textSampleHolds(wide, 600, lower, { start, end }, above))
      .at(-1)

  it('counts the texts holding the text, each once, scaled to the corpus', () => {
    expect(most('but you', false, false)).toBe(399)
    expect(most('nothing', false, false)).toBe(99)
    expect(most('absent', false, false)).toBeUndefined()
  })

  it('keeps a bounded end from being next to a letter or digit', () => {
    // "your" holds "you" as part of a word; "rebut" holds "but".
    expect(most('but you', false, true)).toBe(299)
    expect(most('but you', true, false)).toBe(299)
    expect(most('but you', true, true)).toBe(199)
    // A text where only a later occurrence is bounded still counts; digits and letters beyond
    // ASCII are letters too.
    const bounded = { start: true, end: true }
    const holds = (text: string) =>
      textSampleHolds(textSample([text, '', '', '']), 1, 'but you', bounded, 0)
    expect(holds('rebut you, but you')).toBe(true)
    for (const text of ['2but you', 'ébut you', 'but you2', 'but youé', 'Rbut you']) {
      expect(holds(text), text).toBe(false)
    }
    for (const text of ["'but you'", '.but you ', '!but you\u0000']) expect(holds(text)).toBe(true)
  })
})

describe('acrossPays', () => {
  const runOf = (phrase: string) => pairRun(phrase) as PairRun
  // In the first quarter (25 texts), "but you" with "you" a whole word in 3, in 15 with "your".
  const wide = textSample(
    Array.from({ length: 100 }, (_, i) =>
      i % 10 === 0 ? "but you're late" : i % 10 < 5 ? 'but your turn' : 'nothing',
    ),
  )

  it('narrows by the 4-grams across the apostrophe when the run is in many quotes', () => {
    // 12 % of the corpus: over ACROSS_ABOVE at 20 times it, not at 4 times.
    expect(acrossPays(runOf("but you'd"), wide, 20 * ACROSS_ABOVE)).toBe(true)
    expect(acrossPays(runOf("but you'd"), wide, 4 * ACROSS_ABOVE)).toBe(false)
  })

  it('counts the run as the pairs hold it: a closed end is a whole word', () => {
    // "but your" is no pair "…but you": counted, 60 % of the corpus would pass.
    expect(acrossPays(runOf("but you'd"), wide, 3 * ACROSS_ABOVE)).toBe(false)
    expect(acrossPays(runOf("but yo'd"), wide, 20 * ACROSS_ABOVE)).toBe(false)
  })

  it('never narrows without an apostrophe, 4-grams across it or a sample', () => {
    const many = textSample(Array.from({ length: 10 }, () => 'but you know'))
    expect(acrossPays(runOf('but you'), many, 1_000_000)).toBe(false)
    expect(runOf("'but you").across).toEqual([])
    expect(acrossPays(runOf("'but you"), many, 1_000_000)).toBe(false)
    expect(acrossPays(runOf("but you'd"), undefined, 1_000_000)).toBe(false)
  })
})
