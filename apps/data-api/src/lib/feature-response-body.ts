import type { FeatureName } from '@repo/contracts'
import type { QuotaDecision } from './quota.js'
import { quotaBody } from './rate-limit-fields.js'

/**
 * The body of POST /api/v1/data's 200, `{"feature":…,"result":…,"quota":…}`, put together around
 * the result's JSON bytes as a feature thread made them (features/task-runner.ts, resultJson):
 * the bytes JSON.stringify of the whole answer gives, without rebuilding or writing the result
 * on the service's thread.
 */
export function featureResponseBody(
  feature: FeatureName,
  resultJson: Uint8Array,
  quota: QuotaDecision,
): Buffer {
  return Buffer.concat([
    Buffer.from(`{"feature":${JSON.stringify(feature)},"result":`),
    resultJson,
    Buffer.from(`,"quota":${JSON.stringify(quotaBody(quota))}}`),
  ])
}
