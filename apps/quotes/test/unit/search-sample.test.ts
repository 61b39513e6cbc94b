import { describe, expect, it } from 'vitest'
import {
  sampleHits,
  TEXT_SAMPLED_HITS,
  textSample,
  textSampleEstimate,
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
