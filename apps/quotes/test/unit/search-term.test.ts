import { describe, expect, it } from 'vitest'
import { likePattern, termProblem } from '../../src/lib/search-term.js'

describe('termProblem', () => {
  it('accepts ordinary and unusual printable text', () => {
    for (const term of ['love', 'Über', "don't", '%_\\', '日本語', '  spaced  ', '🙂']) {
      expect(termProblem(term)).toBeUndefined()
    }
  })

  it('refuses control characters, which Postgres cannot store or the index never holds', () => {
    for (const term of ['a\u0000b', 'tab\there', 'line\nbreak', '\u001f', 'del\u007f']) {
      expect(termProblem(term)).toMatch(/control characters/)
    }
  })
})

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
