import { describe, expect, it } from 'vitest'
import { rareTrigrams, sampleShare } from '../../src/lib/search-sample.js'

// 200 sampled `words` values: "the" and "ing" everywhere, "owl" in one.
const sample = Array.from({ length: 200 }, (_, i) =>
  i === 7 ? 'ǂtheǂprowlingǂowlǂǂaǂbǂ' : 'ǂtheǂsingingǂǂaǂbǂ',
)

describe('sampleShare', () => {
  it('is the share of the sample holding the term as words spells it', () => {
    expect(sampleShare(sample, 'THE', 'plain')).toBe(1)
    expect(sampleShare(sample, 'owl', 'plain')).toBe(1 / 200)
    expect(sampleShare(sample, 'a', 'word')).toBe(1)
    expect(sampleShare(sample, 'the singing', 'exact')).toBe(199 / 200)
    expect(sampleShare([], 'the', 'plain')).toBeUndefined()
  })
})

describe('rareTrigrams', () => {
  it('picks at most two trigrams found in at most 1 % of the sample, rarest first', () => {
    const picked = rareTrigrams(sample, 'prowling', 'plain')
    expect(picked).toHaveLength(2)
    for (const gram of picked) expect(['pro', 'row', 'owl', 'wli']).toContain(gram)
  })

  it('does not narrow when it would not help or Postgres might spell the term otherwise', () => {
    expect(rareTrigrams(sample, 'owl', 'plain')).toEqual([]) // its only trigram
    expect(rareTrigrams(sample, 'singing', 'plain')).toEqual([]) // nothing rare
    expect(rareTrigrams(sample, 'prowlïng', 'exact')).toEqual([]) // not ASCII
    expect(rareTrigrams([], 'prowling', 'plain')).toEqual([])
  })
})
