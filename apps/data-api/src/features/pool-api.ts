import type { FeatureName, FeatureResultMap } from '@repo/contracts'
import type { BodyReading } from './body-task.js'

/* The feature pool's interface and options (pool.ts builds it). */

/**
 * A feature's text: a string, or its UTF-16 code units as a large body's reading set them apart
 * (body-task.ts), moved to the worker that runs the feature.
 */
export type FeatureText = string | Uint8Array

export interface FeaturePoolOptions {
  /** Worker threads (default: os.availableParallelism()). */
  threads?: number
  /**
   * Given: threads start at the first calls and each stops after this many milliseconds without
   * one. Not given: every thread starts with the pool and stays.
   */
  idleTimeoutMs?: number
  /** Calls that may wait for a thread; past that, run() rejects with PoolOverloadedError. */
  maxQueue: number
  /** Budget of one call, in milliseconds; past it, run() rejects with FeatureTimeoutError. */
  timeoutMs: number
  /** Nice value of the worker threads (0–19, see thread-priority.ts; default 0: unchanged). */
  nice?: number
  /**
   * How long a call given a free thread may wait for that thread to boot before it is refused
   * as overloaded (default 60 s); its budget starts when the thread starts it.
   */
  startupLimitMs?: number
}

export interface FeaturePool {
  /** Validates options (FeatureOptionsError, thrown before queueing), then runs in a worker. */
  run<F extends FeatureName>(
    feature: F,
    data: FeatureText,
    rawOptions: unknown,
    signal?: AbortSignal,
  ): Promise<FeatureResultMap[F]>
  /**
   * As run, answered with the result's JSON text as UTF-8 bytes, made on the worker thread (and
   * moved, not copied, from a call run alone): for an answer that holds the result as it is.
   */
  runJson(
    feature: FeatureName,
    data: FeatureText,
    rawOptions: unknown,
    signal?: AbortSignal,
  ): Promise<Uint8Array>
  /**
   * Reads a large body on a worker thread (body-task.ts), within the same bounds and budget as a
   * feature's call; its bytes are moved there.
   */
  readBody(body: Uint8Array, signal?: AbortSignal): Promise<BodyReading>
  /**
   * Pending calls no worker has started yet (waiting, or given up and not yet passed), and those
   * a worker has started (each call's slot says which), for metrics.
   */
  readonly queued: number
  readonly running: number
  /** Calls given up by their caller before a worker started them (never run), since the start. */
  readonly givenUp: number
  /** Threads the pool may run at once. */
  readonly threads: number
  /** Threads started (or starting) now: `threads`, or fewer while lazily started ones idle. */
  readonly liveThreads: number
  /** Lets the calls under way finish, then stops the workers. */
  close(): Promise<void>
}
