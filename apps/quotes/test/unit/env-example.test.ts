import { envExampleProblems } from '@repo/service-kit/testing'
import { describe, expect, it } from 'vitest'
import { QuotesConfigSchema } from '../../src/config.js'

describe('.env.example', () => {
  it('lists every setting of quotes with its default', () => {
    const path = new URL('../../../../.env.example', import.meta.url).pathname
    expect(envExampleProblems(QuotesConfigSchema, 'quotes', path)).toEqual([])
  })
})
