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
      author_slug: 'ann-author',
      tags: [],
      status: 200,
    })
    expect(Value.Check(QuoteResponse, body)).toBe(true)
  })

  it('serializes the search item without status', () => {
    expect(JSON.parse(q.itemJson)).toEqual({
      id: 'q42',
      quote: 'Line one\nline "two"',
      author: 'Ann <Author>',
      author_slug: 'ann-author',
      tags: [],
    })
  })

  it('carries the author slug and tags it is given', () => {
    const tagged = storedQuote(7, 'Text', 'Anaïs Nin', 'anais-nin-2', ['life', 'love'])
    expect(JSON.parse(tagged.json)).toMatchObject({
      author_slug: 'anais-nin-2',
      tags: ['life', 'love'],
    })
    expect(Value.Check(QuoteResponse, JSON.parse(tagged.json))).toBe(true)
  })

  it('puts the text on one line for plain-text search results', () => {
    expect(q.line).toBe('Line one line "two"')
    expect(storedQuote(1, 'a\r\n\r\n  b', 'x').line).toBe('a b')
  })
})
