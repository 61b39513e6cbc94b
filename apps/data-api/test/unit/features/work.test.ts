import { describe, expect, it } from 'vitest'
import { meter } from '../../../src/features/work.js'

describe('the work meter', () => {
  it('is off unless a measurement runs, and counts calls, units and the largest call', () => {
    expect(meter.enabled).toBe(false)
    const work = meter.measure(() => {
      expect(meter.enabled).toBe(true)
      meter.add('engine', 5)
      meter.add('engine', 7)
      meter.add('other', 1)
    })
    expect(work).toEqual({
      engine: { calls: 2, units: 12, largest: 7 },
      other: { calls: 1, units: 1, largest: 1 },
    })
    expect(meter.enabled).toBe(false)
  })

  it('turns itself off again when the task throws', () => {
    expect(() =>
      meter.measure(() => {
        throw new Error('task failed')
      }),
    ).toThrow('task failed')
    expect(meter.enabled).toBe(false)
  })

  it('starts each measurement from nothing', () => {
    meter.measure(() => meter.add('engine', 5))
    expect(meter.measure(() => undefined)).toEqual({})
  })
})
