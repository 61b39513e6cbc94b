import pg from 'pg'
import { searchKey } from './search-key.js'
import { type TextSample, textSampleHolds } from './search-sample.js'
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
 *
 * An apostrophe cuts a phrase into stretches (its mark is not a word, so no pair spans it), and a
 * stretch of two words or more is such a run, its ends next to the apostrophe whole words: `but
 * you'd` asks for the pairs `…but you`, `it's never` for `s never…`. At a million quotes (the first
 * matches' statement, three alternated runs of 16 such phrases): `that's what` 5.6-5.9 ms against
 * 13.9-15.1 through the 4-grams, `i've been` 2.1-2.5 against 6.8-9.2, `it's never` 5.9-6.5
 * against 8.2-9.2, `but you'd` 9.9-11.8 against 13.0-15.3; none slower (bench/README.md, "A
 * seventeenth machine").
 */

/**
 * At most this many pairs looked up for a phrase: `and light` makes 376 (47 words end with `and`,
 * 8 start with `light`), 3.7-6.1 ms, against 10-13 through its 4-grams; a phrase holding a rare
 * word loses a little (`joyously in`, 379 pairs: 2.9-6.5 ms, against 1.7).
 */
export const PAIR_KEYS_LIMIT = 400

/**
 * A run of two words or more of a phrase, each joined to the next by a single space: a pair of
 * adjacent words in any quote holding the phrase. An end of the run that is an end of the phrase
 * may be part of a longer word in the quote (`when this` in `somewhen thistles`): it is `open`,
 * and the vocabulary lists the words it stands for. An end next to an apostrophe is a whole word
 * in the quote (`but you'd` is `butǂyouǂǁǂd`: `you` is a word of its own there), so it is looked
 * up as it is, whatever its length (`it's never`: the pair `s never…`).
 */
export interface PairRun {
  /** Lower-case ASCII letters and digits, two words or more. */
  words: string[]
  /** The first word starts the phrase: a quote's word may end with it. */
  openStart: boolean
  /** The last word ends the phrase: a quote's word may start with it. */
  openEnd: boolean
  /**
   * The 4-grams of the phrase's key (search-key.ts) that hold an apostrophe's mark and a letter
   * or digit of the phrase outside the run: what the pairs cannot tell (`but you'd`: `ǂǁǂd`, the
   * `'d`; `it's not`: `itǂǁ` and `tǂǁǂ`). Empty for a phrase without an apostrophe.
   */
  across: string[]
}

/**
 * The shortest open end of a run in a phrase with an apostrophe. Such a run often starts with the
 * tail of a contraction (`isn't it`: the pairs `t it…`), held by many quotes, where the 4-gram index
 * also reads the 4-grams across the apostrophe (`tǂǁǂ`): `isn't it` took 9-18 ms through 96 pairs
 * against 5.6-6.4 through its 4-grams, `let's go` 7-10 against 3-4; with three characters or more
 * the pairs won (`that's what` 6.3-8.5 against 12.4-15.1, `i've been` 1.8-2.3 against 8.4-9.1).
 */
export const APOSTROPHE_OPEN_END = 3

/**
 * A run of a phrase with an apostrophe whose pairs the wider sample puts in more quotes than this
 * is looked up with the 4-grams across the apostrophe (`across`) too, the two indexes ANDed:
 * every candidate costs a heap block read, 45-50 µs each when it is not in shared buffers (an AMD
 * VM), and the run's pairs alone can be far more than the phrase's matches. But the 4-grams across
 * an apostrophe are common (`t'`, `it'`), and reading their posting lists costs 10-20 ms. At a
 * million quotes, not in shared buffers, in ms (pairs alone / with the 4-grams across;
 * candidates, matches): `but you'd` 122-131 / 15.4 (2,211 candidates, 10 matches), `that's what`
 * 51-68 / 28 (941, 105), `don't know` 45-69 / 40 (634, 283), `it's never` 35-40 / 28-33 (465,
 * 140); `i'm not` 26 / 34-36 (344, 302), `i've been` 6 / 19-26 (56, 29). In the benchmark's cold
 * pass, where some blocks are in shared buffers, `but you'd` went from 23-63 ms to 11-20, and `it's
 * never` from 11-18 to 23-29 with the 4-grams: so only a run in more than 1,000 quotes gets them
 * (bench/README.md, "An eighteenth machine").
 */
export const ACROSS_ABOVE = 1000

/**
 * The run of the phrase's words its candidates can come from, when it has one: the phrase holds
 * runs of ASCII letters, digits and apostrophes joined by single spaces (termKind `phrase`), and
 * an apostrophe cuts a pair (migration 1700000000100: its mark is not a word), so each stretch
 * between apostrophes is a run when it holds two words or more. An open end must be two
 * characters or more (APOSTROPHE_OPEN_END in a phrase with an apostrophe): the vocabulary's
 * trigram index finds the words ending or starting with two (`%be`: the trigram `be `), not with
 * one (`%a` read the whole vocabulary, 10 ms for 16,000 words, and is held by far more words than
 * PAIR_KEYS_LIMIT anyway); a closed end may be a single character (`i've been`: `ve been…`). Of
 * the runs whose open ends are long enough, the longest (the first of those), whose pairs usually
 * narrow the most. Otherwise undefined (a single word, punctuation, other scripts: the 4-gram or
 * trigram index).
 */
export function pairRun(term: string): PairRun | undefined {
  if (termKind(term) !== 'phrase') return undefined
  const stretches = term.toLowerCase().split("'")
  // An open end needs two characters for the vocabulary to find its words, three in a phrase
  // with an apostrophe (see APOSTROPHE_OPEN_END).
  const least = stretches.length > 1 ? APOSTROPHE_OPEN_END : 2
  const tooShort = (open: boolean, word = '') => open && word.length < least
  let best: { words: string[]; openStart: boolean; openEnd: boolean; stretch: number } | undefined
  stretches.forEach((stretch, i) => {
    const words = stretch.split(' ').filter((word) => word !== '')
    const run = { words, openStart: i === 0, openEnd: i === stretches.length - 1, stretch: i }
    if (tooShort(run.openStart, words[0]) || tooShort(run.openEnd, words.at(-1))) return
    if (words.length >= 2 && words.length > (best?.words.length ?? 0)) best = run
  })
  if (!best) return undefined
  const { stretch, ...run } = best
  return { ...run, across: acrossQuads(stretches, stretch) }
}

/** An apostrophe's mark in a key. */
const APOSTROPHE_KEY = searchKey("'")

/**
 * The 4-grams of the key of the phrase cut into `stretches` at its apostrophes that hold a mark
 * of an apostrophe and a letter or digit of another stretch than `run`'s. The key is the
 * stretches' keys joined by an apostrophe's (no run of separators spans an apostrophe), and each
 * of its 4-character windows is a 4-gram, as quote_search_quads() takes them (migration
 * 1700000000030).
 */
function acrossQuads(stretches: string[], run: number): string[] {
  const chars: { char: string; outside: boolean }[] = []
  stretches.forEach((stretch, i) => {
    if (i > 0) for (const char of APOSTROPHE_KEY) chars.push({ char, outside: false })
    for (const char of searchKey(stretch)) {
      chars.push({ char, outside: i !== run && /[a-z0-9]/.test(char) })
    }
  })
  const quads = new Set<string>()
  for (let at = 0; at + 4 <= chars.length; at++) {
    const window = chars.slice(at, at + 4)
    if (window.some(({ char }) => char === 'ǁ') && window.some(({ outside }) => outside)) {
      quads.add(window.map(({ char }) => char).join(''))
    }
  }
  return [...quads]
}

const literal = (text: string) => pg.escapeLiteral(text)

/**
 * The WITH list (`a`, `b`, `k`) for `run` (from pairRun): `a` the words ending with the run's
 * first word when that end is open, `b` those starting with its last when open; `k.pairs` says
 * whether the pairs decide (the vocabulary ready, at most PAIR_KEYS_LIMIT pairs in all), and
 * `k.pairs_<i>` holds the hashes of the pairs that can stand for the run's words i and i + 1: any
 * word of `a` or `b` at an open end (for two words and both ends open, every pair of `a` and
 * `b`), the word itself elsewhere. The words hold only ASCII letters and digits: nothing in them
 * is a LIKE wildcard.
 */
export function pairsWith({ words, openStart, openEnd }: PairRun): string {
  const limit = PAIR_KEYS_LIMIT
  const vocabulary = (name: string, like: string) =>
    `${name} AS MATERIALIZED (SELECT word FROM quote_search_vocabulary ` +
    `WHERE word LIKE ${literal(like)} LIMIT ${limit + 1})`
  const last = words.length - 2
  const sides = words.slice(0, -1).map((word, i) => ({
    left: i === 0 && openStart ? { from: 'a', word: 'a.word' } : { word: literal(word) },
    right:
      i === last && openEnd
        ? { from: 'b', word: 'b.word' }
        : { word: literal(words[i + 1] as string) },
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
  const k =
    `k AS MATERIALIZED (SELECT p.pairs, ${arrays.join(', ')} ` +
    `FROM (SELECT ${ready} AND ${keys} <= ${limit} AS pairs) p)`
  return [
    ...(openStart ? [vocabulary('a', `%${words[0]}`)] : []),
    ...(openEnd ? [vocabulary('b', `${words.at(-1)}%`)] : []),
    k,
  ].join(', ')
}

/**
 * Whether the run's candidates are worth narrowing by its 4-grams across the apostrophe: the
 * wider sample (search-sample.ts) puts the run in more than ACROSS_ABOVE quotes, its closed ends
 * whole words. Never without an apostrophe, nor without the sample.
 */
export function acrossPays(run: PairRun, sample: TextSample | undefined, size: number): boolean {
  if (run.across.length === 0 || sample === undefined) return false
  const bounded = { start: !run.openStart, end: !run.openEnd }
  return textSampleHolds(sample, size, run.words.join(' '), bounded, ACROSS_ABOVE)
}

/** The condition on `s` (quote_search) of a candidate holding the run's 4-grams `across`. */
export function acrossCondition({ across }: PairRun): string {
  const hashes = across.map((quad) => `hashtext(${literal(quad)})`)
  return `quote_search_quads(s.words) @> ARRAY[${hashes.join(', ')}]`
}

/** The condition on `s` (quote_search) of a candidate: one pair of each `k.pairs_<i>`. */
export function pairsCondition({ words }: PairRun): string {
  return words
    .slice(0, -1)
    .map((_, i) => `quote_search_pairs(s.words) && (SELECT pairs_${i} FROM k)`)
    .join(' AND ')
}
