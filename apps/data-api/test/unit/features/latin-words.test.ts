import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countLatinWords } from '../../../src/features/latin-words.js'
import { icuWords, stats } from '../../../src/features/stats.js'
import { meter } from '../../../src/features/work.js'

/*
 * countLatinWords stands in for ICU's word segmenter on ASCII and English typography: it must
 * give ICU's count (stats.ts's icuWords: word-like segments, two joined by one hyphen counted
 * once) for every paragraph it accepts, and decline the rest.
 */

/** Every character the scanner accepts: tab to CR, printable ASCII but `_`, quotes and dashes. */
const ACCEPTED = [
  ...Array.from({ length: 5 }, (_, i) => String.fromCharCode(0x09 + i)),
  ...Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i)).filter((c) => c !== '_'),
  ...['\u2010', '\u2011', '\u2013', '\u2014', '\u2018', '\u2019', '\u201c', '\u201d'],
]
/** One of each kind, for exhaustive short strings: letters, digits, joiners, hyphens, others. */
const KINDS = ['a', 'Z', '7', '.', "'", '’', ':', ',', ';', '-', '\u2011', ' ', '\n', '!', '"']

const expectIcuCount = (text: string): void => {
  expect(countLatinWords(text), text).toBe(icuWords(text))
}

describe('countLatinWords counts what ICU counts', () => {
  it('on every string of two accepted characters', () => {
    for (const a of ACCEPTED) for (const b of ACCEPTED) expectIcuCount(a + b)
  })

  it('on every string of up to four characters of one of each kind', () => {
    for (const a of KINDS)
      for (const b of KINDS)
        for (const c of KINDS) {
          expectIcuCount(a + b + c)
          for (const d of KINDS) expectIcuCount(a + b + c + d)
        }
  })

  it('on generated text of accepted characters and English words', () => {
    const piece = fc.constantFrom(
      ...ACCEPTED,
      ...['well-known', "don't", 'it’s', 'U.S.A.', '3.14', '1,000', 'e.g.', 'a:b', '4x4'],
      ...['mother-in-law', ' -- ', 'x - y', '“Quoted,” she said.', '1;2', "1'2", '\r\n'],
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => expectIcuCount(pieces.join(''))),
      { numRuns: 3000 },
    )
  })

  it('on English prose', () => {
    expectIcuCount(
      'It’s a well-known truth — said Mr. Smith, aged 42 — that 3.5% of “experts” agree: ' +
        "rock'n'roll won't die; e.g. in the U.S.A. at 10:30 on 2024-05-01, 1,000,000 fans (or so).",
    )
  })
})

describe('countLatinWords leaves to ICU', () => {
  it('a paragraph holding any other character', () => {
    for (const text of [
      'a_b',
      '_',
      'café',
      'naïve',
      'a\u00a0b',
      'a\u00adb',
      'x\u0000y',
      '中文',
      '👍',
      '\u2020',
    ])
      expect(countLatinWords(`Some words, then ${text}.`), text).toBeUndefined()
  })

  it('so stats hands ICU only the paragraphs the scanner declined', () => {
    const work = meter.measure(() =>
      stats('Plain English, twice.\n\nThen café au lait.', { feature: 'stats' }),
    )
    expect(work['icu-words']).toEqual({ calls: 1, units: 18, largest: 18 })
    expect(stats('Plain English, twice.\n\nThen café au lait.', { feature: 'stats' }).words).toBe(7)
  })
})
