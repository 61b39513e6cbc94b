import { describe, expect, it } from 'vitest'
import { sentiment } from '../../../src/features/sentiment.js'

const run = (text: string) => sentiment(text, { feature: 'sentiment' })

describe('sentiment', () => {
  it('finds a positive text positive and lists its words', () => {
    const result = run('I love this, it is wonderful')
    expect(result.label).toBe('positive')
    expect(result.score).toBe(7) // love +3, wonderful +4
    expect(result.comparative).toBe(1.1667) // 7 / 6 tokens
    expect(result.positive_words).toEqual(['love', 'wonderful'])
    expect(result.negative_words).toEqual([])
  })

  it('finds a negative text negative', () => {
    const result = run('This is terrible and I hate it.')
    expect(result.label).toBe('negative')
    expect(result.score).toBeLessThan(0)
    expect(result.negative_words).toEqual(['terrible', 'hate'])
    expect(result.positive_words).toEqual([])
  })

  it('calls a text without opinion words neutral', () => {
    const result = run('The meeting is on Tuesday at noon.')
    expect(result).toEqual({
      score: 0,
      comparative: 0,
      label: 'neutral',
      positive_words: [],
      negative_words: [],
    })
  })

  it('handles an empty text', () => {
    expect(run('').label).toBe('neutral')
    expect(run('').score).toBe(0)
  })

  it('turns a negated word around', () => {
    const result = run('This is not good.')
    expect(result.label).toBe('negative')
    expect(result.negative_words).toEqual(['good'])
  })

  it('lists each word once, in order of first appearance', () => {
    const result = run('Good, good, GOOD! Bad. Happy and good.')
    expect(result.positive_words).toEqual(['good', 'happy'])
    expect(result.negative_words).toEqual(['bad'])
  })

  it('sees words through typographic quotes, line breaks and tabs', () => {
    const result = run('They said it was “great”\r\nand\t‘amazing’ — really ‘excellent’.')
    expect(result.positive_words).toEqual(['great', 'amazing', 'excellent'])
  })

  it('scores emoji', () => {
    const result = run('See you soon😀')
    expect(result.positive_words).toContain('😀')
    expect(result.label).toBe('positive')
  })
})
