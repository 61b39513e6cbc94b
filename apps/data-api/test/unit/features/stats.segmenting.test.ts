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

/**
 * The first and last code point of every range counted without ICU, written out again here
 * rather than imported, so a change to stats.ts's ranges shows in this test.
 */
const PLAIN_EDGES = (
  '0000-02ff 0370-0482 048a-052f 1e00-1eff 2010-205f 3000-3029 3030-3098 309b-30ff ' +
  '4e00-9fff ac00-d7a3 ff01-ff9d'
)
  .split(/[ -]/)
  .map((hex) => Number.parseInt(hex, 16))

describe('countCharacters, by its work', () => {
  it('hands ICU nothing for plain text, from the first to the last code point of each range', () => {
    const text = String.fromCodePoint(...PLAIN_EDGES.filter((code) => code !== 0))
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
