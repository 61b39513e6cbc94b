import { describe, expect, it } from 'vitest'
import { isCluster } from '../src/redis/client.js'
import { freePort, TEST_REDIS_URL, waitFor } from '../src/testing/index.js'
import { logLines } from './support/log-lines.js'
import { platformFixture } from './support/platform-app.js'

// The platform plugin on a real database and Redis: everything a service stands on, wired from
// its configuration (pool, Redis, pages, the document, problems pages, health, access log). Its
// metrics: platform.metrics.test.ts.

const { platformApp, apps, redisPrefix } = platformFixture('platform')

describe('the platform plugin', () => {
  it('is ready with Postgres, Redis and the instance’s load all answering', async () => {
    const app = await platformApp()
    expect((await app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' })
    const ready = await app.inject({ url: '/ready' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { load: 'up', postgres: 'up', redis: 'up' },
    })
  })

  it('adds the app’s own readiness checks to its own', async () => {
    let warm = false
    const app = await platformApp(
      {},
      {
        readiness: {
          warmup: {
            probe: async () => {
              if (!warm) throw new Error('still warming up')
            },
          },
        },
      },
    )
    const cold = await app.inject({ url: '/ready' })
    expect(cold.statusCode).toBe(503)
    expect(cold.json()).toEqual({
      status: 'unavailable',
      checks: { load: 'up', postgres: 'up', redis: 'up', warmup: 'down' },
    })
    warm = true
    expect((await app.inject({ url: '/ready' })).json()).toEqual({
      status: 'ready',
      checks: { load: 'up', postgres: 'up', redis: 'up', warmup: 'up' },
    })
  })

  it.each([
    [{}, 1],
    [{ ACCESS_LOG: 'on' }, 1],
    [{ ACCESS_LOG: 'off' }, 0],
  ])(
    'writes an access-log line per request at info as ACCESS_LOG says (%j)',
    async (env, count) => {
      const log = logLines()
      const app = await platformApp({ LOG_LEVEL: 'info', ...env }, {}, log.stream)
      expect((await app.inject({ url: '/page' })).statusCode).toBe(200)
      const lines = log.lines().filter((line) => line.msg === 'request completed')
      expect(lines).toHaveLength(count)
      for (const line of lines)
        expect(line).toMatchObject({ level: 30, route: '/page', status: 200 })
    },
  )

  it('opens the pool the configuration asks for, named after the service', async () => {
    const app = await platformApp()
    expect(app.pg.options.max).toBe(3)
    const { rows } = await app.pg.query<{ name: string }>(
      'SELECT application_name AS name FROM pg_stat_activity WHERE pid = pg_backend_pid()',
    )
    expect(rows[0]?.name).toBe('kit-platform-test')
  })

  it('puts the configured prefix before its Redis keys', async () => {
    const app = await platformApp()
    await app.redis.set('k', 'v')
    const { Redis } = await import('ioredis')
    const plain = new Redis(TEST_REDIS_URL)
    try {
      expect(await plain.get(`${redisPrefix}k`)).toBe('v')
    } finally {
      plain.disconnect()
    }
  })

  it('is unavailable without Redis by default, and only degraded when Redis is optional', async () => {
    const env = { REDIS_URL: `redis://127.0.0.1:${await freePort()}` }
    const critical = await platformApp(env)
    const optional = await platformApp(env, { redisCritical: false })
    expect((await critical.inject({ url: '/ready' })).json()).toMatchObject({
      status: 'unavailable',
      checks: { redis: 'down', postgres: 'up' },
    })
    const degraded = await optional.inject({ url: '/ready' })
    expect(degraded.statusCode).toBe(200)
    expect(degraded.json()).toMatchObject({ status: 'degraded', checks: { redis: 'down' } })
  })

  it('counts Postgres as down when it does not answer', async () => {
    const app = await platformApp()
    await app.pg.end()
    expect((await app.inject({ url: '/ready' })).json()).toMatchObject({
      status: 'unavailable',
      checks: { postgres: 'down' },
    })
    apps.splice(apps.indexOf(app), 1)
    await app.close().catch(() => {})
  })

  it('serves the document with the package’s version and the operations tag', async () => {
    const app = await platformApp()
    const doc = (await app.inject({ url: '/docs/json' })).json()
    expect(doc.info).toMatchObject({ title: 'Svc API', version: '3.4.5' })
    expect(doc.tags).toEqual([
      { name: 'svc', description: 's' },
      { name: 'operations', description: 'Health, readiness' },
    ])
    expect(Object.keys(doc.paths)).toEqual(['/health', '/ready', '/page'])
    expect(app.getSchema('Problem')).toBeDefined()
  })

  it('serves pages from the app’s views, its assets, and the problem pages under its title', async () => {
    const app = await platformApp()
    expect((await app.inject({ url: '/page' })).body).toBe('<p>hi</p>')
    expect((await app.inject({ url: '/static/app.css' })).body).toBe('p { margin: 0 }')
    expect((await app.inject({ url: '/problems' })).body).toContain(
      '<title>Problem codes · Svc API</title>',
    )
  })

  it('takes new work off an instance under pressure: /ready says its load is down', async () => {
    // A heap limit no process can stay under.
    const app = await platformApp({ MAX_HEAP_USED_RATIO: '0.0001' })
    await waitFor('the pressure to be seen', async () => app.isUnderPressure(), 10_000)
    const ready = await app.inject({ url: '/ready' })
    expect(ready.statusCode).toBe(503)
    expect(ready.json()).toEqual({
      status: 'unavailable',
      checks: { load: 'down', postgres: 'up', redis: 'up' },
    })
  })

  it('makes a cluster client for REDIS_CLUSTER_NODES', async () => {
    const app = await platformApp(
      { REDIS_CLUSTER_NODES: `127.0.0.1:${await freePort()}` },
      { describeOnly: true },
    )
    expect(isCluster(app.redis)).toBe(true)
  })

  it('connects to nothing when built only to be described', async () => {
    const app = await platformApp(
      {
        DATABASE_URL: `postgres://127.0.0.1:${await freePort()}/none`,
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      },
      { describeOnly: true },
    )
    expect(app.pg.totalCount).toBe(0)
    expect(app.redis.status).toBe('wait')
    expect(Object.keys((app.swagger() as { paths: object }).paths)).toContain('/ready')
  })
})
