import { availableParallelism } from 'node:os'
import type { FeatureName, FeatureResultMap } from '@repo/contracts'
import { Piscina } from 'piscina'
import { validateOptions } from './options.js'
import type { FeatureTask, FeatureWorkerData } from './task-runner.js'

/*
 * Feature work runs in worker threads (piscina), never on the event loop (SPEC section 3,
 * "Heavy and hostile input"). The options are validated here, on the calling thread, before
 * anything is queued; a worker only runs the pure feature function. The pool holds one thread
 * per core unless told otherwise and a bounded queue; a call that runs longer than its budget
 * (counted from when a worker starts it; a call that waits a whole budget for a busy pool is
 * refused as overloaded) is cancelled: piscina terminates the worker
 * running it and starts a fresh one, so later calls still find a full pool.
 */

export interface FeaturePoolOptions {
  /** Worker threads (default: os.availableParallelism()). */
  threads?: number
  /** Calls that may wait for a thread; past that, run() rejects with PoolOverloadedError. */
  maxQueue: number
  /** Budget of one call, in milliseconds; past it, run() rejects with FeatureTimeoutError. */
  timeoutMs: number
  /** Nice value of the worker threads (0–19, see thread-priority.ts; default 0: unchanged). */
  nice?: number
}

export interface FeaturePool {
  /** Validates options (FeatureOptionsError, thrown before queueing), then runs in a worker. */
  run<F extends FeatureName>(
    feature: F,
    data: string,
    rawOptions: unknown,
  ): Promise<FeatureResultMap[F]>
  /** Tasks waiting and running, for metrics. */
  readonly queued: number
  readonly running: number
  readonly threads: number
  /** Lets the calls under way finish, then stops the workers. */
  close(): Promise<void>
}

/** The call ran past its time budget: it was cancelled (its worker terminated and replaced). */
export class FeatureTimeoutError extends Error {
  override name = 'FeatureTimeoutError'
}

/**
 * The bounded queue is full (every thread busy and `maxQueue` calls waiting), or the call waited
 * a whole time budget for a thread.
 */
export class PoolOverloadedError extends Error {
  override name = 'PoolOverloadedError'
}

/**
 * The worker's entry: the compiled worker.js next to this file in the build; from the
 * TypeScript sources (this file is pool.ts), a small shim that loads worker.ts through tsx.
 */
const WORKER = new URL(
  import.meta.url.endsWith('.ts') ? './worker-tsx.mjs' : './worker.js',
  import.meta.url,
)

/** How long a call given a free thread may wait for that thread to boot; then it is overloaded. */
const STARTUP_LIMIT_MS = 60_000
const STARTUP_POLL_MS = 50

const PISCINA_FULL = /^(?:Task queue is at limit|No task queue available)/

export function createFeaturePool(opts: FeaturePoolOptions): FeaturePool {
  const threads = opts.threads ?? availableParallelism()
  // When each call started running (ms since the epoch; 0: still waiting), written by the worker
  // that runs it: the budget counts running time, and a call that waited a whole budget for a
  // thread is refused as overloaded rather than reported as a slow feature. One slot per call
  // that may be pending at once.
  const slots = threads + opts.maxQueue + 1
  const startedAt = new BigInt64Array(new SharedArrayBuffer(slots * 8))
  const free = Array.from({ length: slots }, (_, i) => i)
  const piscina = new Piscina<FeatureTask, FeatureResultMap[FeatureName]>({
    filename: WORKER.href,
    minThreads: threads,
    maxThreads: threads,
    maxQueue: opts.maxQueue,
    workerData: {
      startedAt: startedAt.buffer as SharedArrayBuffer,
      nice: opts.nice ?? 0,
    } satisfies FeatureWorkerData,
  })
  // Calls handed to piscina and not settled yet: running ones plus waiting ones.
  let pending = 0
  let closed = false

  async function run<F extends FeatureName>(feature: F, data: string, rawOptions: unknown) {
    const options = validateOptions(feature, rawOptions)
    if (closed) throw new Error('The feature pool is closed.')
    const slot = free.pop()
    if (pending >= threads + opts.maxQueue || slot === undefined) {
      if (slot !== undefined) free.push(slot)
      throw new PoolOverloadedError(
        `All ${threads} feature threads are busy and ${opts.maxQueue} calls are waiting.`,
      )
    }
    Atomics.store(startedAt, slot, 0n)
    // A call that found a thread free is not waiting for one while that thread boots (a worker
    // replacing a cancelled one loads its modules first, seconds on a loaded machine): its
    // budget starts when it starts, within STARTUP_LIMIT_MS.
    const hadFreeThread = pending < threads
    const calledAt = Date.now()
    const controller = new AbortController()
    let expired: 'waiting' | 'running' | undefined
    let timer: NodeJS.Timeout
    const check = () => {
      const started = Number(Atomics.load(startedAt, slot))
      if (started === 0 && hadFreeThread && Date.now() - calledAt < STARTUP_LIMIT_MS) {
        timer = setTimeout(check, STARTUP_POLL_MS)
        return
      }
      const ranMs = started === 0 ? 0 : Date.now() - started
      if (started === 0 || ranMs >= opts.timeoutMs) {
        expired = started === 0 ? 'waiting' : 'running'
        controller.abort()
      } else {
        timer = setTimeout(check, opts.timeoutMs - ranMs)
      }
    }
    timer = setTimeout(check, opts.timeoutMs)
    pending++
    try {
      const task: FeatureTask<F> = { feature, data, options, slot }
      return (await piscina.run(task, { signal: controller.signal })) as FeatureResultMap[F]
    } catch (error) {
      if (expired === 'running') {
        throw new FeatureTimeoutError(
          `The ${feature} feature did not finish within ${opts.timeoutMs} ms.`,
          { cause: error },
        )
      }
      if (expired === 'waiting') {
        throw new PoolOverloadedError(
          `The call waited ${opts.timeoutMs} ms for a free feature thread.`,
          { cause: error },
        )
      }
      // piscina's own refusals, should its count of free threads differ from ours.
      if (error instanceof Error && PISCINA_FULL.test(error.message)) {
        throw new PoolOverloadedError(error.message, { cause: error })
      }
      throw error
    } finally {
      clearTimeout(timer)
      free.push(slot)
      pending--
    }
  }

  return {
    run,
    get queued() {
      return piscina.queueSize
    },
    get running() {
      return Math.max(0, pending - piscina.queueSize)
    },
    threads,
    close: () => {
      closed = true
      return piscina.close()
    },
  }
}
