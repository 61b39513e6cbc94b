import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { baseConfigProperties, ConfigError, loadConfig } from '../src/config.js'

const Schema = Type.Object({
  ...baseConfigProperties({ port: 3999, database: 'things' }),
  FEATURE_ON: Type.Boolean({ default: false }),
})

describe('loadConfig', () => {
  it('applies the service defaults', () => {
    const config = loadConfig(Schema, {})
    expect(config).toMatchObject({
      HOST: '0.0.0.0',
      PORT: 3999,
      DATABASE_URL: 'postgres://localhost:5432/things',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'info',
      TRUST_PROXY: '',
      FEATURE_ON: false,
    })
  })

  it('coerces strings and treats empty values as unset', () => {
    const config = loadConfig(Schema, { PORT: '8080', FEATURE_ON: 'true', LOG_LEVEL: '' })
    expect(config.PORT).toBe(8080)
    expect(config.FEATURE_ON).toBe(true)
    expect(config.LOG_LEVEL).toBe('info')
  })

  it('fails fast with a message naming the bad variable', () => {
    expect(() => loadConfig(Schema, { PORT: 'eighty' })).toThrow(ConfigError)
    expect(() => loadConfig(Schema, { PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => loadConfig(Schema, { DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/)
    expect(() => loadConfig(Schema, { LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/)
  })
})
