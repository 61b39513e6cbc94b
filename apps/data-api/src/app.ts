import { readFileSync } from 'node:fs'
import rateLimit from '@fastify/rate-limit'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { platformPlugin, sharedCounterStore } from '@repo/service-kit'
import { cookieSecureMode, type DataApiConfig } from './config.js'
import type { Clock } from './lib/clock.js'
import { paths } from './paths.js'
import apiKeyAuth from './plugins/api-key-auth.js'
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
}

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

const API_DESCRIPTION = `
Text analysis behind API keys. Sign up and create keys in the dashboard (\`/signup\`), then send
\`Authorization: Bearer <key>\` with every request.

**Plans and quotas.** FREE: 1,000 requests per key per UTC day, texts up to 10 KB, \`stats\` and
\`sentiment\`. PRO: 10,000, 100 KB, adds \`keywords\` and \`language\`. ENTERPRISE: 100,000, 1 MB,
adds \`entities\`, \`summary\` and \`redact\`. Every authenticated request counts (also 400, 403,
413); refused ones (401, 429) do not. Counts reset at midnight UTC. A plan change applies to the
next request.

**Headers.** Authenticated responses carry \`RateLimit-Policy: "daily";q=<limit>;w=86400\` and
\`RateLimit: "daily";r=<remaining>;t=<seconds to reset>\`; a 429 adds \`Retry-After\`.

**Errors** are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`:
INVALID_REQUEST and UNKNOWN_FEATURE (400), UNAUTHORIZED and KEY_EXPIRED (401, with
\`WWW-Authenticate: Bearer\`),
FEATURE_NOT_IN_PLAN (403), PAYLOAD_TOO_LARGE (413), UNSUPPORTED_MEDIA_TYPE (415),
QUOTA_EXCEEDED (429), SERVICE_UNAVAILABLE (503), INTERNAL_ERROR (500).

**Keys** may expire (chosen at creation, or after a roll's grace period): an expired key answers
401 KEY_EXPIRED. \`GET /api/v1/usage?days=N\` gives the key's own daily counts (it is counted too).

**Availability.** If Redis cannot count a request the service keeps serving (fail open) unless
configured to refuse (503).
`.trim()

/**
 * The data service as a plugin: it never listens (server.ts does), so tests build exactly this.
 * Order: external plugins, then the app's own, then routes.
 */
const app: FastifyPluginAsyncTypebox<AppOptions> = async (fastify, { config, clock }) => {
  // Infrastructure (shared with quotes; see PlatformOptions)
  await fastify.register(platformPlugin, {
    name: 'data-api',
    config,
    views: paths.views,
    publicDir: paths.public,
    openApi: {
      title: 'Data API',
      description: API_DESCRIPTION,
      version,
      tags: [
        { name: 'data', description: 'The keyed API' },
        { name: 'operations', description: 'Health, readiness' },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: sk_…' },
        },
      },
    },
    // Failing open, the service still answers without Redis: degraded, not unavailable.
    redisCritical: config.QUOTA_FAIL_MODE === 'closed',
  })
  // Throttles for sign-up and log-in (per route, per address; IPv6 per /64): counted in Redis
  // hit by hit, shared by replicas; in memory per instance while Redis is down.
  await fastify.register(rateLimit, {
    global: false,
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
    ...(clock ? { clock } : {}),
  })
  await fastify.register(apiKeyAuth)
  await fastify.register(housekeeping, { intervalSeconds: config.HOUSEKEEPING_INTERVAL_SECONDS })
  await fastify.register(passwordStrength)

  // Routes
  await fastify.register(apiV1)
  await fastify.register(apiV1Usage)
  await fastify.register(dashboard, {
    sessionSecret: config.SESSION_SECRET,
    cookieSecure: cookieSecureMode(config.COOKIE_SECURE),
    authPerAddress: config.AUTH_RATE_LIMIT_PER_ADDRESS,
    authPerAccount: config.AUTH_RATE_LIMIT_PER_ACCOUNT,
  })
}

export default app
