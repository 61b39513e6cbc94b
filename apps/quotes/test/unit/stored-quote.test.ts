import { QuoteResponse } from '@repo/contracts'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { parseQuoteId, storedQuote } from '../../src/lib/stored-quote.js'

describe('parseQuoteId', () => {
  it('reads q-prefixed positive integers', () => {
    expect(parseQuoteId('q1')).toBe(1)
    expect(parseQuoteId('q7677')).toBe(7677)
    expect(parseQuoteId('q2147483647')).toBe(2147483647)
  })

  it('rejects everything else', () => {
    for (const id of [
      '',
      'q',
      'q0',
      'q01',
      'Q1',
      '1',
      'q-1',
      'q1.5',
      'q1a',
      'q2147483648',
      'q99999999999',
    ]) {
      expect(parseQuoteId(id)).toBeUndefined()
    }
  })
})

describe('storedQuote', () => {
  const q = storedQuote(42, 'Line one\nline "two"', 'Ann <Author>')

  it('serializes the single-quote JSON per the contract', () => {
    const body = JSON.parse(q.json)
    expect(body).toEqual({
      id: 'q42',
      quote: 'Line one\nline "two"',
      author: 'Ann <Author>',
      status: 200,
    })
    expect(Value.Check(QuoteResponse, body)).toBe(true)
  })

  it('serializes the search item without status', () => {
    expect(JSON.parse(q.itemJson)).toEqual({
      id: 'q42',
      quote: 'Line one\nline "two"',
      author: 'Ann <Author>',
    })
  })

  it('puts the text on one line for plain-text search results', () => {
    expect(q.line).toBe('Line one line "two"')
    expect(storedQuote(1, 'a\r\n\r\n  b', 'x').line).toBe('a b')
  })
})
