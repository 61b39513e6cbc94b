// Search terms computed from the seed corpus (apps/quotes/data/quotes.json), reproducibly: the
// rare term of the throughput scenarios and the never-searched terms of the scale passes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { paths, settings } from './config.mjs'

/** The seedable PRNG the quotes service's synthetic loader uses (from its build). */
export async function seededRandom(seed) {
  const { prng } = await import('@repo/quotes/dist/lib/synthetic.js')
  return prng(seed)
}

let corpusCache
export function readCorpus() {
  corpusCache ??= JSON.parse(readFileSync(join(paths.quotesApp, 'data', 'quotes.json'), 'utf8'))
  return corpusCache
}

/** Words of the quote texts, lower-cased, with their number of occurrences (as the loader does). */
export function vocabulary(corpus = readCorpus()) {
  const counts = new Map()
  for (const q of corpus) {
    for (const word of q.quote.toLowerCase().match(/[a-z']+/g) ?? []) {
      counts.set(word, (counts.get(word) ?? 0) + 1)
    }
  }
  return counts
}

/** What search looks in: the quote and its author, lower-cased. */
const searchTexts = (corpus) => corpus.map((q) => `${q.quote}\u001f${q.author}`.toLowerCase())

function matchCount(texts, term) {
  let n = 0
  for (const text of texts) if (text.includes(term)) n += 1
  return n
}

/** Draws up to `n` distinct items of `pool` (sorted first, so the draw is reproducible). */
function draw(pool, n, random, taken) {
  const candidates = [...new Set(pool)].filter((item) => !taken.has(item)).sort()
  const picked = []
  while (picked.length < n && candidates.length > 0) {
    const [item] = candidates.splice(Math.floor(random() * candidates.length), 1)
    taken.add(item)
    picked.push(item)
  }
  return picked
}

let rare
/**
 * A rare term: a word of 8+ letters used once in the corpus that matches 1 to 3 quotes as a
 * substring (so it is not part of common words either), picked with the seeded PRNG. Synthetic
 * quotes draw words by their corpus frequency, so it stays rare in the scale database too.
 */
export async function rareTerm() {
  if (rare) return rare
  const corpus = readCorpus()
  const texts = searchTexts(corpus)
  const candidates = [...vocabulary(corpus)]
    .filter(([word, n]) => n === 1 && /^[a-z]{8,}$/.test(word))
    .map(([word]) => word)
  const random = await seededRandom(settings.seed)
  for (const word of draw(candidates, candidates.length, random, new Set())) {
    const matches = matchCount(texts, word)
    if (matches >= 1 && matches <= 3) {
      rare = { term: word, matches }
      return rare
    }
  }
  throw new Error('no rare term found in the corpus')
}

/** Two consecutive words of a seed quote, as they appear in it (so they match at least it). */
function phrases(corpus) {
  const out = []
  for (const q of corpus) {
    const tokens = q.quote.toLowerCase().split(/\s+/)
    for (let i = 1; i < tokens.length; i += 1) {
      if (/^[a-z']{2,}$/.test(tokens[i - 1]) && /^[a-z']{2,}$/.test(tokens[i])) {
        out.push(`${tokens[i - 1]} ${tokens[i]}`)
      }
    }
  }
  return out
}

/** Last names of the authors (`Lord Byron` → `byron`), 3+ letters. */
function surnames(corpus) {
  return corpus
    .map((q) => q.author.toLowerCase().split(/\s+/).at(-1))
    .filter((name) => /^\p{L}[\p{L}'-]{2,}$/u.test(name))
}

/**
 * Letter strings that match nothing at any scale: synthetic quotes are seed words joined by
 * spaces, so a string of letters found in no seed quote or author is in no synthetic quote.
 */
function misses(corpus, n, random) {
  const texts = searchTexts(corpus).join('\n')
  const out = []
  for (let tries = 0; out.length < n && tries < n * 100; tries += 1) {
    const length = 6 + Math.floor(random() * 4)
    let word = ''
    for (let i = 0; i < length; i += 1) word += String.fromCharCode(97 + Math.floor(random() * 26))
    if (!texts.includes(word) && !out.includes(word)) out.push(word)
  }
  return out
}

/**
 * `n` distinct terms for the cold-search pass, drawn with the seeded PRNG, shuffled together:
 * 50 % corpus words of 3+ letters, 20 % author surnames, 20 % two-word phrases, 10 % misses.
 * Resolves to [{ term, kind }].
 */
export async function coldTerms(n = settings.coldTerms, seed = settings.seed) {
  const corpus = readCorpus()
  const random = await seededRandom(seed)
  const taken = new Set()
  const counts = {
    surname: Math.round(n * 0.2),
    phrase: Math.round(n * 0.2),
    miss: Math.round(n * 0.1),
  }
  counts.word = n - counts.surname - counts.phrase - counts.miss
  const words = [...vocabulary(corpus).keys()].filter((w) => /^[a-z']{3,}$/.test(w))
  const terms = [
    ...draw(words, counts.word, random, taken).map((term) => ({ term, kind: 'word' })),
    ...draw(surnames(corpus), counts.surname, random, taken).map((term) => ({
      term,
      kind: 'surname',
    })),
    ...draw(phrases(corpus), counts.phrase, random, taken).map((term) => ({
      term,
      kind: 'phrase',
    })),
    ...misses(corpus, counts.miss, random)
      .filter((term) => !taken.has(term))
      .map((term) => ({ term, kind: 'miss' })),
  ]
  return shuffle(terms, random)
}

/**
 * `n` distinct 1-2 character terms: a third single letters, the rest two-letter strings found in
 * corpus words, drawn with the seeded PRNG. Resolves to [{ term, kind }].
 */
export async function shortTerms(n = settings.shortTerms, seed = settings.seed) {
  const random = await seededRandom(seed + 1)
  const taken = new Set()
  const letters = [...'abcdefghijklmnopqrstuvwxyz']
  const pairs = []
  for (const word of vocabulary().keys()) {
    for (let i = 1; i < word.length; i += 1) {
      const pair = word.slice(i - 1, i + 1)
      if (/^[a-z]{2}$/.test(pair)) pairs.push(pair)
    }
  }
  const ones = Math.min(letters.length, Math.round(n / 3))
  const terms = [
    ...draw(letters, ones, random, taken).map((term) => ({ term, kind: '1 letter' })),
    ...draw(pairs, n - ones, random, taken).map((term) => ({ term, kind: '2 letters' })),
  ]
  return shuffle(terms, random)
}

function shuffle(items, random) {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}
