import { describe, expect, it } from 'vitest'
import {
  decodeText,
  dedupKey,
  isDialogue,
  normaliseBody,
  parseAuthor,
  splitAttribution,
  splitEntries,
  stripOverstrike,
} from '../../scripts/fortune-parse.js'

describe('fortune file parsing (corpus build)', () => {
  it('splits a strfile text into entries on % lines', () => {
    expect(splitEntries('one\n%\ntwo\nlines\n%\n')).toEqual(['one', 'two\nlines'])
  })

  it('decodes UTF-8, and falls back to latin1 for invalid bytes', () => {
    expect(decodeText(new TextEncoder().encode('café')).text).toBe('café')
    const latin1 = decodeText(Uint8Array.from([0x63, 0x61, 0x66, 0xe9]))
    expect(latin1).toEqual({ text: 'café', encoding: 'latin1' })
  })

  it('removes backspace overstrike', () => {
    expect(stripOverstrike('b\bbo\bol\bld\bd')).toBe('bold')
  })

  it('separates the quote from a trailing attribution', () => {
    const split = splitAttribution('Never put off till tomorrow.\n\t\t-- Mark Twain')
    expect(split).toMatchObject({ body: 'Never put off till tomorrow.', attribution: 'Mark Twain' })
    expect(splitAttribution('No attribution here.')).toBeNull()
  })

  it('keeps the name and drops the cited work', () => {
    expect(parseAuthor('Mark Twain, "Pudd\'nhead Wilson\'s Calendar"')).toEqual({
      author: 'Mark Twain',
    })
    expect(parseAuthor('')).toHaveProperty('reject')
    expect(parseAuthor('http://example.com/page')).toHaveProperty('reject')
  })

  it('recognises chat logs and dialogues', () => {
    expect(isDialogue('<joe> hi\n<ann> hello\n<joe> how are you')).toBe(true)
    expect(isDialogue('A plain sentence about life.')).toBe(false)
  })

  it('rejoins hard-wrapped prose', () => {
    expect(
      normaliseBody(
        'This is a long sentence that was\nwrapped at a fixed width by\nthe original author.',
      ),
    ).toBe('This is a long sentence that was wrapped at a fixed width by the original author.')
  })

  it('finds duplicates whatever their case, spacing or punctuation', () => {
    expect(dedupKey('Know thyself.')).toBe(dedupKey('know   THYSELF...'))
  })
})
