import { describe, expect, it } from 'vitest'
import { summary } from '../../../src/features/summary.js'

const run = (text: string, sentences?: number) =>
  summary(
    text,
    sentences === undefined ? { feature: 'summary' } : { feature: 'summary', sentences },
  )

const SENTENCES = [
  'Solar energy is growing fast around the world.',
  'My cat likes warm milk.',
  'Solar panels convert energy from the sun into electricity.',
  'The weather was nice on Sunday.',
  'The cost of solar energy keeps falling as solar panels improve.',
  'Bananas are yellow.',
  'Cheap solar energy changes how countries plan their electricity.',
  'He bought a new hat.',
]
const TEXT = SENTENCES.join(' ')

describe('summary', () => {
  it.each([1, 2, 3, 4, 5])('returns exactly %i sentences, in their original order', (wanted) => {
    const result = run(TEXT, wanted)
    expect(result.sentences).toHaveLength(wanted)
    expect(result.count).toBe(wanted)
    expect(result.total_sentences).toBe(SENTENCES.length)
    const positions = result.sentences.map((sentence) => SENTENCES.indexOf(sentence))
    expect(positions.every((position) => position >= 0)).toBe(true)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
  })

  it('returns 3 sentences by default', () => {
    expect(run(TEXT).count).toBe(3)
  })

  it('picks the sentences about the main topic', () => {
    const result = run(TEXT, 3)
    for (const sentence of result.sentences) expect(sentence.toLowerCase()).toContain('solar')
  })

  it('returns every sentence when there are no more than asked for', () => {
    const result = run('One short text. With two sentences!', 5)
    expect(result).toEqual({
      sentences: ['One short text.', 'With two sentences!'],
      count: 2,
      total_sentences: 2,
    })
  })

  it('returns nothing for an empty text', () => {
    expect(run('')).toEqual({ sentences: [], count: 0, total_sentences: 0 })
    expect(run('   \n\n ')).toEqual({ sentences: [], count: 0, total_sentences: 0 })
  })

  it('collapses whitespace inside sentences and keeps abbreviations whole', () => {
    const result = run('Dr. Smith wrote\nthis   sentence.\r\nAnother one follows.', 5)
    expect(result.sentences).toEqual(['Dr. Smith wrote this sentence.', 'Another one follows.'])
  })
})
