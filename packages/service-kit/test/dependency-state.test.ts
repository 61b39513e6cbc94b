import { describe, expect, it, vi } from 'vitest'
import { DependencyState, type DependencyStatus } from '../src/dependency-state.js'

describe('DependencyState', () => {
  it('logs each change of state once, counts every failure and reports changes', () => {
    const lines: string[] = []
    const changes: DependencyStatus[] = []
    let failures = 0
    const state = new DependencyState({
      name: 'redis',
      log: {
        warn: (_o: object, msg?: string) => lines.push(`warn ${msg}`),
        info: (_o: object, msg?: string) => lines.push(`info ${msg}`),
        error: (_o: object, msg?: string) => lines.push(`error ${msg}`),
      } as never,
      onFailure: () => {
        failures += 1
      },
      onChange: (status) => changes.push(status),
    })
    expect(state.status).toBe('up')
    state.up()
    for (let i = 0; i < 3; i += 1) state.down(new Error('refused'))
    expect(state.isUp).toBe(false)
    state.up()
    state.up()
    expect(lines).toEqual([
      'warn redis is unavailable: serving in degraded mode until it answers again',
      'info redis is available again',
    ])
    expect(changes).toEqual(['down', 'up'])
    expect(failures).toBe(3)
  })
})

describe('DependencyState, what it tells', () => {
  const recorder = () => {
    const logged: Array<{ level: string; fields: Record<string, unknown>; msg?: string }> = []
    const at = (level: string) => (fields: Record<string, unknown>, msg?: string) => {
      logged.push({ level, fields, msg })
    }
    return { logged, log: { warn: at('warn'), info: at('info'), error: at('error') } as never }
  }

  it('logs the dependency and error going down, and how long and how many failures coming back', () => {
    vi.useFakeTimers({ now: 1_000_000 })
    try {
      const { logged, log } = recorder()
      const state = new DependencyState({ name: 'postgres', log })
      const refused = new Error('refused')
      state.down(refused)
      vi.setSystemTime(1_002_500)
      state.down(new Error('again'))
      state.up()
      expect(logged).toEqual([
        {
          level: 'warn',
          fields: { dependency: 'postgres', err: refused },
          msg: 'postgres is unavailable: serving in degraded mode until it answers again',
        },
        {
          level: 'info',
          fields: { dependency: 'postgres', down_ms: 2_500, failures: 2 },
          msg: 'postgres is available again',
        },
      ])
      // A second outage counts its own time and failures from zero.
      vi.setSystemTime(1_010_000)
      state.down(refused)
      vi.setSystemTime(1_010_100)
      state.up()
      expect(logged.at(-1)?.fields).toEqual({ dependency: 'postgres', down_ms: 100, failures: 1 })
    } finally {
      vi.useRealTimers()
    }
  })

  it('is up until told otherwise, and needs no callbacks', () => {
    const state = new DependencyState({ name: 'redis', log: recorder().log })
    expect(state.isUp).toBe(true)
    expect(state.status).toBe('up')
    state.down(new Error('x'))
    expect(state.status).toBe('down')
    state.up()
    expect(state.isUp).toBe(true)
  })

  it('tracks a command: its value passes through and marks up, its failure passes through and marks down', async () => {
    const changes: DependencyStatus[] = []
    const failures: Error[] = []
    const state = new DependencyState({
      name: 'redis',
      log: recorder().log,
      onChange: (status) => changes.push(status),
      onFailure: (error) => failures.push(error),
    })
    const broken = new Error('timeout')
    await expect(state.track(Promise.reject(broken))).rejects.toBe(broken)
    expect(state.isUp).toBe(false)
    expect(failures).toEqual([broken])
    await expect(state.track(Promise.resolve(42))).resolves.toBe(42)
    expect(state.isUp).toBe(true)
    expect(changes).toEqual(['down', 'up'])
  })
})
