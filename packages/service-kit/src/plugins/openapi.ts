import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

export interface OpenApiPluginOptions {
  title: string
  description: string
  version: string
  tags: { name: string; description: string }[]
  /** OpenAPI `components` (security schemes, for instance). */
  components?: Record<string, unknown>
}

/**
 * The OpenAPI 3 document is generated from the route schemas (so it cannot drift from what is
 * validated) and served at /docs/json, with the interactive reference page at /docs.
 * Register before the routes: @fastify/swagger collects them through an onRoute hook.
 */
const openApiPlugin: FastifyPluginAsync<OpenApiPluginOptions> = async (fastify, opts) => {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: opts.title, description: opts.description, version: opts.version },
      tags: opts.tags,
      components: (opts.components ?? {}) as never,
    },
    // Name shared schemas after their $id instead of def-0, def-1.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  })
  await fastify.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, docExpansion: 'list' },
    staticCSP: true,
    transformStaticCSP: (header) => header,
  })
}

export default fp(openApiPlugin, { name: 'openapi', fastify: '5.x' })
