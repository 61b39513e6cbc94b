import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mergedIds } from '../../src/lib/search-vocabulary.js'

/** What the ids must be: each id once, in numeric order (the rule before they were read in place). */
const expected = (text: string) => [...new Set(text.split(',').map(Number))].sort((a, b) => a - b)

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

  it('reads every digit of the largest id Postgres stores', () => {
    expect([...mergedIds('2147483647,1,2147483646')]).toEqual([1, 2147483646, 2147483647])
  })

  it('reads no words as no ids', () => {
    expect(mergedIds('')).toEqual(new Int32Array(0))
  })

  it('gives what splitting, sorting and dropping repeats gives, for any words’ arrays', () => {
    // Each word's array ascending (as the vocabulary stores them), words overlapping at random.
    const word = fc
      .uniqueArray(fc.integer({ min: 1, max: 2_147_483_647 }), { minLength: 1, maxLength: 40 })
      .map((ids) => ids.sort((a, b) => a - b))
    const shared = fc.uniqueArray(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 60 })
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            word,
            shared.map((ids) => ids.sort((a, b) => a - b)),
          ),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        (words) => {
          const text = words.map((ids) => ids.join(',')).join(',')
          const ids = mergedIds(text)
          expect([...ids]).toEqual(expected(text))
          expect(ids.buffer.byteLength).toBe(ids.length * 4)
        },
      ),
      { numRuns: 500 },
    )
  })
})
