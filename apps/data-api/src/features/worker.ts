import { workerData } from 'node:worker_threads'
import type { FeatureName, FeatureOptionsMap, FeatureResultMap } from '@repo/contracts'
import { loadFeature, runValidated } from './index.js'

/*
 * The worker threads' entry (see pool.ts): runs one feature on options the main thread has
 * already validated. Each worker loads a feature's module, and the libraries it needs, the
 * first time it runs that feature.
 */

export interface FeatureTask<F extends FeatureName = FeatureName> {
  feature: F
  data: string
  options: FeatureOptionsMap[F]
  /** Where this call's start time is written for the pool (see pool.ts). */
  slot: number
}

// Shared with the pool: the start time of each call (ms since the epoch), by slot.
const startedAt = (workerData as { startedAt?: SharedArrayBuffer } | null)?.startedAt
const starts = startedAt ? new BigInt64Array(startedAt) : undefined

export default async function runTask<F extends FeatureName>(
  task: FeatureTask<F>,
): Promise<FeatureResultMap[F]> {
  if (starts) Atomics.store(starts, task.slot, BigInt(Date.now()))
  await loadFeature(task.feature)
  return runValidated(task.feature, task.data, task.options)
}
