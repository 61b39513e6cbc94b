import type { FastifyReply } from 'fastify'
import type { QuotaDecision } from './quota.js'

const DAY_SECONDS = 86_400

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the policy — a daily
 * quota of `q` requests over a window of a day — and what is left of it with the seconds until
 * it resets.
 */
export function setRateLimitFields(reply: FastifyReply, decision: QuotaDecision): void {
  reply.header('ratelimit-policy', `"daily";q=${decision.limit};w=${DAY_SECONDS}`)
  reply.header('ratelimit', `"daily";r=${decision.remaining};t=${decision.resetSeconds}`)
}

export function quotaBody(decision: QuotaDecision) {
  return {
    limit: decision.limit,
    used: decision.used,
    remaining: decision.remaining,
    resets_at: decision.resetsAtIso,
  }
}
