import type { FeatureName, FeatureOptionsMap, FeatureResultMap } from '@repo/contracts'
import { FEATURES } from '@repo/contracts'
import { validateOptions } from './options.js'

/*
 * The feature catalogue at run time: loads each feature's module on first use and runs it.
 * Options are validated in options.ts; plans, sizes and quotas are the route's business, and
 * pool.ts runs features in worker threads (each worker loads what it runs).
 */

export { FeatureOptionsError } from './options.js'

type FeatureFunction<F extends FeatureName> = (
  data: string,
  options: FeatureOptionsMap[F],
) => FeatureResultMap[F]

// Each feature's module (and the language libraries it needs, ~80 MB in all) is loaded on its
// first use: an instance that only ever runs `stats` never holds compromise's lexicon or franc's
// trigrams in memory.
const LOADERS: { [F in FeatureName]: () => Promise<FeatureFunction<F>> } = {
  stats: () => import('./stats.js').then((m) => m.stats),
  sentiment: () => import('./sentiment.js').then((m) => m.sentiment),
  keywords: () => import('./keywords.js').then((m) => m.keywords),
  language: () => import('./language.js').then((m) => m.language),
  entities: () => import('./entities.js').then((m) => m.entities),
  summary: () => import('./summary.js').then((m) => m.summary),
  redact: () => import('./redact.js').then((m) => m.redact),
}
const FUNCTIONS: { [F in FeatureName]?: FeatureFunction<F> } = {}

/** Loads a feature's module once; runFeature needs it loaded. */
export async function loadFeature<F extends FeatureName>(feature: F): Promise<void> {
  if (FUNCTIONS[feature] === undefined) {
    ;(FUNCTIONS as Record<F, FeatureFunction<F>>)[feature] = await LOADERS[feature]()
  }
}

export async function loadAllFeatures(): Promise<void> {
  await Promise.all(FEATURES.map((feature) => loadFeature(feature)))
}

/** Runs a loaded feature on options already validated (by validateOptions). */
export function runValidated<F extends FeatureName>(
  feature: F,
  data: string,
  options: FeatureOptionsMap[F],
): FeatureResultMap[F] {
  const run = FUNCTIONS[feature] as FeatureFunction<F> | undefined
  if (run === undefined) throw new Error(`the ${feature} feature is not loaded (call loadFeature)`)
  return run(data, options)
}

/**
 * Validates `rawOptions` (see validateOptions), fills in the defaults and runs the loaded
 * feature on `data`, in this thread. Throws FeatureOptionsError when the options are invalid.
 */
export function runFeature<F extends FeatureName>(
  feature: F,
  data: string,
  rawOptions: unknown,
): FeatureResultMap[F] {
  return runValidated(feature, data, validateOptions(feature, rawOptions))
}
