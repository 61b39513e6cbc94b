import { Type } from 'typebox'
import { Value } from 'typebox/value'
import { describe, expect, it } from 'vitest'
import {
  FeatureNameSchema,
  PlanSchema,
  Problem,
  Quote,
  QuoteParams,
  QuoteResponse,
} from '../src/index.js'
import { Count, Words } from '../src/schema-helpers.js'

describe('contract schemas refuse what the spec does not allow', () => {
  const quote = { id: 'q1', quote: 'a', author: 'b', author_slug: 'b', tags: [] }

  it('quotes and quote responses take no extra members, and are named for OpenAPI', () => {
    expect(Value.Check(Quote, quote)).toBe(true)
    expect(Value.Check(Quote, { ...quote, extra: 1 })).toBe(false)
    expect(Value.Check(QuoteResponse, { ...quote, status: 200, extra: 1 })).toBe(false)
    const idOf = (schema: object) => (schema as { $id?: string }).$id
    expect(idOf(Quote)).toBe('Quote')
    expect(idOf(QuoteResponse)).toBe('QuoteResponse')
    expect(idOf(Problem)).toBe('Problem')
  })

  it('quote ids are q and 1 to 15 digits; route ids at most 64 characters', () => {
    expect(Value.Check(Quote, { ...quote, id: 'q' })).toBe(false)
    expect(Value.Check(Quote, { ...quote, id: `q${'1'.repeat(16)}` })).toBe(false)
    expect(Value.Check(QuoteParams, { id: 'x'.repeat(64) })).toBe(true)
    expect(Value.Check(QuoteParams, { id: 'x'.repeat(65) })).toBe(false)
  })

  it('problem statuses are 400 to 599 and types are strings', () => {
    const base = { type: 'urn:x', title: 't', detail: 'd', code: 'NOT_FOUND', request_id: 'r' }
    expect(Value.Check(Problem, { ...base, status: 599 })).toBe(true)
    expect(Value.Check(Problem, { ...base, status: 399 })).toBe(false)
    expect(Value.Check(Problem, { ...base, status: 600 })).toBe(false)
    expect(Value.Check(Problem, { ...base, status: 404, type: 1 })).toBe(false)
  })

  it('plans and features are the named ones', () => {
    expect(Value.Check(PlanSchema, 'PRO')).toBe(true)
    expect(Value.Check(PlanSchema, 'GOLD')).toBe(false)
    expect(Value.Check(FeatureNameSchema, 'redact')).toBe(true)
    expect(Value.Check(FeatureNameSchema, 'translate')).toBe(false)
  })

  it('counts are non-negative integers and word lists hold distinct words', () => {
    const schema = Type.Object({ n: Count('n'), words: Words('w') })
    expect(Value.Check(schema, { n: 0, words: ['a', 'b'] })).toBe(true)
    expect(Value.Check(schema, { n: -1, words: [] })).toBe(false)
    expect(Value.Check(schema, { n: 1.5, words: [] })).toBe(false)
    expect(Value.Check(schema, { n: 1, words: ['a', 'a'] })).toBe(false)
    expect(Value.Check(schema, { n: 1, words: [1] })).toBe(false)
    expect((Count('how many') as { description?: string }).description).toBe('how many')
    expect((Words('which') as { description?: string }).description).toBe('which')
  })
})
