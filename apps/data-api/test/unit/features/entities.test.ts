import { describe, expect, it } from 'vitest'
import { entities } from '../../../src/features/entities.js'

const run = (text: string) => entities(text, { feature: 'entities' })

describe('entities', () => {
  it('finds people, places and organisations in a sentence', () => {
    const result = run('Barack Obama met executives from Microsoft in Paris on Tuesday.')
    expect(result.people).toContain('Barack Obama')
    expect(result.places).toContain('Paris')
    expect(result.organisations).toContain('Microsoft')
    expect(result.truncated).toBe(false)
  })

  it('finds several of each, in order of appearance', () => {
    const result = run(
      'Angela Merkel and Emmanuel Macron met in Berlin. Later Google and the United Nations ' +
        'announced a partnership in New York.',
    )
    expect(result.people).toEqual(['Angela Merkel', 'Emmanuel Macron'])
    expect(result.places).toEqual(expect.arrayContaining(['Berlin', 'New York']))
    expect(result.organisations).toEqual(expect.arrayContaining(['Google', 'United Nations']))
  })

  it('deduplicates ignoring case and keeps names tidy', () => {
    const result = run(
      "Paris is big. I love Paris! Obama's speech was long. Dr. Jane Goodall spoke after Obama.",
    )
    expect(result.places).toEqual(['Paris'])
    expect(result.people).toContain('Obama')
    expect(result.people).toContain('Jane Goodall')
    for (const name of [...result.people, ...result.places, ...result.organisations]) {
      expect(name).toBe(name.trim())
      expect(name).not.toMatch(/[.,;:!?'’]$/)
    }
  })

  it('finds nothing in a text without names', () => {
    expect(run('the cat sat on the mat. it was happy.')).toEqual({
      people: [],
      places: [],
      organisations: [],
      truncated: false,
    })
    expect(run('')).toEqual({ people: [], places: [], organisations: [], truncated: false })
  })

  it('finds a name at the start of a sentence', () => {
    expect(run('Paris is lovely in the spring.').places).toEqual(['Paris'])
  })
})

describe('entities: the names', () => {
  it('collapses the spaces inside a name', () => {
    expect(run('Barack  Obama visited Paris.').people).toEqual(['Barack Obama'])
    expect(run('Dr.  John   Smith came.').people).toEqual(['John Smith'])
  })

  it('drops one-letter names and names without a capital, and keeps two-letter ones', () => {
    expect(run('Mr. X went to Paris.').people).toEqual([])
    expect(run('He met Ms. Jo in Paris.').people).toEqual(['Jo'])
    expect(run('Obama went to paris and london.').places).toEqual([])
  })

  it('strips the punctuation around a name, however much there is', () => {
    expect(run('Visit ...Paris... now').places).toEqual(['Paris'])
    expect(run('I love «Paris» and "(Berlin)" a lot.').places).toEqual(['Paris', 'Berlin'])
    expect(run('He lives in (New York).').places).toEqual(['New York'])
  })

  it("removes a possessive 's at the end of a name only", () => {
    expect(run("Obama's dog barked.").people).toEqual(['Obama'])
    expect(run("Domino's Pizza opened in Paris.").organisations).toEqual(["Domino's Pizza"])
  })
})

describe('entities on long texts', () => {
  it('tags only new capitalised words, so a name repeated all along costs nothing more', () => {
    const text = `${'Barack Obama spoke in Paris. '.repeat(20_000)}Angela Merkel came later.`
    const result = run(text)
    expect(result.people).toEqual(['Barack Obama', 'Angela Merkel'])
    expect(result.places).toEqual(['Paris'])
    expect(result.truncated).toBe(false)
  })

  it('stops at its budget of context and says so', () => {
    const sentences = Array.from(
      { length: 400 },
      (_, i) => `Yesterday Mr. Person${i} Smith${i} arrived.`,
    )
    const result = run(sentences.join(' '))
    expect(result.truncated).toBe(true)
    expect(result.people[0]).toMatch(/^Person0\b/)
    expect(result.people.length).toBeGreaterThan(20)
    expect(result.people.some((name) => name.includes('399'))).toBe(false)
  })

  it('keeps context within the line', () => {
    expect(run('a list of words\nParis\nmore words here').places).toEqual(['Paris'])
  })
})
