/* How a call of the feature pool (pool.ts) can fail besides its feature's own errors. */

/** The call ran past its time budget: it was cancelled (its worker terminated and replaced). */
export class FeatureTimeoutError extends Error {
  override name = 'FeatureTimeoutError'
}

/**
 * The caller gave the call up (its signal aborted) before a worker started it: it was not run.
 */
export class FeatureGivenUpError extends Error {
  override name = 'FeatureGivenUpError'
}

/**
 * The bounded queue is full (every thread busy and `maxQueue` calls waiting), or the call waited
 * a whole time budget for a thread.
 */
export class PoolOverloadedError extends Error {
  override name = 'PoolOverloadedError'
}
