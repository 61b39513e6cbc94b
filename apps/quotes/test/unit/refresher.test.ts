import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Refresher } from '../../src/lib/refresher.js'

describe('Refresher', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /** A refresher whose loads finish when told to, counting them. */
  function setup(fail = false) {
    const finish: (() => void)[] = []
    const errors: unknown[] = []
    let loads = 0
    const refresher: Refresher = new Refresher(
      () => {
        loads += 1
        return new Promise<void>((resolve, reject) => {
          finish.push(() => {
            if (fail) reject(new Error('down'))
            else {
              refresher.loaded()
              resolve()
            }
          })
        })
      },
      1000,
      (error) => errors.push(error),
    )
    return { refresher, finish, errors, loads: () => loads }
  }

  it('reloads on use once the view is older than its period, one load at a time', async () => {
    const { refresher, finish, loads } = setup()
    refresher.loaded()
    refresher.maybe()
    expect(loads()).toBe(0)
    vi.advanceTimersByTime(1000)
    refresher.maybe()
    refresher.maybe()
    expect(loads()).toBe(1)
    finish[0]?.()
    await vi.runAllTimersAsync()
    refresher.maybe()
    expect(loads()).toBe(1)
    vi.advanceTimersByTime(1000)
    refresher.maybe()
    expect(loads()).toBe(2)
  })

  it('reports a failed reload and waits a period before the next try', async () => {
    const { refresher, finish, errors, loads } = setup(true)
    refresher.maybe()
    finish[0]?.()
    await vi.runAllTimersAsync()
    expect(errors).toEqual([new Error('down')])
    refresher.maybe()
    expect(loads()).toBe(1)
    vi.advanceTimersByTime(1000)
    refresher.maybe()
    expect(loads()).toBe(2)
  })

  it('skips a reload the data does not need, counting it as done', async () => {
    let loads = 0
    let same = true
    const errors: unknown[] = []
    const refresher = new Refresher(
      async () => {
        loads += 1
        refresher.loaded()
      },
      1000,
      (error) => errors.push(error),
      async () => (same ? 'v1' : 'v2'),
    )
    // Loaded at v1, a period ago.
    await refresher.loadNow()
    loads = 0
    vi.advanceTimersByTime(1000)
    refresher.maybe()
    await vi.runAllTimersAsync()
    expect(loads).toBe(0)
    // Counted as a load: no new look within the period.
    refresher.maybe()
    expect(loads).toBe(0)
    same = false
    vi.advanceTimersByTime(1000)
    refresher.maybe()
    await vi.runAllTimersAsync()
    expect(loads).toBe(1)
    expect(errors).toEqual([])
  })

  it('reports a failed look at the data as a failed reload', async () => {
    const errors: unknown[] = []
    let loads = 0
    const refresher = new Refresher(
      async () => {
        loads += 1
      },
      1000,
      (error) => errors.push(error),
      () => Promise.reject(new Error('no counter')),
    )
    refresher.maybe()
    await vi.runAllTimersAsync()
    expect(errors).toEqual([new Error('no counter')])
    expect(loads).toBe(0)
    refresher.maybe()
    await vi.runAllTimersAsync()
    expect(errors).toHaveLength(1)
  })

  it('loads now on request, without a version too, and counts that load for the period', async () => {
    let loads = 0
    const refresher = new Refresher(async () => {
      loads += 1
    }, 1000)
    await refresher.loadNow()
    expect(loads).toBe(1)
    refresher.maybe()
    expect(loads).toBe(1)
    vi.advanceTimersByTime(1000)
    refresher.maybe()
    expect(loads).toBe(2)
  })
})
