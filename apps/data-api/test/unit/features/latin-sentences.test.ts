import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { latinSentenceEnds } from '../../../src/features/latin-sentences.js'
import { sentencesOf } from '../../../src/features/sentences.js'
import { stats } from '../../../src/features/stats.js'
import { meter } from '../../../src/features/work.js'

/*
 * latinSentenceEnds stands in for ICU's sentence segmenter on flowed paragraphs of ASCII and
 * English typography: it must cut where Intl.Segmenter cuts for every paragraph it accepts, and
 * decline the rest.
 */

const icu = new Intl.Segmenter('en', { granularity: 'sentence' })
const icuEnds = (text: string): number[] =>
  Array.from(icu.segment(text), ({ index, segment }) => index + segment.length)

/** Every character the scanner accepts: tab, space, printable ASCII, quotes and dashes. */
const ACCEPTED = [
  '\t',
  ...Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i)),
  ...['\u2013', '\u2014', '\u2018', '\u2019', '\u201c', '\u201d'],
]
/**
 * One of each kind, for exhaustive short strings: lower, upper, digit, full stop, other
 * terminators, closing marks, continuing marks, spaces and others.
 */
const KINDS = ['a', 'Z', '7', '.', '!', '?', '"', ')', '’', ',', '-', ';', '\u2014', ' ', '\t', '#']

const expectIcuEnds = (text: string): void => {
  expect(latinSentenceEnds(text), JSON.stringify(text)).toEqual(icuEnds(text))
}

describe('latinSentenceEnds cuts where ICU cuts', () => {
  it('on every string of two accepted characters', () => {
    for (const a of ACCEPTED) for (const b of ACCEPTED) expectIcuEnds(a + b)
  })

  it('on every string of up to four characters of one of each kind', () => {
    for (const a of KINDS)
      for (const b of KINDS)
        for (const c of KINDS) {
          expectIcuEnds(a + b + c)
          for (const d of KINDS) expectIcuEnds(a + b + c + d)
        }
  })

  it('on generated text of accepted characters and English sentences', () => {
    const piece = fc.constantFrom(
      ...ACCEPTED,
      ...['Mr. Smith', 'U.S.A.', '3.14', 'e.g. ', 'etc. and', 'Wait...', ' what?! ', '. ', '? '],
      ...['“Quoted.” He', '(see p. 4.) Then', 'word ', 'Word ', '! ', '.) ', '." 2 b', '?, so'],
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => expectIcuEnds(pieces.join(''))),
      { numRuns: 5000 },
    )
  })

  it('on English prose', () => {
    expectIcuEnds(
      'It’s 5 p.m. in the U.S. and Dr. Who said “Run!” — then left. Did he? Yes (twice.) ' +
        'At 3.30 we met J. R. R. Tolkien... or so; e.g., the fans. 1,000,000 of them! End',
    )
  })

  it('gives no end for an empty paragraph and one end for a paragraph without a terminator', () => {
    expect(latinSentenceEnds('')).toEqual([])
    expect(latinSentenceEnds('no terminator here')).toEqual([18])
  })
})

describe('latinSentenceEnds leaves to ICU', () => {
  it('a paragraph holding any other character', () => {
    for (const text of [
      'café',
      'a\u00a0b',
      'x\u0000y',
      '中文。',
      '👍',
      '\u2026',
      'a\nb',
      'a\rb',
      '\f',
    ])
      expect(latinSentenceEnds(`Some words. Then ${text}. More.`), text).toBeUndefined()
  })

  it('one whose other character comes right after a terminator', () => {
    expect(latinSentenceEnds('Done. É')).toBeUndefined()
    expect(latinSentenceEnds('Done.\u00a0')).toBeUndefined()
  })

  it('so stats and summaries hand ICU only the paragraphs the scanner declined', () => {
    const text = 'Plain English, twice. Yes.\n\nThen café au lait. Fin.'
    const work = meter.measure(() => stats(text, { feature: 'stats' }))
    expect(work['icu-sentences']).toEqual({ calls: 1, units: 23, largest: 23 })
    expect(stats(text, { feature: 'stats' }).sentences).toBe(4)
    expect([...sentencesOf(text)]).toEqual([
      'Plain English, twice. ',
      'Yes.',
      'Then café au lait. ',
      'Fin.',
    ])
  })
})
