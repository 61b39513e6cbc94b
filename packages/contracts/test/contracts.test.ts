import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import { PROBLEM_CODES, Problem, problemType, QuoteResponse, SearchQuery } from '../src/index.js'

describe('problem codes', () => {
  it('map to 4xx/5xx statuses and stable type URIs', () => {
    for (const [code, status] of Object.entries(PROBLEM_CODES)) {
      expect(status).toBeGreaterThanOrEqual(400)
      expect(problemType(code as keyof typeof PROBLEM_CODES)).toMatch(/^\/problems\/[a-z-]+$/)
    }
    expect(problemType('QUOTA_EXCEEDED')).toBe('/problems/quota-exceeded')
  })

  it('Problem accepts extra members but not unknown codes', () => {
    const base = { type: 'urn:x', title: 't', status: 429, detail: 'd', request_id: 'r' }
    expect(Value.Check(Problem, { ...base, code: 'QUOTA_EXCEEDED', limit: 1000 })).toBe(true)
    expect(Value.Check(Problem, { ...base, code: 'TEAPOT' })).toBe(false)
  })
})

describe('quote schemas', () => {
  it('QuoteResponse requires a q-id and status 200', () => {
    expect(Value.Check(QuoteResponse, { id: 'q1', quote: 'a', author: 'b', status: 200 })).toBe(
      true,
    )
    expect(Value.Check(QuoteResponse, { id: '1', quote: 'a', author: 'b', status: 200 })).toBe(
      false,
    )
    expect(Value.Check(QuoteResponse, { id: 'q1', quote: 'a', author: 'b', status: 404 })).toBe(
      false,
    )
  })

  it('SearchQuery takes decimal positive integers only', () => {
    for (const page of ['1', '42', '007', '999999999999999']) {
      expect(Value.Check(SearchQuery, { page })).toBe(true)
    }
    for (const page of ['0', '-1', '1.5', '1e3', '0x10', ' 1', '', '1000000000000000']) {
      expect(Value.Check(SearchQuery, { page })).toBe(false)
    }
    expect(Value.Check(SearchQuery, { term: 'x'.repeat(201) })).toBe(false)
  })
})
