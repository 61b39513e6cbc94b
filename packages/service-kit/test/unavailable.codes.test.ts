import { describe, expect, it } from 'vitest'
import { isUnavailable } from '../src/unavailable.js'

// Node's codes for a connection that could not be made or was lost.
const NETWORK_CODES =
  'ECONNREFUSED ECONNRESET ETIMEDOUT EHOSTUNREACH ENETUNREACH ENOTFOUND EAI_AGAIN EPIPE'.split(' ')

const withCode = (code: string) => Object.assign(new Error('x'), { code })

describe('isUnavailable codes', () => {
  it.each(NETWORK_CODES)('takes the network code %s as a store outage', (code) => {
    expect(isUnavailable(withCode(code))).toBe(true)
  })

  it.each(['08006', '08P01', '53300', '58030', '57P01', '57P05', '57014'])(
    'takes SQLSTATE %s as a store outage',
    (code) => {
      expect(isUnavailable(withCode(code))).toBe(true)
    },
  )

  it.each([
    ['a class-08 code with more after it', '080060'],
    ['a class-08 code inside another', 'X08006'],
    ['57P0x with more after it', '57P01X'],
    ['57P0x inside another', 'X57P01'],
    ['57P06 (not an operator intervention)', '57P06'],
    ['57014 with more after it', '570140'],
    ['57014 inside another', 'X57014'],
    ['a unique violation', '23505'],
    ['an unknown network code', 'EACCES'],
  ])('does not take %s (%s) as an outage', (_, code) => {
    expect(isUnavailable(withCode(code))).toBe(false)
  })

  it('ignores a code that is not a string', () => {
    expect(isUnavailable(Object.assign(new Error('x'), { code: 8006 }))).toBe(false)
  })

  it('looks through every error of an AggregateError, and through a cause', () => {
    const refused = withCode('ECONNREFUSED')
    const bug = new TypeError('bug')
    expect(isUnavailable(new AggregateError([bug, refused]))).toBe(true)
    expect(isUnavailable(new AggregateError([bug, new RangeError('x')]))).toBe(false)
    expect(isUnavailable(new Error('wrapped', { cause: refused }))).toBe(true)
    expect(isUnavailable(new Error('wrapped', { cause: bug }))).toBe(false)
    expect(isUnavailable(new Error('no cause'))).toBe(false)
  })

  it('does not loop on an error that is its own cause', () => {
    const error = new Error('self') as Error & { cause?: unknown }
    error.cause = error
    expect(isUnavailable(error)).toBe(false)
  })
})
