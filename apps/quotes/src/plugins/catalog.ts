import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { Catalog } from '../lib/catalog.js'

declare module 'fastify' {
  interface FastifyInstance {
    catalog: Catalog
    /**
     * Settles (never rejects) once the first background load has finished, loaded or not: the
     * `catalog` readiness check waits for it, so an instance takes no traffic while it builds the
     * catalog (seconds at a million quotes, whose queries and parsing would otherwise stall the
     * first requests). A failed load is retried on use and does not keep the instance unready.
     */
    catalogWarm: () => Promise<void>
  }
}

export interface CatalogPluginOptions {
  refreshMs: number
  /** Load in the background once ready (default); false when only describing the API. */
  preload?: boolean
}

/** Authors, tags and the filtered-random indexes (see Catalog). */
const catalogPlugin: FastifyPluginAsync<CatalogPluginOptions> = async (fastify, opts) => {
  const catalog = new Catalog(fastify.pg, opts.refreshMs, (error) =>
    fastify.log.warn({ err: error }, 'catalog reload failed: serving the last one'),
  )
  fastify.decorate('catalog', catalog)
  let warm: Promise<void> = Promise.resolve()
  fastify.decorate('catalogWarm', () => warm)
  if (opts.preload === false) return
  // Loaded in the background once the server is ready; routes await catalog.whenReady().
  fastify.addHook('onReady', async () => {
    const started = Date.now()
    warm = catalog.whenReady().then(
      () => fastify.log.info({ ms: Date.now() - started }, 'catalog loaded'),
      (error: unknown) =>
        fastify.log.warn({ err: error }, 'catalog not loaded yet: retried on use'),
    )
  })
}

export default fp(catalogPlugin, {
  name: 'catalog',
  fastify: '5.x',
  dependencies: ['postgres'],
})
