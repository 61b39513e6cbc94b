import { describe, expect, it } from 'vitest'
import { stats } from '../../../src/features/stats.js'

const run = (text: string) => stats(text, { feature: 'stats' })

describe('stats', () => {
  it('counts nothing in an empty text', () => {
    expect(run('')).toEqual({
      characters: 0,
      bytes: 0,
      words: 0,
      sentences: 0,
      lines: 0,
      paragraphs: 0,
      average_word_length: 0,
      reading_time_seconds: 0,
    })
  })

  it('counts a one-sentence text exactly', () => {
    expect(run('Hello world.')).toEqual({
      characters: 12,
      bytes: 12,
      words: 2,
      sentences: 1,
      lines: 1,
      paragraphs: 1,
      average_word_length: 5,
      reading_time_seconds: 1,
    })
  })

  it('treats CRLF as one line break and one character', () => {
    // "First line." 11 + CRLF + "Second line." 12 + CRLF + CRLF + "New paragraph." 14
    expect(run('First line.\r\nSecond line.\r\n\r\nNew paragraph.')).toEqual({
      characters: 40,
      bytes: 43,
      words: 6,
      sentences: 3,
      lines: 4,
      paragraphs: 2,
      average_word_length: 5.17, // 31 letters / 6 words
      reading_time_seconds: 2,
    })
  })

  it('counts user-perceived characters in Unicode text (accents, emoji)', () => {
    const result = run('Café 👍🏽 naïve')
    expect(result.characters).toBe(12)
    expect(result.bytes).toBe(21)
    expect(result.words).toBe(2)
    expect(result.average_word_length).toBe(4.5)
  })

  it.each([
    ['e\u0301', 1], // e + combining acute accent
    ['é', 1],
    ['👨‍👩‍👧', 1], // family: three emoji joined by ZWJ
    ['👩‍❤️‍👨', 1],
    ['🇫🇷🇩🇪', 2], // two flags
    ['1️⃣', 1], // keycap
    ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', 1], // flag of Scotland (tag sequence)
    ['नमस्ते', 3], // Devanagari conjunct
    ['한국어', 3],
    ['a\r\nb', 3],
    ['a\nb', 3],
    ['\u06001', 1], // Arabic number sign, joined to the digit after it
    ['\u1100가', 1], // a leading jamo joined to the Hangul syllable after it
  ])('counts %j as %i characters', (text, characters) => {
    expect(run(text).characters).toBe(characters)
  })

  it('agrees with Intl.Segmenter on grapheme clusters of mixed text', () => {
    const text =
      'Zoë’s café — naïve façade 👍🏾 🇯🇵 👨‍💻 ✈️ 日本語 한국어 नमस्ते مرحبا Ελληνικά\r\nÅngström e\u0301\u0302 ⚽'
    const graphemes = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)]
    expect(run(text).characters).toBe(graphemes.length)
  })

  it('counts words with inner apostrophes and hyphens as one', () => {
    const result = run("don't well-known mother-in-law")
    expect(result.words).toBe(3)
    expect(result.average_word_length).toBe(8) // (4 + 9 + 11) / 3
    expect(run('don’t').words).toBe(1)
    expect(run('well\u2010known').words).toBe(1) // Unicode hyphen
    expect(run('well\u2011known').words).toBe(1) // non-breaking hyphen
  })

  it('counts a word after a leading hyphen', () => {
    expect(run('-5 degrees').words).toBe(2)
    expect(run('-word').words).toBe(1)
    expect(run('minus -5 degrees').words).toBe(3)
  })

  it('averages word length in letters, not UTF-16 code units', () => {
    // Gothic letters are outside the BMP: two code units each, one letter.
    expect(run('𐌰𐌱𐌲 abc').average_word_length).toBe(3)
    // ASCII first (counted by code unit), then the rest by Unicode classes.
    expect(run('abc, 12! 𐌰𐌱𐌲 é-x').average_word_length).toBe(2.5) // 10 letters / 4 words
    expect(run('ab-cd Z9 _ ~').average_word_length).toBe(3) // 6 / 2
  })

  it('does not count punctuation, emoji or lone hyphens as words', () => {
    expect(run('— 👍 -- ... !?').words).toBe(0)
    expect(run('a -- b').words).toBe(2)
  })

  it('finds words in text written without spaces', () => {
    expect(run('日本語の文章です。').words).toBeGreaterThan(1)
  })

  it.each([
    ['One. Two! Three? Four', 4],
    ['Dr. Smith arrived at 5 p.m. yesterday. He sat down.', 2],
    // A full stop before a lower-case word does not end a sentence (UAX #29).
    ['Wait... what?!', 1],
    ['Wait... What?!', 2],
    ['J. R. R. Tolkien wrote it. Mr. and Mrs. Smith read it.', 2],
    ['A line that is\nhard-wrapped. And\r\nanother one.', 2],
    ['no content: ... !!! ???', 1],
    ['Ende.» Neu.', 2],
    ['He said "stop." Then he left.', 2],
    ['No terminator at all', 1],
    ['Version 3.14 is out.', 1],
    ['A heading\n\nA paragraph without a full stop', 2],
    ['一つ。二つ！三つ？', 3],
    ['...', 0],
    ['', 0],
  ])('counts the sentences of %j as %i', (text, sentences) => {
    expect(run(text).sentences).toBe(sentences)
  })

  it.each([
    ['a', 1, 1],
    ['a\n', 1, 1],
    ['\n', 1, 0],
    ['a\nb', 2, 1],
    ['a\n\n\nb', 4, 2],
    ['a\r\n \r\nb\r\n', 3, 2],
    ['a\rb', 2, 1],
    ['a\r\rb', 3, 2],
    ['  \n\t\n', 2, 0],
  ])('counts the lines and paragraphs of %j as %i and %i', (text, lines, paragraphs) => {
    const result = run(text)
    expect(result.lines).toBe(lines)
    expect(result.paragraphs).toBe(paragraphs)
  })

  it('estimates the reading time at 238 words a minute, rounded up', () => {
    expect(run('word '.repeat(238)).reading_time_seconds).toBe(60)
    expect(run('word '.repeat(239)).reading_time_seconds).toBe(61)
    expect(run('word').reading_time_seconds).toBe(1)
  })

  it('measures bytes in UTF-8', () => {
    expect(run('€').bytes).toBe(3)
    expect(run('😀').bytes).toBe(4)
    expect(run('😀').characters).toBe(1)
  })
})
