import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sentencesOf } from '../../../src/features/sentences.js'
import { summary } from '../../../src/features/summary.js'

const WORDS = ['solar', 'energy', 'cat', 'milk', 'panels', 'sun', 'grows', 'cheap', 'the', 'is']
const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 })
  .map((words) => `${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase()))
const text = fc.array(sentence, { maxLength: 40 }).map((s) => s.join(' '))

describe('summary, for any text', () => {
  it('returns min(N, distinct sentences) sentences of the text, in their order', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 20 }), (t, wanted) => {
        const all = [...sentencesOf(t)].map((s) => s.trim())
        const result = summary(t, { feature: 'summary', sentences: wanted })
        expect(result.total_sentences).toBe(all.length)
        expect(result.count).toBe(result.sentences.length)
        if (all.length <= wanted) {
          expect(result.sentences).toEqual(all)
          return
        }
        const distinct = new Set(all.map((s) => s.toLowerCase())).size
        expect(result.count).toBe(Math.min(wanted, distinct))
        expect(new Set(result.sentences).size).toBe(result.count)
        const positions = result.sentences.map((s) => all.indexOf(s))
        expect(positions.every((p) => p >= 0)).toBe(true)
        expect(positions).toEqual([...positions].sort((a, b) => a - b))
      }),
    )
  })

  it('is the same summary whatever N beyond the text asks for', () => {
    fc.assert(
      fc.property(text, (t) => {
        const all = summary(t, { feature: 'summary', sentences: 20 })
        if (all.total_sentences <= 20) expect(all.count).toBe(all.total_sentences)
        const one = summary(t, { feature: 'summary', sentences: 1 })
        if (one.count === 1) expect(all.sentences).toContain(one.sentences[0])
      }),
    )
  })
})
