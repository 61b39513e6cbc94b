import { describe, expect, it } from 'vitest'
import {
  hasContent,
  paragraphsOf,
  sentencesOf,
  sentencesOfParagraph,
} from '../../../src/features/sentences.js'
import { meter } from '../../../src/features/work.js'

describe('paragraphsOf', () => {
  it.each([
    ['', []],
    ['one', ['one']],
    ['one\ntwo', ['one\ntwo']],
    ['one\n\ntwo', ['one', 'two']],
    ['one\r\n\r\ntwo\r\n', ['one', 'two\r\n']],
    ['one\r\ntwo', ['one\r\ntwo']],
    ['one\r\rtwo', ['one', 'two']],
    ['one\n \t\n\n two', ['one', ' two']],
    ['\n\n\n', []],
  ] as Array<[string, string[]]>)('splits %j into %j', (text, paragraphs) => {
    expect(paragraphsOf(text)).toEqual(paragraphs)
  })

  it('drops blocks holding only whitespace', () => {
    expect(paragraphsOf('  \n\t\n')).toEqual([])
    expect(paragraphsOf('a\n\n   \n\nb')).toEqual(['a', 'b'])
  })
})

describe('sentences', () => {
  const all = (text: string) => [...sentencesOf(text)]

  it('keeps each sentence with its trailing space', () => {
    expect(all('One. Two! Three? Four')).toEqual(['One. ', 'Two! ', 'Three? ', 'Four'])
  })

  it('reads a line break inside a paragraph as a space, and a blank line as an end', () => {
    expect(all('A line\nwrapped. Next\r\none.\n\nNew paragraph')).toEqual([
      'A line wrapped. ',
      'Next one.',
      'New paragraph',
    ])
  })

  it.each([
    'Dr. Smith left.',
    'Mr. Smith left.',
    'Mr. and Mrs. Jones came.',
    'J. R. R. Tolkien wrote it.',
    'See fig. Three for it.',
    'St. Paul is a city.',
    'Prof. X and Capt. Y met.',
  ])('does not end a sentence after an abbreviation or an initial: %j', (text) => {
    expect(all(text)).toEqual([text])
  })

  it('ends a sentence after a full stop that follows a word or a number', () => {
    expect(all('It is done. Then more.')).toEqual(['It is done. ', 'Then more.'])
    expect(all('It costs 5. Then more.')).toEqual(['It costs 5. ', 'Then more.'])
    expect(all('Use p.m. Then more.')).toEqual(['Use p.m. ', 'Then more.'])
  })

  it('drops pieces without a letter or a digit, and keeps a trailing abbreviation', () => {
    expect(all('... !!! Yes.')).toEqual(['Yes.'])
    expect(all('!!! ??? ...')).toEqual([])
    expect([...sentencesOfParagraph('Ask Dr.')]).toEqual(['Ask Dr.'])
  })

  it('reports the text it hands ICU to the work meter, line breaks read as spaces', () => {
    // Not ASCII (ASCII prose is cut by latin-sentences.ts, without ICU).
    const work = meter.measure(() => [...sentencesOf('One line\r\nwrapped. Twö.')])
    expect(work['icu-sentences']).toEqual({ calls: 1, units: 22, largest: 22 })
  })

  it('finds CJK sentences', () => {
    expect(all('一つ。二つ！三つ？')).toEqual(['一つ。', '二つ！', '三つ？'])
  })

  it('tells content from none', () => {
    expect(hasContent('...')).toBe(false)
    expect(hasContent('.7')).toBe(true)
    expect(hasContent('中')).toBe(true)
  })
})
