import swagger, { type SwaggerTransform } from '@fastify/swagger'
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
      info: {
        title: opts.title,
        description: opts.description,
        version: opts.version,
        contact: { name: 'Quotes & Data API contributors' },
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative: the interactive page (and a client given the document's address) calls the
      // server that served it, wherever it runs.
      servers: [{ url: '/', description: 'The server this document was fetched from' }],
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

/** What the OpenAPI document shows for a route instead of the schemas Fastify validates with. */
export interface Documented {
  body?: unknown
  querystring?: unknown
  response?: Record<string, unknown>
}

/**
 * A route's `config.swaggerTransform` for when validation and the document differ on purpose:
 * a body checked in two steps (its `feature` first, for a clear error, then that feature's
 * options) is documented as the `oneOf` it amounts to; query digits checked by pattern are
 * documented as the integers they are. The validated schemas stay as they are.
 */
export function documentedAs(documented: Documented): SwaggerTransform {
  return ({ schema, url }) => ({
    url,
    schema: {
      ...schema,
      ...(documented.body ? { body: documented.body } : {}),
      ...(documented.querystring ? { querystring: documented.querystring } : {}),
      ...(documented.response
        ? { response: { ...(schema.response as object), ...documented.response } }
        : {}),
    },
  })
}
