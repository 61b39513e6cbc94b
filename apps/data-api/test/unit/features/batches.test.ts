import { describe, expect, it } from 'vitest'
import { type Dispatch, PAST_BUDGET, TurnBatches } from '../../../src/features/batches.js'
import {
  CallGivenUpError,
  GIVEN_UP,
  giveUp,
  waitingMark,
} from '../../../src/features/call-slots.js'
import { runFeature } from '../../../src/features/index.js'
import { validateOptions } from '../../../src/features/options.js'
import {
  type FeatureBatch,
  type FeatureTask,
  taskRunner,
} from '../../../src/features/task-runner.js'

/*
 * A turn's calls handed to the workers together, on this thread: `dispatch` runs each task with
 * the workers' own task function (task-runner.ts) and records what it was handed; the pool's tests
 * (pool*.test.ts) run the same through real threads.
 */

const TEXTS = ['One.', 'Two words.', 'Three words here.', 'Four. Words. In. Sentences.', 'Five']

/** `gate`: tasks wait for it before they run (a worker busy with something else). */
function setUp(parts: number, gate: Promise<void> = Promise.resolve()) {
  const shared = new SharedArrayBuffer(8 * 8)
  const starts = new BigInt64Array(shared)
  const runTask = taskRunner({ startedAt: shared, nice: 0 })
  const handed: { task: FeatureTask | FeatureBatch; signal: AbortSignal }[] = []
  const dispatch: Dispatch = async (task, signal) => {
    handed.push({ task, signal })
    await gate
    return 'batch' in task ? runTask(task) : runTask(task)
  }
  let ticket = 0
  const call = (slot: number, data: string): FeatureTask => {
    ticket += 1
    starts[slot] = waitingMark(ticket)
    return { feature: 'stats', data, options: validateOptions('stats', undefined), slot, ticket }
  }
  return { starts, handed, dispatch, call, batches: new TurnBatches(dispatch, starts, parts) }
}

const expected = (text: string) => runFeature('stats', text, undefined)

