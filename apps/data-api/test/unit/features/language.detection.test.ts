import { describe, expect, it } from 'vitest'
import {
  detectLanguage,
  languageName,
  sampleOf,
  stopWordLanguage,
} from '../../../src/features/language.js'

const ENGLISH =
  'It was a bright cold day in April, and the clocks were striking thirteen. Winston Smith, his chin ' +
  'nuzzled into his breast in an effort to escape the vile wind, slipped quickly through the glass doors.'
/** Greek, which franc tells by its script alone: 20 letters. */
const GREEK_20_LETTERS = 'Καλημέρα κόσμε φίλε μου'

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

describe('the sample franc reads', () => {
  it('leaves out URLs and e-mail addresses, each for a space', () => {
    const text =
      'voir https://example.com/a/b et http://x.org/c ou www.site.fr/page, écrire à contact.me@example.com merci'
    expect(sampleOf(text)).toBe('voir   et   ou   écrire à   merci')
  })

  it('is the first 2,048 characters', () => {
    expect(sampleOf('a'.repeat(5000))).toBe('a'.repeat(2048))
  })

  it('comes from the first 4,096 characters only, even when noise is left out of them', () => {
    const url = `https://example.com/${'a'.repeat(4000)}`
    const text = `${url} ${'mot '.repeat(1000)}`
    expect(sampleOf(text)).toBe(`  ${text.slice(url.length + 1, 4096)}`)
  })
})

describe('detectLanguage', () => {
  it.each(['', '123', '!!! ???'])('reports no language and no candidates for %j', (text) => {
    expect(detectLanguage(text)).toEqual({ language: 'und', confidence: 0, ranked: [] })
  })

  it('shares a confidence of 1 among all its candidates, for a text long enough', () => {
    const { ranked, confidence } = detectLanguage(ENGLISH)
    expect(confidence).toBeGreaterThan(0.9)
    expect(sum(ranked.map((candidate) => candidate.confidence))).toBeCloseTo(1, 2)
  })

  it('scales the confidence down by the letters short of 40', () => {
    const { ranked } = detectLanguage('Hello there, my friend') // 18 letters
    expect(sum(ranked.map((candidate) => candidate.confidence))).toBeCloseTo(18 / 40, 2)
    expect(detectLanguage(GREEK_20_LETTERS)).toEqual({
      language: 'ell',
      confidence: 0.5,
      ranked: [{ language: 'ell', confidence: 0.5 }],
    })
  })
})

describe('stopWordLanguage', () => {
  it('takes the detected language from a confidence of 0.5, and English below it', () => {
    expect(stopWordLanguage(GREEK_20_LETTERS)).toBe('ell')
    expect(stopWordLanguage(GREEK_20_LETTERS.slice(0, -1))).toBe('eng')
    expect(stopWordLanguage('')).toBe('eng')
  })
})

describe('languageName', () => {
  it('names a language in English, und as Undetermined, and anything else by its code', () => {
    expect(languageName('deu')).toBe('German')
    expect(languageName('und')).toBe('Undetermined')
    expect(languageName('zzz')).toBe('zzz')
    expect(languageName('not a code')).toBe('not a code')
  })
})
