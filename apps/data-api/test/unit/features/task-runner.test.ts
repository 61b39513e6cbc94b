import { readFileSync } from 'node:fs'
import { transferableSymbol, valueSymbol } from 'piscina'
import { describe, expect, it } from 'vitest'
import { readBody, textUnits } from '../../../src/features/body-task.js'
import { CallGivenUpError, GIVEN_UP, waitingMark } from '../../../src/features/call-slots.js'
import { runFeature } from '../../../src/features/index.js'
import { validateOptions } from '../../../src/features/options.js'
import { resultJson, taskRunner } from '../../../src/features/task-runner.js'

/*
 * The task function of the pool's workers, on this thread (the pool's own tests run it in worker
 * threads). Setting a nice value lowers this test thread's priority, by one step.
 */

const TEXT = 'The first sentence is here. A second one follows it!'
const task = (slot: number, ticket = 1) => ({
  feature: 'stats' as const,
  data: TEXT,
  options: validateOptions('stats', undefined),
  slot,
  ticket,
})

/** This thread's nice value (field 19 of its stat line). */
function ownNice(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3])
}

describe('the feature task runner', () => {
  it('runs the feature on the validated options, as runFeature does', async () => {
    const run = taskRunner(null)
    expect(await run(task(0))).toEqual(await runFeature('stats', TEXT, undefined))
  })

  it('answers a json task with the UTF-8 bytes of its JSON, marked to be moved to the pool', async () => {
    const run = taskRunner(null)
    const data = 'Ünïcödé “quotes”, a\ttab and a.b@example.com.'
    const answer = (await run({ ...task(0), data, json: true })) as unknown as Record<
      symbol,
      unknown
    >
    const bytes = answer[valueSymbol]
    expect(bytes).toBeInstanceOf(Uint8Array)
    expect(answer[transferableSymbol]).toBe((bytes as Uint8Array).buffer)
    expect(new TextDecoder().decode(bytes as Uint8Array)).toBe(
      JSON.stringify(runFeature('stats', data, undefined)),
    )
    expect(resultJson({ a: 'é' })).toEqual(new Uint8Array([...Buffer.from('{"a":"é"}')]))
  })

  it("answers a batch's json calls with their bytes, each in its outcome", async () => {
    const run = taskRunner(null)
    const outcomes = await run({ batch: [{ ...task(0), json: true }, task(1)] })
    const expected = runFeature('stats', TEXT, undefined)
    const first = outcomes[0] as { value: Uint8Array }
    expect(new TextDecoder().decode(first.value)).toBe(JSON.stringify(expected))
    expect(outcomes[1]).toEqual({ value: expected })
  })

  it('runs a feature on code units set apart from a large body as on their text', async () => {
    const run = taskRunner(null)
    const data = `${TEXT} “Ünïcödé” \ud800 😀`
    expect(await run({ ...task(0), data: textUnits(data) })).toEqual(
      runFeature('stats', data, undefined),
    )
  })

  it('reads a large body, its start time written into its slot first', async () => {
    const startedAt = new SharedArrayBuffer(2 * 8)
    const starts = new BigInt64Array(startedAt)
    starts.set([waitingMark(1), waitingMark(2)])
    const run = taskRunner({ startedAt, nice: 0 })
    const body = new Uint8Array(Buffer.from('{"data":"x","options":{"feature":"stats"}}'))
    const before = Date.now()
    expect(await run({ body, slot: 1, ticket: 2 })).toEqual(readBody(body))
    expect(starts[0]).toBe(waitingMark(1))
    expect(Number(starts[1])).toBeGreaterThanOrEqual(before)
    // A reading given up while it waited is not run.
    starts[0] = GIVEN_UP
    await expect(run({ body, slot: 0, ticket: 1 })).rejects.toBeInstanceOf(CallGivenUpError)
  })

  it("writes a waiting call's start time into its slot, and only there", async () => {
    const startedAt = new SharedArrayBuffer(4 * 8)
    const starts = new BigInt64Array(startedAt)
    starts.set([waitingMark(1), waitingMark(2), waitingMark(3), waitingMark(4)])
    const run = taskRunner({ startedAt, nice: 0 })
    const before = Date.now()
    await run(task(2, 3))
    expect(starts[0]).toBe(waitingMark(1))
    expect(starts[1]).toBe(waitingMark(2))
    expect(Number(starts[2])).toBeGreaterThanOrEqual(before)
    expect(Number(starts[2])).toBeLessThanOrEqual(Date.now())
    expect(starts[3]).toBe(waitingMark(4))
  })

  it('does not run a call the pool gave up, nor touch its slot, even when a newer call holds it', async () => {
    const startedAt = new SharedArrayBuffer(2 * 8)
    const starts = new BigInt64Array(startedAt)
    starts.set([GIVEN_UP, waitingMark(9)])
    const run = taskRunner({ startedAt, nice: 0 })
    await expect(run(task(0, 5))).rejects.toBeInstanceOf(CallGivenUpError)
    await expect(run(task(1, 8))).rejects.toBeInstanceOf(CallGivenUpError)
    expect([...starts]).toEqual([GIVEN_UP, waitingMark(9)])
  })

  it("sets the thread's nice value it is given", () => {
    const own = ownNice()
    expect(own).toBeLessThan(19)
    taskRunner({ startedAt: new SharedArrayBuffer(8), nice: own + 1 })
    expect(ownNice()).toBe(own + 1)
  })
})
