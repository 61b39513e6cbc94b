import { Counter, Gauge } from '@repo/service-kit'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { createFeaturePool, type FeaturePool } from '../features/pool.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs features in worker threads, never on the event loop (see features/pool.ts). */
    featurePool: FeaturePool
  }
}

export interface FeaturePoolPluginOptions {
  threads: number | undefined
  maxQueue: number
  timeoutMs: number
  nice: number
}

/** The worker pool of the features: started with the app, closed with it, seen in /metrics. */
const featurePool: FastifyPluginAsync<FeaturePoolPluginOptions> = async (fastify, opts) => {
  const pool = createFeaturePool({
    ...(opts.threads ? { threads: opts.threads } : {}),
    maxQueue: opts.maxQueue,
    timeoutMs: opts.timeoutMs,
    nice: opts.nice,
  })
  fastify.decorate('featurePool', pool)
  new Gauge({
    name: 'feature_pool_tasks',
    help: 'Feature calls in the worker pool, by state (queued: waiting for a thread)',
    labelNames: ['state'] as const,
    registers: [fastify.promRegistry],
    collect() {
      this.set({ state: 'queued' }, pool.queued)
      this.set({ state: 'running' }, pool.running)
    },
  })
  new Counter({
    name: 'feature_calls_given_up_total',
    help: 'Feature calls given up while they waited for a thread (their client went away): not run',
    registers: [fastify.promRegistry],
    // The pool counts; the metric shows its count at each scrape.
    collect() {
      this.reset()
      this.inc(pool.givenUp)
    },
  })
  fastify.log.info(
    { threads: pool.threads, max_queue: opts.maxQueue, nice: opts.nice },
    'feature pool started',
  )
  fastify.addHook('onClose', async () => pool.close())
}

export default fp(featurePool, {
  name: 'feature-pool',
  fastify: '5.x',
  dependencies: ['service-metrics'],
})
