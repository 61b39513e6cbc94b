import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  cheapestPlanWith,
  DataInfoResponse,
  DataRequestBody,
  DataRequestBodyDocumented,
  DataResponse,
  DataResponseDocumented,
  FEATURES,
  type FeatureName,
  PLAN_LIMITS,
  PLANS,
  type Plan,
} from '@repo/contracts'
import { documentedAs, HttpProblem } from '@repo/service-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { DataApart } from '../features/body-task.js'
import { dataInfoJson } from '../lib/data-info-body.js'
import { featureProblem } from '../lib/feature-problems.js'
import { featureResponseBody } from '../lib/feature-response-body.js'
import { bodyAllowance, LargeJsonBody, readingValue, readJsonBody } from '../lib/json-body.js'
import { setRateLimitFields } from '../lib/rate-limit-fields.js'

export const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
})

export const rateLimitHeaders = {
  RateLimit: Type.String({ description: '"daily";r=<remaining>;t=<seconds until reset>' }),
  'RateLimit-Policy': Type.String({ description: '"daily";q=<daily limit>;w=86400' }),
}

export const commonErrors = {
  401: problem(
    'Missing, malformed, unknown or revoked key (UNAUTHORIZED), or an expired one (KEY_EXPIRED); with WWW-Authenticate: Bearer',
  ),
  403: problem('The account of the key has been disabled by an administrator (ACCOUNT_DISABLED)'),
  429: problem(
    "The key's daily quota is used up, or (POST) too many feature requests of this key are running, or too many 401s from your address; with Retry-After; not counted",
  ),
  503: problem(
    'Postgres or (QUOTA_FAIL_MODE=closed) Redis down; or (POST) the feature, or the reading of a body over 64 KB, passed its time budget (FEATURE_TIMEOUT) or the worker pool is full (OVERLOADED), not counted; with Retry-After',
  ),
}

/** What any body may be, whatever the plan (the largest plan's allowance). */
const BODY_ALLOWANCE = Object.fromEntries(
  PLANS.map((plan) => [plan, bodyAllowance(PLAN_LIMITS[plan].maxDataBytes)]),
) as Record<Plan, number>
const LARGEST_BODY = Math.max(...Object.values(BODY_ALLOWANCE))

const JSON_TYPE = 'application/json; charset=utf-8'

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text)

/**
 * A large body's `data`, set apart by its reading on a feature thread (features/body-task.ts): its
 * UTF-16 code units, handed on to the feature's call unread, and its size in UTF-8. Keyed by the
 * body's value, whose `data` is empty.
 */
const setApart = new WeakMap<object, DataApart>()

/**
 * Runs work in the feature pool holding the request's slot (every POST holds one: api-key-auth).
 * A pool's refusal becomes its problem (featureProblem), and the request is given back to the
 * key's quota when that says so.
 */
async function inPool<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (gone: AbortSignal) => Promise<T>,
): Promise<T> {
  const { identity, quota, slot } = request.caller as Required<NonNullable<typeof request.caller>>
  try {
    return await slot.hold(work)
  } catch (error) {
    const failed = featureProblem(error)
    if (!failed) throw error
    if (failed.refund) {
      await request.server.quota.refund(identity.keyId)
      setRateLimitFields(reply, { ...quota, remaining: quota.remaining + 1 })
    }
    throw failed.problem
  }
}

