import { describe, expect, it } from 'vitest'
import { resultJson } from '../../../src/features/task-runner.js'
import { featureResponseBody } from '../../../src/lib/feature-response-body.js'
import type { QuotaDecision } from '../../../src/lib/quota.js'
import { quotaBody } from '../../../src/lib/rate-limit-fields.js'

/*
 * POST /api/v1/data's answer, put together around the result's JSON bytes from a feature thread:
 * the bytes JSON.stringify of the whole answer gives.
 */

const quota: QuotaDecision = {
  allowed: true,
  limit: 10_000,
  used: 12,
  remaining: 9_988,
  resetsAtIso: '2026-12-01T00:00:00.000Z',
  resetSeconds: 3_600,
  degraded: false,
}

describe('the feature answer', () => {
  it.each([
    ['stats', { words: 3, sentences: 1, average_word_length: 4.5 }],
    ['redact', { text: 'Ünïcödé “quoted” \ud800 a\ttab "and" \\ #####', counts: { emails: 1 } }],
  ] as const)(
    'of %s is JSON.stringify of feature, result and quota, in that order',
    (feature, result) => {
      const body = featureResponseBody(feature, resultJson(result), quota)
      expect(body.toString('utf8')).toBe(
        JSON.stringify({ feature, result, quota: quotaBody(quota) }),
      )
      expect(JSON.parse(body.toString('utf8'))).toEqual({
        feature,
        result,
        quota: quotaBody(quota),
      })
    },
  )
})
