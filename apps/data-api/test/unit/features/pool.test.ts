import { FEATURES } from '@repo/contracts'
import { waitFor } from '@repo/service-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FeatureOptionsError, loadAllFeatures, runFeature } from '../../../src/features/index.js'
import {
  createFeaturePool,
  FeatureGivenUpError,
  type FeaturePool,
  FeatureTimeoutError,
  PoolOverloadedError,
} from '../../../src/features/pool.js'
import { workerEntry } from '../../../src/features/worker-entry.js'

/*
 * The pool with real worker threads (running the TypeScript sources through the tsx shim).
 * Calls that must stay busy for a while are given far more text than a plan allows: stats on
 * 40 MB takes seconds in any worker, and on 85 MB (cancelled calls) twice the budgets below. The
 * text holds a non-ASCII letter, so its words go through ICU (ASCII prose is counted faster).
 */

const TEXT =
  'Barack Obama visited Paris with executives from Microsoft. I love this city, it is wonderful! ' +
  'Write to a.b@example.com or call +44 20 7946 0958.\n\nThe second paragraph is short. It ends here.'
const HUGE = 'many wörds here. '.repeat(2_500_000)
const MEDIUM = 'many wörds here. '.repeat(300_000)
const LONG = 'many wörds here. '.repeat(5_000_000)

