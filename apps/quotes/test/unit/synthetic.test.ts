import { describe, expect, it } from 'vitest'
import type { SeedQuote } from '../../src/lib/seed.js'
import { SYNTHETIC_BASE, syntheticGenerator } from '../../src/lib/synthetic.js'

const quote = (id: string, text: string, author: string, tags?: string[]): SeedQuote => ({
  id,
  quote: text,
  author,
  source: 'quotable',
  ...(tags ? { tags } : {}),
})

// "the" 9 times, "owl's" and "night" once each: words are drawn 9 : 1 : 1.
const CORPUS = [
  quote('q1', 'The the THE, the the.', 'Ann', ['Birds']),
  quote('q2', "The the the the owl's night!", 'Bob'),
  quote('q3', '42 — ¿?', 'Ann', []),
]

/** `n` quotes from a generator over CORPUS. */
const draw = (n: number, seed?: number) => {
  const next = syntheticGenerator(CORPUS, seed)
  return Array.from({ length: n }, () => next())
}

const wordsOf = (text: string) => text.slice(0, -1).toLowerCase().split(' ')

describe('syntheticGenerator', () => {
  const quotes = draw(2000)

  it('writes sentences of the corpus words: capital first, a full stop last', () => {
    expect(quotes.filter(({ quote }) => !/^[A-Z][a-z' ]+\.$/.test(quote))).toEqual([])
    const words = new Set(quotes.flatMap(({ quote }) => wordsOf(quote)))
    expect(words).toEqual(new Set(['the', "owl's", 'night']))
  })

  it('makes quotes of 6 to 40 words, every length', () => {
    const lengths = new Set(quotes.map((q) => wordsOf(q.quote).length))
    expect(lengths).toEqual(new Set(Array.from({ length: 35 }, (_, i) => 6 + i)))
  })

  it('draws words with their frequency in the corpus', () => {
    const counts = new Map<string, number>()
    for (const { quote } of quotes) {
      for (const word of wordsOf(quote)) counts.set(word, (counts.get(word) ?? 0) + 1)
    }
    const all = [...counts.values()].reduce((a, b) => a + b)
    expect((counts.get('the') ?? 0) / all).toBeCloseTo(9 / 11, 1)
    expect((counts.get("owl's") ?? 0) / all).toBeCloseTo(1 / 11, 1)
    expect((counts.get('night') ?? 0) / all).toBeCloseTo(1 / 11, 1)
  })

  it("takes authors from the corpus and a corpus quote's tags, none when it has none", () => {
    const authors = new Map<string, number>()
    const tags = new Map<string, number>()
    for (const q of quotes) {
      authors.set(q.author, (authors.get(q.author) ?? 0) + 1)
      tags.set(JSON.stringify(q.tags), (tags.get(JSON.stringify(q.tags)) ?? 0) + 1)
    }
    // Each distinct author once: Ann and Bob alike, whatever Ann's share of the corpus.
    expect([...authors.keys()].sort()).toEqual(['Ann', 'Bob'])
    expect((authors.get('Ann') ?? 0) / quotes.length).toBeCloseTo(1 / 2, 1)
    expect([...tags.keys()].sort()).toEqual(['["Birds"]', '[]'])
    expect((tags.get('["Birds"]') ?? 0) / quotes.length).toBeCloseTo(1 / 3, 1)
  })

  it('gives the same quotes for the same seed (42 by default), others for another', () => {
    expect(draw(20)).toEqual(draw(20, 42))
    expect(draw(20, 7)).toEqual(draw(20, 7))
    expect(draw(20, 7)).not.toEqual(draw(20))
  })

  it('numbers synthetic quotes far above the seed ids', () => {
    expect(SYNTHETIC_BASE).toBe(10_000_000)
  })
})