describe("a turn's feature calls, handed over together", () => {
  it("splits a turn's calls into one batch per thread, each call answered with its own result", async () => {
    const { batches, call, handed } = setUp(2)
    const results = await Promise.all(
      TEXTS.map((text, i) => batches.run(call(i, text), new AbortController().signal)),
    )
    expect(results).toEqual(await Promise.all(TEXTS.map(expected)))
    expect(
      handed.map(({ task }) => ('batch' in task ? task.batch.map((t) => t.slot) : 'alone')),
    ).toEqual([
      [0, 1, 2],
      [3, 4],
    ])
  })

  it('hands a call alone in its turn over on its own, with its own signal', async () => {
    const { batches, call, handed } = setUp(2)
    const signal = new AbortController().signal
    expect(await batches.run(call(0, 'Alone here.'), signal)).toEqual(await expected('Alone here.'))
    // The next turn's two calls on two threads: a call each, so no batch either.
    await Promise.all([
      batches.run(call(1, 'First.'), new AbortController().signal),
      batches.run(call(2, 'Second.'), new AbortController().signal),
    ])
    expect(handed.map(({ task }) => 'batch' in task)).toEqual([false, false, false])
    expect(handed[0]?.signal).toBe(signal)
  })

  it('refuses a call that waited too long at once, alone, and its worker skips it', async () => {
    let open: () => void = () => {}
    const { batches, call, handed, starts } = setUp(1, new Promise((resolve) => (open = resolve)))
    const refused = new AbortController()
    const calls = [
      batches.run(call(0, 'Kept one.'), new AbortController().signal),
      batches.run(call(1, 'Refused.'), refused.signal).catch((error: unknown) => error),
      batches.run(call(2, 'Kept two.'), new AbortController().signal),
    ]
    // Handed over (the turn has ended), waiting for the worker. As the pool does: its slot given
    // up, then its signal aborted.
    await new Promise((resolve) => setImmediate(resolve))
    expect(handed).toHaveLength(1)
    expect(giveUp(starts, 1, 2)).toBe(true)
    refused.abort('waited')
    expect(await calls[1]).toBe('waited')
    open()
    expect(await calls[0]).toEqual(await expected('Kept one.'))
    expect(await calls[2]).toEqual(await expected('Kept two.'))
    expect(starts[1]).toBe(GIVEN_UP)
    // It was still in the batch: the worker passed it without running it.
    const [{ task }] = handed as unknown as [{ task: FeatureBatch }]
    expect(task.batch.map((t) => t.slot)).toEqual([0, 1, 2])
  })

  it('does not hand over a call refused before its turn ended', async () => {
    const { batches, call, handed, starts } = setUp(1)
    const refused = new AbortController()
    const calls = [
      batches.run(call(0, 'Kept.'), new AbortController().signal),
      batches.run(call(1, 'Refused.'), refused.signal).catch((error: unknown) => error),
    ]
    expect(giveUp(starts, 1, 2)).toBe(true)
    refused.abort('waited')
    expect(await calls[1]).toBe('waited')
    expect(await calls[0]).toEqual(await expected('Kept.'))
    expect(handed.map(({ task }) => ('batch' in task ? 'batch' : task.slot))).toEqual([0])
  })

  it("gives each call its own error: one given up by its caller does not fail its batch-mates'", async () => {
    const { batches, call, starts } = setUp(1)
    const calls = [
      batches.run(call(0, 'Wanted.'), new AbortController().signal),
      batches.run(call(1, 'Given up.'), new AbortController().signal).catch((e: unknown) => e),
    ]
    expect(giveUp(starts, 1, 2)).toBe(true)
    expect(await calls[1]).toBeInstanceOf(CallGivenUpError)
    expect(await calls[0]).toEqual(await expected('Wanted.'))
  })

  it('ends the batch of a call past its budget, and runs its batch-mates again, each alone', async () => {
    const { starts, call } = setUp(1)
    const runTask = taskRunner({ startedAt: starts.buffer as SharedArrayBuffer, nice: 0 })
    const handed: (FeatureTask | FeatureBatch)[] = []
    let culpritStarted: () => void = () => {}
    const started = new Promise<void>((resolve) => (culpritStarted = resolve))
    // The batch: its first call runs, then the second (the culprit) starts and never ends, as a
    // worker stuck in it would, until the batch's signal terminates it.
    const dispatch: Dispatch = (task, signal) => {
      handed.push(task)
      if (!('batch' in task)) return runTask(task)
      const [done, culprit] = task.batch as [FeatureTask, FeatureTask]
      return runTask(done).then(() => {
        runTask({ ...culprit, data: '' }).catch(() => undefined)
        culpritStarted()
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('terminated'))),
        )
      })
    }
    const batches = new TurnBatches(dispatch, starts, 1)
    const slow = new AbortController()
    const gone = call(3, 'Gone.')
    const calls = [
      batches.run(call(0, 'Finished first.'), new AbortController().signal),
      batches.run(call(1, 'Stuck.'), slow.signal).catch((error: unknown) => error),
      batches.run(call(2, 'Never started.'), new AbortController().signal),
      batches.run(gone, new AbortController().signal).catch((error: unknown) => error),
    ]
    await started
    expect(starts[0]).toBeGreaterThan(0n)
    expect(starts[1]).toBeGreaterThan(0n)
    expect(giveUp(starts, 3, gone.ticket)).toBe(true)
    slow.abort(PAST_BUDGET)
    expect(await calls[1]).toEqual(new Error('terminated'))
    expect(await calls[3]).toEqual(new Error('terminated'))
    // The finished one's result died with the batch: it ran again, alone, as did the one never
    // started.
    expect(await calls[0]).toEqual(await expected('Finished first.'))
    expect(await calls[2]).toEqual(await expected('Never started.'))
    expect(handed.map((task) => ('batch' in task ? 'batch' : task.slot))).toEqual(['batch', 0, 2])
  })

  it('gives every call of a batch the error of a worker that died with no call past its budget', async () => {
    const { starts, call } = setUp(2)
    const dispatch: Dispatch = () => Promise.reject(new Error('worker exited'))
    const batches = new TurnBatches(dispatch, starts, 1)
    const calls = ['A.', 'B.', 'C.'].map((text, i) =>
      batches.run(call(i, text), new AbortController().signal).catch((error: unknown) => error),
    )
    expect(await Promise.all(calls)).toEqual([1, 2, 3].map(() => new Error('worker exited')))
  })
})
