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
  /** Milliseconds a lazily started thread may idle before it stops; 0: all start and stay. */
  idleTimeoutMs: number
  maxQueue: number
  timeoutMs: number
  nice: number
}

/** The worker pool of the features: started with the app, closed with it, seen in /metrics. */
const featurePool: FastifyPluginAsync<FeaturePoolPluginOptions> = async (fastify, opts) => {
  const pool = createFeaturePool({
    ...(opts.threads ? { threads: opts.threads } : {}),
    ...(opts.idleTimeoutMs > 0 ? { idleTimeoutMs: opts.idleTimeoutMs } : {}),
    maxQueue: opts.maxQueue,
    timeoutMs: opts.timeoutMs,
    nice: opts.nice,
  })
  fastify.decorate('featurePool', pool)
  new Gauge({
    name: 'feature_pool_tasks',
    help: 'Feature calls in the worker pool, by state (queued: not yet started by a thread)',
    labelNames: ['state'] as const,
    registers: [fastify.promRegistry],
    collect() {
      this.set({ state: 'queued' }, pool.queued)
      this.set({ state: 'running' }, pool.running)
    },
  })
  new Gauge({
    name: 'feature_pool_threads',
    help: 'Feature threads started now (they start with the first calls and stop when idle)',
    registers: [fastify.promRegistry],
    collect() {
      this.set(pool.liveThreads)
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
    {
      threads: pool.threads,
      thread_idle_ms: opts.idleTimeoutMs,
      max_queue: opts.maxQueue,
      nice: opts.nice,
    },
    'feature pool started',
  )
  fastify.addHook('onClose', async () => pool.close())
}

export default fp(featurePool, {
  name: 'feature-pool',
  fastify: '5.x',
  dependencies: ['service-metrics'],
})
