import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { baseConfigProperties, ConfigError, loadConfig, migrationUrl } from '../src/config.js'

const schema = Type.Object(baseConfigProperties({ port: 3100, database: 'things' }))
const load = (env: Record<string, string | undefined>) => loadConfig(schema, env)

describe('base configuration', () => {
  it('has the documented defaults', () => {
    expect(load({})).toEqual({
      HOST: '0.0.0.0',
      PORT: 3100,
      DATABASE_URL: 'postgres://localhost:5432/things',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_CLUSTER_NODES: '',
      REDIS_KEY_PREFIX: '',
      LOG_LEVEL: 'info',
      ACCESS_LOG: 'on',
      TRUST_PROXY: '',
      SHUTDOWN_GRACE_MS: 10_000,
      SHUTDOWN_DRAIN_MS: 0,
      PG_POOL_MAX: 10,
      PG_POOL_MIN: 1,
      MAX_EVENT_LOOP_DELAY_MS: 1_000,
      MAX_HEAP_USED_RATIO: 0.9,
      READY_CHECK_TIMEOUT_MS: 1000,
      EMBEDDED_STORES: 'auto',
      EMBEDDED_DATA_DIR: '.data',
    })
  })

  it.each([
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['DATABASE_URL', 'mysql://db/x'],
    ['DATABASE_URL', 'x postgres://db/x'],
    ['DATABASE_DIRECT_URL', 'http://db/x'],
    ['REDIS_URL', 'http://cache'],
    ['REDIS_URL', 'x redis://cache'],
    ['REDIS_KEY_PREFIX', 'x'.repeat(65)],
    ['LOG_LEVEL', 'verbose'],
    ['ACCESS_LOG', 'true'],
    ['TRUST_PROXY', 'x'.repeat(1001)],
    ['SHUTDOWN_GRACE_MS', '-1'],
    ['SHUTDOWN_DRAIN_MS', '120001'],
    ['SHUTDOWN_DRAIN_MS', '-1'],
    ['PG_POOL_MAX', '0'],
    ['PG_POOL_MAX', '201'],
    ['PG_POOL_MIN', '-1'],
    ['PG_POOL_MIN', '1.5'],
    ['MAX_EVENT_LOOP_DELAY_MS', '9'],
    ['MAX_EVENT_LOOP_DELAY_MS', '60001'],
    ['MAX_HEAP_USED_RATIO', '0'],
    ['MAX_HEAP_USED_RATIO', '1.01'],
    ['READY_CHECK_TIMEOUT_MS', '49'],
    ['READY_CHECK_TIMEOUT_MS', '60001'],
    ['EMBEDDED_STORES', 'on'],
    ['REDIS_CLUSTER_NODES', `${'h:1,'.repeat(500)}h:1`],
  ])('refuses %s=%j', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError)
    expect(() => load({ [name]: value })).toThrow(/Invalid configuration: .*/)
  })

  it.each([
    ['PORT', '0', 0],
    ['PORT', '65535', 65535],
    ['DATABASE_URL', 'postgresql://db/x', 'postgresql://db/x'],
    ['REDIS_URL', 'rediss://cache', 'rediss://cache'],
    ['SHUTDOWN_DRAIN_MS', '120000', 120_000],
    ['PG_POOL_MAX', '200', 200],
    ['PG_POOL_MIN', '0', 0],
    ['PG_POOL_MIN', '10', 10],
    ['MAX_EVENT_LOOP_DELAY_MS', '10', 10],
    ['MAX_HEAP_USED_RATIO', '1', 1],
    ['READY_CHECK_TIMEOUT_MS', '50', 50],
    ['READY_CHECK_TIMEOUT_MS', '60000', 60_000],
    ['EMBEDDED_STORES', 'off', 'off'],
    ['LOG_LEVEL', 'silent', 'silent'],
    ['ACCESS_LOG', 'off', 'off'],
  ])('accepts %s=%j at the edge of its range', (name, value, parsed) => {
    expect(load({ [name]: value })[name as keyof ReturnType<typeof load>]).toBe(parsed)
  })
})

describe('the Postgres pool settings', () => {
  it('refuses more connections kept open than the pool may hold, naming both', () => {
    expect(() => load({ PG_POOL_MIN: '11' })).toThrow(
      'Invalid configuration: PG_POOL_MIN (11) is larger than PG_POOL_MAX (10)',
    )
    expect(() => load({ PG_POOL_MIN: '3', PG_POOL_MAX: '2' })).toThrow(ConfigError)
  })

  it('accepts as many kept open as the pool holds', () => {
    expect(load({ PG_POOL_MIN: '200', PG_POOL_MAX: '200' })).toMatchObject({
      PG_POOL_MIN: 200,
      PG_POOL_MAX: 200,
    })
  })
})

describe('migrationUrl', () => {
  it('goes past the pooler when a direct URL is set, else uses DATABASE_URL', () => {
    expect(migrationUrl({ DATABASE_URL: 'postgres://pool/x' })).toBe('postgres://pool/x')
    expect(
      migrationUrl({ DATABASE_URL: 'postgres://pool/x', DATABASE_DIRECT_URL: 'postgres://db/x' }),
    ).toBe('postgres://db/x')
  })
})
