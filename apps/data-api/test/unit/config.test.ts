import { ConfigError } from '@repo/service-kit'
import { describe, expect, it } from 'vitest'
import { loadDataApiConfig } from '../../src/config.js'

// data-api's own settings as the environment gives them (the loader's rules: service-kit's tests).
const base = { SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789' }

describe('FEATURE_THREAD_IDLE_MS', () => {
  it('defaults to five minutes, and 0 (threads started with the service) is allowed', () => {
    expect(loadDataApiConfig(base).FEATURE_THREAD_IDLE_MS).toBe(300_000)
    expect(loadDataApiConfig({ ...base, FEATURE_THREAD_IDLE_MS: '0' }).FEATURE_THREAD_IDLE_MS).toBe(
      0,
    )
  })

  it('refuses a negative, fractional or non-numeric value at start-up, naming the setting', () => {
    for (const value of ['-1', '1.5', 'soon', '86400001']) {
      const load = () => loadDataApiConfig({ ...base, FEATURE_THREAD_IDLE_MS: value })
      expect(load, value).toThrow(ConfigError)
      expect(load, value).toThrow(/FEATURE_THREAD_IDLE_MS/)
    }
  })
})
