import { type DataInfoResponse, PLAN_LIMITS } from '@repo/contracts'
import type { KeyIdentity } from './api-keys.js'
import type { QuotaDecision } from './quota.js'
import { quotaBody } from './rate-limit-fields.js'

/** The body of GET /api/v1/data as an object (what the schema describes). */
export function dataInfo(
  identity: KeyIdentity,
  quota: QuotaDecision,
  previousUse: Date | undefined,
): DataInfoResponse {
  const limits = PLAN_LIMITS[identity.plan]
  return {
    user: {
      id: identity.userId,
      email: identity.email,
      plan: identity.plan,
      created_at: identity.userCreatedAt,
    },
    key: {
      id: identity.keyId,
      name: identity.keyName,
      prefix: identity.displayPrefix,
      created_at: identity.keyCreatedAt,
      last_used_at: previousUse?.toISOString() ?? identity.lastUsedAt,
    },
    quota: quotaBody(quota),
    features: [...limits.features],
    max_data_bytes: limits.maxDataBytes,
  }
}

/** What never changes for one cached identity: the JSON before and after `last_used_at`. */
interface Frame {
  head: string
  tail: string
}

const frames = new WeakMap<KeyIdentity, Frame>()

function frameOf(identity: KeyIdentity): Frame {
  let frame = frames.get(identity)
  if (frame === undefined) {
    const limits = PLAN_LIMITS[identity.plan]
    const whole = JSON.stringify(dataInfo(identity, PLACEHOLDER_QUOTA, undefined))
    const user = whole.slice(0, whole.indexOf(',"last_used_at":'))
    frame = {
      head: `${user},"last_used_at":`,
      tail: `,"features":${JSON.stringify(limits.features)},"max_data_bytes":${limits.maxDataBytes}}`,
    }
    frames.set(identity, frame)
  }
  return frame
}

// Only the JSON before `last_used_at` and after the quota is kept from the placeholder's body, so
// its values never reach an answer (mutating them changes nothing).
// Stryker disable all
const PLACEHOLDER_QUOTA: QuotaDecision = {
  allowed: true,
  limit: 0,
  used: 0,
  remaining: 0,
  resetsAtIso: '',
  resetSeconds: 0,
  degraded: false,
}
// Stryker restore all

/**
 * The same body as `JSON.stringify(dataInfo(...))`, byte for byte, built from parts kept per
 * cached identity: only `last_used_at` and the quota change between requests of one key. The
 * route's response schema (fast-json-stringify) checked the `last_used_at` union with Ajv on
 * every request; this answer is built from values the service made itself.
 */
export function dataInfoJson(
  identity: KeyIdentity,
  quota: QuotaDecision,
  previousUse: Date | undefined,
): string {
  const { head, tail } = frameOf(identity)
  const lastUsed = previousUse?.toISOString() ?? identity.lastUsedAt
  return (
    `${head}${lastUsed === null ? 'null' : `"${lastUsed}"`}},"quota":{"limit":${quota.limit},` +
    `"used":${quota.used},"remaining":${quota.remaining},"resets_at":"${quota.resetsAtIso}"}${tail}`
  )
}
