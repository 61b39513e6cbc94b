import { READING_WORDS_PER_MINUTE, type StatsOptions, type StatsResult } from '@repo/contracts'
import { countLatinWords } from './latin-words.js'
import { countSentences, isAsciiLetterOrDigit, paragraphsOf } from './sentences.js'
import { meter } from './work.js'

/*
 * Counting by Intl.Segmenter, that is ICU's Unicode text segmentation (UAX #29, with the
 * dictionaries of the scripts written without spaces), in one pass over each paragraph per
 * granularity: characters are grapheme clusters, words are ICU's word-like segments (two joined
 * by one hyphen are one word: well-known, mother-in-law), sentences are those of sentences.ts.
 *
 * Grapheme clusters are counted without segmenting plain text: two neighbouring "plain" code
 * points (below U+0300, Greek, Cyrillic, general punctuation, CJK ideographs, kana, Hangul
 * syllables, fullwidth forms: all Grapheme_Cluster_Break Other or Control) always have a
 * boundary between them, CR LF aside. So plain stretches count one character a code unit, and
 * only the runs holding other code points are segmented, each with its plain neighbours (which
 * the run may join: an accent after a letter, a ZWJ between pictographs).
 */

const PLAIN_RANGES = [
  [0x0000, 0x02ff],
  [0x0370, 0x0482],
  [0x048a, 0x052f],
  [0x1e00, 0x1eff],
  [0x2010, 0x205f],
  [0x3000, 0x3029],
  [0x3030, 0x3098],
  [0x309b, 0x30ff],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
  [0xff01, 0xff9d],
] as const
const PLAIN = new Uint8Array(0x10000)
for (const [from, to] of PLAIN_RANGES) PLAIN.fill(1, from, to + 1)
/** Plain code units that may sit inside a run before it is cut (fewer, longer runs). */
const GAP = 8
const HYPHENS = new Set(['-', '\u2010', '\u2011'])
// Stryker disable next-line Regex: removing every non-letter one at a time or a run at a time is the same
const NOT_LETTER = /[^\p{L}\p{N}]+/gu
const HIGH_SURROGATE = /[\uD800-\uDBFF]/g

let graphemes: Intl.Segmenter | undefined
let wordSegmenter: Intl.Segmenter | undefined

function countGraphemes(text: string): number {
  // Stryker disable next-line ObjectLiteral: grapheme is Intl.Segmenter's default granularity
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })
  meter.add('icu-graphemes', text.length)
  let count = 0
  for (const _ of graphemes.segment(text)) count++
  return count
}

/** User-perceived characters: extended grapheme clusters. */
export function countCharacters(text: string): number {
  const length = text.length
  let characters = 0
  let i = 0
  while (i < length) {
    const code = text.charCodeAt(i)
    if (PLAIN[code] === 1) {
      characters++
      i += code === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1
      continue
    }
    let last = i
    // Stryker disable next-line ArithmeticOperator: i - 1 is plain (or before the text), so starting there changes nothing
    for (let j = i + 1; j < length && j - last <= GAP; j++) {
      if (PLAIN[text.charCodeAt(j)] !== 1) last = j
    }
    const before = i > 0 ? 1 : 0
    const after = last + 1 < length ? 1 : 0
    characters += countGraphemes(text.slice(i - before, last + 1 + after)) - before - after
    i = last + 1
  }
  return characters
}

/** Words of one paragraph by ICU: word-like segments, two joined by a single hyphen counted once. */
export function icuWords(paragraph: string): number {
  wordSegmenter ??= new Intl.Segmenter('en', { granularity: 'word' })
  meter.add('icu-words', paragraph.length)
  let words = 0
  let afterWord = false
  let hyphenAfterWord = false
  for (const { segment, isWordLike } of wordSegmenter.segment(paragraph)) {
    if (isWordLike) {
      if (!hyphenAfterWord) words++
      afterWord = true
      hyphenAfterWord = false
    } else {
      hyphenAfterWord = afterWord && HYPHENS.has(segment)
      afterWord = false
    }
  }
  return words
}

/**
 * Words of one paragraph: a paragraph in ASCII and English typography is counted without ICU
 * (latin-words.ts, the same count), any other by ICU.
 */
function countWords(paragraph: string): number {
  return countLatinWords(paragraph) ?? icuWords(paragraph)
}

/** Letters and digits (code points), for the average word length. */
function countLetters(text: string): number {
  // ASCII by its code units; from the first other one on, by the Unicode classes.
  let letters = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 128) {
      const kept = text.slice(i).replace(NOT_LETTER, '')
      return letters + kept.length - (kept.match(HIGH_SURROGATE)?.length ?? 0)
    }
    if (isAsciiLetterOrDigit(code)) letters++
  }
  return letters
}

/** Lines: line breaks (CRLF, CR, LF) plus one, unless the text ends with one; 0 when empty. */
function countLines(text: string): number {
  let breaks = 0
  // Stryker disable next-line EqualityOperator: past the end charCodeAt is NaN, neither CR nor LF
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 10) breaks++
    else if (code === 13) {
      breaks++
      if (text.charCodeAt(i + 1) === 10) i++
    }
  }
  const last = text.charCodeAt(text.length - 1)
  return text.length === 0 ? 0 : last === 10 || last === 13 ? breaks : breaks + 1
}

export function stats(data: string, _options: StatsOptions): StatsResult {
  const paragraphs = paragraphsOf(data)
  let words = 0
  let sentences = 0
  for (const paragraph of paragraphs) {
    words += countWords(paragraph)
    sentences += countSentences(paragraph)
  }
  return {
    characters: countCharacters(data),
    bytes: Buffer.byteLength(data), // UTF-8, the default
    words,
    sentences,
    lines: countLines(data),
    paragraphs: paragraphs.length,
    average_word_length: words === 0 ? 0 : Math.round((countLetters(data) / words) * 100) / 100,
    reading_time_seconds: Math.ceil((words * 60) / READING_WORDS_PER_MINUTE),
  }
}
