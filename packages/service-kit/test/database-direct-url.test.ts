import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { baseConfigProperties, ConfigError, loadConfig, migrationUrl } from '../src/config.js'

const Schema = Type.Object(baseConfigProperties({ port: 3999, database: 'things' }))
const POOLED = 'postgres://app@pgbouncer:6432/things'
const DIRECT = 'postgres://owner@postgres:5432/things'

describe('DATABASE_DIRECT_URL', () => {
  it('is optional: migrations then use DATABASE_URL', () => {
    for (const env of [
      { DATABASE_URL: POOLED },
      { DATABASE_URL: POOLED, DATABASE_DIRECT_URL: '' },
    ]) {
      const config = loadConfig(Schema, env)
      expect(config.DATABASE_DIRECT_URL).toBeUndefined()
      expect(migrationUrl(config)).toBe(POOLED)
    }
  })

  it('takes migrations past the pooler while the pool keeps DATABASE_URL', () => {
    const config = loadConfig(Schema, { DATABASE_URL: POOLED, DATABASE_DIRECT_URL: DIRECT })
    expect(config.DATABASE_URL).toBe(POOLED)
    expect(migrationUrl(config)).toBe(DIRECT)
  })

  it('must be a Postgres URL', () => {
    expect(() => loadConfig(Schema, { DATABASE_DIRECT_URL: 'mysql://x' })).toThrow(ConfigError)
    expect(() => loadConfig(Schema, { DATABASE_DIRECT_URL: 'mysql://x' })).toThrow(
      /DATABASE_DIRECT_URL/,
    )
  })
})
