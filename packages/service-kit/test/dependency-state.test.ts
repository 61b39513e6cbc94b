import { describe, expect, it } from 'vitest'
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
