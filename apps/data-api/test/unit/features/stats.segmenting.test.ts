import { describe, expect, it } from 'vitest'
import { countCharacters, stats } from '../../../src/features/stats.js'
import { meter } from '../../../src/features/work.js'

/*
 * countCharacters hands ICU's grapheme segmenter only the runs of text that hold code points
 * other than "plain" ones, each with one neighbour either side (the work meter says what it was
 * handed), and counts plain stretches itself: what it hands out is what keeps it fast on long
 * plain text.
 */

const graphemeWork = (text: string) => meter.measure(() => countCharacters(text))['icu-graphemes']

/** The first and last code point of every range counted without ICU. */
const PLAIN_EDGES = [
  [0x0000, 0x02ff],
  [0x0370, 0x0482],
  [0x048a, 0x052f],
  [0x1e00, 0x1eff],
  [0x2010, 0x205f],
  [0x3000, 0x3029],
  [0x3030, 0x3098],
  [0x309b, 0x30ff],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
  [0xff01, 0xff9d],
]

describe('countCharacters, by its work', () => {
  it('hands ICU nothing for plain text, from the first to the last code point of each range', () => {
    const text = String.fromCodePoint(...PLAIN_EDGES.flat().filter((code) => code !== 0))
    expect(graphemeWork(text)).toBeUndefined()
    expect(countCharacters(text)).toBe(text.length)
    expect(graphemeWork('Hello, world. Ελληνικά 日本語 한국어')).toBeUndefined()
  })

  it('hands ICU a run of other code points with one neighbour either side', () => {
    expect(graphemeWork('✓')).toEqual({ calls: 1, units: 1, largest: 1 })
    expect(graphemeWork('✓abc')).toEqual({ calls: 1, units: 2, largest: 2 })
    expect(graphemeWork('abc✓')).toEqual({ calls: 1, units: 2, largest: 2 })
    expect(graphemeWork('a✓b')).toEqual({ calls: 1, units: 3, largest: 3 })
  })

  it('keeps up to 7 plain code units inside one run, and cuts the run at 8', () => {
    expect(graphemeWork(`✓${'a'.repeat(7)}✓`)).toEqual({ calls: 1, units: 9, largest: 9 })
    expect(graphemeWork(`✓${'a'.repeat(8)}✓`)).toEqual({ calls: 2, units: 4, largest: 2 })
    expect(countCharacters(`✓${'a'.repeat(8)}✓`)).toBe(10)
  })

  it('reports its work per engine when stats counts a text', () => {
    const work = meter.measure(() => stats('Hello ✓ world.', { feature: 'stats' }))
    expect(work['icu-graphemes']).toEqual({ calls: 1, units: 3, largest: 3 })
    expect(work['icu-words']).toEqual({ calls: 1, units: 14, largest: 14 })
  })
})
