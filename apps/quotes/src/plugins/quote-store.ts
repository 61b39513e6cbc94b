import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { QuoteStore, type QuoteStoreOptions } from '../lib/quote-store.js'

declare module 'fastify' {
  interface FastifyInstance {
    quoteStore: QuoteStore
  }
}

/** Loads the corpus view at start-up, so the first requests are served from memory. */
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
  if (preload) {
    await store.load()
    fastify.log.info({ quotes: store.size }, 'quote corpus loaded')
  }
  fastify.decorate('quoteStore', store)
}

export default fp(quoteStorePlugin, {
  name: 'quote-store',
  fastify: '5.x',
  dependencies: ['postgres'],
})
