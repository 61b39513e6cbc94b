import type { FeatureName, FeatureOptionsMap, FeatureResultMap } from '@repo/contracts'
import { move } from 'piscina'
import { type BodyTask, readBody, unitsText } from './body-task.js'
import { claimStart, finish } from './call-slots.js'
import { loadFeature, runValidated } from './index.js'
import { lowerThreadPriority } from './thread-priority.js'

/*
 * What a worker thread of the pool (pool.ts) runs, apart from the thread's entry (worker.ts), so
 * it can be tested on any thread: one feature on options the main thread has already validated.
 * Each worker loads a feature's module, and the libraries it needs, the first time it runs that
 * feature.
 */

export interface FeatureTask<F extends FeatureName = FeatureName> {
  feature: F
  /** The text, or its UTF-16 code units as a body's reading set them apart (body-task.ts). */
  data: string | Uint8Array
  options: FeatureOptionsMap[F]
  /** This call's place in the buffer shared with the pool (see call-slots.ts). */
  slot: number
  /** This call's number (see call-slots.ts). */
  ticket: number
  /** Answer with the result's JSON, as UTF-8 bytes (see resultJson), rather than the result. */
  json?: boolean
}

/**
 * Small calls that reached the pool in one turn of the event loop, run one after the other by one
 * worker (see batches.ts): one hand-off between threads for all of them.
 */
export interface FeatureBatch {
  batch: FeatureTask[]
}

/** What became of one call of a batch: its result, or what it threw. */
export type BatchOutcome = { value: unknown } | { error: unknown }

/** What the pool hands each worker it starts. */
export interface FeatureWorkerData {
  /** Where each call stands, by slot (see call-slots.ts), shared with the pool. */
  startedAt: SharedArrayBuffer
  /** This thread's nice value (see thread-priority.ts). */
  nice: number
}

/**
 * Sets the calling thread's priority from `shared` and returns the task function, which writes
 * each call's start time into `shared` (nothing to write or set without it).
 */
export function taskRunner(shared: FeatureWorkerData | null) {
  const starts = shared ? new BigInt64Array(shared.startedAt) : undefined
  if (shared) lowerThreadPriority(shared.nice)
  async function runOne<F extends FeatureName>(
    task: FeatureTask<F>,
    inBatch = false,
  ): Promise<FeatureResultMap[F] | Uint8Array> {
    const start = starts ? claimStart(starts, task.slot, task.ticket) : undefined
    try {
      await loadFeature(task.feature)
      const text = typeof task.data === 'string' ? task.data : unitsText(task.data)
      const result = runValidated(task.feature, text, task.options)
      return task.json ? resultJson(result) : result
    } finally {
      // Its answer waits for its batch-mates': the pool must not time it meanwhile.
      if (inBatch && starts && start !== undefined) finish(starts, task.slot, start)
    }
  }
  /**
   * A large body to read (body-task.ts), a call, or a batch of calls: each of a batch started
   * (its start time written) only when the one before it has finished, then marked FINISHED, and
   * each answered on its own, so that one call's error (a call given up, say) is not its
   * neighbours'.
   */
  function runTask<F extends FeatureName>(
    task: FeatureTask<F>,
  ): Promise<FeatureResultMap[F] | Uint8Array>
  function runTask(task: FeatureBatch): Promise<BatchOutcome[]>
  function runTask(task: BodyTask): Promise<ReturnType<typeof readBody>>
  async function runTask(task: FeatureTask | FeatureBatch | BodyTask): Promise<unknown> {
    if ('body' in task) {
      if (starts) claimStart(starts, task.slot, task.ticket)
      return readBody(task.body)
    }
    if (!('batch' in task)) {
      const result = await runOne(task)
      // Moved, not copied, to the calling thread.
      return result instanceof Uint8Array ? move(result) : result
    }
    const outcomes: BatchOutcome[] = []
    for (const call of task.batch) {
      try {
        outcomes.push({ value: await runOne(call, true) })
      } catch (error) {
        outcomes.push({ error })
      }
    }
    return outcomes
  }
  return runTask
}

const encoder = new TextEncoder()

/**
 * A result as the UTF-8 bytes of its JSON text, made on the worker thread: the service's thread
 * then neither rebuilds the result from its message nor writes it as JSON, and puts the bytes
 * into its answer as they are (redact's result on 1 MB of text is itself about 1 MB, which cost
 * the service's thread 7 ms to rebuild and 20 ms to write; bench/README.md, "Bytes out").
 */
export function resultJson(result: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(result))
}
