import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

/*
 * Feature threads run below the event loop's priority (FEATURE_THREAD_NICE, 19 by default): on a
 * busy machine the thread answering /health, GET /api/v1/data and the dashboard gets the CPU
 * first, and the features take what is left. Linux applies a nice value to one thread when given
 * the thread's id, which /proc/thread-self names; elsewhere the call fails and nothing changes.
 * Raising a nice value needs no privilege.
 *
 * Measured with `pnpm bench --only heavy` (8 parallel 1 MB requests, /health every 20 ms, 2
 * cores, 4 runs each): /health p99 37–62 ms at nice 0, 32–50 ms at 10, 25–48 ms at 19.
 */

/** This thread's id (Linux), or undefined where /proc/thread-self does not exist. */
export function threadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    return Number.isInteger(tid) && tid > 0 ? tid : undefined
  } catch {
    return undefined
  }
}

/** Sets the calling thread's nice value; false where the system cannot (not Linux). */
export function lowerThreadPriority(nice: number): boolean {
  const tid = threadId()
  if (tid === undefined || nice === 0) return false
  setPriority(tid, nice)
  return true
}
