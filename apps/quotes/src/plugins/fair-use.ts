import rateLimit from '@fastify/rate-limit'
import { HttpProblem, requestAddressKey, sharedCounterStore } from '@repo/service-kit'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

export interface FairUseOptions {
  /** Requests per client address per window; 0 disables the ceiling. */
  max: number
  windowMs: number
}

/**
 * The hard ceiling per client address (IPv6 clients per /64), exact across replicas through
 * Redis. The published policy asks for 100 requests a minute; this only stops abuse (default
 * 1,000). Each replica reserves hits from the shared count in batches (see sharedCounterStore), so
 * the ceiling costs no Redis round trip per request; if Redis fails, each replica keeps limiting
 * on its own.
 */
const fairUse: FastifyPluginAsync<FairUseOptions> = async (fastify, opts) => {
  if (opts.max === 0) {
    fastify.log.warn('per-client rate limit disabled (RATE_LIMIT_MAX=0)')
    return
  }
  await fastify.register(rateLimit, {
    global: true,
    max: opts.max,
    timeWindow: opts.windowMs,
    // The plugin's own key (IPv6 per /64), made once per address instead of once per request.
    keyGenerator: requestAddressKey,
    store: sharedCounterStore(fastify.redis, {
      nameSpace: 'quotes:rl:',
      maxLease: 64,
      state: fastify.redisState,
    }),
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
  dependencies: ['redis', 'service-metrics', 'client-address'],
})
