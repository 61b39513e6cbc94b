import { readFileSync } from 'node:fs'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { platformPlugin } from '@repo/service-kit'
import type { QuotesConfig } from './config.js'
import { paths } from './paths.js'
import fairUse from './plugins/fair-use.js'
import negotiatedProblems from './plugins/negotiated-problems.js'
import publicCors from './plugins/public-cors.js'
import quoteStore from './plugins/quote-store.js'
import quoteRoutes from './routes/quotes.js'

export interface AppOptions {
  config: QuotesConfig
  /** Built only to describe the API (pnpm openapi): no store is connected or loaded. */
  describeOnly?: boolean
}

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

const API_DESCRIPTION = `
A public, read-only collection of quotations. No key, no sign-up.

**Formats.** Every URL answers in HTML, JSON or plain text by the \`Accept\` header, with
q-values honoured. No \`Accept\` header, or only \`*/*\` (curl, wget, most HTTP libraries), gets
plain text; a request naming none of the three gets HTML. Responses carry \`Vary: Accept\`.
The browser pages \`/\`, \`/q/{id}\` and \`/search\` are the same resources as \`/api\`,
\`/api/q/{id}\` and \`/api/search\`.

**Errors** are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`
and the \`request_id\`, or a plain sentence, or an HTML page, by the same negotiation.
A problem's \`type\` (\`/problems/not-found\`) is a page on this service saying what the code
means and what to do; \`/problems\` lists them all.

**Fair use.** Send a \`User-Agent\` naming your library or site and a contact, and keep to 100
requests a minute. Nothing is refused for a missing User-Agent. A hard ceiling per client address
(1,000 a minute by default) answers 429 with \`Retry-After\` and \`X-RateLimit-*\` headers.
CORS is open to every origin for GET.

**Caching.** Quotes by id and search pages carry \`Cache-Control\` and an \`ETag\`; send
\`If-None-Match\` to get 304. The random quote is never cacheable.
`.trim()

/**
 * The quotes service as a plugin: it never listens (server.ts does), so tests build exactly this.
 * Order: external plugins, then the app's own, then routes.
 */
const app: FastifyPluginAsyncTypebox<AppOptions> = async (
  fastify,
  { config, describeOnly = false },
) => {
  // Infrastructure (shared with data-api; see PlatformOptions)
  await fastify.register(platformPlugin, {
    name: 'quotes',
    config,
    views: paths.views,
    publicDir: paths.public,
    describeOnly,
    openApi: {
      title: 'Quotes API',
      description: API_DESCRIPTION,
      version,
      tags: [
        { name: 'quotes', description: 'Random quote, quote by id, search' },
        { name: 'operations', description: 'Health, readiness' },
      ],
    },
  })
  await fastify.register(publicCors)

  // The app's own
  await fastify.register(negotiatedProblems)
  await fastify.register(quoteStore, {
    cacheMax: config.QUOTE_CACHE_MAX,
    refreshMs: config.CORPUS_REFRESH_SECONDS * 1000,
    preload: !describeOnly,
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
