// Search terms computed from the seed corpus (apps/quotes/data/quotes.json), reproducibly.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
// The same seedable PRNG the quotes service's synthetic loader uses.
import { prng } from '@repo/quotes/dist/lib/synthetic.js'
import { paths } from './config.mjs'

export function readCorpus() {
  return JSON.parse(readFileSync(join(paths.quotesApp, 'data', 'quotes.json'), 'utf8'))
}

/** Words of the quote texts, lower-cased, with their number of occurrences (as the loader does). */
export function vocabulary(corpus) {
  const counts = new Map()
  for (const q of corpus) {
    for (const word of q.quote.toLowerCase().match(/[a-z']+/g) ?? []) {
      counts.set(word, (counts.get(word) ?? 0) + 1)
    }
  }
  return counts
}

/** How many quotes search would match: `term` as a substring of the quote or the author. */
function matchCount(searchTexts, term) {
  let n = 0
  for (const text of searchTexts) if (text.includes(term)) n += 1
  return n
}

/**
 * A rare term: a word of 8+ letters used once in the corpus that matches 1 to 3 quotes as a
 * substring (so it is not part of common words either), picked with the seeded PRNG. Synthetic
 * quotes draw words by their corpus frequency, so it stays rare in the scale database too.
 */
export function rareTerm(corpus, counts, seed) {
  const searchTexts = corpus.map((q) => `${q.quote}\u001f${q.author}`.toLowerCase())
  const candidates = [...counts]
    .filter(([word, n]) => n === 1 && /^[a-z]{8,}$/.test(word))
    .map(([word]) => word)
    .sort()
  const random = prng(seed)
  while (candidates.length > 0) {
    const [word] = candidates.splice(Math.floor(random() * candidates.length), 1)
    const matches = matchCount(searchTexts, word)
    if (matches >= 1 && matches <= 3) return { term: word, matches }
  }
  throw new Error('no rare term found in the corpus')
}

/**
 * `n` distinct words drawn uniformly from the corpus vocabulary with the seeded PRNG, skipping
 * `exclude` and words under 3 characters (shorter terms cannot use the trigram index at all).
 */
export function randomTerms(counts, n, seed, exclude = []) {
  const skip = new Set(exclude)
  const words = [...counts.keys()].filter((w) => w.length >= 3 && !skip.has(w)).sort()
  const random = prng(seed)
  const picked = []
  while (picked.length < n && words.length > 0) {
    picked.push(...words.splice(Math.floor(random() * words.length), 1))
  }
  return picked
}
