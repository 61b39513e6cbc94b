import { describe, expect, it } from 'vitest'
import { mergedIds } from '../../src/lib/search-vocabulary.js'

describe("the vocabulary's ids, merged from its words' arrays", () => {
  it('sorts the words’ ids numerically and keeps each once', () => {
    // Two words' arrays, each sorted, overlapping: `fellow` and `fellows` in quote 12.
    const ids = mergedIds('3,12,100,9,12,1000000')
    expect([...ids]).toEqual([3, 9, 12, 100, 1000000])
    // The search cache sizes an entry by its bytes: nothing dropped is still held.
    expect(ids.buffer.byteLength).toBe(5 * 4)
  })

  it('keeps a single word’s array as it is', () => {
    const ids = mergedIds('1,2,10,20')
    expect([...ids]).toEqual([1, 2, 10, 20])
    expect(ids.buffer.byteLength).toBe(4 * 4)
  })

  it('reads no words as no ids', () => {
    expect(mergedIds('')).toEqual(new Int32Array(0))
  })
})
