import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { Catalog } from '../lib/catalog.js'

declare module 'fastify' {
  interface FastifyInstance {
    catalog: Catalog
  }
}

export interface CatalogPluginOptions {
  refreshMs: number
}

/** Authors, tags and the filtered-random indexes, loaded before the first request. */
const catalogPlugin: FastifyPluginAsync<CatalogPluginOptions> = async (fastify, opts) => {
  const catalog = new Catalog(fastify.pg, opts.refreshMs)
  await catalog.load()
  fastify.decorate('catalog', catalog)
}

export default fp(catalogPlugin, {
  name: 'catalog',
  fastify: '5.x',
  dependencies: ['postgres'],
})
