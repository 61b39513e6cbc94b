import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import fastifyView from '@fastify/view'
import { Eta } from 'eta'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

/** The kit's own assets (the stylesheet both services share), from src/ and dist/ alike. */
export const KIT_PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url))
/** Where the kit serves them: layouts link `${KIT_STATIC_PREFIX}kit.css` before their own. */
export const KIT_STATIC_PREFIX = '/static/kit/'

export interface PagesPluginOptions {
  /** Folder of `.eta` templates; `layout.eta` wraps every page. */
  views: string
  /** Folder served at /static/ (the app's stylesheet, scripts, icons). */
  publicDir: string
  /** Values every template sees as `it.<name>`. */
  defaultContext?: Record<string, unknown>
}

/**
 * Server-rendered pages: Eta templates (auto-escaped `<%= %>`, cached in production) through
 * `reply.viewAsync`, plus static assets with long-lived caching: the app's at /static/ and the
 * kit's shared stylesheet at /static/kit/kit.css.
 */
const pagesPlugin: FastifyPluginAsync<PagesPluginOptions> = async (fastify, opts) => {
  // @fastify/view configures the engine (views folder, cache) on every render: no options here.
  const eta = new Eta()
  // Declared here, @fastify/view skips the onRequest hook that gives every request (API calls
  // included) an empty `reply.locals`; our templates take their data from the render call.
  if (!fastify.hasReplyDecorator('locals')) fastify.decorateReply('locals', null)
  await fastify.register(fastifyView, {
    engine: { eta },
    root: opts.views,
    layout: 'layout',
    defaultContext: opts.defaultContext ?? {},
    production: process.env.NODE_ENV !== 'development',
  })
  await fastify.register(fastifyStatic, {
    root: opts.publicDir,
    prefix: '/static/',
    maxAge: '1d',
    // The OpenAPI UI registers its own static route; this one decorates nothing.
    decorateReply: false,
    schemaHide: true,
  })
  await fastify.register(fastifyStatic, {
    root: KIT_PUBLIC_DIR,
    prefix: KIT_STATIC_PREFIX,
    maxAge: '1d',
    decorateReply: false,
    schemaHide: true,
  })
}

export default fp(pagesPlugin, { name: 'pages', fastify: '5.x' })
