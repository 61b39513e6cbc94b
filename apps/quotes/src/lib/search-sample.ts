import type pg from 'pg'
import { LETTER_OR_DIGIT, type TermKind } from './search-term.js'

/**
 * The planner's own sample of the quotes' search text (`quotes.search_text`: the quote and its
 * author, lower-cased): the histogram ANALYZE keeps (1,000 values drawn from 300,000 sampled rows;
 * see migration 1700000000050). Held in memory (about 150 kB), it tells the share of quotes a term
 * matches without a round trip to Postgres.
 *
 * It is the literal text, not `quote_search.words`: a term with punctuation matches its own
 * characters (search-term.ts), which `words` does not hold. Matched against `words`, "night's"
 * was estimated as `nightǂs` (every "night s..."): 3,020 quotes of a million where 152 hold it, so
 * its first page walked 130,000 quotes (72-77 ms end to end) instead of counting its matches.
 */
export async function loadSearchSample(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ sample: string[] | null }>(
    `SELECT histogram_bounds::text::text[] AS sample FROM pg_stats
      WHERE schemaname = current_schema() AND tablename = 'quotes' AND attname = 'search_text'`,
  )
  return rows[0]?.sample ?? []
}

/** Whether `text` holds `word` not preceded or followed by a letter or digit. */
function holdsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!letterOrDigitAt(text, at - 1) && !letterOrDigitAt(text, at + word.length)) return true
  }
  return false
}

/** Whether the character at `at` is a letter or digit (ASCII by its code; none past the ends). */
function letterOrDigitAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at)
  if (code < 128) {
    const lower = code | 32
    return (lower >= 97 && lower <= 122) || (code >= 48 && code <= 57)
  }
  return LETTER_OR_DIGIT.test(text.charAt(at))
}

/**
 * The term lower-cased as Postgres's `lower()` wrote the sampled texts: JS's `toLowerCase` agrees
 * on ASCII only (`ΛΌΓΟΣ` is `λόγος` in JS, `λόγοσ` in Postgres; `İ` and some 56 other code points
 * differ too), and a term lowered otherwise than the texts would be found in texts that do not
 * hold it: an estimate of thousands for a term of no match (found by review). One round trip for
 * a term beyond ASCII.
 */
export async function lowerAsPostgres(pool: pg.Pool, term: string): Promise<string> {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is 0x00-0x7f
  if (/^[\x00-\x7f]*$/.test(term)) return term.toLowerCase()
  const { rows } = await pool.query<{ lower: string }>('SELECT lower($1) AS lower', [term])
  return rows[0]?.lower ?? term
}

/**
 * How many of the sampled texts hold the term, given lower-cased as Postgres does
 * (`lowerAsPostgres`); 0 without a sample (a table not analyzed yet).
 */
export function sampleHits(sample: readonly string[], lower: string, kind: TermKind): number {
  let hits = 0
  for (const text of sample) {
    if (kind === 'word' ? holdsWord(text, lower) : text.includes(lower)) hits += 1
  }
  return hits
}

/**
 * A wider sample: the search text of one quote in TEXT_SAMPLE_EVERY, each drawn at random (the
 * same rows at each load of the corpus view while the table is unchanged: about 31,700 texts,
 * 4.4 M characters at a million quotes, read in 0.2-0.3 s). The planner's 1,000 texts cannot tell a phrase in 2,000 quotes of a million (2 sampled
 * hits) from one in 200; this one can, so such a term is estimated without reading a thousand
 * candidates (search-query.ts, `termMatches`).
 */
export interface TextSample {
  /** The sampled texts in four runs (see textSampleEstimate), each text ended by a NUL. */
  readonly parts: readonly string[]
  readonly count: number
}

export const TEXT_SAMPLE_EVERY = 32
/** Ends each text: no Postgres text holds it. */
const TEXT_SEPARATOR = '\u0000'

/**
 * A term in at least this many texts of the wider sample (1 in 32 quotes) is estimated from them,
 * if that says more than twice EXACT_LIMIT. A term in 1,000 quotes is expected in 31 of them and
 * reaches 60 about once in 500,000 (binomial); at a million quotes the estimate must also be above
 * 2,000, which takes 64 texts: about once in 5 million. So a total up to EXACT_LIMIT stays exact.
 * A term in 2,000 quotes of a million is estimated about half the time, in 2,254 (`are for`) 83 %
 * of the time, in 2,500 97 %, within about ±13 % (1/√60). Counting such a term read a thousand candidates or more (`are for`: 1,531 heap
 * blocks, 50-70 ms cold at a million quotes).
 */
export const TEXT_SAMPLED_HITS = 60

