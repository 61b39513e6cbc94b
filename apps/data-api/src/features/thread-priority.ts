import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

/*
 * Feature threads run below the event loop's priority (FEATURE_THREAD_NICE, 19 by default): on a
 * busy machine the thread answering /health, GET /api/v1/data and the dashboard gets the CPU
 * first, and the features take what is left. Linux applies a nice value to one thread when given
 * the thread's id, which /proc/thread-self names; elsewhere the call fails and nothing changes.
 * Raising a nice value needs no privilege.
 *
 * A nice value weighs a thread against the others of its CPU cgroup: in a container or a systemd
 * unit, the service's own threads only. On a host where everything shares one group, a busy
 * neighbour at nice 0 takes the CPU from the features first (measured: POST stats under wrk with
 * a test run beside it, 2,272-2,538 req/s and up to 1.7% 503 OVERLOADED at 19, 3,099-3,234 req/s
 * and none at 0); run such hosts with FEATURE_THREAD_NICE=0.
 *
 * Measured with `pnpm bench --only heavy` (8 parallel 1 MB requests, /health every 20 ms, 2
 * cores, 4 runs each): /health p99 37–62 ms at nice 0, 32–50 ms at 10, 25–48 ms at 19.
 */

/**
 * This thread's id (Linux: /proc/thread-self links to `<pid>/task/<tid>`), or undefined where that
 * link does not exist.
 */
export function threadId(link = '/proc/thread-self'): number | undefined {
  try {
    return Number(readlinkSync(link).split('/').pop())
  } catch {
    return undefined
  }
}

/** Sets the calling thread's nice value; false where the system cannot (not Linux). */
export function lowerThreadPriority(nice: number, link?: string): boolean {
  const tid = threadId(link)
  if (tid === undefined || nice === 0) return false
  setPriority(tid, nice)
  return true
}
