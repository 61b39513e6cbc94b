import { describe, expect, it } from 'vitest'
import { keywords } from '../../../src/features/keywords.js'

const run = (text: string, limit?: number) =>
  keywords(text, limit === undefined ? { feature: 'keywords' } : { feature: 'keywords', limit })
/** The keywords as `term:count` strings, in order. */
const counted = (result: ReturnType<typeof keywords>) =>
  result.keywords.map(({ term, count }) => `${term}:${count}`)

describe('keywords', () => {
  it('counts terms with stop words removed, most frequent first', () => {
    const result = run('The cat sat on the mat. The cat is black. A black cat.')
    expect(counted(result)).toEqual(['cat:3', 'black:2', 'sat:1', 'mat:1'])
    expect(result.language).toBe('eng')
    expect(result.total_terms).toBe(7)
    expect(result.unique_terms).toBe(4)
  })

  it('never returns a stop word', () => {
    const text =
      'It is what it is, and we would have done it if we could, but they were not there and so it was.'
    const terms = run(text, 50).keywords.map((keyword) => keyword.term)
    for (const stopWord of [
      'it',
      'is',
      'and',
      'we',
      'would',
      'have',
      'if',
      'but',
      'they',
      'not',
      'was',
    ]) {
      expect(terms).not.toContain(stopWord)
    }
  })

  it('respects the limit and defaults to 10', () => {
    const text = Array.from(
      { length: 30 },
      (_, i) => `term${String.fromCharCode(97 + (i % 26))}${i}`,
    ).join(' ')
    expect(run(text).keywords).toHaveLength(10)
    expect(run(text, 3).keywords).toHaveLength(3)
    expect(run(text, 50).keywords).toHaveLength(30)
  })

  it('breaks ties by first appearance', () => {
    expect(run('zebra apple mango', 3).keywords.map((keyword) => keyword.term)).toEqual([
      'zebra',
      'apple',
      'mango',
    ])
  })

  it('lower-cases terms, drops numbers and one-letter words, and merges possessives', () => {
    const result = run("Obama's plan. OBAMA spoke. 2024 2024 2024 x y z apple")
    expect(counted(result)).toEqual(['obama:2', 'plan:1', 'spoke:1', 'apple:1'])
  })

  it('removes the stop words of the language of the text', () => {
    const text =
      'Les enfants jouent dans le jardin et les parents regardent les enfants. ' +
      'Le jardin est grand et les fleurs sont belles dans le jardin.'
    const result = run(text)
    expect(result.language).toBe('fra')
    expect(counted(result).slice(0, 2)).toEqual(['jardin:3', 'enfants:2'])
    const terms = result.keywords.map((keyword) => keyword.term)
    for (const stopWord of ['les', 'le', 'et', 'dans', 'est', 'sont'])
      expect(terms).not.toContain(stopWord)
  })

  it('returns no keyword for an empty text', () => {
    expect(run('')).toEqual({ keywords: [], language: 'eng', total_terms: 0, unique_terms: 0 })
  })
})
