import { describe, expect, it } from 'vitest'
import { slugify, uniqueSlugs } from '../../src/lib/slug.js'

describe('slugify', () => {
  it.each([
    ['Straße', 'strasse'],
    ['Æsop', 'aesop'],
    ['Œuvre', 'oeuvre'],
    ['Ørsted', 'orsted'],
    ['Łódź', 'lodz'],
    ['Đorđe', 'dorde'],
    ['Aðalsteinn', 'adalsteinn'],
    ['Þórbergur', 'thorbergur'],
    ['Kırıkkale', 'kirikkale'],
  ])('spells letters NFKD keeps whole the usual ASCII way (%s)', (name, slug) => {
    expect(slugify(name)).toBe(slug)
  })

  it('trims hyphens at both ends, however many separators there were', () => {
    expect(slugify('  -- Hello, World! --  ')).toBe('hello-world')
    expect(slugify('...Plato')).toBe('plato')
    expect(slugify('Plato...')).toBe('plato')
  })

  it('falls back to "x" for a name without Latin letters or digits', () => {
    expect(slugify('孔子')).toBe('x')
    expect(slugify('—')).toBe('x')
  })

  it('keeps 80 characters at most, without a hyphen at the cut', () => {
    expect(slugify('a'.repeat(100))).toBe('a'.repeat(80))
    expect(slugify(`${'a'.repeat(79)} bcd`)).toBe('a'.repeat(79))
    expect(slugify(`${'a'.repeat(78)} bcd`)).toBe(`${'a'.repeat(78)}-b`)
  })
})

describe('uniqueSlugs', () => {
  it('numbers a taken slug from 2, and remembers the ones it gives', () => {
    const taken = new Set<string>()
    expect(uniqueSlugs(['Plato', 'plato', 'PLATO'], taken, 'author')).toEqual([
      'plato',
      'plato-2',
      'plato-3',
    ])
    expect(taken).toEqual(new Set(['plato', 'plato-2', 'plato-3']))
  })
})
