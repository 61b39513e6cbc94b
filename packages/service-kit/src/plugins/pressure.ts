import { getHeapStatistics } from 'node:v8'
import underPressure from '@fastify/under-pressure'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { HttpProblem } from '../errors.js'

export interface PressureOptions {
  /** Event-loop delay (ms) past which the instance refuses new work. */
  maxEventLoopDelayMs: number
  /** Share of V8's heap limit past which the instance refuses new work. */
  maxHeapUsedRatio: number
  /** How often the event loop and the heap are sampled (default 1 s). */
  sampleIntervalMs?: number
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Why the instance is under pressure right now, or undefined (see the plugin). */
    pressure: () => string | undefined
  }
}

// What must answer even under pressure: the operations endpoints (load balancers and scrapers).
const EXEMPT = new Set(['/health', '/ready', '/metrics'])

/**
 * @fastify/under-pressure: when the event loop lags or the heap nears its limit, new requests get
 * 503 SERVICE_UNAVAILABLE with Retry-After (in the service's problem format), and /ready says the
 * instance cannot serve, so load balancers back off until it recovers.
 */
const pressure: FastifyPluginAsync<PressureOptions> = async (fastify, opts) => {
  const maxHeapUsedBytes = Math.floor(getHeapStatistics().heap_size_limit * opts.maxHeapUsedRatio)
  // under-pressure reports an infinite delay when the last interval had no sample at all (the loop
  // was blocked for all of it, as at start-up while modules load): the request being handled shows
  // the loop runs again, so only a measured delay counts. A lasting lag is measured, not infinite.
  const reason = (): string | undefined => {
    const { eventLoopDelay, heapUsed } = fastify.memoryUsage()
    if (Number.isFinite(eventLoopDelay) && eventLoopDelay > opts.maxEventLoopDelayMs) {
      return 'eventLoopDelay'
    }
    if (heapUsed > maxHeapUsedBytes) return 'heapUsedBytes'
    return undefined
  }
  await fastify.register(underPressure, {
    maxEventLoopDelay: opts.maxEventLoopDelayMs,
    maxHeapUsedBytes,
    retryAfter: 10,
    ...(opts.sampleIntervalMs ? { sampleInterval: opts.sampleIntervalMs } : {}),
    pressureHandler: (request) => {
      if (request.routeOptions.url !== undefined && EXEMPT.has(request.routeOptions.url)) return
      const type = reason()
      if (type === undefined) return
      return Promise.reject(
        new HttpProblem(
          'SERVICE_UNAVAILABLE',
          'This instance is overloaded right now; retry shortly.',
          { headers: { 'retry-after': '10' }, extra: { reason: type } },
        ),
      )
    },
  })
  fastify.decorate('pressure', reason)
}

export default fp(pressure, { name: 'pressure', fastify: '5.x' })
