import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { Type } from 'typebox'

export interface ReadinessCheck {
  /** Resolves when the dependency answers; rejects (or times out) when it does not. */
  probe: () => Promise<unknown>
  /**
   * A non-critical dependency marks the service "degraded" but still ready (for example
   * Redis for a service that fails open without it).
   */
  critical?: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Starts a graceful shutdown's first step: /ready answers 503 from now on, so load balancers
     * stop sending new requests while this instance still serves the ones they send meanwhile.
     */
    drain: () => void
  }
}

export interface HealthPluginOptions {
  checks: Record<string, ReadinessCheck>
  timeoutMs?: number
}

const HealthResponse = Type.Object({ status: Type.Literal('ok') })
const ReadyResponse = Type.Object({
  status: Type.Enum(['ready', 'degraded', 'unavailable', 'shutting_down']),
  checks: Type.Record(Type.String(), Type.Enum(['up', 'down'])),
})

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** `/health`: the process is alive. `/ready`: its dependencies answer (load balancers poll this). */
const healthPlugin: FastifyPluginAsync<HealthPluginOptions> = async (fastify, opts) => {
  const timeoutMs = opts.timeoutMs ?? 1_000
  const config = { rateLimit: false as const }
  let draining = false
  fastify.decorate('drain', () => {
    draining = true
  })

  fastify.get(
    '/health',
    {
      config,
      schema: {
        tags: ['operations'],
        operationId: 'getHealth',
        summary: 'Liveness: the process is up',
        security: [],
        response: { 200: HealthResponse },
      },
    },
    async () => ({ status: 'ok' as const }),
  )

  fastify.get(
    '/ready',
    {
      config,
      schema: {
        tags: ['operations'],
        operationId: 'getReadiness',
        summary: 'Readiness: Postgres and Redis answer, and the instance is not shutting down',
        security: [],
        response: { 200: ReadyResponse, 503: ReadyResponse },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      const entries = Object.entries(opts.checks)
      const results = await Promise.allSettled(
        entries.map(([, check]) => withTimeout(check.probe(), timeoutMs)),
      )
      const checks: Record<string, 'up' | 'down'> = {}
      let status: 'ready' | 'degraded' | 'unavailable' = 'ready'
      for (const [index, result] of results.entries()) {
        const [name, check] = entries[index] as [string, ReadinessCheck]
        checks[name] = result.status === 'fulfilled' ? 'up' : 'down'
        if (result.status === 'fulfilled') continue
        // Load balancers poll this every second: outages are logged once, where they are seen.
        request.log.debug({ check: name, err: result.reason }, 'readiness check failed')
        // A probe may say the failure makes the instance unusable even for an optional dependency
        // (a misconfiguration rather than an outage).
        if ((check.critical ?? true) || result.reason?.critical === true) status = 'unavailable'
        else if (status === 'ready') status = 'degraded'
      }
      if (draining) return reply.status(503).send({ status: 'shutting_down' as const, checks })
      return reply.status(status === 'unavailable' ? 503 : 200).send({ status, checks })
    },
  )
}

export default fp(healthPlugin, { name: 'health', fastify: '5.x' })
