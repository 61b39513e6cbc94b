import { describe, expect, it } from 'vitest'
import { inlined } from '../../src/lib/search-statement.js'
import { likePattern, termKind } from '../../src/lib/search-term.js'

describe('likePattern', () => {
  it('wraps the term in wildcards', () => {
    expect(likePattern('love')).toBe('%love%')
  })

  it('escapes LIKE metacharacters so they match literally', () => {
    expect(likePattern('100%')).toBe('%100\\%%')
    expect(likePattern('a_b')).toBe('%a\\_b%')
    expect(likePattern('back\\slash')).toBe('%back\\\\slash%')
  })
})

describe('termKind', () => {
  it('matches 1-2 ASCII letters or digits as a word, longer ones as a plain substring', () => {
    expect(['a', 'Of', '42'].map(termKind)).toEqual(['word', 'word', 'word'])
    expect(['age', 'Einstein'].map(termKind)).toEqual(['plain', 'plain'])
  })

  it('sends punctuation, other spaces and other alphabets the exact way; no letter at all: a scan', () => {
    expect(
      ['don’t', 'of  the', ' of', 'of ', 'of\tthe', 'école', "it's ", "a, 's"].map(termKind),
    ).toEqual(['exact', 'exact', 'exact', 'exact', 'exact', 'exact', 'exact', 'exact'])
    expect(['%', '!?', ' '].map(termKind)).toEqual(['scan', 'scan', 'scan'])
  })

  it('takes words of ASCII letters, digits and apostrophes between single spaces for a phrase', () => {
    expect(['of the', 'Are For', 'a b c', '4 x 4'].map(termKind)).toEqual([
      'phrase',
      'phrase',
      'phrase',
      'phrase',
    ])
    // The typewriter apostrophe (migration 090): ' and ’ have marks of their own in the words.
    expect(["don't", "'s", "dogs' toys", "it's never", "'til", "a ' b"].map(termKind)).toEqual([
      'phrase',
      'phrase',
      'phrase',
      'phrase',
      'phrase',
      'phrase',
    ])
  })
})

describe('inlined', () => {
  it('writes strings as escaped literals and integers as digits', () => {
    const values = ["it's \\ %", 7, 'x', 'x', 'x', 'x', 'x', 'x', 'x', 5]
    // $10 is the tenth parameter, not the first followed by a 0.
    expect(inlined({ text: 'SELECT $1, $2, $10', values })).toBe("SELECT  E'it''s \\\\ %', 7, 5")
  })

  it('refuses anything else', () => {
    expect(() => inlined({ text: 'SELECT $1', values: [1.5] })).toThrow(TypeError)
    expect(() => inlined({ text: 'SELECT $1', values: [{}] })).toThrow(TypeError)
  })
})