describe('the feature pool', () => {
  let pool: FeaturePool
  beforeAll(async () => {
    await loadAllFeatures()
    pool = createFeaturePool({ threads: 2, maxQueue: 8, timeoutMs: 60_000 })
    // Both workers started and through their first call (tsx and the modules loaded).
    await Promise.all([pool.run('stats', 'Warm.', undefined), pool.run('stats', 'Up.', undefined)])
  }, 60_000)
  afterAll(async () => {
    await pool.close()
  })

  it('sizes itself to the cores unless told otherwise', async () => {
    const { availableParallelism } = await import('node:os')
    const sized = createFeaturePool({ maxQueue: 1, timeoutMs: 1000 })
    expect(sized.threads).toBe(availableParallelism())
    await sized.close()
    expect(pool.threads).toBe(2)
  })

  it('finds its worker beside it: worker.js when built, the tsx shim in the sources', () => {
    expect(workerEntry('file:///srv/app/dist/features/pool.js').href).toBe(
      'file:///srv/app/dist/features/worker.js',
    )
    expect(workerEntry('file:///srv/app/src/features/pool.ts').href).toBe(
      'file:///srv/app/src/features/worker-tsx.mjs',
    )
  })

  it.each(FEATURES)(
    'returns what the in-process %s returns',
    async (feature) => {
      const options = { feature }
      expect(await pool.run(feature, TEXT, options)).toEqual(runFeature(feature, TEXT, options))
    },
    30_000,
  )

  it('answers runJson with the JSON bytes of what run answers, for a batched call and one run alone', async () => {
    const options = { mask: '#', kinds: ['emails'] }
    // Over BATCH_CHARS: a task of its own, its bytes moved rather than copied.
    const alone = TEXT.repeat(200)
    for (const data of [TEXT, alone]) {
      const [bytes, result] = await Promise.all([
        pool.runJson('redact', data, options),
        pool.run('redact', data, options),
      ])
      expect(bytes).toBeInstanceOf(Uint8Array)
      expect(new TextDecoder().decode(bytes)).toBe(JSON.stringify(result))
      expect(result).toEqual(runFeature('redact', data, options))
    }
  })

  it('reads a large body on a worker, its bytes moved there, and runs a feature on the text it set apart', async () => {
    const data = `${TEXT} \ud800 “quoted” 😀 `.repeat(400)
    const bytes = new Uint8Array(
      Buffer.from(JSON.stringify({ data, options: { feature: 'stats' } })),
    )
    const reading = await pool.readBody(bytes)
    // Moved: this thread's view of them is detached.
    expect(bytes.byteLength).toBe(0)
    expect(reading).toMatchObject({
      rest: '{"data":"","options":{"feature":"stats"}}',
      apart: { dataBytes: Buffer.byteLength(data) },
    })
    const { units } = (reading as { apart: { units: Uint8Array } }).apart
    expect(await pool.run('redact', units, undefined)).toEqual(runFeature('redact', data, {}))
    expect(units.byteLength).toBe(0)
    expect(await pool.readBody(new Uint8Array(Buffer.from('{"data": ')))).toEqual({
      problem: 'The body is not valid JSON.',
    })
  })

  it('applies the defaults and the options it is given', async () => {
    const result = await pool.run('redact', TEXT, { mask: '#', kinds: ['emails'] })
    expect(result).toEqual(runFeature('redact', TEXT, { mask: '#', kinds: ['emails'] }))
    expect(result.counts).toEqual({ emails: 1, phones: 0, cards: 0, ips: 0 })
  })

  it('refuses invalid options before queueing anything', async () => {
    const call = pool.run('keywords', TEXT, { feature: 'keywords', limit: 0 })
    expect(pool.queued + pool.running).toBe(0)
    await expect(call).rejects.toThrow(FeatureOptionsError)
    await expect(call).rejects.toThrow(
      'Option "limit" of the keywords feature must be an integer from 1 to 50; got 0.',
    )
    await expect(pool.run('stats', TEXT, [])).rejects.toThrow('options must be an object')
  })

  it('passes an error of the feature itself on as it is', async () => {
    // Text that is not a string: the feature fails in its worker, not for time or room.
    const error = await pool.run('stats', 42 as unknown as string, undefined).catch((e) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(error).not.toBeInstanceOf(FeatureTimeoutError)
    expect(error).not.toBeInstanceOf(PoolOverloadedError)
    expect(await pool.run('stats', 'Still here.', undefined)).toMatchObject({ words: 2 })
  })

  it("answers each of a turn's small calls, handed over together, with its own result", async () => {
    // Different features and texts in one turn of the event loop (as many as the pool takes at
    // once, less one): a batch per thread.
    const calls = Array.from({ length: 9 }, (_, i) => {
      const feature = i % 3 === 0 ? 'sentiment' : i % 3 === 1 ? 'stats' : 'redact'
      const text = `${'Word '.repeat(i + 1)}and a happy ending, mail a${i}@example.com.`
      return { feature, text } as const
    })
    const results = await Promise.all(calls.map(({ feature, text }) => pool.run(feature, text, {})))
    expect(results).toEqual(calls.map(({ feature, text }) => runFeature(feature, text, {})))
    expect(pool.running + pool.queued).toBe(0)
  })

  it('leaves no timer behind once a call is settled', async () => {
    // A call's budget timer, left running, would keep the process alive for a budget (a minute).
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    const before = timers()
    const call = pool.run('stats', TEXT, undefined)
    expect(timers()).toBe(before + 1)
    await call
    expect(timers()).toBe(before)
    await pool.run('stats', 42 as unknown as string, undefined).catch(() => undefined)
    expect(timers()).toBe(before)
  })

  it('counts running and waiting calls, and refuses a call when the queue is full', async () => {
    const small = createFeaturePool({ threads: 1, maxQueue: 1, timeoutMs: 120_000 })
    try {
      const first = small.run('stats', HUGE, undefined)
      // Waiting until its thread has started it (booting first).
      expect([small.running, small.queued]).toEqual([0, 1])
      await waitFor('the thread to start the call', async () => small.running === 1, 60_000)
      const second = small.run('stats', 'Hello world.', undefined)
      expect(small.running).toBe(1)
      expect(small.queued).toBe(1)
      await expect(small.run('stats', 'Hello world.', undefined)).rejects.toThrow(
        PoolOverloadedError,
      )
      // Bad options are still a FeatureOptionsError, not an overload.
      await expect(small.run('stats', 'x', { verbose: true })).rejects.toThrow(FeatureOptionsError)
      expect((await first).words).toBe(7_500_000)
      expect((await second).words).toBe(2)
      expect(small.running + small.queued).toBe(0)
      expect((await small.run('stats', 'Hello again.', undefined)).words).toBe(2)
    } finally {
      await small.close()
    }
  }, 120_000)

  it('cancels a call past its budget and keeps serving afterwards', async () => {
    const budget = createFeaturePool({ threads: 1, maxQueue: 4, timeoutMs: 3000 })
    try {
      // Warm: the worker has loaded stats, so the budget only counts the work.
      expect((await budget.run('stats', 'Warm up.', undefined)).words).toBe(2)
      const error = await budget.run('stats', LONG, undefined).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(FeatureTimeoutError)
      expect((error as Error).message).toBe('The stats feature did not finish within 3000 ms.')
      // piscina's own abort, kept for whoever logs the error.
      expect((error as Error).cause).toMatchObject({ name: 'AbortError' })
      // A fresh worker replaces the terminated one.
      expect(await budget.run('stats', TEXT, undefined)).toEqual(runFeature('stats', TEXT, {}))
      expect(budget.running + budget.queued).toBe(0)
    } finally {
      await budget.close()
    }
  }, 120_000)

  it('counts the budget from the start of the work: a call that waited it all is overloaded', async () => {
    const budget = createFeaturePool({ threads: 1, maxQueue: 1, timeoutMs: 3000 })
    try {
      // Two calls at once, so that both places for a call's start time have held one.
      const warm = await Promise.all([
        budget.run('stats', 'Warm up.', undefined),
        budget.run('stats', 'Warm up.', undefined),
      ])
      expect(warm.map((result) => result.words)).toEqual([2, 2])
      const busy = budget.run('stats', LONG, undefined).catch((e: unknown) => e)
      const waiting = budget.run('stats', TEXT, undefined).catch((e: unknown) => e)
      const [ran, waited] = await Promise.all([busy, waiting])
      expect(ran).toBeInstanceOf(FeatureTimeoutError)
      expect(waited).toBeInstanceOf(PoolOverloadedError)
      expect((waited as Error).message).toBe('The call waited 3000 ms for a free feature thread.')
      expect((waited as Error).cause).toMatchObject({ name: 'AbortError' })
      expect(await budget.run('stats', TEXT, undefined)).toEqual(runFeature('stats', TEXT, {}))
    } finally {
      await budget.close()
    }
  }, 120_000)

  it('does not run a waiting call its caller gave up, and lets a running one finish on its thread', async () => {
    const small = createFeaturePool({ threads: 1, maxQueue: 2, timeoutMs: 120_000 })
    try {
      // Its thread booted and through a call, so it starts the next call within milliseconds.
      expect((await small.run('stats', 'Warm up.', undefined)).words).toBe(2)
      const running = new AbortController()
      const waiting = new AbortController()
      const first = small.run('stats', LONG, undefined, running.signal)
      await waitFor('the thread to start the call', async () => small.running === 1)
      const second = small.run('stats', TEXT, undefined, waiting.signal).catch((e: unknown) => e)
      const third = small.run('stats', 'Still wanted.', undefined)
      expect([small.running, small.queued]).toEqual([1, 2])
      // Both callers leave: the first call runs by now (it takes several seconds; its thread had
      // 1.5 s to start it), the second still waits.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      running.abort()
      waiting.abort()
      expect(small.givenUp).toBe(1)
      // Still pending (so still counted against the bound) until the worker passes it.
      expect(small.running + small.queued).toBe(3)
      // The running call was not cut short: its thread was not terminated.
      expect((await first).words).toBe(15_000_000)
      const error = await second
      expect(error).toBeInstanceOf(FeatureGivenUpError)
      expect((error as Error).message).toBe(
        'The stats call was given up before a worker started it.',
      )
      // The worker skipped it: it never ran the feature.
      expect((error as Error).cause).toMatchObject({
        message: expect.stringMatching(/was given up before it started/),
      })
      expect((await third).words).toBe(2)
      // A signal aborted after its call settled changes nothing; one aborted before is refused.
      const settled = new AbortController()
      expect((await small.run('stats', 'Done.', undefined, settled.signal)).words).toBe(1)
      settled.abort()
      await expect(small.run('stats', TEXT, undefined, settled.signal)).rejects.toThrow(
        'The stats call was given up before it was queued.',
      )
      expect(small.givenUp).toBe(2)
      expect(small.running + small.queued).toBe(0)
    } finally {
      await small.close()
    }
  }, 120_000)

  it('on close, waits for the call of every thread, not only the first to finish', async () => {
    // Three threads, three calls of different lengths: when the first settles, two still run.
    const closing = createFeaturePool({ threads: 3, maxQueue: 2, timeoutMs: 60_000 })
    await Promise.all(['One.', 'Two.', 'Three.'].map((t) => closing.run('stats', t, undefined)))
    const short = closing.run('stats', TEXT, undefined)
    const medium = closing.run('stats', MEDIUM, undefined)
    const long = closing.run('stats', HUGE, undefined)
    // A second close (a second signal, say) waits for the same.
    const closed = Promise.all([closing.close(), closing.close()])
    await expect(closing.run('stats', TEXT, undefined)).rejects.toThrow(
      'The feature pool is closed.',
    )
    await closed
    expect(await short).toEqual(runFeature('stats', TEXT, {}))
    expect((await medium).words).toBe(900_000)
    expect((await long).words).toBe(7_500_000)
  }, 120_000)

  it('lets the calls under way finish on close, then refuses new ones', async () => {
    const closing = createFeaturePool({ threads: 1, maxQueue: 2, timeoutMs: 60_000 })
    const under = closing.run('stats', TEXT, undefined)
    await closing.close()
    expect(await under).toEqual(runFeature('stats', TEXT, {}))
    await expect(closing.run('stats', TEXT, undefined)).rejects.toThrow(
      'The feature pool is closed.',
    )
  }, 60_000)
})
