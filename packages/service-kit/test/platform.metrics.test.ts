import { PROBLEM_CODES } from '@repo/contracts'
import Fastify, { type FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import platformMetricsPlugin from '../src/plugins/platform-metrics.js'
import { freePort } from '../src/testing/index.js'
import { platformFixture } from './support/platform-app.js'

// The platform's metrics on a real database and Redis: build info, the pool's and the Redis
// connection's state, problems by code, request durations.

const { platformApp } = platformFixture('platform_metrics')

describe('the platform plugin’s metrics', () => {
  it('exports build, pool, Redis and problem metrics', async () => {
    const app = await platformApp()
    await app.inject({ url: '/page' })
    app.countProblem('NOT_FOUND')
    const text = await (await app.inject({ url: '/metrics' })).body
    expect(text).toMatch(
      /^build_info\{version="3\.4\.5",commit="[^"]+",node_version="v[\d.]+"\} 1$/m,
    )
    expect(text).toMatch(/^pg_pool_connections\{state="total"\} [1-3]$/m)
    expect(text).toMatch(/^redis_connection_up 1$/m)
    expect(text).toContain('problem_responses_total{code="NOT_FOUND"} 1')
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/page",status_code="200"} 1',
    )
    for (const code of Object.keys(PROBLEM_CODES)) {
      expect(text).toContain(`problem_responses_total{code="${code}"}`)
    }
  })

  it('reports the pool’s connections and the Redis connection when scraped', async () => {
    const gauge = async (app: FastifyInstance, name: string) =>
      (await app.inject({ url: '/metrics' })).body
        .split('\n')
        .filter((line) => line.startsWith(name))
        .join(' ')
    const app = await platformApp({ PG_POOL_MAX: '1' })
    const held = await app.pg.connect()
    expect(await gauge(app, 'pg_pool_connections')).toBe(
      'pg_pool_connections{state="total"} 1 pg_pool_connections{state="idle"} 0 pg_pool_connections{state="waiting"} 0',
    )
    const waiting = app.pg.connect()
    expect(await gauge(app, 'pg_pool_connections{state="waiting"}')).toBe(
      'pg_pool_connections{state="waiting"} 1',
    )
    held.release()
    ;(await waiting).release()
    expect(await gauge(app, 'pg_pool_connections')).toBe(
      'pg_pool_connections{state="total"} 1 pg_pool_connections{state="idle"} 1 pg_pool_connections{state="waiting"} 0',
    )
    const noRedis = await platformApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` })
    expect(await gauge(noRedis, 'redis_connection_up')).toBe('redis_connection_up 0')
  })

  it('registers its metrics plugin by name, after the plugins it reads', async () => {
    const app = await platformApp()
    expect(app.hasPlugin('platform')).toBe(true)
    expect(app.hasPlugin('platform-metrics')).toBe(true)
    const alone = Fastify()
    alone.register(platformMetricsPlugin, { version: '1' })
    await expect(alone.ready()).rejects.toThrow(/service-metrics/)
  })

  it('labels the build with GIT_COMMIT when the image was given one', async () => {
    const before = process.env.GIT_COMMIT
    process.env.GIT_COMMIT = 'abc1234'
    try {
      const app = await platformApp()
      expect((await app.inject({ url: '/metrics' })).body).toContain(
        `build_info{version="3.4.5",commit="abc1234",node_version="${process.version}"} 1`,
      )
      process.env.GIT_COMMIT = ''
      const unnamed = await platformApp()
      expect((await unnamed.inject({ url: '/metrics' })).body).toContain('commit="unknown"')
    } finally {
      if (before === undefined) delete process.env.GIT_COMMIT
      else process.env.GIT_COMMIT = before
    }
  })
})
