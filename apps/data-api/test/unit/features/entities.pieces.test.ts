import { ENTITIES_MAX_ANALYZED_CHARACTERS } from '@repo/contracts'
import { describe, expect, it } from 'vitest'
import { entities, piecesOf } from '../../../src/features/entities.js'
import { meter } from '../../../src/features/work.js'

/*
 * What compromise is handed: a window of context (30 characters either side, within the line,
 * cut at spaces) around each capitalised word or run of them seen for the first time, touching
 * windows merged into pieces of at most 400 characters, at most ENTITIES_MAX_ANALYZED_CHARACTERS
 * in all, tagged in batches of about 5,000 characters.
 */

const pieces = (text: string) => piecesOf(text).pieces
const FILLER = 'the quick brown fox jumps over the lazy dog and runs away '
/** One line of 40 characters, with one new capitalised word, for each `i`. */
const line = (i: number) => `we met Person${String(i).padStart(3, '0')} in the park by the mill`

describe('entities: the windows of context', () => {
  it('takes the whole text when it is short', () => {
    expect(pieces('we met in Paris today')).toEqual(['we met in Paris today'])
  })

  it('cuts the context at spaces, 30 characters either side', () => {
    expect(pieces(`${FILLER}Paris ${FILLER}`)).toEqual([
      'the lazy dog and runs away Paris the quick brown fox jumps',
    ])
  })

  it('keeps the window within the line, whatever the line breaks', () => {
    expect(pieces('hello there\r\nParis is nice')).toEqual(['Paris is nice'])
    expect(pieces('hello there\rParis is nice')).toEqual(['Paris is nice'])
    expect(pieces('\nParis is nice')).toEqual(['Paris is nice'])
    expect(pieces('we like Paris\nand more words here')).toEqual(['we like Paris'])
    expect(pieces('we like Paris is it\r\nand more')).toEqual(['we like Paris is it'])
  })

  it('merges windows that touch into one piece', () => {
    const text = 'Alpha xxxxxxxxxx  yyyyyyyyyyyyyyyyyyyy Beta'
    expect(pieces(text)).toEqual([text])
  })

  it('grows a piece to at most 400 characters', () => {
    const names = Array.from(
      { length: 60 },
      (_, i) =>
        `Name${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))} x yyyyyy`,
    )
    expect(pieces(names.join(' ')).map((piece) => piece.length)).toEqual([399, 400, 160])
  })

  it('looks again at a run of capitalised words only when the whole run is new', () => {
    const far = `${FILLER}${FILLER} `
    // "Obama" alone is new after "Barack Obama"; "Paris" again is not; "Anna Smart" is not "Anna Smith".
    expect(pieces(`Barack Obama ${far}Obama spoke`)).toHaveLength(2)
    expect(pieces(`Barack  Obama ${far}Obama spoke`)).toHaveLength(2)
    expect(pieces(`Paris ${far}Paris spoke`)).toEqual(['Paris the quick brown fox jumps'])
    expect(pieces(`Anna Smith ${far}Anna Smart spoke`)).toHaveLength(2)
  })

  it('skips "I" in its forms and capitalised common words', () => {
    const text =
      "I'm sure I’m fine, I'll go, I’ll see, I've been, I’ve done, I'd say, I’d go, and I agree. The end."
    expect(piecesOf(text)).toEqual({ pieces: [], truncated: false })
  })
})

describe('entities: the budget and the batches', () => {
  const lines = Array.from({ length: 260 }, (_, i) => line(i)).join('\n')

  it('takes windows up to exactly its budget, then stops and says so', () => {
    const { pieces: taken, truncated } = piecesOf(lines)
    expect(ENTITIES_MAX_ANALYZED_CHARACTERS / line(0).length).toBe(250)
    expect(taken).toHaveLength(250)
    expect(taken.at(-1)).toBe(line(249))
    expect(truncated).toBe(true)
  })

  it('tags the pieces in batches of 5,000 characters, one piece a line', () => {
    const work = meter.measure(() => entities(lines, { feature: 'entities' }))
    // 125 lines of 40 characters make a batch, joined by 124 line breaks.
    expect(work.compromise).toEqual({ calls: 2, units: 2 * 5124, largest: 5124 })
    expect(work['entities-scan']).toEqual({ calls: 1, units: lines.length, largest: lines.length })
  })

  it('hands compromise nothing when there is no name to look at', () => {
    const work = meter.measure(() => entities('the cat sat on the mat.', { feature: 'entities' }))
    expect(work.compromise).toBeUndefined()
  })
})
