import cors from '@fastify/cors'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { platformPlugin } from '@repo/service-kit'
import { OPEN_API } from './api-description.js'
import type { QuotesConfig } from './config.js'
import { packageRoot } from './paths.js'
import catalog from './plugins/catalog.js'
import fairUse from './plugins/fair-use.js'
import negotiatedProblems from './plugins/negotiated-problems.js'
import publicUrl from './plugins/public-url.js'
import quoteStore from './plugins/quote-store.js'
import warmUp from './plugins/warm-up.js'
import authorRoutes from './routes/authors.js'
import cardRoutes from './routes/cards.js'
import quoteRoutes from './routes/quotes.js'
import tagRoutes from './routes/tags.js'
import todayRoutes from './routes/today.js'

export interface AppOptions {
  config: QuotesConfig
  /** The clock of the quote of the day (tests move it). */
  now?: () => Date
  /** Built only to describe the API (pnpm openapi): no store is connected or loaded. */
  describeOnly?: boolean
}

// What scripts on other sites may read: the cache validator, the request id, and what a refusal
// carries.
const EXPOSED_HEADERS = [
  'Allow',
  'ETag',
  'Link',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
]

/**
 * The quotes service as a plugin: it never listens (server.ts does), so tests build exactly this.
 * Order: external plugins, then the app's own, then routes.
 */
const app: FastifyPluginAsyncTypebox<AppOptions> = async (
  fastify,
  { config, now, describeOnly = false },
) => {
  // Infrastructure (shared with data-api; see PlatformOptions)
  await fastify.register(platformPlugin, {
    name: 'quotes',
    config,
    root: packageRoot,
    openApi: OPEN_API,
    describeOnly,
    // Not ready while the start-up warm-up runs (plugins/warm-up.ts).
    readiness: { catalog: { probe: () => fastify.warmedUp() } },
  })
  // CORS for a public, read-only API: any origin may GET; preflights are answered (cached a
  // day) before the per-client ceiling. @fastify/cors measured no dearer than the hand-written
  // constant headers it replaced (bench/README.md, "Ecosystem plugins: measured").
  await fastify.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 86_400,
    // Any OPTIONS request gets the preflight answer (browsers always send both headers).
    strictPreflight: false,
  })

  // The app's own
  await fastify.register(negotiatedProblems)
  await fastify.register(quoteStore, {
    cacheMax: config.QUOTE_CACHE_MAX,
    refreshMs: config.CORPUS_REFRESH_SECONDS * 1000,
    preload: !describeOnly,
  })
  await fastify.register(catalog, {
    refreshMs: config.CORPUS_REFRESH_SECONDS * 1000,
    preload: !describeOnly,
  })
  await fastify.register(publicUrl, { publicUrl: config.PUBLIC_URL })

  // Routes, behind the per-client ceiling (operations endpoints are not limited).
  await fastify.register(async (limited) => {
    await limited.register(fairUse, {
      max: config.RATE_LIMIT_MAX,
      windowMs: config.RATE_LIMIT_WINDOW_MS,
    })
    const cacheMaxAgeSeconds = config.CACHE_MAX_AGE_SECONDS
    await limited.register(quoteRoutes, { cacheMaxAgeSeconds })
    await limited.register(authorRoutes, { cacheMaxAgeSeconds })
    await limited.register(tagRoutes, { cacheMaxAgeSeconds })
    await limited.register(cardRoutes, { cacheMaxAgeSeconds })
    await limited.register(todayRoutes, now ? { now } : {})
  })
  // Last: it sends a request to each kind of route before /ready says so.
  await fastify.register(warmUp, { preload: !describeOnly })
}

export default app
