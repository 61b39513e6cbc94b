import { describe, expect, it } from 'vitest'
import {
  CallGivenUpError,
  claimStart,
  GIVEN_UP,
  giveUp,
  waitingMark,
} from '../../../src/features/call-slots.js'

/*
 * The two sides of a call's slot, on one thread (task-runner.test.ts has the worker's side in
 * use, pool.budget.test.ts the budgets it times).
 */

function slots(...values: bigint[]): BigInt64Array {
  const shared = new BigInt64Array(new SharedArrayBuffer(values.length * 8))
  shared.set(values)
  return shared
}

describe("a feature call's slot", () => {
  it('marks each waiting call by its own ticket, never as given up or as a start time', () => {
    expect(waitingMark(1)).toBe(-1n)
    expect(waitingMark(2 ** 40)).toBe(-(2n ** 40n))
    expect(waitingMark(1)).not.toBe(GIVEN_UP)
    expect(GIVEN_UP).toBe(0n)
  })

  it('records when a worker starts a waiting call', () => {
    const s = slots(waitingMark(3))
    const before = Date.now()
    claimStart(s, 0, 3)
    expect(Number(s[0])).toBeGreaterThanOrEqual(before)
    expect(Number(s[0])).toBeLessThanOrEqual(Date.now())
  })

  it('refuses a start for a call given up or whose slot a newer call holds, and leaves the slot', () => {
    const s = slots(GIVEN_UP, waitingMark(4), 1_700_000_000_000n)
    expect(() => claimStart(s, 0, 1)).toThrow(CallGivenUpError)
    expect(() => claimStart(s, 1, 3)).toThrow(
      expect.objectContaining({
        name: 'CallGivenUpError',
        message: 'Call 3 was given up before it started.',
      }),
    )
    expect(() => claimStart(s, 2, 2)).toThrow(CallGivenUpError)
    expect([...s]).toEqual([GIVEN_UP, waitingMark(4), 1_700_000_000_000n])
  })

  it('gives up a call still waiting, so no worker can start it afterwards', () => {
    const s = slots(waitingMark(6))
    expect(giveUp(s, 0, 6)).toBe(true)
    expect(s[0]).toBe(GIVEN_UP)
    expect(() => claimStart(s, 0, 6)).toThrow(CallGivenUpError)
  })

  it('does not give up a call a worker has started: it is running, and keeps its start time', () => {
    const s = slots(waitingMark(7))
    claimStart(s, 0, 7)
    const started = s[0]
    expect(giveUp(s, 0, 7)).toBe(false)
    expect(s[0]).toBe(started)
  })

  it("does not give up a newer call's slot for an older ticket", () => {
    const s = slots(waitingMark(8))
    expect(giveUp(s, 0, 5)).toBe(false)
    expect(s[0]).toBe(waitingMark(8))
  })
})
