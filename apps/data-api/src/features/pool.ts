import { availableParallelism } from 'node:os'
import type { FeatureName, FeatureResultMap } from '@repo/contracts'
import { Piscina } from 'piscina'
import { PAST_BUDGET, TurnBatches } from './batches.js'
import type { BodyReading, BodyTask } from './body-task.js'
import { FINISHED, giveUp, waitingMark } from './call-slots.js'
import { validateOptions } from './options.js'
import type { FeaturePool, FeaturePoolOptions, FeatureText } from './pool-api.js'
import { FeatureGivenUpError, FeatureTimeoutError, PoolOverloadedError } from './pool-errors.js'
import type { FeatureBatch, FeatureTask, FeatureWorkerData } from './task-runner.js'
import { workerEntry } from './worker-entry.js'

/*
 * Feature work runs in worker threads (piscina), never on the event loop (SPEC section 3,
 * "Heavy and hostile input"). The options are validated here, on the calling thread, before
 * anything is queued; a worker only runs the pure feature function. The pool holds up to one
 * thread per core unless told otherwise and a bounded queue. Its threads start with it and stay,
 * or, given `idleTimeoutMs`, start with the first calls (as many as run at once) and stop after
 * that long without one: a service answering only `GET`s then keeps no feature thread (each is
 * an isolate of about 16 MB at rest, 30-40 MB under load). A call that runs longer than its budget
 * (counted from when a worker starts it; a call that waits a whole budget for a busy pool is
 * refused as overloaded) is cancelled: piscina terminates the worker
 * running it and starts a fresh one (at the next call, for lazily started threads), so later
 * calls still find a full pool. A call whose caller
 * gives it up (`signal`: its client went away) while it waits is not run; one already running
 * finishes, its thread kept (ending it would cost a fresh thread's start for no one's gain).
 */

export type { FeaturePool, FeaturePoolOptions }
export { FeatureGivenUpError, FeatureTimeoutError, PoolOverloadedError }

/** `view`'s buffer, to be moved to a worker, when the view holds the whole of it. */
function transferable(view: Uint8Array | undefined): ArrayBuffer[] | undefined {
  if (view === undefined || view.byteOffset !== 0) return undefined
  const { buffer } = view
  return buffer instanceof ArrayBuffer && buffer.byteLength === view.byteLength
    ? [buffer]
    : undefined
}

const WORKER = workerEntry(import.meta.url)

/**
 * Calls on at most this many characters of `data` go to the workers with the others of their turn
 * of the event loop (batches.ts); larger ones each in a task of their own. A feature runs 16 KB in
 * a few milliseconds at most (features/README.md), so a call waits little behind its batch-mates.
 */
export const BATCH_CHARS = 16 * 1024

/** How often a call given a free thread looks whether that thread has started it. */
const STARTUP_POLL_MS = 50

