import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import client from 'prom-client'
import { RequestDurations } from '../request-durations.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts failures talking to Postgres or Redis, by dependency. */
    dependencyErrors: client.Counter<'dependency'>
    /** 1 while a dependency answers, 0 while it is down (as the service last saw it). */
    dependencyUp: client.Gauge<'dependency'>
    promRegistry: client.Registry
  }
}

/** The route label of requests no route matched. */
const UNMATCHED = '__unmatched'

/**
 * Prometheus metrics at /metrics (prom-client, with its default process metrics): request
 * counts and latency histograms by route and status, and a dependency-error counter.
 * Each app gets its own registry so several apps in one process (tests) do not collide.
 */
const metricsPlugin: FastifyPluginAsync = async (fastify) => {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  fastify.get(
    '/metrics',
    { schema: { hide: true }, config: { rateLimit: false } },
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  )
  const dependencyErrors = new client.Counter({
    name: 'dependency_errors_total',
    help: 'Failed calls to a backing service',
    labelNames: ['dependency'] as const,
    registers: [registry],
  })
  fastify.decorate('dependencyErrors', dependencyErrors)
  fastify.decorate(
    'dependencyUp',
    new client.Gauge({
      name: 'dependency_up',
      help: 'Whether a backing service answers (1) or not (0), as this instance last saw it',
      labelNames: ['dependency'] as const,
      registers: [registry],
    }),
  )
  fastify.decorate('promRegistry', registry)

  // Request counts and latencies by method, route pattern and status, one observation per
  // response. Requests no route matched share one label (raw URLs would make a series each);
  // the operations endpoints are left out.
  const durations = new RequestDurations()
  registry.registerMetric(durations as never)
  const skipped = new Set(['/metrics', '/health', '/ready'])
  fastify.afterEveryResponse((request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED
    if (!skipped.has(route)) {
      durations.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000)
    }
  })
}

export default fp(metricsPlugin, {
  name: 'service-metrics',
  fastify: '5.x',
  dependencies: ['response-pipeline'],
})
