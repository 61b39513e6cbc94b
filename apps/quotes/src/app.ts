import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { platformPlugin } from '@repo/service-kit'
import { OPEN_API } from './api-description.js'
import type { QuotesConfig } from './config.js'
import { packageRoot } from './paths.js'
import fairUse from './plugins/fair-use.js'
import negotiatedProblems from './plugins/negotiated-problems.js'
import publicCors from './plugins/public-cors.js'
import quoteStore from './plugins/quote-store.js'
import quoteRoutes from './routes/quotes.js'

export interface AppOptions {
  config: QuotesConfig
}

/**
 * The quotes service as a plugin: it never listens (server.ts does), so tests build exactly this.
 * Order: external plugins, then the app's own, then routes.
 */
const app: FastifyPluginAsyncTypebox<AppOptions> = async (fastify, { config }) => {
  // Infrastructure (shared with data-api; see PlatformOptions)
  await fastify.register(platformPlugin, {
    name: 'quotes',
    config,
    root: packageRoot,
    openApi: OPEN_API,
  })
  await fastify.register(publicCors)

  // The app's own
  await fastify.register(negotiatedProblems)
  await fastify.register(quoteStore, {
    cacheMax: config.QUOTE_CACHE_MAX,
    refreshMs: config.CORPUS_REFRESH_SECONDS * 1000,
  })

  // Routes, behind the per-client ceiling (operations endpoints are not limited).
  await fastify.register(async (limited) => {
    await limited.register(fairUse, {
      max: config.RATE_LIMIT_MAX,
      windowMs: config.RATE_LIMIT_WINDOW_MS,
    })
    await limited.register(quoteRoutes, { cacheMaxAgeSeconds: config.CACHE_MAX_AGE_SECONDS })
  })
}

export default app
