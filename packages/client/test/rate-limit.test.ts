import { describe, expect, it } from 'vitest'
import { parseRateLimit, retryAfterSeconds } from '../src/rate-limit.js'

describe('parseRateLimit', () => {
  it('reads the RateLimit and RateLimit-Policy fields data-api sends', () => {
    const headers = new Headers({
      ratelimit: '"daily";r=12;t=345',
      'ratelimit-policy': '"daily";q=1000;w=86400',
    })
    expect(parseRateLimit(headers)).toEqual({
      policy: 'daily',
      limit: 1000,
      remaining: 12,
      resetSeconds: 345,
    })
  })

  it('reads the X-RateLimit-* trio quotes sends with a refusal', () => {
    const headers = new Headers({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '42',
    })
    expect(parseRateLimit(headers)).toEqual({
      policy: undefined,
      limit: 3,
      remaining: 0,
      resetSeconds: 42,
    })
  })

  it('is undefined without either, or for a malformed field', () => {
    expect(parseRateLimit(new Headers())).toBeUndefined()
    expect(parseRateLimit(new Headers({ ratelimit: 'daily;r=x' }))).toBeUndefined()
    expect(parseRateLimit(new Headers({ ratelimit: '"daily";r=1' }))).toBeUndefined()
  })

  it('leaves the limit out when the policy names another window', () => {
    const headers = new Headers({
      ratelimit: '"daily";r=1;t=2',
      'ratelimit-policy': '"hourly";q=5',
    })
    expect(parseRateLimit(headers)?.limit).toBeUndefined()
  })
})

describe('retryAfterSeconds', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(retryAfterSeconds(new Headers({ 'retry-after': '7' }))).toBe(7)
    const now = Date.parse('2026-01-01T00:00:00Z')
    const date = new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' })
    expect(retryAfterSeconds(date, now)).toBe(30)
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(retryAfterSeconds(new Headers())).toBeUndefined()
  })
})
