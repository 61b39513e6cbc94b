// The worker's check function itself, on this thread (PasswordStrength runs it in a worker; see
// password-strength.test.ts for that path).
import { describe, expect, it } from 'vitest'
import check, { CHECKED_LENGTH } from '../../../src/lib/password-strength.worker.js'

describe('password-strength worker', () => {
  it('scores a common password 0 with an English warning and suggestions', () => {
    const result = check({ password: 'password', userInputs: [] })
    expect(result.score).toBe(0)
    expect(result.warning).toBe('This is a heavily used password.')
    expect(result.suggestions.length).toBeGreaterThan(0)
    expect(Object.keys(result).sort()).toEqual(['score', 'suggestions', 'warning'])
  })

  it('knows English words that are not in the common list', () => {
    // In the English dictionaries only: the common lists alone score them 3 and 4.
    expect(check({ password: 'thermodynamics', userInputs: [] })).toMatchObject({
      score: 1,
      warning: 'Single words are easy to guess.',
    })
    expect(check({ password: 'bartholomew', userInputs: [] })).toMatchObject({
      score: 1,
      warning: 'Single names or surnames are easy to guess.',
    })
  })

  it('uses adjacency graphs: a keyboard walk is weak', () => {
    const result = check({ password: 'zxcvbnm,./', userInputs: [] })
    expect(result.score).toBeLessThanOrEqual(1)
    expect(result.warning).toMatch(/keyboard|pattern/i)
  })

  it('counts the user inputs against the password', () => {
    const alone = check({ password: 'zorbulonquimby', userInputs: [] })
    const withInputs = check({ password: 'zorbulonquimby', userInputs: ['zorbulon', 'quimby'] })
    expect(withInputs.score).toBeLessThan(alone.score)
  })

  it('judges the first CHECKED_LENGTH characters only', () => {
    expect(CHECKED_LENGTH).toBe(64)
    const weakHead = 'a'.repeat(CHECKED_LENGTH)
    const tail = 'Qx7!vR2#mZ9@kL4$'
    expect(check({ password: weakHead + tail, userInputs: [] })).toEqual(
      check({ password: weakHead, userInputs: [] }),
    )
    expect(check({ password: 'a'.repeat(CHECKED_LENGTH - 16) + tail, userInputs: [] }).score).toBe(
      4,
    )
  })
})
