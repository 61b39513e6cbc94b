import { FINISHED, GIVEN_UP } from './call-slots.js'
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
 *   as it reaches it (task-runner.ts), so a call waiting behind its batch-mates is still waiting,
 *   and FINISHED once it has run, so that the pool stops timing it while its answer waits for
 *   the batch's end;
 * - a call that waits a whole budget is refused alone (its slot given up: the worker skips it);
 * - a call given up by its caller is skipped by the worker, alone;
 * - a call past its budget has its batch's worker terminated (the only way to stop a thread
 *   that computes), and a worker may die of something else: the call it was running gets the
 *   error, as a call alone would; the batch's other calls, finished or not (their answers died
 *   with the thread; the features are pure functions, so running one twice is safe), wait again
 *   under new tickets (`again`, from the pool) and run each alone;
 * - each call's result or error is its own.
 */

/** The reason a call's signal aborts with when the call has run past its budget. */
export const PAST_BUDGET = 'past budget'

/** Hands a task, one call or a batch, to a worker; aborting `signal` cancels it (piscina.run). */
export type Dispatch = (task: FeatureTask | FeatureBatch, signal: AbortSignal) => Promise<unknown>

interface Entry {
  task: FeatureTask
  /** The call waiting again after its batch's worker ended: the task to send, new ticket and all. */
  again: () => FeatureTask
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
   * `again` is called when the call must wait again, its batch's worker gone before its answer
   * came back: the pool gives it a new ticket and returns the task to send.
   */
  run(task: FeatureTask, again: () => FeatureTask, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const entry: Entry = {
        task,
        again,
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

  /**
   * Deals the turn's calls out to one batch per thread, in turn: every thread gets work, and the
   * turn's first calls (those the pool found a thread free for, which may wait for that thread's
   * boot) each head a batch.
   */
  private readonly flush = (): void => {
    const calls = this.waiting.filter((entry) => !entry.done)
    this.waiting = []
    const batches: Entry[][] = Array.from({ length: Math.min(this.parts, calls.length) }, () => [])
    for (const [i, entry] of calls.entries()) batches[i % batches.length]?.push(entry)
    for (const batch of batches) this.send(batch)
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
   * The batch's task failed as a whole: its worker was terminated for a call past its budget, or
   * died. The call it was running gets the error, and so do those given up by their caller while
   * they waited (the pool tells them so); the others, waiting or finished, wait again and run
   * each alone.
   */
  private recover(calls: Entry[], error: unknown): void {
    for (const entry of calls) {
      if (entry.done) continue
      const at = Atomics.load(this.starts, entry.task.slot)
      if (at < GIVEN_UP || at === FINISHED) {
        entry.task = entry.again()
        this.sendAlone(entry)
      } else {
        settle(entry, () => entry.reject(error))
      }
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
