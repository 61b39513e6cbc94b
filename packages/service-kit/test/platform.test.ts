import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { PROBLEM_CODES } from '@repo/contracts'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { baseConfigProperties, loadConfig } from '../src/config.js'
import { fastifyOptions } from '../src/fastify-options.js'
import platform, { type PlatformOptions } from '../src/plugins/platform.js'
import platformMetricsPlugin from '../src/plugins/platform-metrics.js'
import { isCluster } from '../src/redis/client.js'
import {
  createTestDatabase,
  freePort,
  TEST_REDIS_URL,
  type TestDatabase,
  type TestRedisNamespace,
  testRedisNamespace,
  waitFor,
} from '../src/testing/index.js'
import { logLines } from './support/log-lines.js'

// The platform plugin on a real database and Redis: everything a service stands on, wired from
// its configuration (pool, Redis, metrics, pages, the document, problems pages, health).

let db: TestDatabase
let root: string
const ns: TestRedisNamespace = testRedisNamespace('kit-platform')
const apps: FastifyInstance[] = []
beforeAll(async () => {
  db = await createTestDatabase('kit_platform')
  root = mkdtempSync(join(tmpdir(), 'kit-platform-'))
  mkdirSync(join(root, 'views'))
  mkdirSync(join(root, 'public'))
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'svc', version: '3.4.5' }))
  writeFileSync(join(root, 'views', 'layout.eta'), '<%~ it.body %>')
  writeFileSync(join(root, 'views', 'page.eta'), '<p><%= it.word %></p>')
  writeFileSync(join(root, 'public', 'app.css'), 'p { margin: 0 }')
}, 60_000)
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})
afterAll(async () => {
  await db?.drop()
  await ns.clear()
  rmSync(root, { recursive: true, force: true })
})

const schema = Type.Object(baseConfigProperties({ port: 3100, database: 'kit' }))

async function platformApp(
  env: Record<string, string> = {},
  opts: Partial<PlatformOptions> = {},
  logStream?: Writable,
) {
  const config = loadConfig(schema, {
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: ns.prefix,
    PG_POOL_MAX: '3',
    ...env,
  })
  const app = Fastify(logStream ? fastifyOptions(config, { logStream }) : {})
  apps.push(app)
  await app.register(platform, {
    name: 'kit-platform-test',
    config,
    root: pathToFileURL(`${root}/`),
    openApi: { title: 'Svc API', description: 'd', tags: [{ name: 'svc', description: 's' }] },
    ...opts,
  })
  app.get('/page', async (_request, reply) => reply.viewAsync('page', { word: 'hi' }))
  await app.ready()
  return app
}

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
      expect(await plain.get(`${ns.prefix}k`)).toBe('v')
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
