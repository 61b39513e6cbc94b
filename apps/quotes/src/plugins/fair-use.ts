import rateLimit from '@fastify/rate-limit'
import { batchedRedisStore, HttpProblem } from '@repo/service-kit'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

export interface FairUseOptions {
  /** Requests per client address per window; 0 disables the ceiling. */
  max: number
  windowMs: number
}

/**
 * The hard ceiling per client address, shared across replicas through Redis. The published
 * policy asks for 100 requests a minute; this only stops abuse (default 1,000). Counts reach
 * Redis in batches every 100 ms (see batchedRedisStore), so the ceiling costs no round trip per
 * request; if Redis fails, each replica keeps limiting on its own.
 */
const fairUse: FastifyPluginAsync<FairUseOptions> = async (fastify, opts) => {
  if (opts.max === 0) {
    fastify.log.warn('per-client rate limit disabled (RATE_LIMIT_MAX=0)')
    return
  }
  const store = batchedRedisStore(fastify.redis, {
    nameSpace: 'quotes:rl:',
    onError: (error) => {
      fastify.dependencyErrors.inc({ dependency: 'redis' })
      fastify.log.warn({ err: error }, 'rate-limit counts not shared: redis unavailable')
    },
  })
  // Registered before Redis quits (hooks run in reverse order), so pending counts are sent.
  fastify.addHook('onClose', async () => store.close())
  await fastify.register(rateLimit, {
    global: true,
    max: opts.max,
    timeWindow: opts.windowMs,
    store: store.Store,
    // The limit headers go on refusals (with Retry-After); every other response stays lean.
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    errorResponseBuilder: (_request, context) =>
      new HttpProblem(
        'RATE_LIMITED',
        `Too many requests: at most ${context.max} per ${context.after} from one address. ` +
          'Please keep to 100 requests a minute.',
      ),
  })
}

export default fp(fairUse, {
  name: 'fair-use',
  fastify: '5.x',
  dependencies: ['redis', 'service-metrics'],
})