/** The sample of these texts, in four runs, each joined into one flat string. */
export function textSample(texts: readonly string[]): TextSample {
  const quarter = Math.ceil(texts.length / 4)
  const parts = [0, 1, 2, 3].map((i) =>
    // join() makes a flat string: built by `+=`, its first search flattened 31,000 pieces (30 ms
    // at a million quotes, paid by whichever request came first).
    texts
      .slice(i * quarter, (i + 1) * quarter)
      .map((text) => `${text}${TEXT_SEPARATOR}`)
      .join(''),
  )
  return { parts, count: texts.length }
}

/**
 * Each row drawn on its own (`BERNOULLI`, the same rows while the table does not change): not
 * every 32nd id, which a corpus with a pattern in its ids would alias (the tests' synthetic quotes
 * hold "is even" in every other id, so every 32nd id held it), nor whole blocks (`SYSTEM`), which
 * would draw an author's quotes loaded side by side together.
 */
export async function loadTextSample(pool: pg.Pool): Promise<TextSample> {
  const { rows } = await pool.query<{ search_text: string }>(
    `SELECT search_text FROM quotes TABLESAMPLE BERNOULLI (${100 / TEXT_SAMPLE_EVERY}) REPEATABLE (0)`,
  )
  return textSample(rows.map((row) => row.search_text))
}

/** Which ends of a text searched for must not be next to a letter or digit. */
export interface Bounded {
  start: boolean
  end: boolean
}

const UNBOUNDED: Bounded = { start: false, end: false }

/**
 * How many texts of `joined` (each ended by TEXT_SEPARATOR) hold `lower`, literally, with its
 * `bounded` ends not next to a letter or digit (the texts are lower-cased); at most `limit`.
 */
function hitsIn(joined: string, lower: string, bounded = UNBOUNDED, limit = Infinity): number {
  let hits = 0
  for (let at = joined.indexOf(lower); at >= 0 && hits < limit; ) {
    if (
      (bounded.start && letterOrDigitAt(joined, at - 1)) ||
      (bounded.end && letterOrDigitAt(joined, at + lower.length))
    ) {
      at = joined.indexOf(lower, at + 1)
      continue
    }
    hits += 1
    // On from the end of the text that held it: each text counts once.
    const end = joined.indexOf(TEXT_SEPARATOR, at + lower.length)
    at = end < 0 ? -1 : joined.indexOf(lower, end + 1)
  }
  return hits
}

/**
 * Whether the first quarter of the wider sample (about 7,900 texts at a million quotes, read in
 * 0.5-1.2 ms; the whole sample took 2-5 ms for short texts such as `t hit`) puts `lower`
 * (lower-cased as Postgres does), its `bounded` ends not next to a letter or digit, in more than
 * `above` quotes of a corpus of `size`. It stops reading once it has seen enough. A quarter is a
 * rough count: at a million quotes and `above` 1,000 it needs 8 hits, which a text in 2,211
 * quotes misses about once in 240, one in 941 reaches about half the time, and one in 465 about
 * once in 30 (Poisson).
 */
export function textSampleHolds(
  sample: TextSample,
  size: number,
  lower: string,
  bounded: Bounded,
  above: number,
): boolean {
  const [first = ''] = sample.parts
  const texts = Math.ceil(sample.count / Math.max(sample.parts.length, 1))
  const needed = Math.floor((above * texts) / Math.max(size, 1)) + 1
  return hitsIn(first, lower, bounded, needed) >= needed
}

/**
 * The total in a corpus of `size` quotes of the term, given lower-cased as Postgres does
 * (`lowerAsPostgres`), as the wider sample tells it, when
 * TEXT_SAMPLED_HITS of its texts or more hold it and that comes to more than `above`; else
 * undefined. Reading the sample costs 2-4 ms at a million quotes, so its first quarter is read
 * first: a term held there fewer than TEXT_SAMPLED_HITS / 8 times (a term in 2,000 quotes is
 * expected 16 times; 7 or fewer, 1.5 % of the time) is left to be counted, for about 1 ms.
 */
export function textSampleEstimate(
  sample: TextSample,
  size: number,
  lower: string,
  above: number,
): number | undefined {
  if (lower === '' || lower.includes(TEXT_SEPARATOR)) return undefined
  const [first = '', ...rest] = sample.parts
  const firstHits = hitsIn(first, lower)
  if (firstHits * 8 < TEXT_SAMPLED_HITS) return undefined
  const hits = rest.reduce((sum, part) => sum + hitsIn(part, lower), firstHits)
  const planned = (hits / Math.max(sample.count, 1)) * size
  return hits >= TEXT_SAMPLED_HITS && planned > above ? Math.round(planned) : undefined
}