export function createFeaturePool(opts: FeaturePoolOptions): FeaturePool {
  const threads = opts.threads ?? availableParallelism()
  const startupLimitMs = opts.startupLimitMs ?? 60_000
  // Where each pending call stands (call-slots.ts): waiting, or when a worker started it. The
  // budget counts running time, and a call that waited a whole budget for a thread is refused as
  // overloaded rather than reported as a slow feature.
  const slots = threads + opts.maxQueue
  const startedAt = new BigInt64Array(new SharedArrayBuffer(slots * 8))
  const free = Array.from({ length: slots }, (_, i) => i)
  // Which slots a pending call holds (1), for the metrics' count of calls not started yet.
  const held = new Uint8Array(slots)
  let lastTicket = 0
  const piscina = new Piscina<FeatureTask | FeatureBatch | BodyTask, unknown>({
    filename: WORKER.href,
    maxThreads: threads,
    ...(opts.idleTimeoutMs === undefined
      ? { minThreads: threads }
      : { minThreads: 0, idleTimeout: opts.idleTimeoutMs }),
    // The bound is `pending` below: piscina's own queue is left unbounded, so that it never
    // refuses a call this pool has counted and given a slot.
    workerData: {
      startedAt: startedAt.buffer as SharedArrayBuffer,
      nice: opts.nice ?? 0,
    } satisfies FeatureWorkerData,
  })
  const batches = new TurnBatches(
    (task, signal) => piscina.run(task, { signal }),
    startedAt,
    threads,
  )
  // Calls handed to piscina and not settled yet: running ones plus waiting ones.
  let pending = 0
  let givenUp = 0
  let closed = false
  /** Resolves close()'s wait once the last pending call has settled. */
  let drained: (() => void) | undefined
  let closing: Promise<void> | undefined

  /** A feature's call: its options validated (rejecting when invalid), then submitted. */
  async function call(
    feature: FeatureName,
    data: FeatureText,
    rawOptions: unknown,
    signal: AbortSignal | undefined,
    json: boolean,
  ): Promise<unknown> {
    const options = validateOptions(feature, rawOptions)
    return submit(
      { call: `The ${feature} call`, work: `The ${feature} feature` },
      (slot, ticket) => ({ feature, data, options, slot, ticket, json }),
      typeof data === 'string' && data.length <= BATCH_CHARS,
      typeof data === 'string' ? undefined : data,
      signal,
    )
  }

  /**
   * Runs a task in a slot of its own, within the pool's bounds and budget. `named` names it in
   * errors; `batched`: it goes with the turn's other small calls (batches.ts); `moved` is handed
   * to the worker rather than copied (the caller no longer reads it).
   */
  async function submit(
    named: { call: string; work: string },
    build: (slot: number, ticket: number) => FeatureTask | BodyTask,
    batched: boolean,
    moved: Uint8Array | undefined,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    if (closed) throw new Error('The feature pool is closed.')
    if (signal?.aborted) {
      givenUp++
      throw new FeatureGivenUpError(`${named.call} was given up before it was queued.`)
    }
    if (pending >= threads + opts.maxQueue) {
      throw new PoolOverloadedError(
        `All ${threads} feature threads are busy and ${opts.maxQueue} calls are waiting.`,
      )
    }
    // Each pending call holds one slot, and fewer than `slots` are pending: one is free.
    const slot = free.pop() as number
    held[slot] = 1
    // Set by wait() below, which every call starts with.
    let ticket = 0
    let waiting = 0n
    let hadFreeThread = false
    let calledAt = 0
    const controller = new AbortController()
    let stopped: 'waiting' | 'running' | 'given up' | undefined
    let timer: NodeJS.Timeout | undefined
    const check = () => {
      // Stryker disable next-line EqualityOperator: `<=` differs only at the limit's very millisecond (then one more look, 50 ms on); `>=` refuses every booting call, which the tests see
      const booting = hadFreeThread && Date.now() - calledAt < startupLimitMs
      if (booting && Atomics.load(startedAt, slot) === waiting) {
        // Its thread is still loading its modules.
        timer = setTimeout(check, STARTUP_POLL_MS)
        return
      }
      // A call still waiting is given up in one exchange, so no worker can start it afterwards;
      // one a worker has started goes on to its running time.
      if (giveUp(startedAt, slot, ticket)) {
        stopped = 'waiting'
        controller.abort()
        return
      }
      const at = Atomics.load(startedAt, slot)
      if (at === FINISHED) {
        // Run, in a batch whose other calls go on: its answer comes with theirs.
        timer = setTimeout(check, opts.timeoutMs)
        return
      }
      const ranMs = Date.now() - Number(at)
      // Stryker disable next-line EqualityOperator: `<=` differs only when it has run its budget to the millisecond (then cancelled a tick later); `>=` cancels at once, which the tests see
      if (ranMs < opts.timeoutMs) {
        timer = setTimeout(check, opts.timeoutMs - ranMs)
      } else {
        stopped = 'running'
        controller.abort(PAST_BUDGET)
      }
    }
    // The call waits for a worker under a new ticket, its clock started afresh. One that found a
    // thread free is not waiting for one while that thread boots (a replacing worker loads its
    // modules first, seconds on a loaded machine): its budget starts when it starts.
    const wait = (freeThread: boolean) => {
      // Stryker disable next-line UpdateOperator: tickets need only differ from one another; counting down gives marks 1, 2, ..., which no start time (ms since 1970) nor GIVEN_UP equals
      ticket = ++lastTicket
      waiting = waitingMark(ticket)
      Atomics.store(startedAt, slot, waiting)
      hadFreeThread = freeThread
      calledAt = Date.now()
      clearTimeout(timer)
      timer = setTimeout(check, opts.timeoutMs)
    }
    wait(pending < threads)
    // Given up by its caller while it waits: no worker will start it (the worker that reaches it
    // finds its slot given up and skips it, in microseconds). piscina is not told: a call it has
    // just handed to a worker would cost that worker its life. The call stays pending, and its
    // caller's slots held, until that worker has passed it, so giving calls up never lets more
    // into the pool than its bound.
    // (A call the pool has refused for waiting, or that a worker has started, no longer holds its
    // waiting mark: giveUp leaves it alone.)
    const onGiveUp = () => {
      if (giveUp(startedAt, slot, ticket)) {
        stopped = 'given up'
        givenUp++
        clearTimeout(timer)
      }
    }
    signal?.addEventListener('abort', onGiveUp, { once: true })
    pending++
    try {
      const task = build(slot, ticket)
      // Its batch's worker ended before the call's answer came back (batches.ts): it waits again,
      // under a new ticket (the ending worker cannot start it any more), for the thread replacing
      // that one, its time counted afresh as for a call given a free thread.
      const again = (): FeatureTask => {
        wait(true)
        return build(slot, ticket) as FeatureTask
      }
      const result = batched
        ? batches.run(task as FeatureTask, again, controller.signal)
        : piscina.run(task, { signal: controller.signal, transferList: transferable(moved) })
      return await result
    } catch (error) {
      if (stopped === 'given up') {
        throw new FeatureGivenUpError(`${named.call} was given up before a worker started it.`, {
          cause: error,
        })
      }
      if (stopped === 'running') {
        throw new FeatureTimeoutError(`${named.work} did not finish within ${opts.timeoutMs} ms.`, {
          cause: error,
        })
      }
      if (stopped === 'waiting') {
        throw new PoolOverloadedError(
          `The call waited ${opts.timeoutMs} ms for a free feature thread.`,
          { cause: error },
        )
      }
      throw error
    } finally {
      signal?.removeEventListener('abort', onGiveUp)
      clearTimeout(timer)
      held[slot] = 0
      free.push(slot)
      pending--
      if (pending === 0) drained?.()
    }
  }

  /** Pending calls no worker has started: waiting, or given up and not yet passed by a worker. */
  function notStarted(): number {
    let count = 0
    for (let slot = 0; slot < slots; slot++) {
      if (held[slot] === 1 && Atomics.load(startedAt, slot) <= 0n) count++
    }
    return count
  }

  async function closeOnce(): Promise<void> {
    closed = true
    // piscina's own close() stops waiting once one thread is idle (5.3.2 registers its "task
    // done" listener once per thread and once more, and counts every call of it as a thread
    // done), then terminates the others with their calls: a SIGTERM while calls ran crashed
    // the process, their workers' answers coming for tasks it had dropped. Every pending call
    // settles within its budget (waiting, then running), so wait for them all first.
    if (pending > 0) await new Promise<void>((resolve) => (drained = resolve))
    await piscina.close()
  }

  return {
    run: (feature, data, rawOptions, signal) =>
      call(feature, data, rawOptions, signal, false) as Promise<FeatureResultMap[typeof feature]>,
    runJson: (feature, data, rawOptions, signal) =>
      call(feature, data, rawOptions, signal, true) as Promise<Uint8Array>,
    readBody: (body, signal) =>
      submit(
        { call: 'Reading the body', work: 'Reading the body' },
        (slot, ticket) => ({ body, slot, ticket }),
        false,
        body,
        signal,
      ) as Promise<BodyReading>,
    get queued() {
      return notStarted()
    },
    get running() {
      return pending - notStarted()
    },
    get givenUp() {
      return givenUp
    },
    threads,
    get liveThreads() {
      return piscina.threads.length
    },
    // Once: a second call gets the first one's promise.
    close: () => (closing ??= closeOnce()),
  }
}
