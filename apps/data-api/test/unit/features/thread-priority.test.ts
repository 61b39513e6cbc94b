import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createFeaturePool } from '../../../src/features/pool.js'
import { lowerThreadPriority, threadId } from '../../../src/features/thread-priority.js'

/** The nice value of each thread of this process, by thread id (field 19 of its stat line). */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>()
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    // Fields after the command name (in parentheses, which may hold spaces): state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    out.set(Number(tid), Number(fields[19 - 3]))
  }
  return out
}

const threadsAt = (nice: number) => [...niceByThread().values()].filter((n) => n === nice).length

describe('feature thread priority', () => {
  it("names the calling thread by its own id, one of this process's threads", () => {
    const tid = threadId()
    expect(tid).toBeGreaterThan(0)
    expect(niceByThread().has(tid as number)).toBe(true)
  })

  it('runs every feature thread at the nice value it is given, and leaves the event loop alone', async () => {
    // The thread running this test (the process's main thread, or a worker of the test runner).
    const self = threadId() as number
    const own = niceByThread().get(self)
    const nice = own === 7 ? 8 : 7
    const before = threadsAt(nice)
    const pool = createFeaturePool({ threads: 2, maxQueue: 2, timeoutMs: 60_000, nice })
    try {
      await Promise.all([
        pool.run('stats', 'One.', undefined),
        pool.run('stats', 'Two.', undefined),
      ])
      expect(threadsAt(nice) - before).toBe(2)
      expect(niceByThread().get(self)).toBe(own)
    } finally {
      await pool.close()
    }
  }, 60_000)

  it('changes nothing at nice 0', () => {
    const self = threadId() as number
    const own = niceByThread().get(self)
    expect(lowerThreadPriority(0)).toBe(false)
    expect(niceByThread().get(self)).toBe(own)
  })

  it('lowers the calling thread, and that thread only', () => {
    // Run here, in the test's own thread (under Stryker, code in other threads is never mutated).
    // A lower priority for the rest of this file's thread harms nothing; a higher one would need
    // privileges.
    const self = threadId() as number
    const before = niceByThread()
    const own = before.get(self) as number
    const nice = Math.min(own + 1, 19)
    expect(lowerThreadPriority(nice)).toBe(true)
    const after = niceByThread()
    expect(after.get(self)).toBe(nice)
    for (const [tid, value] of after)
      if (tid !== self && before.has(tid)) expect(value).toBe(before.get(tid))
  })

  it('does nothing where the system has no thread id to give', () => {
    expect(threadId('/proc/no-such-link')).toBeUndefined()
    expect(lowerThreadPriority(5, '/proc/no-such-link')).toBe(false)
  })
})
