import { describe, expect, it } from 'vitest'
import { nextUtcMidnight, utcDay } from '../../src/lib/clock.js'
import { passwordProblem } from '../../src/lib/passwords.js'

describe('UTC days', () => {
  it('names the UTC day and finds the next UTC midnight', () => {
    const late = new Date('2026-12-31T23:59:59.999Z')
    expect(utcDay(late)).toBe('2026-12-31')
    expect(nextUtcMidnight(late).toISOString()).toBe('2027-01-01T00:00:00.000Z')
    const midnight = new Date('2026-02-28T00:00:00.000Z')
    expect(utcDay(midnight)).toBe('2026-02-28')
    expect(nextUtcMidnight(midnight).toISOString()).toBe('2026-03-01T00:00:00.000Z')
  })
})

describe('password policy', () => {
  it('accepts long, varied passwords', () => {
    expect(passwordProblem('correct horse battery staple', 'a@example.com')).toBeUndefined()
  })

  it('explains what is wrong', () => {
    expect(passwordProblem('short', 'a@example.com')).toMatch(/at least 10/)
    expect(passwordProblem('x'.repeat(201), 'a@example.com')).toMatch(/at most 200/)
    expect(passwordProblem('aaaaaaaaaaaa', 'a@example.com')).toMatch(/different characters/)
    expect(passwordProblem('Password123', 'a@example.com')).toMatch(/too common/)
    expect(passwordProblem('johnsmith99!', 'johnsmith@example.com')).toMatch(/e-mail/)
  })
})
