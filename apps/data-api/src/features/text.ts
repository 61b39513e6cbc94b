import { createRequire } from 'node:module'

/*
 * Text helpers shared by several features: word tokens and stop words (the `stopword`
 * package's lists, keyed by ISO 639-3 code). Sentences are in sentences.ts.
 */

/**
 * A word: a run of letters, combining marks and digits, with inner apostrophes or hyphens
 * (`don't`, `well-known`, `Jean-Luc`). Global: use with `matchAll` or a fresh `lastIndex`.
 */
export const WORD_PATTERN = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/gu

const HAS_LETTER = /\p{L}/u
const WHITESPACE_RUN = /\s+/g

/** True when a token has at least one letter (so it is not a number). */
export function hasLetter(text: string): boolean {
  return HAS_LETTER.test(text)
}

/** Collapses runs of whitespace (line breaks included) into one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, ' ').trim()
}

// ---------------------------------------------------------------------------------------------
// stop words

// `stopword` is CommonJS without type declarations: load it with require and type what we use.
const requireCjs = createRequire(import.meta.url)
const stopwordLists = requireCjs('stopword') as Record<string, unknown>

/** franc's codes whose stop-word list `stopword` files under another code. */
const STOPWORD_KEYS: Record<string, string> = {
  arb: 'ara',
  cmn: 'zho',
  ekk: 'est',
  kmr: 'kur',
  ckb: 'kur',
  lvs: 'lav',
  pes: 'fas',
  prs: 'fas',
  swh: 'swa',
  zlm: 'msa',
}

/**
 * Words the `stopword` English list leaves out but that are no keywords either: contractions,
 * auxiliaries, negations and a few frequent adverbs.
 */
const ENGLISH_EXTRA = [
  "ain't",
  "aren't",
  "can't",
  'cannot',
  "couldn't",
  "didn't",
  "doesn't",
  'does',
  'doing',
  "don't",
  'done',
  'down',
  'either',
  'else',
  'even',
  'ever',
  'every',
  'few',
  "hadn't",
  "hasn't",
  "haven't",
  "he'd",
  "he'll",
  "he's",
  'hers',
  'herself',
  "i'd",
  "i'll",
  "i'm",
  "i've",
  "isn't",
  "it's",
  'its',
  'itself',
  'just',
  "let's",
  'may',
  'mine',
  'myself',
  'neither',
  'no',
  'nor',
  'not',
  'off',
  'often',
  'once',
  'ones',
  'ours',
  'ourselves',
  'own',
  'per',
  'rather',
  'really',
  "she'd",
  "she'll",
  "she's",
  'shall',
  "shouldn't",
  'so',
  "that's",
  'theirs',
  'themselves',
  "there's",
  "they'd",
  "they'll",
  "they're",
  "they've",
  'thus',
  'till',
  'until',
  'upon',
  'us',
  'via',
  "wasn't",
  "we'd",
  "we'll",
  "we're",
  "we've",
  "weren't",
  "what's",
  'whom',
  'whose',
  'why',
  'will',
  "won't",
  "wouldn't",
  'yet',
  "you'd",
  "you'll",
  "you're",
  "you've",
  'yours',
  'yourself',
  'yourselves',
]

function listOf(key: string): string[] {
  const list = stopwordLists[key]
  return Array.isArray(list) ? (list as string[]) : []
}

const ENGLISH = new Set([...listOf('eng'), ...ENGLISH_EXTRA])
// Stryker disable next-line ArrayDeclaration,StringLiteral: without the entry, English is built again from the same lists
const cache = new Map<string, ReadonlySet<string>>([['eng', ENGLISH]])

/**
 * Stop words to remove from a text in `language` (ISO 639-3 as franc reports it): that
 * language's list when `stopword` has one, always with the English list (English words are
 * everywhere: quotes, names of things, code).
 */
export function stopWordsFor(language: string): ReadonlySet<string> {
  const cached = cache.get(language)
  // Stryker disable next-line ConditionalExpression: the cache only saves building the set again
  if (cached) return cached
  const own = listOf(STOPWORD_KEYS[language] ?? language)
  // Stryker disable next-line ConditionalExpression: for a language without a list, a copy of the English list is the same list
  const set = own.length === 0 ? ENGLISH : new Set([...ENGLISH, ...own.map((w) => w.toLowerCase())])
  // Stryker disable next-line CallExpression: the cache only saves building the set again
  cache.set(language, set)
  return set
}

/** Lower-cases a token and makes typographic apostrophes plain, for stop-word look-ups. */
export function normalizeToken(token: string): string {
  return token.toLowerCase().replaceAll('’', "'")
}