/** /api/v1: the keyed API. Every request is authenticated and counted before anything else. */
const apiV1: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.addHook('onRequest', fastify.authenticateApiKey)
  // JSON only: Fastify would otherwise read text/plain bodies as strings (a 400, not a 415).
  // And JSON read within the caller's plan allowance, judged before the body is read (the key is
  // known by then: authentication runs first).
  fastify.removeContentTypeParser(['text/plain', 'application/json'])
  fastify.addContentTypeParser('application/json', (request, payload, done) => {
    const plan = request.caller?.identity.plan
    const limit = plan ? BODY_ALLOWANCE[plan] : LARGEST_BODY
    readJsonBody(payload, limit).then(
      (body) => done(null, body),
      (error: Error) => done(error, undefined),
    )
  })

  fastify.get(
    '/api/v1/data',
    {
      schema: {
        tags: ['data'],
        operationId: 'getData',
        summary: 'Who you are: your account, this key, its quota today and your plan’s features',
        security: [{ bearerAuth: [] }],
        response: {
          200: { ...DataInfoResponse, headers: rateLimitHeaders },
          ...commonErrors,
        },
      },
    },
    (request, reply) => {
      const { identity, quota, previousUse } = request.caller as NonNullable<typeof request.caller>
      // Sent as built (see dataInfoJson): the same bytes the schema's serializer made, cheaper.
      return reply.type(JSON_TYPE).send(dataInfoJson(identity, quota, previousUse))
    },
  )

  fastify.post(
    '/api/v1/data',
    {
      bodyLimit: LARGEST_BODY,
      schema: {
        tags: ['data'],
        operationId: 'runFeature',
        summary: 'Run a feature on your text',
        description:
          'Body: `{ "data": "<text>", "options": { "feature": "<name>", ... } }`. The plan decides ' +
          'which features are allowed and how large `data` may be (UTF-8 bytes).',
        security: [{ bearerAuth: [] }],
        body: DataRequestBody,
        response: {
          // First: this route's 403 says more than the common one.
          ...commonErrors,
          200: { ...DataResponse, headers: rateLimitHeaders },
          400: problem('Invalid body, unknown feature (lists the allowed ones) or invalid options'),
          403: problem(
            'The feature is not in your plan (FEATURE_NOT_IN_PLAN, names the plan that has it), or the account has been disabled (ACCOUNT_DISABLED)',
          ),
          413: problem(
            '`data` is larger than your plan allows, or the body is larger than twice that plus 64 KB (refused before it is read)',
          ),
          415: problem('The body is not application/json'),
        },
      },
      // A large body is read on a feature thread (json-body.ts), then validated as any other.
      preValidation: async (request, reply) => {
        const body: unknown = request.body
        if (!(body instanceof LargeJsonBody)) return
        const reading = await inPool(request, reply, (gone) =>
          fastify.featurePool.readBody(body.bytes, gone),
        )
        const { value, apart } = readingValue(reading)
        request.body = value as typeof request.body
        if (apart) setApart.set(value as object, apart)
      },
      // Validated in two steps (a known `feature` first, for a clear error; then its options),
      // documented as the oneOf it amounts to.
      config: {
        swaggerTransform: documentedAs({
          body: DataRequestBodyDocumented,
          response: { 200: { ...DataResponseDocumented, headers: rateLimitHeaders } },
        }),
      },
    },
    async (request, reply) => {
      const { identity, quota } = request.caller as NonNullable<typeof request.caller>
      const limits = PLAN_LIMITS[identity.plan]
      const { data, options } = request.body
      const feature = options.feature as FeatureName
      if (!FEATURES.includes(feature)) {
        throw new HttpProblem(
          'UNKNOWN_FEATURE',
          `There is no feature "${clip(String(options.feature))}". Choose one of: ${FEATURES.join(', ')}.`,
          { extra: { allowed: [...FEATURES], allowed_by_plan: [...limits.features] } },
        )
      }
      if (!limits.features.includes(feature)) {
        const required = cheapestPlanWith(feature)
        throw new HttpProblem(
          'FEATURE_NOT_IN_PLAN',
          `The ${feature} feature is not in the ${identity.plan} plan; it comes with ${required}.`,
          { extra: { feature, plan: identity.plan, required_plan: required } },
        )
      }
      // A large body's `data`, read on a feature thread (preValidation), is still code units.
      const apart = setApart.get(request.body)
      const bytes = apart?.dataBytes ?? Buffer.byteLength(data, 'utf8')
      if (bytes > limits.maxDataBytes) {
        throw new HttpProblem(
          'PAYLOAD_TOO_LARGE',
          `data is ${bytes.toLocaleString('en')} bytes; the ${identity.plan} plan accepts up to ${limits.maxDataBytes.toLocaleString('en')}.`,
          {
            extra: { data_bytes: bytes, max_data_bytes: limits.maxDataBytes, plan: identity.plan },
          },
        )
      }
      // A client that leaves while its call waits for a thread has it given up (not run).
      const result = await inPool(request, reply, (gone) =>
        fastify.featurePool.runJson(feature, apart?.units ?? data, options, gone),
      )
      // The result as JSON, made on the feature thread; the schemas of the union are not tried.
      return reply.type(JSON_TYPE).send(featureResponseBody(feature, result, quota))
    },
  )
}

export default apiV1
