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
  it("names the calling thread by its own id (the main thread's is the process id)", () => {
    expect(threadId()).toBe(process.pid)
  })

  it('runs every feature thread at the nice value it is given, and leaves the event loop alone', async () => {
    const own = niceByThread().get(process.pid)
    const nice = own === 7 ? 8 : 7
    const before = threadsAt(nice)
    const pool = createFeaturePool({ threads: 2, maxQueue: 2, timeoutMs: 60_000, nice })
    try {
      await Promise.all([
        pool.run('stats', 'One.', undefined),
        pool.run('stats', 'Two.', undefined),
      ])
      expect(threadsAt(nice) - before).toBe(2)
      expect(niceByThread().get(process.pid)).toBe(own)
    } finally {
      await pool.close()
    }
  }, 60_000)

  it('changes nothing at nice 0', () => {
    expect(lowerThreadPriority(0)).toBe(false)
  })
})
