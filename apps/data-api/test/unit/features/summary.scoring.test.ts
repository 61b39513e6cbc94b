import { describe, expect, it } from 'vitest'
import { summary } from '../../../src/features/summary.js'
import { meter } from '../../../src/features/work.js'

/*
 * Which sentences the summary picks: content words weighted by their frequency in the text,
 * a sentence's weight divided by the square root of its number of content words, stop words
 * and numbers left out, each sentence taken once, ties going to the earlier sentence.
 */

const pick = (sentences: string[], wanted: number) =>
  summary(sentences.join(' '), { feature: 'summary', sentences: wanted }).sentences

describe('summary scoring', () => {
  it('prefers a short sentence of frequent words over a longer one that adds a rare word', () => {
    const sentences = [
      'Cats chase mice in gardens nightly.',
      'Solar energy rocks.',
      'Solar energy.',
      'Solar energy wins.',
    ]
    expect(pick(sentences, 1)).toEqual(['Solar energy.'])
  })

  it('gives a tie to the earlier sentence', () => {
    const sentences = ['Solar energy.', 'Solar energy rocks.', 'Solar energy wins.', 'Cats nap.']
    expect(pick(sentences, 2)).toEqual(['Solar energy.', 'Solar energy rocks.'])
    expect(pick(['Cats nap.', 'Dogs bark.', 'Birds sing.'], 2)).toEqual(['Cats nap.', 'Dogs bark.'])
  })

  it('ignores stop words and numbers when weighing a sentence', () => {
    const sentences = [
      'It is what it is, and it was what it was.',
      'In 1999, 1999 was 1999 and 1999.',
      'Solar energy.',
      'Cats sleep.',
      'Solar power.',
    ]
    expect(pick(sentences, 1)).toEqual(['Solar energy.'])
  })

  it('ranks a sentence without content words below one with them', () => {
    expect(pick(['It is what it is.', 'Solar energy.', 'Cats sleep.'], 1)).toEqual([
      'Solar energy.',
    ])
  })

  it('takes a sentence repeated (in any case) once', () => {
    const sentences = ['Solar energy.', 'SOLAR ENERGY.', 'Solar energy.', 'Cats sleep.']
    expect(pick(sentences, 2)).toEqual(['Solar energy.', 'Cats sleep.'])
  })

  it('tells sentences apart that only upper case would merge (Maße is not Masse)', () => {
    const sentences = ['Die Maße.', 'Die Masse.', 'Cats.']
    expect(pick(sentences, 2)).toEqual(['Die Maße.', 'Die Masse.'])
  })

  it('returns every sentence, repeats included, when there are no more than asked for', () => {
    expect(pick(['Yes.', 'Yes.'], 2)).toEqual(['Yes.', 'Yes.'])
  })

  it('reports the text it scans for words to the work meter, only when it has to choose', () => {
    const text = 'Solar energy. Cats sleep. Dogs bark.'
    const choose = meter.measure(() => summary(text, { feature: 'summary', sentences: 1 }))
    expect(choose['summary-words']).toEqual({
      calls: 1,
      units: text.length,
      largest: text.length,
    })
    const all = meter.measure(() => summary(text, { feature: 'summary', sentences: 3 }))
    expect(all['summary-words']).toBeUndefined()
  })
})
