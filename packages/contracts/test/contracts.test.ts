import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import {
  AuthorsQuery,
  AuthorsResponse,
  PROBLEM_CODES,
  Problem,
  problemType,
  Quote,
  QuoteResponse,
  RandomQuery,
  SearchQuery,
  TagsResponse,
  TodayResponse,
} from '../src/index.js'

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
    expect(
      Value.Check(QuoteResponse, {
        id: 'q1',
        quote: 'a',
        author: 'b',
        author_slug: 'b',
        tags: [],
        status: 200,
      }),
    ).toBe(true)
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

  it('SearchQuery takes a tag slug only', () => {
    expect(Value.Check(SearchQuery, { tag: 'self-help' })).toBe(true)
    for (const tag of ['', 'Self Help', 'self--help', '-x', 'x'.repeat(101)]) {
      expect(Value.Check(SearchQuery, { tag })).toBe(false)
    }
  })
})

describe('author and tag schemas', () => {
  it('Quote carries an author slug and tag slugs', () => {
    const quote = { id: 'q1', quote: 'a', author: 'B', author_slug: 'b', tags: ['life'] }
    expect(Value.Check(Quote, quote)).toBe(true)
    expect(Value.Check(Quote, { ...quote, author_slug: 'Not A Slug' })).toBe(false)
    expect(Value.Check(Quote, { ...quote, tags: ['two words'] })).toBe(false)
    expect(Value.Check(TodayResponse, { ...quote, date: '2026-03-01', status: 200 })).toBe(true)
  })

  it('RandomQuery and AuthorsQuery take integers and known sorts only', () => {
    expect(Value.Check(RandomQuery, { author: 'x', minLength: 0, maxLength: 100 })).toBe(true)
    expect(Value.Check(RandomQuery, { minLength: -1 })).toBe(false)
    expect(Value.Check(RandomQuery, { maxLength: 1.5 })).toBe(false)
    expect(Value.Check(AuthorsQuery, { sort: 'count', page: 2, limit: 30 })).toBe(true)
    expect(Value.Check(AuthorsQuery, { sort: 'age' })).toBe(false)
    expect(Value.Check(AuthorsQuery, { page: 0 })).toBe(false)
  })

  it('AuthorsResponse and TagsResponse', () => {
    const author = { slug: 'a-b', name: 'A B', quote_count: 3 }
    const paging = { current_page: 1, limit: 20, next_page: 1, previous_page: 1, total_pages: 1 }
    expect(
      Value.Check(AuthorsResponse, {
        ...paging,
        results: [author],
        search_term: '',
        sort: 'name',
        status: 200,
        total_authors: 1,
      }),
    ).toBe(true)
    expect(
      Value.Check(TagsResponse, {
        results: [{ slug: 'love', name: 'Love', quote_count: 20 }],
        total_tags: 1,
        status: 200,
      }),
    ).toBe(true)
  })
})
