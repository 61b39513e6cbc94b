import { setTimeout as sleep } from 'node:timers/promises'
import type { Compose } from './compose.js'
import { Failure, secs } from './run.js'

export interface Healthy {
  /** From `since` to healthy (polled every 0.5 s). */
  sinceMs: number
  /** From its container's start to healthy (an upper bound: health checks run every few s). */
  ownMs: number
}

export interface WaitHealthyOptions {
  /** performance.now() when the wait's clock starts (usually just before `up`). */
  since: number
  timeoutMs: number
  /** One-shot services: done when they exited 0 (no health check). */
  oneShot?: string[]
  /** A command running meanwhile (e.g. `up -d`, which waits for dependencies): its failure ends the wait. */
  alongside?: Promise<unknown>
  log?: (message: string) => void
}

/**
 * Waits until every service's container is running and healthy (one-shots: exited 0). Fails at
 * once when one exits or turns unhealthy, or after `timeoutMs`.
 */
export async function waitHealthy(
  compose: Compose,
  services: string[],
  opts: WaitHealthyOptions,
): Promise<Map<string, Healthy>> {
  const done = new Map<string, Healthy>()
  const deadline = performance.now() + opts.timeoutMs
  let failed: unknown
  opts.alongside?.catch((error) => {
    failed = error ?? new Failure('the command alongside failed')
  })
  for (;;) {
    if (failed) throw failed
    const states = await compose.states()
    for (const service of services) {
      if (done.has(service)) continue
      const state = states.get(service)
      if (!state) continue
      const oneShot = opts.oneShot?.includes(service) ?? false
      let ready = false
      if (oneShot) {
        if (state.status === 'exited' && state.exitCode !== 0) {
          throw new Failure(`${service} exited ${state.exitCode}`)
        }
        ready = state.status === 'exited'
      } else if (state.status === 'exited' || state.status === 'dead') {
        throw new Failure(`${service} exited (${state.exitCode}) instead of becoming healthy`)
      } else if (state.status === 'running') {
        if (state.health === 'none') throw new Failure(`${service} has no health check`)
        if (state.health === 'unhealthy') throw new Failure(`${service} is unhealthy`)
        ready = state.health === 'healthy'
      }
      if (!ready) continue
      const now = performance.now()
      const ownMs = Date.now() - Date.parse(state.startedAt)
      done.set(service, { sinceMs: now - opts.since, ownMs })
      opts.log?.(
        `  ${service} ${oneShot ? 'done' : 'healthy'} after ${secs(now - opts.since)}` +
          ` (${secs(ownMs)} after its container started)`,
      )
    }
    if (done.size === services.length) {
      await opts.alongside
      return done
    }
    if (performance.now() > deadline) {
      const pending = services.filter((service) => !done.has(service))
      throw new Failure(`not healthy within ${secs(opts.timeoutMs)}: ${pending.join(', ')}`)
    }
    await sleep(500)
  }
}

/** Polls `probe` every `intervalMs` until it resolves true; fails with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<number> {
  const t0 = performance.now()
  let last = 'the condition did not hold'
  for (;;) {
    try {
      if (await probe()) return performance.now() - t0
    } catch (error) {
      // Not yet (e.g. a connection refused): polled again; the last reason goes in the failure.
      last = error instanceof Error ? error.message : String(error)
    }
    if (performance.now() - t0 > timeoutMs) {
      throw new Failure(`${what}: not within ${secs(timeoutMs)} (last: ${last})`)
    }
    await sleep(intervalMs)
  }
}
