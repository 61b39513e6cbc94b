import { readFileSync } from 'node:fs'
import cors from '@fastify/cors'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { platformPlugin } from '@repo/service-kit'
import type { QuotesConfig } from './config.js'
import { paths } from './paths.js'
import catalog from './plugins/catalog.js'
import fairUse from './plugins/fair-use.js'
import negotiatedProblems from './plugins/negotiated-problems.js'
import publicUrl from './plugins/public-url.js'
import quoteStore from './plugins/quote-store.js'
import authorRoutes from './routes/authors.js'
import cardRoutes from './routes/cards.js'
import quoteRoutes from './routes/quotes.js'
import tagRoutes from './routes/tags.js'
import todayRoutes from './routes/today.js'

export interface AppOptions {
  config: QuotesConfig
  /** The clock of the quote of the day (tests move it). */
  now?: () => Date
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

**Fair use.** Send a \`User-Agent\` naming your library or site and a contact, and keep to 100
requests a minute. Nothing is refused for a missing User-Agent. A hard ceiling per client address
(1,000 a minute by default) answers 429 with \`Retry-After\` and \`X-RateLimit-*\` headers.
CORS is open to every origin for GET.

**Authors and tags.** \`/api/authors\` (paged, \`term\`, \`sort=name|count\`) and
\`/api/authors/{slug}\` list authors and their quotes; \`/api/tags\` lists tags with counts. The
random quote takes \`author\`, \`tag\`, \`minLength\` and \`maxLength\` filters (404 when none matches).
Paged lists and search pages carry an RFC 8288 \`Link\` header (first, prev, next, last).

**Quote of the day** at \`/api/today\`: the same quote for everyone during a UTC day, cacheable
until the next UTC midnight. **Share cards**: \`/q/{id}.svg\` and \`/q/{id}.png\` (1200×630);
quote pages carry Open Graph and Twitter card tags pointing at the PNG.

**Caching.** Quotes by id, share cards, author lists and pages, tags and search pages carry \`Cache-Control\` and an \`ETag\`; send
\`If-None-Match\` to get 304. The random quote is never cacheable.
`.trim()

/**
 * The quotes service as a plugin: it never listens (server.ts does), so tests build exactly this.
 * Order: external plugins, then the app's own, then routes.
 */
const app: FastifyPluginAsyncTypebox<AppOptions> = async (fastify, { config, now }) => {
  // Infrastructure (shared with data-api; see PlatformOptions)
  await fastify.register(platformPlugin, {
    name: 'quotes',
    config,
    views: paths.views,
    publicDir: paths.public,
    openApi: {
      title: 'Quotes API',
      description: API_DESCRIPTION,
      version,
      tags: [
        {
          name: 'quotes',
          description: 'Random quote (filtered or not), quote by id, search, quote of the day',
        },
        { name: 'authors', description: 'Authors and their quotes' },
        { name: 'tags', description: 'Tags and their counts' },
        { name: 'cards', description: 'Share cards (SVG and PNG images of a quote)' },
        { name: 'operations', description: 'Health, readiness' },
      ],
    },
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
  })
  await fastify.register(catalog, { refreshMs: config.CORPUS_REFRESH_SECONDS * 1000 })
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
}

export default app
