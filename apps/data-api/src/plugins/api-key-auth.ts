import { PLAN_LIMITS } from '@repo/contracts'
import { HttpProblem } from '@repo/service-kit'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { isWellFormedApiKey } from '../lib/api-key.js'
import type { KeyIdentity } from '../lib/api-keys.js'
import { RequestSlot } from '../lib/feature-slots.js'
import { type QuotaDecision, QuotaUnavailableError } from '../lib/quota.js'
import { setRateLimitFields } from '../lib/rate-limit-fields.js'

export interface ApiCaller {
  identity: KeyIdentity
  quota: QuotaDecision
  /** When this key was used before this request, if this instance saw it (else identity.lastUsedAt). */
  previousUse: Date | undefined
  /** A feature request's (POST) slot among its key's: feature work runs holding it. */
  slot?: RequestSlot
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for /api/v1: authenticates the bearer key and counts the request. */
    authenticateApiKey: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
  }
  interface FastifyRequest {
    caller: ApiCaller | null
  }
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i

function unauthorized(detail: string, error?: 'invalid_request' | 'invalid_token'): HttpProblem {
  // RFC 6750: the challenge names the scheme, and the error when a credential was sent.
  const challenge = error ? `Bearer realm="data-api", error="${error}"` : 'Bearer realm="data-api"'
  return new HttpProblem('UNAUTHORIZED', detail, { headers: { 'www-authenticate': challenge } })
}

function keyExpired(expiresAtMs: number): HttpProblem {
  const at = new Date(expiresAtMs).toISOString()
  return new HttpProblem(
    'KEY_EXPIRED',
    `This API key expired at ${at}. Use its replacement, or create a new key in the dashboard.`,
    {
      extra: { expired_at: at },
      headers: {
        'www-authenticate': `Bearer realm="data-api", error="invalid_token", error_description="The API key has expired"`,
      },
    },
  )
}

/**
 * Authentication and quota for every /api/v1 request, in this order:
 * 1. the key's shape and checksum (no I/O), 2. the key's identity (memory, else Postgres) and
 * its expiry, 3. one atomic check-and-count in Redis. Refused requests (401, 429) are not counted.
 */
const apiKeyAuth: FastifyPluginAsync = async (fastify) => {
  fastify.decorateRequest('caller', null)
  // Labelled counters resolved once: looking labels up per request costs more than counting.
  const decisions = {
    allowed: fastify.quotaDecisions.labels('allowed'),
    allowedDegraded: fastify.quotaDecisions.labels('allowed_degraded'),
    refused: fastify.quotaDecisions.labels('refused'),
    unavailable: fastify.quotaDecisions.labels('unavailable'),
  }

  /** The identity of a key this instance does not know yet, or a 401. */
  async function identifyUnknown(header: string | undefined, key: string | undefined) {
    if (header === undefined || header === '') {
      throw unauthorized('Send your API key in the header Authorization: Bearer <key>.')
    }
    if (key === undefined) {
      throw unauthorized('The Authorization header must read "Bearer <key>".', 'invalid_request')
    }
    // Check its shape and checksum (no I/O) before asking Postgres.
    if (!isWellFormedApiKey(key)) {
      throw unauthorized('This is not a valid API key: check it was copied whole.', 'invalid_token')
    }
    const identity = await fastify.keyCache.load(key)
    if (!identity) {
      throw unauthorized('This API key is unknown or has been revoked.', 'invalid_token')
    }
    return identity
  }

  fastify.decorate('authenticateApiKey', async (request: FastifyRequest, reply: FastifyReply) => {
    // Answers about a key and its quota are never to be stored by anyone.
    reply.header('cache-control', 'no-store')
    const header = request.headers.authorization
    const key = header === undefined ? undefined : BEARER.exec(header)?.[1]
    let identity: KeyIdentity | undefined =
      key === undefined ? undefined : fastify.keyCache.peek(key)
    if (identity === undefined) {
      const wait = fastify.unauthorizedLimiter.wait(request.clientAddress)
      if (wait > 0) {
        throw new HttpProblem(
          'RATE_LIMITED',
          'Too many requests with a missing or unknown key from your address; wait before trying again.',
          { headers: { 'retry-after': String(wait) } },
        )
      }
      try {
        identity = await identifyUnknown(header, key)
      } catch (error) {
        if (error instanceof HttpProblem && error.code === 'UNAUTHORIZED') {
          await fastify.unauthorizedLimiter.refused(request.clientAddress)
        }
        throw error
      }
    }

    // Cached identities carry their expiry: checked on every request, on every instance.
    if (identity.expiresAtMs !== null && identity.expiresAtMs <= fastify.clock().getTime()) {
      await fastify.unauthorizedLimiter.refused(request.clientAddress)
      throw keyExpired(identity.expiresAtMs)
    }

    // Rides along in the cached identity; disabling evicts it on every instance (pub/sub).
    if (identity.accountDisabled) {
      throw new HttpProblem(
        'ACCOUNT_DISABLED',
        'The account this key belongs to has been disabled by an administrator; contact support.',
      )
    }

    const limits = PLAN_LIMITS[identity.plan]
    let slot: RequestSlot | undefined
    if (request.method === 'POST') {
      // A feature request holds one of the key's slots until its answer is sent or its client
      // went away, and its feature has left the pool (RequestSlot); without a free slot it is
      // refused before it is counted or its body read.
      const release = fastify.featureSlots.take(identity.keyId, limits.concurrentRequests)
      if (!release) {
        throw new HttpProblem(
          'CONCURRENCY_LIMIT',
          `This key already has ${limits.concurrentRequests} feature requests running (${identity.plan} plan); send the next when one has finished.`,
          { extra: { limit: limits.concurrentRequests }, headers: { 'retry-after': '1' } },
        )
      }
      slot = new RequestSlot(release)
      slot.closeWith(reply.raw)
    }

    let quota: QuotaDecision
    try {
      quota = await fastify.quota.consume(identity.keyId, limits.dailyRequests)
    } catch (error) {
      if (!(error instanceof QuotaUnavailableError)) throw error
      decisions.unavailable.inc()
      throw new HttpProblem(
        'SERVICE_UNAVAILABLE',
        'Quotas cannot be checked right now; retry shortly.',
        {
          headers: { 'retry-after': '5' },
        },
      )
    }
    setRateLimitFields(reply, quota)
    if (!quota.allowed) {
      decisions.refused.inc()
      throw new HttpProblem(
        'QUOTA_EXCEEDED',
        `This key has used its ${quota.limit.toLocaleString('en')} requests for today (${identity.plan} plan). ` +
          `The quota resets at ${quota.resetsAtIso}.`,
        {
          extra: { limit: quota.limit, used: quota.used, resets_at: quota.resetsAtIso },
          headers: { 'retry-after': String(quota.resetSeconds) },
        },
      )
    }
    if (quota.degraded) decisions.allowedDegraded.inc()
    else decisions.allowed.inc()
    request.caller = {
      identity,
      quota,
      previousUse: fastify.lastUsed.note(identity.keyId, fastify.clock()),
      ...(slot ? { slot } : {}),
    }
  })
}

export default fp(apiKeyAuth, {
  name: 'api-key-auth',
  fastify: '5.x',
  dependencies: ['data-services'],
})
