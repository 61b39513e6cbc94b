import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { type RollupResult, UsageRollup } from '../lib/usage-rollup.js'

export interface HousekeepingOptions {
  /** Seconds between runs on this instance; 0: never on a timer (tests run it themselves). */
  intervalSeconds: number
}

export interface HousekeepingRun {
  usage: RollupResult
  /** Key expiries newly written to the activity log. */
  expiries: number
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Rolls finished days of usage into Postgres and logs key expiries (every instance runs it). */
    housekeeping: { runOnce: () => Promise<HousekeepingRun> }
  }
}

/**
 * Periodic work every instance does, each safe to run anywhere at once: rolling past days' usage
 * from Redis into Postgres (exactly once, see UsageRollup) and recording key expiries in the
 * activity log (exactly once, see AccountEvents.recordExpiries).
 */
const housekeeping: FastifyPluginAsync<HousekeepingOptions> = async (fastify, opts) => {
  const rollup = new UsageRollup(fastify.pg, fastify.quota, {
    clock: fastify.clock,
    beforeRoll: () => fastify.lastUsed.flush(),
  })
  const runOnce = async (): Promise<HousekeepingRun> => {
    const usage = await rollup.runOnce()
    const expiries = await fastify.accountEvents.recordExpiries(fastify.clock())
    return { usage, expiries }
  }
  fastify.decorate('housekeeping', { runOnce })

  let running: Promise<unknown> | undefined
  const tick = () => {
    if (running) return
    running = runOnce()
      .then((run) => {
        const written = run.usage.rolled.reduce((sum, day) => sum + day.written, 0)
        if (run.usage.rolled.length > 0 || run.expiries > 0) {
          fastify.log.info(
            { rolled: run.usage.rolled, purged: run.usage.purged, expiries: run.expiries, written },
            'housekeeping',
          )
        }
      })
      .catch((error: Error) => fastify.log.warn({ err: error }, 'housekeeping failed; will retry'))
      .finally(() => {
        running = undefined
      })
  }
  let first: NodeJS.Timeout | undefined
  let timer: NodeJS.Timeout | undefined
  if (opts.intervalSeconds > 0) {
    fastify.addHook('onReady', async () => {
      // A first run soon after start (catching up after downtime), then every interval.
      first = setTimeout(tick, 5_000).unref()
      timer = setInterval(tick, opts.intervalSeconds * 1000).unref()
    })
  }
  fastify.addHook('onClose', async () => {
    clearTimeout(first)
    clearInterval(timer)
    await running
  })
}

export default fp(housekeeping, {
  name: 'housekeeping',
  fastify: '5.x',
  dependencies: ['data-services'],
})
