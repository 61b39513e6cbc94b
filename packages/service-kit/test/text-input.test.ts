import { describe, expect, it } from 'vitest'
import { parseUrlEncoded, textProblem } from '../src/text-input.js'

const rules = {
  term: { maxLength: 10 },
  note: { maxLength: 50, multiline: true, label: 'The note' },
}

describe('parseUrlEncoded', () => {
  it('parses like Fastify does: + is a space, repeated fields become lists', () => {
    expect(parseUrlEncoded('term=caf%C3%A9+x&tag=a&tag=b')).toEqual({
      term: 'café x',
      tag: ['a', 'b'],
    })
    expect(textProblem(parseUrlEncoded('term=caf%C3%A9+x'), rules)).toBeUndefined()
  })

  it('marks malformed percent-encoding instead of passing it on as text', () => {
    for (const text of ['term=%zz', 'term=%E0%A4%A', 'term=%ED%A0%80', 'x=%F0%9F%98', '%zz=1']) {
      expect(textProblem(parseUrlEncoded(text), rules), text).toMatch(/percent-encoding/)
    }
    expect(textProblem(parseUrlEncoded('term=100%25'), rules)).toBeUndefined()
  })
})

describe('textProblem', () => {
  it('refuses repeated fields, over-long values and control characters, naming the field', () => {
    expect(textProblem({ term: ['a', 'b'] }, rules)).toBe('Send term once, as text.')
    expect(textProblem({ term: 'x'.repeat(11) }, rules)).toBe(
      'term is too long: at most 10 characters.',
    )
    for (const term of ['a\u0000b', 'tab\there', 'line\nbreak', '\u001f', 'del\u007f']) {
      expect(textProblem({ term }, rules)).toBe('term must not contain control characters.')
    }
    expect(textProblem({ note: 'two\nlines\tand a tab' }, rules)).toBeUndefined()
    expect(textProblem({ note: 'nul\u0000' }, rules)).toBe(
      'The note must not contain control characters.',
    )
  })

  it('refuses lone surrogates, accepts any other text', () => {
    expect(textProblem({ term: 'a\ud800' }, rules)).toBe('term must be valid Unicode text.')
    for (const term of ['love', 'Über', "don't", '%_\\', '日本語', '  spaced  ', '🙂']) {
      expect(textProblem({ term }, rules), term).toBeUndefined()
    }
    expect(textProblem({ other: ['ignored'] }, rules)).toBeUndefined()
    expect(textProblem(undefined, rules)).toBeUndefined()
  })
})
