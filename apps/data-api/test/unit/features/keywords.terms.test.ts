import { describe, expect, it } from 'vitest'
import { keywords } from '../../../src/features/keywords.js'

const terms = (text: string) => keywords(text, { feature: 'keywords' }).keywords

describe('keywords terms', () => {
  it('keeps two-letter words', () => {
    expect(terms('ox ox yak')).toEqual([
      { term: 'ox', count: 2 },
      { term: 'yak', count: 1 },
    ])
  })

  it("removes only a final possessive 's, not one inside a name", () => {
    expect(terms("O'Shea met O'Shea's dog")).toEqual([
      { term: "o'shea", count: 2 },
      { term: 'met', count: 1 },
      { term: 'dog', count: 1 },
    ])
  })

  it('breaks ties by first appearance, whatever the alphabet says', () => {
    expect(terms('zeta mid alpha kilo').map(({ term }) => term)).toEqual([
      'zeta',
      'mid',
      'alpha',
      'kilo',
    ])
  })
})
