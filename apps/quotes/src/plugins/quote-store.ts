import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { QuoteStore, type QuoteStoreOptions } from '../lib/quote-store.js'

declare module 'fastify' {
  interface FastifyInstance {
    quoteStore: QuoteStore
    /**
     * Settles (never rejects) once the search warm-up started when the server is ready has
     * finished (QuoteStore.warmUp); the readiness check waits for it. A failed warm-up is only
     * logged: the searches it would have warmed pay for themselves.
     */
    searchWarm: () => Promise<void>
  }
}

/**
 * Loads the corpus view at start-up, so the first requests are served from memory, and warms the
 * search up in the background once the server is ready (it waits for Postgres like any search, so
 * a locked table delays readiness, not the start).
 */
const quoteStorePlugin: FastifyPluginAsync<
  QuoteStoreOptions & {
    /** Load at start (default); false when only describing the API. */ preload?: boolean
  }
> = async (fastify, { preload = true, ...opts }) => {
  const store = new QuoteStore(fastify.pg, {
    ...opts,
    onRefreshError: (error) =>
      fastify.log.warn({ err: error }, 'quote corpus reload failed: serving the last one'),
  })
  let warm: Promise<void> = Promise.resolve()
  fastify.decorate('searchWarm', () => warm)
  if (preload) {
    await store.load()
    fastify.log.info({ quotes: store.size }, 'quote corpus loaded')
    fastify.addHook('onReady', async () => {
      const started = Date.now()
      warm = store.warmUp().then(
        () => fastify.log.info({ ms: Date.now() - started }, 'search warmed up'),
        (error: unknown) => fastify.log.warn({ err: error }, 'search warm-up failed'),
      )
    })
  }
  fastify.decorate('quoteStore', store)
}

export default fp(quoteStorePlugin, {
  name: 'quote-store',
  fastify: '5.x',
  dependencies: ['postgres'],
})
