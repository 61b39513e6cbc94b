import { describe, expect, it } from 'vitest'
import { likePattern } from '../../src/lib/search-term.js'

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
