import { describe, expect, it } from 'vitest'
import { LastUsedWriter } from '../../../src/lib/last-used.js'

const at = (s: number) => new Date(s * 1000)

describe('LastUsedWriter', () => {
  it('answers the previous use this instance saw', () => {
    const writer = new LastUsedWriter(async () => {}, 60_000)
    expect(writer.note('k', at(1))).toBeUndefined()
    expect(writer.note('k', at(2))).toEqual(at(1))
    expect(writer.note('other', at(3))).toBeUndefined()
  })

  it('writes the newest use of each key in one batch, and nothing when idle', async () => {
    const batches: Map<string, Date>[] = []
    const writer = new LastUsedWriter(async (times) => void batches.push(times), 60_000)
    await writer.flush()
    expect(batches).toHaveLength(0)
    writer.note('a', at(1))
    writer.note('a', at(2))
    writer.note('b', at(3))
    await writer.flush()
    expect(batches).toEqual([
      new Map([
        ['a', at(2)],
        ['b', at(3)],
      ]),
    ])
    await writer.flush()
    expect(batches).toHaveLength(1)
  })

  it('keeps a failed batch for the next flush, newer uses winning, and reports the error', async () => {
    const errors: Error[] = []
    const batches: Map<string, Date>[] = []
    let fail = true
    const writer = new LastUsedWriter(
      async (times) => {
        if (fail) throw new Error('down')
        batches.push(times)
      },
      60_000,
      (error) => errors.push(error),
    )
    writer.note('a', at(1))
    writer.note('b', at(1))
    const flushing = writer.flush()
    writer.note('a', at(5)) // while the failing write is under way
    await flushing
    expect(errors.map((error) => error.message)).toEqual(['down'])
    fail = false
    await writer.flush()
    expect(batches).toEqual([
      new Map([
        ['a', at(5)],
        ['b', at(1)],
      ]),
    ])
  })

  it('flushes every flushMs once started, and at stop', async () => {
    const batches: Map<string, Date>[] = []
    const writer = new LastUsedWriter(async (times) => void batches.push(times), 20)
    writer.start()
    writer.note('a', at(1))
    const deadline = Date.now() + 5_000
    while (batches.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(batches).toHaveLength(1)
    writer.note('b', at(2))
    await writer.stop()
    expect(batches.at(-1)).toEqual(new Map([['b', at(2)]]))
    const count = batches.length
    writer.note('c', at(3))
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(batches).toHaveLength(count) // the timer is gone
  })

  it('does not keep the process alive for its timer', async () => {
    const writer = new LastUsedWriter(async () => {}, 60_000)
    writer.start()
    const timer = (writer as unknown as { timer: NodeJS.Timeout }).timer
    expect(timer.hasRef()).toBe(false)
    await writer.stop()
  })

  it('swallows errors by default', async () => {
    const writer = new LastUsedWriter(async () => {
      throw new Error('down')
    }, 60_000)
    writer.note('a', at(1))
    await expect(writer.flush()).resolves.toBeUndefined()
  })
})
