import { GIVEN_UP, waitingMark } from './call-slots.js'
import type { BatchOutcome, FeatureBatch, FeatureTask } from './task-runner.js'

/*
 * Small feature calls that reach the pool in one turn of the event loop go to the workers
 * together (pool.ts): each thread gets one task holding its share of them, instead of one task
 * per call.
 *
 * Why: piscina hands a worker one cancellable task at a time, so every call cost a wake-up of a
 * sleeping thread and an answer back, each through the kernel. Under the benchmark's load
 * (`POST` `stats` of 1 KB, 50 connections, 2 threads) that hand-off cost 100-130 µs of CPU per call
 * against 25 for a bare `postMessage` to a thread that is already busy; sending a turn's calls as
 * one task per thread (about 25 calls a turn under that load) took a bare service's cost per call
 * from 257-318 µs to 146-197 (bench/README.md, "One hand-off per turn").
 *
 * Each call keeps everything the pool promises one call on its own:
 * - its budget counts from its own start: the worker writes each call's start time into its slot
 *   as it reaches it (task-runner.ts), so a call waiting behind its batch-mates is still waiting;
 * - a call that waits a whole budget is refused alone (its slot given up: the worker skips it);
 * - a call given up by its caller is skipped by the worker, alone;
 * - a call past its budget has its batch's worker terminated (the only way to stop a thread
 *   that computes): the other calls of that batch, finished or not, run again, each alone (their
 *   results died with the thread; the features are pure functions, so running one twice is safe);
 * - each call's result or error is its own.
 */

/** The reason a call's signal aborts with when the call has run past its budget. */
export const PAST_BUDGET = 'past budget'

/** Hands a task, one call or a batch, to a worker; aborting `signal` cancels it (piscina.run). */
export type Dispatch = (task: FeatureTask | FeatureBatch, signal: AbortSignal) => Promise<unknown>

interface Entry {
  task: FeatureTask
  signal: AbortSignal
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  /** Settled: its result, or its refusal, given; whatever comes later for it is dropped. */
  done: boolean
  /** The batch it was sent in, while it is in one. */
  batch: AbortController | undefined
  onAbort: () => void
}

export class TurnBatches {
  private waiting: Entry[] = []

  /**
   * @param dispatch hands a task to the pool's workers
   * @param starts the slots shared with the workers (call-slots.ts)
   * @param parts how many batches a turn's calls are split into (the pool's threads)
   */
  constructor(
    private readonly dispatch: Dispatch,
    private readonly starts: BigInt64Array,
    private readonly parts: number,
  ) {}

  /**
   * Runs the call with the others that reach the pool in this turn of the event loop. `signal`
   * aborts when the call is to stop: with PAST_BUDGET once it has run past its budget (its
   * batch's worker is terminated and the call rejects), with anything else while it waits (it
   * rejects at once with that reason, and its worker skips it: its slot has been given up).
   */
  run(task: FeatureTask, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const entry: Entry = {
        task,
        signal,
        resolve,
        reject,
        done: false,
        batch: undefined,
        onAbort: () => {
          if (signal.reason === PAST_BUDGET) entry.batch?.abort()
          else settle(entry, () => reject(signal.reason))
        },
      }
      signal.addEventListener('abort', entry.onAbort, { once: true })
      if (this.waiting.length === 0) setImmediate(this.flush)
      this.waiting.push(entry)
    })
  }

  private readonly flush = (): void => {
    const calls = this.waiting.filter((entry) => !entry.done)
    this.waiting = []
    if (calls.length === 0) return
    const size = Math.ceil(calls.length / Math.min(this.parts, calls.length))
    for (let i = 0; i < calls.length; i += size) this.send(calls.slice(i, i + size))
  }

  private send(calls: Entry[]): void {
    if (calls.length === 1) {
      this.sendAlone(calls[0] as Entry)
      return
    }
    const batch = new AbortController()
    for (const entry of calls) entry.batch = batch
    this.dispatch({ batch: calls.map((entry) => entry.task) }, batch.signal).then(
      (outcomes) => {
        ;(outcomes as BatchOutcome[]).forEach((outcome, i) => {
          const entry = calls[i] as Entry
          if ('value' in outcome) settle(entry, () => entry.resolve(outcome.value))
          else settle(entry, () => entry.reject(outcome.error))
        })
      },
      (error: unknown) => this.recover(calls, error),
    )
  }

  /** One call in a task of its own: piscina takes its signal, as for a call never batched. */
  private sendAlone(entry: Entry): void {
    entry.batch = undefined
    entry.signal.removeEventListener('abort', entry.onAbort)
    if (entry.done) return
    if (entry.signal.aborted) {
      settle(entry, () => entry.reject(entry.signal.reason))
      return
    }
    this.dispatch(entry.task, entry.signal).then(
      (value) => settle(entry, () => entry.resolve(value)),
      (error: unknown) => settle(entry, () => entry.reject(error)),
    )
  }

  /**
   * The batch's task failed as a whole: a call past its budget had its worker terminated, or the
   * worker died. The call past its budget gets the error; the others run again, alone (not
   * those given up by their caller meanwhile: the error tells them so). With no call past its
   * budget, the worker died of something else, and every call gets the error, as one call alone
   * would.
   */
  private recover(calls: Entry[], error: unknown): void {
    const culprit = calls.some((entry) => entry.signal.reason === PAST_BUDGET)
    for (const entry of calls) {
      if (entry.done) continue
      const { slot, ticket } = entry.task
      const at = Atomics.load(this.starts, slot)
      if (!culprit || entry.signal.reason === PAST_BUDGET || at === GIVEN_UP) {
        settle(entry, () => entry.reject(error))
        continue
      }
      // Started (and maybe finished) by the worker that died: waiting again.
      if (at > 0n) Atomics.compareExchange(this.starts, slot, at, waitingMark(ticket))
      this.sendAlone(entry)
    }
  }
}

function settle(entry: Entry, give: () => void): void {
  if (entry.done) return
  entry.done = true
  entry.batch = undefined
  entry.signal.removeEventListener('abort', entry.onAbort)
  give()
}
