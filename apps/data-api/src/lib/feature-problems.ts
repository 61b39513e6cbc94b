import { HttpProblem } from '@repo/service-kit'
import { FeatureOptionsError } from '../features/options.js'
import { FeatureGivenUpError, FeatureTimeoutError, PoolOverloadedError } from '../features/pool.js'
import { ClientGoneError } from './feature-slots.js'

/**
 * What a failed feature call answers. Invalid options are the client's (400); a call past its
 * time budget or refused by a full pool is the service's: 503 with Retry-After, and the request is
 * given back to the key's quota (`refunded`). A request whose client went away before its feature
 * started is not run (before it was handed to the pool: ClientGoneError; while it waited there for
 * a thread: FeatureGivenUpError): a 400 that no one receives, counted as any request that was
 * sent.
 */
export function featureProblem(
  error: unknown,
): { problem: HttpProblem; refund: boolean } | undefined {
  if (
    error instanceof FeatureOptionsError ||
    error instanceof ClientGoneError ||
    error instanceof FeatureGivenUpError
  ) {
    return { problem: new HttpProblem('INVALID_REQUEST', error.message), refund: false }
  }
  if (error instanceof FeatureTimeoutError) {
    return {
      problem: new HttpProblem(
        'FEATURE_TIMEOUT',
        `${error.message} It was stopped and not counted against your quota; retry, or send a smaller text.`,
        { headers: { 'retry-after': '5' } },
      ),
      refund: true,
    }
  }
  if (error instanceof PoolOverloadedError) {
    return {
      problem: new HttpProblem(
        'OVERLOADED',
        'Every feature worker is busy and the queue is full; not counted against your quota: retry shortly.',
        { headers: { 'retry-after': '2' } },
      ),
      refund: true,
    }
  }
  return undefined
}
