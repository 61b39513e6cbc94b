import { describe, expect, it } from 'vitest'
import { addDays, daysFrom, isDay, nextUtcMidnight, utcDay } from '../../src/lib/clock.js'
import { passwordLengthProblem } from '../../src/lib/passwords.js'

describe('UTC days', () => {
  it('names the UTC day and finds the next UTC midnight', () => {
    const late = new Date('2026-12-31T23:59:59.999Z')
    expect(utcDay(late)).toBe('2026-12-31')
    expect(nextUtcMidnight(late).toISOString()).toBe('2027-01-01T00:00:00.000Z')
    const midnight = new Date('2026-02-28T00:00:00.000Z')
    expect(utcDay(midnight)).toBe('2026-02-28')
    expect(nextUtcMidnight(midnight).toISOString()).toBe('2026-03-01T00:00:00.000Z')
  })

  it('counts days across months and leap years, and lists ranges', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(daysFrom('2026-12-30', '2027-01-02')).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
    ])
    expect(daysFrom('2026-01-02', '2026-01-01')).toEqual([])
  })

  it('accepts only real calendar days written YYYY-MM-DD', () => {
    expect(isDay('2028-02-29')).toBe(true)
    for (const text of ['2027-02-29', '2026-13-01', '2026-1-01', '2026-01-01T00:00', 'today', '']) {
      expect(isDay(text), text).toBe(false)
    }
  })
})

describe('password length', () => {
  it('keeps the minimum and maximum lengths', () => {
    expect(passwordLengthProblem('correct horse battery staple')).toBeUndefined()
    expect(passwordLengthProblem('short')).toMatch(/at least 10/)
    expect(passwordLengthProblem('x'.repeat(201))).toMatch(/at most 200/)
  })
})
