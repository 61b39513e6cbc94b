import type { FeatureName, FeatureOptionsMap, FeatureResultMap } from '@repo/contracts'
import { claimStart } from './call-slots.js'
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
  data: string
  options: FeatureOptionsMap[F]
  /** This call's place in the buffer shared with the pool (see call-slots.ts). */
  slot: number
  /** This call's number (see call-slots.ts). */
  ticket: number
}

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
  return async function runTask<F extends FeatureName>(
    task: FeatureTask<F>,
  ): Promise<FeatureResultMap[F]> {
    if (starts) claimStart(starts, task.slot, task.ticket)
    await loadFeature(task.feature)
    return runValidated(task.feature, task.data, task.options)
  }
}
