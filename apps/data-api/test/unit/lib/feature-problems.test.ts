import { describe, expect, it } from 'vitest'
import { FeatureOptionsError } from '../../../src/features/options.js'
import {
  FeatureGivenUpError,
  FeatureTimeoutError,
  PoolOverloadedError,
} from '../../../src/features/pool.js'
import { featureProblem } from '../../../src/lib/feature-problems.js'
import { ClientGoneError } from '../../../src/lib/feature-slots.js'

describe('what a failed feature call answers', () => {
  it("makes invalid options the client's 400, counted", () => {
    const outcome = featureProblem(new FeatureOptionsError('options.limit must be at most 50'))
    expect(outcome?.refund).toBe(false)
    expect(outcome?.problem).toMatchObject({
      code: 'INVALID_REQUEST',
      statusCode: 400,
      message: 'options.limit must be at most 50',
    })
  })

  it.each([
    {
      when: 'before its call reached the pool',
      error: new ClientGoneError(),
      message: 'The connection closed before the feature started; nothing was run.',
    },
    {
      when: 'while its call waited for a thread',
      error: new FeatureGivenUpError('The stats call was given up before a worker started it.'),
      message: 'The stats call was given up before a worker started it.',
    },
  ])('answers a client that went away $when with a 400, counted', ({ error, message }) => {
    const outcome = featureProblem(error)
    expect(outcome?.refund).toBe(false)
    expect(outcome?.problem).toMatchObject({ code: 'INVALID_REQUEST', statusCode: 400, message })
  })

  it.each([
    {
      why: 'a call past its budget 503 FEATURE_TIMEOUT, retry in 5 s',
      error: new FeatureTimeoutError('The stats feature did not finish within 5000 ms.'),
      code: 'FEATURE_TIMEOUT',
      message:
        'The stats feature did not finish within 5000 ms. It was stopped and not counted against your quota; retry, or send a smaller text.',
      retryAfter: '5',
    },
    {
      why: 'a full pool 503 OVERLOADED, retry in 2 s',
      error: new PoolOverloadedError('full'),
      code: 'OVERLOADED',
      message:
        'Every feature worker is busy and the queue is full; not counted against your quota: retry shortly.',
      retryAfter: '2',
    },
  ])('answers $why, given back to the quota', ({ error, code, message, retryAfter }) => {
    const outcome = featureProblem(error)
    expect(outcome?.refund).toBe(true)
    expect(outcome?.problem).toMatchObject({
      code,
      statusCode: 503,
      message,
      headers: { 'retry-after': retryAfter },
    })
  })

  it('leaves any other error to the error handler', () => {
    expect(featureProblem(new Error('bug'))).toBeUndefined()
    expect(featureProblem('not even an error')).toBeUndefined()
  })
})
