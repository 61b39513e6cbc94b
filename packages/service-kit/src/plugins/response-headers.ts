import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'

/** Our policy: pages load scripts, styles and images from this origin only. */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  // The API is public and read by other sites' scripts (CORS); do not block cross-origin reads.
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  // HSTS belongs to whoever terminates TLS (the load balancer).
  strictTransportSecurity: false,
}

/**
 * Runs helmet once, at start-up, against a recording response and returns the headers it sets.
 * Helmet's values are static, and @fastify/helmet builds helmet's middleware on every request
 * (two onRequest hooks, one async) and sends every header on every answer.
 *
 * Kept instead of @fastify/helmet (13.2) on a measured gain (pnpm bench, 2026-11-23, 3 rounds,
 * same machine; server CPU µs per request, median [rounds]):
 * - quotes/q-json: 56.5 [95.4, 56.5, 50.7] here, 121.6 [198.2, 121.6, 119.4] with the plugin;
 * - data-api/get: 123.5 [240.4, 123.5, 84.9] here, 442.3 [616.8, 442.3, 380.0] with the plugin.
 * The plugin costs twice the CPU of a quote, far beyond the spread between rounds. The test
 * "response headers against @fastify/helmet" pins these headers to the plugin's.
 */
export function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader: () => {},
  }
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {})
  return headers
}

/**
 * Headers set on every response (through the response pipeline, so it stays small):
 * - `X-Request-Id`, so a client can quote it (problem bodies carry it too) and operators can find
 *   the log lines;
 * - on errors, `Cache-Control: no-store` and no `ETag`: an error must never be cached by a proxy,
 *   whatever the route had set before it failed;
 * - helmet's headers on HTML pages, where they matter (CSP, framing, referrer). Data responses
 *   (JSON, plain text, metrics) get `nosniff` only: browsers never render them as documents.
 *   Routes that set their own CSP (the OpenAPI page) keep it.
 */
const responseHeadersPlugin: FastifyPluginAsync = async (fastify) => {
  const pageHeaders = Object.entries(helmetHeaders())
  fastify.beforeEverySend((request, reply) => {
    reply.header('x-request-id', request.id)
    if (reply.statusCode >= 400) {
      reply.header('cache-control', 'no-store')
      reply.removeHeader('etag')
    }
    const type = reply.getHeader('content-type')
    if (typeof type === 'string' && type.startsWith('text/html')) {
      for (const [name, value] of pageHeaders) {
        if (!reply.hasHeader(name)) reply.header(name, value)
      }
    } else {
      reply.header('x-content-type-options', 'nosniff')
    }
  })
}

export default fp(responseHeadersPlugin, {
  name: 'response-headers',
  fastify: '5.x',
  dependencies: ['response-pipeline'],
})
