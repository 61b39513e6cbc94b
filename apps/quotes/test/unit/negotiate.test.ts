import { describe, expect, it } from 'vitest'
import { memoiseNegotiation, negotiate, negotiateUncached } from '../../src/lib/negotiate.js'

describe('negotiate', () => {
  it.each([
    [undefined, 'text'],
    ['', 'text'],
    ['   ', 'text'],
    ['*/*', 'text'],
    ['*/*;q=0.8', 'text'],
    [' */* ', 'text'],
  ])('gives plain text to curl-like clients (Accept %j)', (accept, format) => {
    expect(negotiateUncached(accept)).toBe(format)
  })

  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
    ['application/json', 'json'],
    ['text/plain', 'text'],
    ['application/json, text/plain;q=0.5', 'json'],
    ['text/plain, application/json;q=0.9', 'text'],
    ['application/json;q=0.1, text/html;q=0.2', 'html'],
    ['text/plain;q=0.4, application/json;q=0.5', 'json'],
    ['text/*', 'html'],
    ['application/*', 'json'],
    ['image/png', 'html'],
    ['application/xml', 'html'],
    ['application/json;q=0', 'html'],
    ['*/*, application/json', 'json'],
    ['*/*;q=0.1, text/plain', 'text'],
    ['garbage;;;,,', 'html'],
  ])('honours q-values (Accept %j → %s)', (accept, format) => {
    expect(negotiateUncached(accept)).toBe(format)
  })

  it('memoises: a repeated Accept header is negotiated once, with the same answer', () => {
    const seen: string[] = []
    const memoised = memoiseNegotiation((accept) => {
      seen.push(accept)
      return negotiateUncached(accept)
    })
    for (let i = 0; i < 3; i += 1) {
      expect(memoised('application/json')).toBe('json')
      expect(memoised('*/*')).toBe('text')
      expect(memoised('text/html')).toBe('html')
    }
    expect(seen).toEqual(['application/json', '*/*', 'text/html'])
  })

  it('answers a missing header without the memo', () => {
    let calls = 0
    const memoised = memoiseNegotiation(() => {
      calls += 1
      return 'json'
    })
    expect(memoised(undefined)).toBe('text')
    expect(calls).toBe(0)
  })

  it('never keeps headers over 512 characters (a client cannot fill the memo with junk)', () => {
    let calls = 0
    const memoised = memoiseNegotiation((accept) => {
      calls += 1
      return negotiateUncached(accept)
    })
    const long = `application/json;x=${'a'.repeat(512 - 19)}`
    expect(long).toHaveLength(512)
    memoised(long)
    memoised(long)
    expect(calls).toBe(1)
    memoised(`${long}b`)
    memoised(`${long}b`)
    expect(calls).toBe(3)
  })

  it('starts afresh when the memo is full, and keeps answering', () => {
    const seen: string[] = []
    const memoised = memoiseNegotiation((accept) => {
      seen.push(accept)
      return negotiateUncached(accept)
    }, 3)
    for (const accept of ['a/a', 'b/b', 'c/c', 'a/a']) memoised(accept)
    expect(seen).toEqual(['a/a', 'b/b', 'c/c'])
    memoised('d/d') // full: cleared, then d/d kept
    memoised('a/a')
    expect(seen).toEqual(['a/a', 'b/b', 'c/c', 'd/d', 'a/a'])
    memoised('d/d')
    expect(seen).toHaveLength(5)
  })

  it('keeps answering after the memo fills up', () => {
    for (let i = 0; i < 1500; i += 1) negotiate(`application/json;v=${i}`)
    expect(negotiate('text/plain')).toBe('text')
  })
})
