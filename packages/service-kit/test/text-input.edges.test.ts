import { describe, expect, it } from 'vitest'
import { parseUrlEncoded, textProblem } from '../src/text-input.js'

const rules = { q: { maxLength: 50 } }

describe('text input edges', () => {
  it('accepts well-formed escapes, with + as a space', () => {
    const parsed = parseUrlEncoded('q=caf%C3%A9+au+lait&x=%41')
    expect(parsed).toEqual({ q: 'café au lait', x: 'A' })
    expect(textProblem(parsed, rules)).toBeUndefined()
  })

  it('has nothing to say about input that is not an object (the caller checks types)', () => {
    expect(textProblem(null, rules)).toBeUndefined()
    expect(textProblem(undefined, rules)).toBeUndefined()
    expect(textProblem('q=%zz', rules)).toBeUndefined()
  })

  it('marks a malformed escape without adding a field', () => {
    const parsed = parseUrlEncoded('q=%zz')
    expect(Object.keys(parsed)).toEqual(['q'])
    expect(textProblem(parsed, rules)).toMatch(/not valid UTF-8 percent-encoding/)
  })
})
