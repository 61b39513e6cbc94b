import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Problem } from '@repo/contracts'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { BaseConfig } from '../config.js'
import clientAddressPlugin from './client-address.js'
import healthPlugin, { type ReadinessCheck } from './health.js'
import metricsPlugin from './metrics.js'
import openApiPlugin, { type OpenApiPluginOptions } from './openapi.js'
import pagesPlugin from './pages.js'
import platformMetricsPlugin from './platform-metrics.js'
import postgresPlugin from './postgres.js'
import pressurePlugin from './pressure.js'
import problemPagesPlugin from './problem-pages.js'
import redisPlugin from './redis.js'
import requestLogPlugin from './request-log.js'
import responseHeadersPlugin from './response-headers.js'
import responsePipeline from './response-pipeline.js'

export interface PlatformOptions {
  /** The service's name, as Postgres shows its connections. */
  name: string
  config: BaseConfig
  /**
   * The app package's folder (`new URL('..', import.meta.url)` from its src/ or dist/): its
   * `views/` holds the templates, `public/` the assets served at /static/, `package.json` the
   * version the OpenAPI document shows.
   */
  root: URL
  /** The OpenAPI document's title, description and the app's own tags (the kit adds its own). */
  openApi: Omit<OpenApiPluginOptions, 'version'>
  /**
   * Whether the service is unavailable without Redis (readiness 503) or only degraded. Default
   * true.
   */
  redisCritical?: boolean
  /**
   * The app's own readiness checks, beside the kit's (load, postgres, redis): for example a
   * warm-up that must finish before the instance takes traffic. Probed lazily, per `/ready`.
   */
  readiness?: Record<string, ReadinessCheck>
  /**
   * Build the service only to describe it (its OpenAPI document): Postgres and Redis are never
   * connected to. See describeService.
   */
  describeOnly?: boolean
}

/**
 * What every service stands on, in a fixed order: the response pipeline, the client's address, response headers, metrics, the Postgres pool,
 * the Redis client, their metrics (build info, pool and connection state, problems by code), server-rendered pages, the OpenAPI document (before any route, so it sees
 * them all), the shared Problem schema and the /problems pages its `type`s point at, access logging and /health + /ready.
 */
const platform: FastifyPluginAsync<PlatformOptions> = async (fastify, opts) => {
  const { config } = opts
  await fastify.register(responsePipeline)
  await fastify.register(clientAddressPlugin)
  await fastify.register(responseHeadersPlugin)
  await fastify.register(metricsPlugin)
  await fastify.register(postgresPlugin, {
    connectionString: config.DATABASE_URL,
    max: config.PG_POOL_MAX,
    min: config.PG_POOL_MIN,
    applicationName: opts.name,
    connect: !opts.describeOnly,
  })
  await fastify.register(redisPlugin, {
    url: config.REDIS_URL,
    ...(config.REDIS_CLUSTER_NODES ? { clusterNodes: config.REDIS_CLUSTER_NODES } : {}),
    keyPrefix: config.REDIS_KEY_PREFIX,
    connect: !opts.describeOnly,
  })
  // Stryker disable next-line StringLiteral: JSON.parse reads a Buffer as well as a string
  const { version } = JSON.parse(readFileSync(new URL('package.json', opts.root), 'utf8'))
  await fastify.register(platformMetricsPlugin, { version })
  await fastify.register(pagesPlugin, {
    views: fileURLToPath(new URL('views', opts.root)),
    publicDir: fileURLToPath(new URL('public', opts.root)),
  })
  await fastify.register(openApiPlugin, {
    ...opts.openApi,
    version,
    // /health and /ready are the kit's (below).
    tags: [...opts.openApi.tags, { name: 'operations', description: 'Health, readiness' }],
  })
  fastify.addSchema(Problem)
  await fastify.register(problemPagesPlugin, { service: opts.openApi.title })
  await fastify.register(requestLogPlugin, { accessLog: config.ACCESS_LOG === 'on' })
  await fastify.register(pressurePlugin, {
    maxEventLoopDelayMs: config.MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedRatio: config.MAX_HEAP_USED_RATIO,
  })
  await fastify.register(healthPlugin, {
    timeoutMs: config.READY_CHECK_TIMEOUT_MS,
    checks: {
      // Under pressure (event loop lagging, heap near its limit), the instance takes no new work.
      load: {
        probe: async () => {
          if (fastify.isUnderPressure()) {
            const { eventLoopDelay, heapUsed } = fastify.memoryUsage()
            throw new Error(
              `under pressure: event loop delay ${eventLoopDelay} ms, heap ${heapUsed}`,
            )
          }
        },
      },
      postgres: {
        probe: async () => {
          // Stryker disable next-line StringLiteral: an empty query is a round trip to Postgres too
          await fastify.postgresState.track(fastify.pg.query('SELECT 1'))
        },
      },
      // Unset: critical, the health plugin's default.
      redis: { probe: () => fastify.redisReady(), critical: opts.redisCritical },
      ...opts.readiness,
    },
  })
}

export default fp(platform, { name: 'platform', fastify: '5.x' })
