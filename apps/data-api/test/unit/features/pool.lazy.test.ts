import { readdirSync } from 'node:fs'
import { waitFor } from '@repo/service-kit/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadAllFeatures, runFeature } from '../../../src/features/index.js'
import {
  createFeaturePool,
  type FeaturePool,
  FeatureTimeoutError,
} from '../../../src/features/pool.js'

/*
 * A pool given `idleTimeoutMs` (the app's default, FEATURE_THREAD_IDLE_MS): no thread until the
 * first calls, as many as calls run at once, each stopped after that long idle; a later call
 * starts a fresh one. Real worker threads, counted by the pool (and, as they stop, by the
 * operating system).
 */

const TEXT = 'Threads start when they are needed. They stop when they are not.'
/** stats on 85 MB takes seconds in any worker (a non-ASCII letter sends its words through ICU). */
const LONG = 'many wörds here. '.repeat(5_000_000)

/** The threads of this process (Linux). */
const osThreads = () => readdirSync('/proc/self/task').length

async function using(
  opts: Parameters<typeof createFeaturePool>[0],
  fn: (pool: FeaturePool) => Promise<void>,
): Promise<void> {
  const pool = createFeaturePool(opts)
  try {
    await fn(pool)
  } finally {
    await pool.close()
  }
}

/** The pool answers TEXT as the feature does on this thread. */
async function answersText(pool: FeaturePool): Promise<void> {
  expect(await pool.run('stats', TEXT, undefined)).toEqual(runFeature('stats', TEXT, {}))
}

/** A call through the pool (starting a thread if none runs): a short text's stats. */
async function warmUp(pool: FeaturePool): Promise<void> {
  expect((await pool.run('stats', 'Warm up.', undefined)).words).toBe(2)
}

beforeAll(async () => {
  // The expected answers are computed here, on this thread.
  await loadAllFeatures()
})

describe('a feature pool with lazily started threads', () => {
  it('starts no thread until a call comes, then only as many as calls run at once', async () => {
    await using(
      { threads: 2, maxQueue: 4, timeoutMs: 60_000, idleTimeoutMs: 60_000 },
      async (pool) => {
        expect(pool.threads).toBe(2)
        expect(pool.liveThreads).toBe(0)
        await answersText(pool)
        expect(pool.liveThreads).toBe(1)
        // Two calls at once while one thread is free: it takes one, a second thread the other.
        const both = await Promise.all([
          pool.run('stats', LONG.slice(0, 2_000_000), undefined),
          pool.run('stats', TEXT, undefined),
        ])
        expect(both[1]).toEqual(runFeature('stats', TEXT, {}))
        expect(pool.liveThreads).toBe(2)
      },
    )
  }, 120_000)

  it('stops a thread once it has idled, and starts a fresh one for the next call', async () => {
    await using(
      { threads: 1, maxQueue: 1, timeoutMs: 60_000, idleTimeoutMs: 100 },
      async (pool) => {
        await warmUp(pool)
        const withOne = osThreads()
        await waitFor('the idle thread to stop', async () => pool.liveThreads === 0, 10_000)
        // The operating system's thread is gone too.
        await waitFor('its thread to end', async () => osThreads() < withOne, 10_000)
        await answersText(pool)
        expect(pool.liveThreads).toBe(1)
      },
    )
  }, 120_000)

  it("does not count a thread's start against the budget of the call that started it", async () => {
    // 250 ms: less than half of what a thread takes to start from the sources here (tsx and the
    // pool's modules: 600 ms and more), enough to load stats in a started thread and run TEXT on
    // a busy machine (50 ms was not, with the whole suite running).
    await using({ threads: 1, maxQueue: 0, timeoutMs: 250, idleTimeoutMs: 100 }, async (pool) => {
      await answersText(pool)
      // Again from no thread at all.
      await waitFor('the idle thread to stop', async () => pool.liveThreads === 0, 10_000)
      await answersText(pool)
    })
  }, 120_000)

  it('cancels a call past its budget, and the next call gets a fresh thread', async () => {
    await using(
      { threads: 1, maxQueue: 1, timeoutMs: 1000, idleTimeoutMs: 60_000 },
      async (pool) => {
        await warmUp(pool)
        await expect(pool.run('stats', LONG, undefined)).rejects.toThrow(FeatureTimeoutError)
        await answersText(pool)
        expect(pool.liveThreads).toBe(1)
      },
    )
  }, 120_000)
})

describe('a feature pool without an idle timeout', () => {
  it('starts every thread with the pool and keeps them', async () => {
    await using({ threads: 2, maxQueue: 1, timeoutMs: 60_000 }, async (pool) => {
      expect(pool.liveThreads).toBe(2)
      await answersText(pool)
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(pool.liveThreads).toBe(2)
    })
  }, 60_000)
})
