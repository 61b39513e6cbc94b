import { describe, expect, it } from 'vitest'
import { negotiate, negotiateUncached } from '../../src/lib/negotiate.js'

describe('negotiate', () => {
  it.each([
    [undefined, 'text'],
    ['', 'text'],
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

  it('memoises without changing answers', () => {
    for (let i = 0; i < 3; i += 1) {
      expect(negotiate('application/json')).toBe('json')
      expect(negotiate('*/*')).toBe('text')
      expect(negotiate('text/html')).toBe('html')
    }
  })

  it('keeps answering after the memo fills up', () => {
    for (let i = 0; i < 1500; i += 1) negotiate(`application/json;v=${i}`)
    expect(negotiate('text/plain')).toBe('text')
  })
})
