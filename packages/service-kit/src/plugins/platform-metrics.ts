import { PROBLEM_CODES, type ProblemCode } from '@repo/contracts'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import client from 'prom-client'

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a problem response by its code (called by the problems plugin). */
    countProblem: (code: ProblemCode) => void
  }
}

export interface PlatformMetricsOptions {
  /** The service's version (its package.json), for build_info. */
  version: string
}

/**
 * What operators expect beside request metrics: build_info, the Postgres pool's connections,
 * whether the Redis client is connected, and problem responses by code. Pool and connection
 * state are read when Prometheus scrapes; a problem costs one increment of a pre-bound child.
 */
const platformMetrics: FastifyPluginAsync<PlatformMetricsOptions> = async (fastify, opts) => {
  const registers = [fastify.promRegistry]
  new client.Gauge({
    name: 'build_info',
    help: 'Always 1: the running build (version, commit when the image was given GIT_COMMIT, Node.js)',
    labelNames: ['version', 'commit', 'node_version'] as const,
    registers,
  }).set(
    {
      version: opts.version,
      commit: process.env.GIT_COMMIT || 'unknown',
      node_version: process.version,
    },
    1,
  )

  const pool = fastify.pg
  new client.Gauge({
    name: 'pg_pool_connections',
    help: 'Postgres pool: connections open (total), idle, and requests waiting for one (waiting)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount)
      this.set({ state: 'idle' }, pool.idleCount)
      this.set({ state: 'waiting' }, pool.waitingCount)
    },
  })

  const redis = fastify.redis
  new client.Gauge({
    name: 'redis_connection_up',
    help: "1 while the Redis client's connection is ready (every node of a cluster client), else 0",
    registers,
    collect() {
      this.set(redis.status === 'ready' ? 1 : 0)
    },
  })

  const problems = new client.Counter({
    name: 'problem_responses_total',
    help: 'Problem responses (refusals and failures) by their code',
    labelNames: ['code'] as const,
    registers,
  })
  // One child per code, bound once: counting allocates nothing. Every code is exported from the
  // start (at 0), so rates and alerts work before the first refusal.
  const byCode = Object.fromEntries(
    Object.keys(PROBLEM_CODES).map((code) => {
      problems.inc({ code }, 0)
      return [code, problems.labels({ code })]
    }),
  ) as Record<ProblemCode, client.Counter.Internal>
  fastify.decorate('countProblem', (code: ProblemCode) => byCode[code].inc())
}

export default fp(platformMetrics, {
  name: 'platform-metrics',
  fastify: '5.x',
  dependencies: ['service-metrics', 'postgres', 'redis'],
})
