import { envExampleProblems } from '@repo/service-kit/testing'
import { describe, expect, it } from 'vitest'
import { DataApiConfigSchema } from '../../src/config.js'

describe('.env.example', () => {
  it('lists every setting of data-api with its default', () => {
    const path = new URL('../../../../.env.example', import.meta.url).pathname
    expect(envExampleProblems(DataApiConfigSchema, 'data-api', path)).toEqual([])
  })
})
