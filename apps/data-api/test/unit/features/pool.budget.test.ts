import { describe, expect, it } from 'vitest'
import { loadAllFeatures, runFeature } from '../../../src/features/index.js'
import {
  BATCH_CHARS,
  createFeaturePool,
  type FeaturePool,
  FeatureTimeoutError,
  PoolOverloadedError,
} from '../../../src/features/pool.js'

/*
 * When a call's budget starts and ends, timed with real threads (pool.test.ts has the budget's
 * outcomes). A call cancelled here is given far more text than any budget below allows: stats on
 * 85 MB takes seconds in any worker (a non-ASCII letter sends its words through ICU; ASCII prose is
 * counted faster).
 */

const WORDS = 'many wörds here. '
const LONG = WORDS.repeat(5_000_000)

/**
 * On a one-thread pool: `ahead` (a call that ends within a budget), then LONG, which waits for it.
 * How long LONG waited (from both calls until `ahead` ended, when LONG started), how long it ran
 * until it ended, and how.
 */
async function aheadThenLong(pool: FeaturePool, ahead: string) {
  // A live, warm worker (after a cancelled call, a fresh one has to boot and load stats).
  expect((await pool.run('stats', 'Warm up.', undefined)).words).toBe(2)
  const calledAt = performance.now()
  // (Should it run past its own budget, on a machine grown slower, it counts as endless.)
  const first = pool.run('stats', ahead, undefined).then(
    () => performance.now(),
    () => Number.POSITIVE_INFINITY,
  )
  const second = pool.run('stats', LONG, undefined).then(
    () => ({ error: undefined as unknown, at: performance.now() }),
    (error: unknown) => ({ error, at: performance.now() }),
  )
  const [startedAt, ended] = await Promise.all([first, second])
  return { waitedMs: startedAt - calledAt, ranMs: ended.at - startedAt, error: ended.error }
}

/**
 * How a LONG call ends as the first call of a fresh one-thread pool, its thread still booting, on
 * a budget of 20 ms: far less than a worker takes to start (a thread, tsx, the modules).
 */
async function longCallOnFreshPool(opts: { startupLimitMs?: number }): Promise<unknown> {
  const pool = createFeaturePool({ threads: 1, maxQueue: 0, timeoutMs: 20, ...opts })
  try {
    return await pool.run('stats', LONG, undefined).catch((e: unknown) => e)
  } finally {
    await pool.close()
  }
}

describe('the budget of a feature call', () => {
  it('starts when a worker starts the call, not when it was made: a call that waited gets it all', async () => {
    const budget = 2000
    const pool = createFeaturePool({ threads: 1, maxQueue: 1, timeoutMs: budget })
    try {
      await pool.run('stats', 'Warm up.', undefined)
      // The call ahead should run for about 0.4 budget: sized from what this worker does now,
      // and again from what it did, should the machine's speed change under the test.
      let copies = 200_000
      const timed = performance.now()
      await pool.run('stats', WORDS.repeat(copies), undefined)
      copies = Math.round((copies * 0.4 * budget) / (performance.now() - timed))
      for (let attempt = 1; ; attempt++) {
        const { waitedMs, ranMs, error } = await aheadThenLong(pool, WORDS.repeat(copies))
        if (waitedMs >= 0.25 * budget && waitedMs <= 0.6 * budget) {
          // A budget after it was made, it had run for part of one: cancelled a whole budget
          // after it started (not a budget after it was made, nor later).
          expect(error).toBeInstanceOf(FeatureTimeoutError)
          expect(ranMs).toBeGreaterThan(0.85 * budget)
          expect(ranMs).toBeLessThan(1.3 * budget)
          break
        }
        expect(attempt, `the call ahead took ${waitedMs} ms each time`).toBeLessThan(5)
        const scale = Math.min(4, Math.max(0.25, (0.4 * budget) / waitedMs))
        copies = Math.max(1, Math.round(copies * scale))
      }
    } finally {
      await pool.close()
    }
  }, 90_000)

  it('of a call of a batch ends when the call has run, not when its batch-mates have', async () => {
    // Calls of one turn, small enough to go to the one thread as one batch: a tiny one first, then
    // enough others that each run within the budget and together for about three budgets (those
    // that wait a whole budget behind them are refused). The tiny one's answer comes back with
    // theirs, after its budget, and must not count as running all that time. The budget is not
    // tiny (150 ms at least): a worker descheduled that long would cost even the tiny call its
    // budget (29 ms did, once, with the whole suite running).
    const text = 'Call +44 20 7946 0958 or mail a.b@example.com, wörds here. '
      .repeat(400)
      .slice(0, BATCH_CHARS)
    await loadAllFeatures()
    runFeature('redact', text, {})
    const timed = performance.now()
    runFeature('redact', text, {})
    const oneMs = Math.max(1, performance.now() - timed)
    const budget = Math.max(150, Math.round(1.5 * oneMs))
    const count = Math.min(60, Math.ceil((3 * budget) / oneMs))
    const pool = createFeaturePool({ threads: 1, maxQueue: count, timeoutMs: budget })
    try {
      // Booted, with the redact feature loaded (a first call loads it within its budget).
      await pool.run('stats', 'Warm up.', undefined)
      await pool.run('redact', 'Warm up.', {}).catch(() => undefined)
      const tiny = pool.run('stats', 'Tiny.', undefined)
      const others = Array.from({ length: count }, () =>
        pool.run('redact', text, {}).then(
          () => 'answered',
          (error: unknown) =>
            error instanceof FeatureTimeoutError || error instanceof PoolOverloadedError
              ? 'refused'
              : error,
        ),
      )
      // Whatever became of the others (the last wait a budget out; on a slow machine one may pass it).
      expect(await tiny).toEqual(runFeature('stats', 'Tiny.', undefined))
      for (const outcome of await Promise.all(others))
        expect(['answered', 'refused']).toContain(outcome)
      expect(pool.running + pool.queued).toBe(0)
    } finally {
      await pool.close()
    }
  }, 60_000)

  it('of a call that found its thread still booting starts when the thread starts it', async () => {
    const error = await longCallOnFreshPool({})
    expect(error).toBeInstanceOf(FeatureTimeoutError)
    expect((error as Error).message).toBe('The stats feature did not finish within 20 ms.')
  }, 60_000)

  it('of a call whose thread boots for longer than the start-up limit is refused as overloaded', async () => {
    const error = await longCallOnFreshPool({ startupLimitMs: 1 })
    expect(error).toBeInstanceOf(PoolOverloadedError)
    expect((error as Error).message).toBe('The call waited 20 ms for a free feature thread.')
  }, 60_000)
})
