import { describe, expect, it } from 'vitest'
import { sentiment } from '../../../src/features/sentiment.js'

const run = (text: string) => sentiment(text, { feature: 'sentiment' })

describe('sentiment negation and tokens', () => {
  it.each([
    'cant',
    "can't",
    'can’t',
    'dont',
    "don't",
    'doesnt',
    "doesn't",
    'not',
    'non',
    'wont',
    "won't",
    'isnt',
    "isn't",
  ])('reads "%s good" as negative', (negator) => {
    const result = run(`${negator} good`)
    expect(result.score).toBe(-3)
    expect(result.negative_words).toEqual(['good'])
    expect(result.positive_words).toEqual([])
  })

  it('negates only the word right after the negation', () => {
    // not -> good (-3), then great (+3) counts as it is.
    expect(run('not good great').score).toBe(0)
    expect(run('good not').score).toBe(3)
  })

  it('scores a negative word after a negation as positive', () => {
    const result = run("don't hate")
    expect(result.score).toBe(3)
    expect(result.label).toBe('positive')
    expect(result.positive_words).toEqual(['hate'])
  })

  it('keeps hyphenated words whole, lower-cased', () => {
    // AFINN lists "ill-fated" (-2) and "game-changing" (+3), not their parts' sum.
    expect(run('ILL-FATED').score).toBe(-2)
    expect(run('Game-Changing').positive_words).toEqual(['game-changing'])
  })

  it('scores an emoji written with its presentation selector like the bare emoji', () => {
    expect(run('\u2764\uFE0F').score).toBe(run('\u2764').score)
    expect(run('\u2764').score).toBeGreaterThan(0)
  })

  it('gives the comparative score rounded to 4 decimals, 0 for no tokens', () => {
    expect(run('good a b').comparative).toBe(1)
    expect(run('good a b c d e f').comparative).toBe(0.4286) // 3 / 7
    expect(run('!!!').comparative).toBe(0)
    expect(run('!!!').label).toBe('neutral')
  })
})
