import { describe, expect, it } from 'vitest'
import { isDay, systemClock } from '../../../src/lib/clock.js'

describe('systemClock', () => {
  it('tells the current time', () => {
    const before = Date.now()
    const now = systemClock()
    expect(now).toBeInstanceOf(Date)
    expect(now.getTime()).toBeGreaterThanOrEqual(before)
    expect(now.getTime()).toBeLessThanOrEqual(Date.now())
  })
})

describe('isDay', () => {
  it('refuses a day with anything around it', () => {
    for (const text of [
      'x2026-01-01',
      '2026-01-01x',
      '12026-01-01',
      '2026-01-011',
      ' 2026-01-01',
    ]) {
      expect(isDay(text)).toBe(false)
    }
  })
})
