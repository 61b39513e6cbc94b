import pg from 'pg'
import { termKind } from './search-term.js'

/**
 * A phrase's candidates from the index of adjacent word pairs (migration 1700000000100).
 *
 * A phrase of words of ASCII letters and digits joined by single spaces (`when this`) is in a
 * quote's words (`whenǂthis`) exactly when the quote holds a pair of adjacent words whose first
 * ends with the phrase's first word and whose second starts with its last; a phrase of three words
 * or more also holds each inner pair whole (`aǂbǂc`: a pair `…aǂb`, and a pair `bǂc…`). The
 * search vocabulary lists those words (`%when`, `this%`), so one statement looks them up, hashes
 * the pairs they make as the index does, and asks the index for the rows holding one of them:
 * about as many as the phrase's matches (`when this`: 297 candidates, 1.6-4.2 ms, where the 4-gram
 * index intersected six common 4-grams into 1,241 candidates in 24-27 ms; bench/README.md, "Word
 * pairs for phrases").
 *
 * Each pair is a key the index looks up (8-20 µs each here), so a phrase whose ends make more
 * than PAIR_KEYS_LIMIT pairs (`be at`: 18 words end with `be`, 58 start with `at`, 1,044 pairs,
 * 15-21 ms) is found through the 4-gram index, as it is while the vocabulary is not ready: the same
 * statement decides, from what it read, which of its two branches runs.
 */

/**
 * At most this many pairs looked up for a phrase: `and light` makes 376 (47 words end with `and`,
 * 8 start with `light`), 3.7-6.1 ms, against 10-13 through its 4-grams; a phrase holding a rare
 * word loses a little (`joyously in`, 379 pairs: 2.9-6.5 ms, against 1.7).
 */
export const PAIR_KEYS_LIMIT = 400

/**
 * The phrase's words, when its candidates can come from word pairs: two or more runs of ASCII
 * letters and digits, each joined to the next by a single space, the first and the last of two
 * characters or more. Otherwise undefined (a word, an apostrophe, punctuation, other scripts: the
 * 4-gram or trigram index). The vocabulary's trigram index finds the words ending or starting
 * with two characters (`%be`: the trigram `be `), not with one: `%a` read the whole vocabulary
 * (10 ms for 16,000 words), and is held by far more words than PAIR_KEYS_LIMIT anyway.
 */
export function pairWords(term: string): string[] | undefined {
  if (termKind(term) !== 'phrase') return undefined
  const words = term.toLowerCase().split(' ')
  const ends = [words[0] as string, words.at(-1) as string]
  return words.length >= 2 &&
    words.every((word) => /^[a-z0-9]+$/.test(word)) &&
    ends.every((word) => word.length >= 2)
    ? words
    : undefined
}

const literal = (text: string) => pg.escapeLiteral(text)

/**
 * The WITH list (`a`, `b`, `k`) reading the vocabulary for `words` (from pairWords): `a` the words
 * ending with the first word, `b` those starting with the last; `k.pairs` says whether the pairs
 * decide (the vocabulary ready, at most PAIR_KEYS_LIMIT pairs in all), and `k.pairs_<i>` holds the
 * hashes of the pairs that can stand for the phrase's words i and i + 1: any word of `a` or `b` at
 * an end (for two words, every pair of `a` and `b`), the word itself inside. The words hold only
 * ASCII letters and digits: nothing in them is a LIKE wildcard.
 */
export function pairsWith(words: string[]): string {
  const limit = PAIR_KEYS_LIMIT
  const vocabulary = (name: string, like: string) =>
    `${name} AS MATERIALIZED (SELECT word FROM quote_search_vocabulary ` +
    `WHERE word LIKE ${literal(like)} LIMIT ${limit + 1})`
  const last = words.length - 2
  const sides = words.slice(0, -1).map((word, i) => ({
    left: i === 0 ? { from: 'a', word: 'a.word' } : { word: literal(word) },
    right: i === last ? { from: 'b', word: 'b.word' } : { word: literal(words[i + 1] as string) },
  }))
  const count = (side: { from?: string }) =>
    side.from ? `(SELECT count(*) FROM ${side.from})` : '1'
  const keys = sides.map(({ left, right }) => `${count(left)} * ${count(right)}`).join(' + ')
  const arrays = sides.map(({ left, right }, i) => {
    const from = [left.from, right.from].filter(Boolean).join(', ')
    const hash = `hashtext(${left.word} || 'ǂ' || ${right.word})`
    return `CASE WHEN p.pairs THEN ARRAY(SELECT ${hash}${from ? ` FROM ${from}` : ''}) END AS pairs_${i}`
  })
  const ready = 'coalesce((SELECT ready FROM quote_search_vocabulary_state), false)'
  return (
    `${vocabulary('a', `%${words[0]}`)}, ${vocabulary('b', `${words.at(-1)}%`)}, ` +
    `k AS MATERIALIZED (SELECT p.pairs, ${arrays.join(', ')} ` +
    `FROM (SELECT ${ready} AND ${keys} <= ${limit} AS pairs) p)`
  )
}

/** The condition on `s` (quote_search) of a candidate: one pair of each `k.pairs_<i>`. */
export function pairsCondition(words: string[]): string {
  return words
    .slice(0, -1)
    .map((_, i) => `quote_search_pairs(s.words) && (SELECT pairs_${i} FROM k)`)
    .join(' AND ')
}
