import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  USAGE_DEFAULT_DAYS,
  USAGE_MAX_DAYS,
  UsageQuery,
  UsageQueryDocumented,
  UsageResponse,
} from '@repo/contracts'
import { documentedAs, HttpProblem } from '@repo/service-kit'
import { addDays } from '../lib/clock.js'
import { quotaBody } from '../lib/rate-limit-fields.js'
import { commonErrors, problem, rateLimitHeaders } from './api-v1.js'

/**
 * GET /api/v1/usage: the calling key's own daily counts. Authenticated and counted like every
 * /api/v1 request (the spec counts every authenticated request), so today's count includes it.
 */
const apiV1Usage: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.addHook('onRequest', fastify.authenticateApiKey)

  fastify.get(
    '/api/v1/usage',
    {
      schema: {
        tags: ['data'],
        operationId: 'getUsage',
        summary: 'This key’s requests per UTC day, today included',
        description:
          `The last \`days\` UTC days (1-${USAGE_MAX_DAYS}, default ${USAGE_DEFAULT_DAYS}), oldest first: ` +
          'past days from the usage history, today live (this request included). The request ' +
          'is counted against the quota like any other.',
        security: [{ bearerAuth: [] }],
        querystring: UsageQuery,
        response: {
          200: { ...UsageResponse, headers: rateLimitHeaders },
          400: problem('`days` is not a whole number from 1 to 90, or the query is malformed'),
          ...commonErrors,
        },
      },
      // Validated as digits (no `1e1` or `0x10`), documented as the integer it is.
      config: { swaggerTransform: documentedAs({ querystring: UsageQueryDocumented }) },
    },
    async (request) => {
      const { identity, quota } = request.caller as NonNullable<typeof request.caller>
      const days = Number(request.query.days ?? USAGE_DEFAULT_DAYS)
      if (!Number.isInteger(days) || days < 1 || days > USAGE_MAX_DAYS) {
        throw new HttpProblem(
          'INVALID_REQUEST',
          `days must be a whole number from 1 to ${USAGE_MAX_DAYS}.`,
        )
      }
      const to = fastify.usageHistory.today()
      const from = addDays(to, 1 - days)
      // Today's count is the one this request's own check-and-count returned.
      const series = await fastify.usageHistory.series(
        [identity.keyId],
        from,
        to,
        new Map([[identity.keyId, quota.used]]),
      )
      const counts = series.perKey.get(identity.keyId) ?? []
      return {
        key: { id: identity.keyId, name: identity.keyName, prefix: identity.displayPrefix },
        from,
        to,
        days: series.days.map((date, i) => ({ date, requests: counts[i] ?? 0 })),
        total: counts.reduce((sum, n) => sum + n, 0),
        quota: quotaBody(quota),
      }
    },
  )
}

export default apiV1Usage
