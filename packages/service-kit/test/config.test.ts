import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { baseConfigProperties, ConfigError, loadConfig } from '../src/config.js'
import { parseClusterNodes } from '../src/redis/client.js'

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

  it('accepts Redis Cluster seed nodes and refuses malformed ones', () => {
    expect(loadConfig(Schema, { REDIS_CLUSTER_NODES: 'a:7001, b:7002,[::1]:7003' })).toMatchObject({
      REDIS_CLUSTER_NODES: 'a:7001, b:7002,[::1]:7003',
    })
    expect(loadConfig(Schema, {}).REDIS_CLUSTER_NODES).toBe('')
    expect(() => loadConfig(Schema, { REDIS_CLUSTER_NODES: 'a:7001,b' })).toThrow(
      /REDIS_CLUSTER_NODES/,
    )
    expect(() => loadConfig(Schema, { REDIS_CLUSTER_NODES: 'redis://a:7001' })).toThrow(
      /REDIS_CLUSTER_NODES/,
    )
  })

  it('refuses a Redis key prefix with braces (they would move keys to other hash slots)', () => {
    expect(() => loadConfig(Schema, { REDIS_KEY_PREFIX: 'app{1}:' })).toThrow(/REDIS_KEY_PREFIX/)
    expect(loadConfig(Schema, { REDIS_KEY_PREFIX: 'app:1:' }).REDIS_KEY_PREFIX).toBe('app:1:')
  })
})

describe('parseClusterNodes', () => {
  it('reads host:port lists, IPv6 hosts in brackets', () => {
    expect(parseClusterNodes('a:7001, 10.0.0.2:7002,[::1]:7003')).toEqual([
      { host: 'a', port: 7001 },
      { host: '10.0.0.2', port: 7002 },
      { host: '::1', port: 7003 },
    ])
  })

  it('names the entry that is not host:port', () => {
    expect(() => parseClusterNodes('a:7001,b:0')).toThrow('"b:0" is not host:port')
    expect(() => parseClusterNodes('a:70000')).toThrow('"a:70000"')
    expect(() => parseClusterNodes('a')).toThrow('"a"')
  })
})
