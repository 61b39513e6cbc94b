import { describe, expect, it } from 'vitest'
import { language } from '../../../src/features/language.js'

const run = (text: string, alternatives?: number) =>
  language(
    text,
    alternatives === undefined ? { feature: 'language' } : { feature: 'language', alternatives },
  )

const FRENCH =
  "Le Petit Prince est une œuvre de langue française, la plus connue d'Antoine de Saint-Exupéry. " +
  'Publié en 1943 à New York, c’est un conte poétique et philosophique sous l’apparence d’un conte pour enfants.'
const ENGLISH =
  'It was a bright cold day in April, and the clocks were striking thirteen. Winston Smith, his chin ' +
  'nuzzled into his breast in an effort to escape the vile wind, slipped quickly through the glass doors.'
const GERMAN =
  'Die Würde des Menschen ist unantastbar. Sie zu achten und zu schützen ist Verpflichtung aller staatlichen Gewalt.'
const SPANISH =
  'En un lugar de la Mancha, de cuyo nombre no quiero acordarme, no ha mucho tiempo que vivía un hidalgo de los de lanza en astillero.'

describe('language', () => {
  it.each([
    ['French', FRENCH, 'fra', 'French'],
    ['English', ENGLISH, 'eng', 'English'],
    ['German', GERMAN, 'deu', 'German'],
    ['Spanish', SPANISH, 'spa', 'Spanish'],
    [
      'Russian',
      'Москва — столица России, город федерального значения и крупнейший по численности населения город страны.',
      'rus',
      'Russian',
    ],
  ])('recognises %s', (_name, text, code, name) => {
    const result = run(text)
    expect(result.language).toBe(code)
    expect(result.name).toBe(name)
    expect(result.confidence).toBeGreaterThan(0.5)
    expect(result.confidence).toBeLessThanOrEqual(1)
  })

  it.each(['', '123', '123 456 789 000', '!!! ??? ...', '   '])('answers und for %j', (text) => {
    expect(run(text)).toEqual({
      language: 'und',
      name: 'Undetermined',
      confidence: 0,
      alternatives: [],
    })
  })

  it('is not confident when candidates are close', () => {
    // franc hesitates between Bosnian and Serbian on this Russian line: the confidence says so.
    const result = run(
      'Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива.',
    )
    expect(result.confidence).toBeLessThan(0.6)
  })

  it('is less confident about a short text than about a paragraph', () => {
    expect(run('Hello there, my friend').confidence).toBeLessThan(run(ENGLISH).confidence)
  })

  it('is not misled by URLs and e-mail addresses', () => {
    const text = `${FRENCH} https://www.example.com/the-english-words/in-this-url contact@example.com`
    expect(run(text).language).toBe('fra')
  })

  it('lists three alternatives by default, as many as asked, most likely first', () => {
    expect(run(ENGLISH).alternatives).toHaveLength(3)
    expect(run(ENGLISH, 0).alternatives).toEqual([])
    const alternatives = run(ENGLISH, 5).alternatives
    expect(alternatives).toHaveLength(5)
    for (const alternative of alternatives) {
      expect(alternative.language).toMatch(/^[a-z]{3}$/)
      expect(alternative.language).not.toBe('eng')
      expect(alternative.confidence).toBeGreaterThanOrEqual(0)
    }
    const confidences = alternatives.map((alternative) => alternative.confidence)
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a))
  })

  it('names languages in English', () => {
    expect(run(GERMAN, 1).alternatives[0]?.name).toMatch(/^[A-Z]/)
  })
})
