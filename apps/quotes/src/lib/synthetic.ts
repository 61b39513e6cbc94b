import { seededRandom } from '@repo/service-kit'
import type { SeedQuote } from './seed.js'

/** Synthetic quotes live above this id, far from the seed ids, so they never collide. */
export const SYNTHETIC_BASE = 10_000_000

/** The seedable PRNG of the synthetic corpus (the bench draws its terms with it too). */
export const prng = seededRandom

/**
 * Builds quotes that read like the real ones statistically: words drawn with their frequency in
 * the seed corpus (so common terms are common and rare terms rare at any scale), lengths of 6 to
 * 40 words, authors drawn from the real authors, tags copied from a real quote drawn at random (so
 * about a quarter have tags, in the corpus's proportions).
 */
export function syntheticGenerator(corpus: SeedQuote[], seed = 42) {
  const counts = new Map<string, number>()
  for (const q of corpus) {
    for (const word of q.quote.toLowerCase().match(/[a-z']+/g) ?? []) {
      counts.set(word, (counts.get(word) ?? 0) + 1)
    }
  }
  const words = [...counts.keys()]
  const cumulative = new Float64Array(words.length)
  let total = 0
  words.forEach((word, i) => {
    total += counts.get(word) as number
    cumulative[i] = total
  })
  const authors = [...new Set(corpus.map((q) => q.author))]
  const tagLists = corpus.map((q) => q.tags ?? [])
  const random = prng(seed)

  function word(): string {
    const target = random() * total
    let lo = 0
    // Stryker disable next-line ArithmeticOperator: the target is below the total, so the search never reaches past the last word
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((cumulative[mid] as number) < target) lo = mid + 1
      else hi = mid
    }
    return words[lo] as string
  }

  return function next(): { quote: string; author: string; tags: string[] } {
    const length = 6 + Math.floor(random() * 35)
    const parts: string[] = []
    for (let i = 0; i < length; i += 1) parts.push(word())
    const text = parts.join(' ')
    return {
      quote: `${text.charAt(0).toUpperCase()}${text.slice(1)}.`,
      author: authors[Math.floor(random() * authors.length)] as string,
      // Stryker disable next-line ArrayDeclaration: only an empty corpus has no tag list to draw (nor words, nor authors)
      tags: tagLists[Math.floor(random() * tagLists.length)] ?? [],
    }
  }
}
