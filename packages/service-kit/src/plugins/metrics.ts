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
 * Prometheus metrics at /metrics: request counts and latency histograms by route and status
 * (fastify-metrics), process metrics, and a dependency-error counter services increment.
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
    routeMetrics: {
      // Summaries compute quantiles on every observation; histograms are cheap and aggregatable.
      enabled: { histogram: true, summary: false },
      registeredRoutesOnly: true,
      groupStatusCodes: false,
      routeBlacklist: ['/metrics', '/health', '/ready'],
      overrides: {
        histogram: {
          buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
          registers: [registry],
        },
        // Disabled above, but fastify-metrics still creates it: keep it out of every registry.
        summary: { registers: [] },
      },
    },
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
}

export default fp(metricsPlugin, { name: 'service-metrics', fastify: '5.x' })
