import rateLimit from '@fastify/rate-limit'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { platformPlugin, requestAddressKey, sharedCounterStore } from '@repo/service-kit'
import { OPEN_API } from './api-description.js'
import { cookieSecureMode, type DataApiConfig } from './config.js'
import type { Clock } from './lib/clock.js'
import { packageRoot } from './paths.js'
import apiKeyAuth from './plugins/api-key-auth.js'
import featurePool from './plugins/feature-pool.js'
import housekeeping from './plugins/housekeeping.js'
import pageProblems from './plugins/page-problems.js'
import passwordStrength from './plugins/password-strength.js'
import services from './plugins/services.js'
import apiV1 from './routes/api-v1.js'
import apiV1Usage from './routes/api-v1-usage.js'
import dashboard from './routes/dashboard/index.js'

export interface AppOptions {
  config: DataApiConfig
  /** Tests pass a movable clock; production uses the system clock. */
  clock?: Clock
  /** Built only to describe the API (pnpm openapi): no store is connected, no timer started. */
  describeOnly?: boolean
}

/**
 * The data service as a plugin: it never listens (server.ts does), so tests build exactly this.
 * Order: external plugins, then the app's own, then routes.
 */
const app: FastifyPluginAsyncTypebox<AppOptions> = async (
  fastify,
  { config, clock, describeOnly = false },
) => {
  // Infrastructure (shared with quotes; see PlatformOptions)
  await fastify.register(platformPlugin, {
    name: 'data-api',
    config,
    root: packageRoot,
    openApi: OPEN_API,
    describeOnly,
    // Failing open, the service still answers without Redis: degraded, not unavailable.
    redisCritical: config.QUOTA_FAIL_MODE === 'closed',
  })
  // Throttles for sign-up and log-in (per route, per address; IPv6 per /64): counted in Redis
  // hit by hit, shared by replicas; in memory per instance while Redis is down.
  await fastify.register(rateLimit, {
    global: false,
    keyGenerator: requestAddressKey,
    store: sharedCounterStore(fastify.redis, {
      nameSpace: 'data-api:auth-rl:',
      maxLease: 1,
      state: fastify.redisState,
    }),
  })

  // The app's own
  await fastify.register(pageProblems)
  await fastify.register(services, {
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    maxActiveKeys: config.MAX_ACTIVE_KEYS,
    keyCacheTtlMs: config.KEY_CACHE_TTL_SECONDS * 1000,
    lastUsedFlushMs: config.LAST_USED_FLUSH_MS,
    quotaFailMode: config.QUOTA_FAIL_MODE,
    unauthorizedPerAddress: config.API_UNAUTHORIZED_PER_ADDRESS,
    describeOnly,
    ...(clock ? { clock } : {}),
  })
  await fastify.register(apiKeyAuth)
  await fastify.register(featurePool, {
    threads: describeOnly ? 1 : config.FEATURE_THREADS,
    idleTimeoutMs: config.FEATURE_THREAD_IDLE_MS,
    maxQueue: config.FEATURE_QUEUE_MAX,
    timeoutMs: config.FEATURE_TIMEOUT_MS,
    nice: config.FEATURE_THREAD_NICE,
  })
  await fastify.register(housekeeping, {
    intervalSeconds: describeOnly ? 0 : config.HOUSEKEEPING_INTERVAL_SECONDS,
  })
  await fastify.register(passwordStrength)

  // Routes
  await fastify.register(apiV1)
  await fastify.register(apiV1Usage)
  await fastify.register(dashboard, {
    // Describing the API signs nothing: a placeholder spares the look-up in Postgres.
    sessionSecret: describeOnly ? 'describe-only'.repeat(4) : config.SESSION_SECRET,
    cookieSecure: cookieSecureMode(config.COOKIE_SECURE),
    authPerAddress: config.AUTH_RATE_LIMIT_PER_ADDRESS,
    authPerAccount: config.AUTH_RATE_LIMIT_PER_ACCOUNT,
  })
}

export default app
