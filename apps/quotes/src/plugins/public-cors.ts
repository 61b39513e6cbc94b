import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'

// What scripts on other sites may read: the cache validator, and what an error carries.
const EXPOSE_SUCCESS = 'ETag'
const EXPOSE_ERROR =
  'Allow, ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id'

/**
 * CORS for a public, read-only API: any origin may GET. The answer never depends on the origin,
 * so the headers are constants set on every response (through the response pipeline), and
 * preflights get a fixed reply (cached a day).
 * This replaces @fastify/cors, whose per-request origin handling cost a tenth of the throughput
 * of the hot endpoints for a policy that has nothing to decide.
 */
const publicCors: FastifyPluginAsync = async (fastify) => {
  fastify.beforeEverySend((_request, reply) => {
    reply.header('access-control-allow-origin', '*')
    reply.header(
      'access-control-expose-headers',
      reply.statusCode < 400 ? EXPOSE_SUCCESS : EXPOSE_ERROR,
    )
  })

  fastify.options(
    '*',
    { schema: { hide: true }, config: { rateLimit: false } },
    (request, reply) => {
      reply
        .code(204)
        .header('access-control-allow-methods', 'GET, HEAD')
        .header('access-control-max-age', '86400')
      const requested = request.headers['access-control-request-headers']
      if (requested) {
        reply
          .header('access-control-allow-headers', requested)
          .header('vary', 'Access-Control-Request-Headers')
      }
      reply.send()
    },
  )
}

export default fp(publicCors, {
  name: 'public-cors',
  fastify: '5.x',
  dependencies: ['response-pipeline'],
})
