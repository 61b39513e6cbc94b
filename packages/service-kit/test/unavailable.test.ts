import { describe, expect, it } from 'vitest'
import { classifyError } from '../src/plugins/problems.js'
import { isUnavailable } from '../src/unavailable.js'

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })

describe('isUnavailable', () => {
  it('recognises a store that cannot be reached or is shutting down', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE']) {
      expect(isUnavailable(withCode(code)), code).toBe(true)
    }
    for (const sqlstate of ['08006', '08P01', '57P01', '57P03', '53300', '57014', '58030']) {
      expect(isUnavailable(withCode(sqlstate)), sqlstate).toBe(true)
    }
    expect(isUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true)
    expect(isUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true)
    expect(isUnavailable(new AggregateError([withCode('ECONNREFUSED')]))).toBe(true)
    expect(isUnavailable(new Error('wrapped', { cause: withCode('57P01') }))).toBe(true)
  })

  it('leaves bugs and client errors alone', () => {
    for (const sqlstate of ['23505', '22021', '42P01', '57P06', '0800']) {
      expect(isUnavailable(withCode(sqlstate)), sqlstate).toBe(false)
    }
    expect(isUnavailable(new TypeError('x is undefined'))).toBe(false)
    expect(isUnavailable('ECONNREFUSED')).toBe(false)
  })

  it('makes a 503 with Retry-After, never a 500', () => {
    expect(classifyError(withCode('ECONNREFUSED'))).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      headers: { 'retry-after': '5' },
      unavailable: true,
    })
    expect(classifyError(new TypeError('bug')).status).toBe(500)
  })
})
