import { describe, expect, it } from 'vitest'
import { HttpProblem } from '../src/errors.js'
import { classifyError } from '../src/plugins/problems.js'

function fastifyError(props: Record<string, unknown>): Error {
  return Object.assign(new Error(String(props.message ?? 'x')), props)
}

describe('classifyError', () => {
  it('keeps an HttpProblem as thrown, with its headers and extra members', () => {
    const problem = new HttpProblem('QUOTA_EXCEEDED', 'used up', {
      extra: { limit: 1000 },
      headers: { 'retry-after': '60' },
    })
    expect(classifyError(problem)).toEqual({
      code: 'QUOTA_EXCEEDED',
      status: 429,
      detail: 'used up',
      extra: { limit: 1000 },
      headers: { 'retry-after': '60' },
    })
  })

  it('maps validation and body-parser errors to 4xx codes', () => {
    expect(
      classifyError(fastifyError({ validation: [{}], message: 'body/x must be string' })),
    ).toMatchObject({
      code: 'INVALID_REQUEST',
      status: 400,
      detail: 'body/x must be string',
    })
    expect(
      classifyError(fastifyError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })).code,
    ).toBe('PAYLOAD_TOO_LARGE')
    expect(
      classifyError(fastifyError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 })).code,
    ).toBe('UNSUPPORTED_MEDIA_TYPE')
    expect(
      classifyError(fastifyError({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 })),
    ).toMatchObject({
      code: 'INVALID_REQUEST',
      detail: 'The body is not valid JSON.',
    })
  })

  it('never leaks the details of a server error', () => {
    const classified = classifyError(new Error('connection to 10.0.0.5 refused, password=hunter2'))
    expect(classified).toEqual({
      code: 'INTERNAL_ERROR',
      status: 500,
      detail: 'An unexpected error occurred.',
    })
  })
})
