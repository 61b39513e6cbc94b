import { describe, expect, it } from 'vitest'
import { type Dispatch, PAST_BUDGET, TurnBatches } from '../../../src/features/batches.js'
import {
  CallGivenUpError,
  claimStart,
  FINISHED,
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

/** What each task handed over held: a batch's slots, or a lone call's slot. */
const shapes = (handed: { task: FeatureTask | FeatureBatch }[]) =>
  handed.map(({ task }) => ('batch' in task ? task.batch.map((t) => t.slot) : task.slot))

/** `gate`: tasks wait for it before they run (a worker busy with something else). */
function setUp(parts: number, gate: Promise<void> = Promise.resolve()) {
  const shared = new SharedArrayBuffer(16 * 8)
  const starts = new BigInt64Array(shared)
  const runTask = taskRunner({ startedAt: shared, nice: 0 })
  const handed: { task: FeatureTask | FeatureBatch; signal: AbortSignal }[] = []
  const dispatch: Dispatch = async (task, signal) => {
    handed.push({ task, signal })
    await gate
    return 'batch' in task ? runTask(task) : runTask(task)
  }
  let lastTicket = 0
  /** A call in `slot`, waiting, and what the pool does when it must wait again (a new ticket). */
  const call = (slot: number, data: string) => {
    const task: FeatureTask = {
      feature: 'stats',
      data,
      options: validateOptions('stats', undefined),
      slot,
      ticket: ++lastTicket,
    }
    starts[slot] = waitingMark(task.ticket)
    const again = () => {
      const ticket = ++lastTicket
      starts[slot] = waitingMark(ticket)
      return { ...task, ticket }
    }
    return [task, again] as const
  }
  const batchesWith = (send: Dispatch) => new TurnBatches(send, starts, parts)
  return { starts, handed, runTask, call, batchesWith, batches: batchesWith(dispatch) }
}

const expected = (text: string) => runFeature('stats', text, undefined)
const open = () => new AbortController().signal

describe("a turn's feature calls, handed over together", () => {
  it("deals a turn's calls out to one batch per thread, each call answered with its own result", async () => {
    const { batches, call, handed } = setUp(2)
    const results = await Promise.all(TEXTS.map((text, i) => batches.run(...call(i, text), open())))
    expect(results).toEqual(await Promise.all(TEXTS.map(expected)))
    expect(shapes(handed)).toEqual([
      [0, 2, 4],
      [1, 3],
    ])
  })

  it('keeps every thread busy: 9 calls on 8 threads make 8 batches', async () => {
    const { batches, call, handed } = setUp(8)
    await Promise.all(Array.from({ length: 9 }, (_, i) => batches.run(...call(i, 'Hi.'), open())))
    expect(handed).toHaveLength(8)
  })

  it('hands a call alone in its turn over on its own, with its own signal', async () => {
    const { batches, call, handed } = setUp(2)
    const signal = open()
    const [task, again] = call(0, 'Alone here.')
    expect(await batches.run(task, again, signal)).toEqual(await expected('Alone here.'))
    // The next turn's two calls on two threads: a call each, so no batch either.
    await Promise.all([
      batches.run(...call(1, 'First.'), open()),
      batches.run(...call(2, 'Second.'), open()),
    ])
    expect(shapes(handed)).toEqual([0, 1, 2])
    expect(handed[0]?.signal).toBe(signal)
  })

  it("marks each call of a batch FINISHED once run, so the pool stops timing it, and leaves a lone call's start", async () => {
    const { batches, call, starts } = setUp(1)
    await Promise.all([
      batches.run(...call(0, 'A.'), open()),
      batches.run(...call(1, 'B.'), open()),
    ])
    expect([starts[0], starts[1]]).toEqual([FINISHED, FINISHED])
    const before = Date.now()
    await batches.run(...call(2, 'Alone.'), open())
    expect(Number(starts[2])).toBeGreaterThanOrEqual(before)
  })

  it('refuses a call that waited too long at once, alone, and its worker skips it', async () => {
    let release: () => void = () => {}
    const { batches, call, handed, starts } = setUp(
      1,
      new Promise((resolve) => (release = resolve)),
    )
    const refused = new AbortController()
    const calls = [
      batches.run(...call(0, 'Kept one.'), open()),
      batches.run(...call(1, 'Refused.'), refused.signal).catch((error: unknown) => error),
      batches.run(...call(2, 'Kept two.'), open()),
    ]
    // Handed over (the turn has ended), waiting for the worker. As the pool does: its slot given
    // up, then its signal aborted.
    await new Promise((resolve) => setImmediate(resolve))
    expect(shapes(handed)).toEqual([[0, 1, 2]])
    expect(giveUp(starts, 1, 2)).toBe(true)
    refused.abort('waited')
    expect(await calls[1]).toBe('waited')
    release()
    expect(await calls[0]).toEqual(await expected('Kept one.'))
    expect(await calls[2]).toEqual(await expected('Kept two.'))
    // The worker passed it without running it: never started, never marked FINISHED.
    expect(starts[1]).toBe(GIVEN_UP)
    expect(starts[2]).toBe(FINISHED)
  })

  it('does not hand over a call refused before its turn ended', async () => {
    const { batches, call, handed, starts } = setUp(1)
    const refused = new AbortController()
    const calls = [
      batches.run(...call(0, 'Kept.'), open()),
      batches.run(...call(1, 'Refused.'), refused.signal).catch((error: unknown) => error),
    ]
    expect(giveUp(starts, 1, 2)).toBe(true)
    refused.abort('waited')
    expect(await calls[1]).toBe('waited')
    expect(await calls[0]).toEqual(await expected('Kept.'))
    expect(shapes(handed)).toEqual([0])
  })

  it("gives each call its own error: one given up by its caller does not fail its batch-mates'", async () => {
    const { batches, call, starts } = setUp(1)
    const calls = [
      batches.run(...call(0, 'Wanted.'), open()),
      batches.run(...call(1, 'Given up.'), open()).catch((e: unknown) => e),
    ]
    expect(giveUp(starts, 1, 2)).toBe(true)
    expect(await calls[1]).toBeInstanceOf(CallGivenUpError)
    expect(await calls[0]).toEqual(await expected('Wanted.'))
  })

  /**
   * A worker that runs a batch's first call, starts the second and is stuck in it until the
   * batch's signal ends it (`stuck`), or dies right there (`dies`, an error of its own).
   */
  function stuckWorker(setup: ReturnType<typeof setUp>, ending: 'stuck' | 'dies') {
    const handed: (FeatureTask | FeatureBatch)[] = []
    let running: () => void = () => {}
    const started = new Promise<void>((resolve) => (running = resolve))
    const dispatch: Dispatch = async (task, signal) => {
      handed.push(task)
      if (!('batch' in task)) return setup.runTask(task)
      const [done, culprit] = task.batch as [FeatureTask, FeatureTask]
      await setup.runTask({ batch: [done] })
      // The culprit started: its start time written, as the worker does.
      claimStart(setup.starts, culprit.slot, culprit.ticket)
      running()
      if (ending === 'dies') throw new Error('worker exited')
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('terminated'))),
      )
    }
    return { handed, started, batches: setup.batchesWith(dispatch) }
  }

  it('ends the batch of a call past its budget, and runs its batch-mates again, each alone', async () => {
    const setup = setUp(1)
    const { handed, started, batches } = stuckWorker(setup, 'stuck')
    const slow = new AbortController()
    const [goneTask, goneAgain] = setup.call(3, 'Gone.')
    const calls = [
      batches.run(...setup.call(0, 'Finished first.'), open()),
      batches.run(...setup.call(1, 'Stuck.'), slow.signal).catch((error: unknown) => error),
      batches.run(...setup.call(2, 'Never started.'), open()),
      batches.run(goneTask, goneAgain, open()).catch((error: unknown) => error),
    ]
    await started
    expect(setup.starts[0]).toBe(FINISHED)
    expect(setup.starts[1]).toBeGreaterThan(FINISHED)
    expect(giveUp(setup.starts, 3, goneTask.ticket)).toBe(true)
    slow.abort(PAST_BUDGET)
    expect(await calls[1]).toEqual(new Error('terminated'))
    expect(await calls[3]).toEqual(new Error('terminated'))
    // The finished one's answer died with the batch: it ran again, alone, as did the one never
    // started, each under a new ticket (the ending worker could not start them any more).
    expect(await calls[0]).toEqual(await expected('Finished first.'))
    expect(await calls[2]).toEqual(await expected('Never started.'))
    expect(handed.map((task) => ('batch' in task ? 'batch' : [task.slot, task.ticket]))).toEqual([
      'batch',
      [0, 5],
      [2, 6],
    ])
  })

  it('gives the error of a worker that died to the call it was running only; the others run again', async () => {
    const setup = setUp(1)
    const { handed, started, batches } = stuckWorker(setup, 'dies')
    const calls = ['Finished.', 'Running.', 'Waiting.'].map((text, i) =>
      batches.run(...setup.call(i, text), open()).catch((error: unknown) => error),
    )
    await started
    expect(await calls[1]).toEqual(new Error('worker exited'))
    expect(await calls[0]).toEqual(await expected('Finished.'))
    expect(await calls[2]).toEqual(await expected('Waiting.'))
    expect(handed.map((task) => ('batch' in task ? 'batch' : task.slot))).toEqual(['batch', 0, 2])
  })
})
