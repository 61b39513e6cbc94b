import { describe, expect, it } from 'vitest'
import { sampleShare } from '../../src/lib/search-sample.js'

// 200 sampled `words` values: "the" in all, "owl" in one.
const sample = Array.from({ length: 200 }, (_, i) =>
  i === 7 ? 'ǂtheǂprowlingǂowlǂǂaǂbǂ' : 'ǂtheǂsingingǂǂaǂbǂ',
)

describe('sampleShare', () => {
  it('is the share of the sample holding the term as quote_search.words spells it', () => {
    expect(sampleShare(sample, 'THE', 'plain')).toBe(1)
    expect(sampleShare(sample, 'owl', 'plain')).toBe(1 / 200)
    expect(sampleShare(sample, 'a', 'word')).toBe(1)
    expect(sampleShare(sample, 'b', 'word')).toBe(1)
    expect(sampleShare(sample, 'in', 'word')).toBe(0)
    expect(sampleShare(sample, 'the singing', 'exact')).toBe(199 / 200)
    // A run of other characters is one separator; a plain term matches inside words too.
    expect(sampleShare(sample, 'the -- singing', 'exact')).toBe(199 / 200)
    expect(sampleShare(sample, 'sing', 'plain')).toBe(199 / 200)
    expect(sampleShare(sample, 'ow', 'word')).toBe(0)
  })

  it('is unknown without a sample (a table not analyzed yet)', () => {
    expect(sampleShare([], 'the', 'plain')).toBeUndefined()
  })
})
