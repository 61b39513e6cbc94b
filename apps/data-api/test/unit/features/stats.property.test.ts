import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countCharacters, stats } from '../../../src/features/stats.js'

const run = (text: string) => stats(text, { feature: 'stats' })

/** Pieces that exercise every path: plain and other code points, joiners, breaks, surrogates. */
const PIECES = [
  ...['a', 'Z', '1', ' ', '\t', '.', '!', '?', '-', "'", '’', '\r', '\n', '\r\n', '©', '‼'],
  ...['e\u0301', '\u0301', '\u200d', '\u200c', '\ufe0f', '👍', '🏽', '👨‍👩‍👧', '🇫', '🇷'],
  ...['中', '文', '。', 'の', 'カ', '\u3099', 'ﾞ', '가', '\u1100\u1161\u11a8', 'ก'],
  ...['ก\u0e33', 'ก\u0e31', 'न', '\u094d', 'म', 'ب', '\u064b', '\u0600١٢', 'Ω', 'ж', '\u0483'],
  ...['\ud800', '\udc00', '\u00ad', 'Dr.', 'Mr. ', 'J. ', 'well-known', "don't", '\n\n'],
]
// Marks and jamo come where they belong (a Thai vowel sign after a Thai consonant, jamo in a
// syllable, the Arabic number sign before digits): misplaced, ICU's word boundaries can fall
// inside one grapheme cluster, so "words <= characters" holds for well-formed text only. Any
// string at all is still handled (anyString).
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((parts) => parts.join(''))
/** Any UTF-16 string, lone surrogates included. */
const anyString = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 80 })
  .map((codes) => String.fromCharCode(...codes))

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' })
const lineBreaks = (s: string) => s.match(/\r\n|\r|\n/g)?.length ?? 0

describe('stats, for any text', () => {
  it('never throws, and returns whole non-negative counts', () => {
    fc.assert(
      fc.property(fc.oneof(text, anyString), (s) => {
        const result = run(s)
        for (const [key, value] of Object.entries(result)) {
          expect(value, key).toBeGreaterThanOrEqual(0)
          if (key !== 'average_word_length') expect(Number.isInteger(value), key).toBe(true)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('counts the grapheme clusters Intl.Segmenter finds, plain stretches included', () => {
    fc.assert(
      fc.property(fc.oneof(text, anyString), (s) => {
        expect(countCharacters(s)).toBe([...graphemes.segment(s)].length)
      }),
      { numRuns: 1000 },
    )
  })

  it('has no more words than characters, nor sentences than words and digits', () => {
    fc.assert(
      fc.property(text, (s) => {
        const result = run(s)
        expect(result.words).toBeLessThanOrEqual(result.characters)
        expect(result.sentences).toBeLessThanOrEqual(result.characters)
        expect(result.paragraphs).toBeLessThanOrEqual(result.lines)
        expect(result.bytes).toBe(Buffer.byteLength(s, 'utf8'))
        expect(result.reading_time_seconds).toBe(Math.ceil((result.words * 60) / 238))
      }),
    )
  })

  it('counts lines as line breaks plus one, unless the text ends with one', () => {
    fc.assert(
      fc.property(text, (s) => {
        const endsWithBreak = /[\r\n]$/.test(s)
        const expected = s === '' ? 0 : lineBreaks(s) + (endsWithBreak ? 0 : 1)
        expect(run(s).lines).toBe(expected)
      }),
    )
  })

  it('adds up over two texts set apart by a blank line', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const joined = run(`${a}\n\n${b}`)
        const [first, second] = [run(a), run(b)]
        expect(joined.words).toBe(first.words + second.words)
        expect(joined.sentences).toBe(first.sentences + second.sentences)
        expect(joined.paragraphs).toBe(first.paragraphs + second.paragraphs)
        expect(joined.characters).toBe(first.characters + 2 + second.characters - crJoinsLf(a))
      }),
    )
  })

  it('counts a text repeated n times, apart by blank lines, n times', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 5 }), (s, n) => {
        const once = run(s)
        const repeated = run(Array.from({ length: n }, () => s).join('\n\n'))
        expect(repeated.words).toBe(once.words * n)
        expect(repeated.sentences).toBe(once.sentences * n)
        expect(repeated.paragraphs).toBe(once.paragraphs * n)
      }),
    )
  })
})

/** A final CR of `a` and the blank line's first LF are one character. */
function crJoinsLf(a: string): number {
  return a.endsWith('\r') ? 1 : 0
}
