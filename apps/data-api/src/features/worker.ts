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
}

export default async function runTask<F extends FeatureName>(
  task: FeatureTask<F>,
): Promise<FeatureResultMap[F]> {
  await loadFeature(task.feature)
  return runValidated(task.feature, task.data, task.options)
}
