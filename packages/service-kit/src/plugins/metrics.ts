import type { FastifyPluginAsync, FastifyPluginCallback } from 'fastify'
import fastifyMetricsModule from 'fastify-metrics'
import fp from 'fastify-plugin'
import client from 'prom-client'

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts failures talking to Postgres or Redis, by dependency. */
    dependencyErrors: client.Counter<'dependency'>
    promRegistry: client.Registry
  }
}

/**
 * Prometheus metrics at /metrics (served by fastify-metrics, with process metrics): request
 * counts and latency histograms by route and status, and a dependency-error counter.
 * Each app gets its own registry so several apps in one process (tests) do not collide.
 */
// fastify-metrics is CommonJS with an ES-style default export.
const fastifyMetrics = ((fastifyMetricsModule as unknown as { default?: unknown }).default ??
  fastifyMetricsModule) as unknown as FastifyPluginCallback<Record<string, unknown>>

const metricsPlugin: FastifyPluginAsync = async (fastify) => {
  const registry = new client.Registry()
  await fastify.register(fastifyMetrics, {
    endpoint: {
      url: '/metrics',
      method: 'GET',
      config: { rateLimit: false },
      schema: { hide: true },
    } as never,
    name: 'metrics',
    promClient: { ...client, register: registry } as never,
    defaultMetrics: { enabled: true, register: registry },
    // Route metrics are recorded below, more cheaply than fastify-metrics' per-request timers.
    routeMetrics: { enabled: false },
    clearRegisterOnInit: false,
  })
  const dependencyErrors = new client.Counter({
    name: 'dependency_errors_total',
    help: 'Failed calls to a backing service',
    labelNames: ['dependency'] as const,
    registers: [registry],
  })
  fastify.decorate('dependencyErrors', dependencyErrors)
  fastify.decorate('promRegistry', registry)

  // Request counts and latencies by method, route pattern and status: one observation per
  // response, with the labelled child looked up once per distinct combination. Unknown routes
  // (404s without a route) and the operations endpoints are not recorded.
  const durations = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Request duration in seconds, by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  })
  const skipped = new Set(['/metrics', '/health', '/ready'])
  const children = new Map<string, client.Histogram.Internal<'method' | 'route' | 'status_code'>>()
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url
    if (route !== undefined && !skipped.has(route)) {
      const key = `${request.method} ${reply.statusCode} ${route}`
      let child = children.get(key)
      if (child === undefined) {
        child = durations.labels(request.method, route, String(reply.statusCode))
        children.set(key, child)
      }
      child.observe(reply.elapsedTime / 1000)
    }
    done()
  })
}

export default fp(metricsPlugin, { name: 'service-metrics', fastify: '5.x' })
