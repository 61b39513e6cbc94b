import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Logger } from 'pino'

export interface RequestLogOptions {
  /**
   * One access-log line per request at `info` (default, SPEC section 4); false: only at `debug`
   * and `trace` (ACCESS_LOG=off, for a load balancer that already writes one).
   */
  accessLog?: boolean
  /** How often the client digest is written at info level. */
  digestIntervalMs?: number
  /** Clients named in one digest (the busiest first). */
  digestTop?: number
}

interface ClientTally {
  ua: string
  requests: number
  errors: number
}

/**
 * Access logging:
 * - one line per request (method, url, route, status, time, address, User-Agent), at `info`,
 *   or only at `debug` with `accessLog: false`. The log's writes are batched (startServer); a
 *   line still costs 1-4 µs of CPU per request, written to a pipe: up to a fifth of a quote by
 *   id (bench/README.md, "The access log at info");
 * - at `info`, a digest every minute of who called: each User-Agent (or its absence, which the
 *   fair-use policy asks for but never requires) with its request and error counts;
 * - server errors are always logged individually by the error handler.
 * Headers other than the User-Agent are never logged: they can carry keys and cookies.
 */
const requestLogPlugin: FastifyPluginAsync<RequestLogOptions> = async (fastify, opts) => {
  const tallies = new Map<string, ClientTally>()
  const top = opts.digestTop ?? 20
  const lineLevel = opts.accessLog === false ? 'debug' : 'info'
  // pino's own test (Fastify's type leaves it out; an app built without a logger has none).
  const log = fastify.log as Partial<Pick<Logger, 'isLevelEnabled'>>
  // Stryker disable next-line ConditionalExpression: always true only costs time (pino drops a line below its level)
  const perRequest = log.isLevelEnabled?.(lineLevel) ?? false

  function tally(request: FastifyRequest, reply: FastifyReply) {
    const ua = request.headers['user-agent'] ?? '(none)'
    let entry = tallies.get(ua)
    if (entry === undefined) {
      if (tallies.size >= 10_000) return // a flood of distinct agents: the digest says so below
      entry = { ua, requests: 0, errors: 0 }
      tallies.set(ua, entry)
    }
    entry.requests += 1
    if (reply.statusCode >= 400) entry.errors += 1
  }

  fastify.afterEveryResponse((request, reply) => {
    tally(request, reply)
    // Stryker disable next-line ConditionalExpression: always true only costs time (see perRequest)
    if (perRequest) {
      request.log[lineLevel](
        {
          method: request.method,
          url: request.url,
          route: request.routeOptions.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 100) / 100,
          ip: request.clientAddress,
          ua: request.headers['user-agent'] ?? null,
        },
        'request completed',
      )
    }
  })

  function writeDigest() {
    if (tallies.size === 0) return
    const clients = [...tallies.values()].sort((a, b) => b.requests - a.requests)
    fastify.log.info(
      {
        clients: clients.slice(0, top),
        distinct_agents: clients.length,
        requests: clients.reduce((sum, c) => sum + c.requests, 0),
        without_user_agent: tallies.get('(none)')?.requests ?? 0,
      },
      'client digest',
    )
    tallies.clear()
  }

  const timer = setInterval(writeDigest, opts.digestIntervalMs ?? 60_000)
  // Stryker disable next-line CallExpression: whether a forgotten app keeps the process alive cannot be seen from inside it
  timer.unref()
  fastify.addHook('onClose', async () => {
    clearInterval(timer)
    writeDigest()
  })
}

export default fp(requestLogPlugin, {
  name: 'request-log',
  fastify: '5.x',
  dependencies: ['response-pipeline', 'client-address'],
})
