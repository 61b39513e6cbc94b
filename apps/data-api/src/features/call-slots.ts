/*
 * Where each pending feature call stands, shared between the pool (pool.ts, on the main thread)
 * and its workers (task-runner.ts): one 64-bit slot per call that may be pending at once.
 *
 * - `waitingMark(ticket)` (negative) while the call waits for a worker;
 * - its start time (ms since the epoch), written by the worker that takes it (`claimStart`): the
 *   call's budget counts from there;
 * - `GIVEN_UP` (0) once the pool has refused it for waiting too long (`giveUp`);
 * - `FINISHED` (1) once the worker has run a call of a batch (`finish`): its answer comes back with
 *   its batch-mates' (batches.ts), and the pool must not count its running time meanwhile.
 *
 * Both sides move a slot only away from the call's own waiting mark (compare-and-exchange), so a
 * worker handed a call the pool has given up, its slot perhaps already reused by a newer call,
 * can neither run it nor stamp the newer call's slot, and the pool never refuses as "waited too
 * long" a call a worker has just started.
 */

/** A slot's value while its call (numbered `ticket`, from 1) waits for a worker. */
export function waitingMark(ticket: number): bigint {
  return -BigInt(ticket)
}

/** A slot's value once the pool has given its call up (and the value of an unused slot). */
export const GIVEN_UP = 0n

/** A slot's value once the worker has run its call, in a batch whose other calls go on. */
export const FINISHED = 1n

/** A call the pool had given up before a worker took it: it is not run. */
export class CallGivenUpError extends Error {
  override name = 'CallGivenUpError'
}

/**
 * The worker's side: writes the call's start time into its slot if the slot still holds the
 * call's waiting mark, and returns it; otherwise throws CallGivenUpError (and the call must not
 * run).
 */
export function claimStart(slots: BigInt64Array, slot: number, ticket: number): bigint {
  const waiting = waitingMark(ticket)
  const start = BigInt(Date.now())
  if (Atomics.compareExchange(slots, slot, waiting, start) !== waiting) {
    throw new CallGivenUpError(`Call ${ticket} was given up before it started.`)
  }
  return start
}

/**
 * The worker's side, for a call of a batch it has run: FINISHED, if the slot still holds the start
 * time it wrote (the pool may have taken the slot back meanwhile, for a newer call).
 */
export function finish(slots: BigInt64Array, slot: number, start: bigint): void {
  Atomics.compareExchange(slots, slot, start, FINISHED)
}

/**
 * The pool's side: gives the call up if it is still waiting (true), or leaves its slot alone
 * because a worker has started it meanwhile (false).
 */
export function giveUp(slots: BigInt64Array, slot: number, ticket: number): boolean {
  const waiting = waitingMark(ticket)
  return Atomics.compareExchange(slots, slot, waiting, GIVEN_UP) === waiting
}
