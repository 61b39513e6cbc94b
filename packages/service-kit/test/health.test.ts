import rateLimit from '@fastify/rate-limit'
import Fastify from 'fastify'
import { describe, expect, it, vi } from 'vitest'
import healthPlugin, { type HealthPluginOptions } from '../src/plugins/health.js'
import openApiPlugin from '../src/plugins/openapi.js'
import { logLines } from './support/log-lines.js'

// /health says the process is alive; /ready asks every dependency's probe (with a time limit) and
// answers 503 when a critical one fails or the instance drains, 200 "degraded" for an optional one.

const up = async () => 'up'
const down = async () => {
  throw new Error('no answer')
}
const never = () => new Promise<never>(() => {})

async function appWith(opts: HealthPluginOptions, level = 'info') {
  const log = logLines()
  const app = Fastify({ logger: { level, stream: log.stream } })
  await app.register(healthPlugin, opts)
  await app.ready()
  return { app, lines: log.lines }
}

async function ready(opts: HealthPluginOptions) {
  const { app } = await appWith(opts)
  try {
    const response = await app.inject({ url: '/ready' })
    return { status: response.statusCode, body: response.json() }
  } finally {
    await app.close()
  }
}

describe('health', () => {
  it('says the process is alive at /health', async () => {
    const { app } = await appWith({ checks: { postgres: { probe: down } } })
    const response = await app.inject({ url: '/health' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
    await app.close()
  })

  it('is ready when every probe answers, and says not to cache that', async () => {
    const { app } = await appWith({
      checks: { postgres: { probe: up }, redis: { probe: up } },
    })
    const response = await app.inject({ url: '/ready' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.json()).toEqual({ status: 'ready', checks: { postgres: 'up', redis: 'up' } })
    await app.close()
  })

  it('is unavailable (503) when a dependency is critical by default and fails', async () => {
    expect(await ready({ checks: { postgres: { probe: down }, redis: { probe: up } } })).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { postgres: 'down', redis: 'up' } },
    })
  })

  it('is degraded but ready (200) when only an optional dependency fails', async () => {
    expect(
      await ready({ checks: { postgres: { probe: up }, redis: { probe: down, critical: false } } }),
    ).toEqual({
      status: 200,
      body: { status: 'degraded', checks: { postgres: 'up', redis: 'down' } },
    })
  })

  it('stays unavailable whatever order critical and optional failures come in', async () => {
    const optional = { probe: down, critical: false }
    const critical = { probe: down }
    for (const checks of [
      { a: critical, b: optional },
      { a: optional, b: critical },
    ]) {
      expect((await ready({ checks })).body.status).toBe('unavailable')
    }
  })

  it('is unavailable when an optional dependency fails in a way its probe calls critical', async () => {
    const misconfigured = async () => {
      throw Object.assign(new Error('points at a cluster node'), { critical: true })
    }
    const notCritical = async () => {
      throw Object.assign(new Error('down'), { critical: 'yes' })
    }
    expect(
      (await ready({ checks: { redis: { probe: misconfigured, critical: false } } })).status,
    ).toBe(503)
    expect(
      (await ready({ checks: { redis: { probe: notCritical, critical: false } } })).status,
    ).toBe(200)
  })

  it('copes with a probe that rejects with no reason at all', async () => {
    const silent = () => Promise.reject(undefined)
    expect(await ready({ checks: { redis: { probe: silent, critical: false } } })).toEqual({
      status: 200,
      body: { status: 'degraded', checks: { redis: 'down' } },
    })
  })

  it('leaves no timer behind once every probe has answered', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const { app } = await appWith({ checks: { a: { probe: up }, b: { probe: down } } })
      expect((await app.inject({ url: '/ready' })).statusCode).toBe(503)
      expect(vi.getTimerCount()).toBe(0)
      await app.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('counts a probe that does not answer in time as down, and logs why at debug', async () => {
    const { app, lines } = await appWith(
      { checks: { postgres: { probe: never } }, timeoutMs: 50 },
      'debug',
    )
    const started = Date.now()
    const response = await app.inject({ url: '/ready' })
    expect(Date.now() - started).toBeLessThan(800)
    expect(response.json()).toEqual({ status: 'unavailable', checks: { postgres: 'down' } })
    const line = lines().find((entry) => entry.msg === 'readiness check failed')
    expect(line).toMatchObject({ check: 'postgres', err: { message: 'timed out after 50 ms' } })
    await app.close()
  })

  it('waits one second for a probe by default', async () => {
    const { app } = await appWith({ checks: { postgres: { probe: never } } })
    const started = Date.now()
    expect((await app.inject({ url: '/ready' })).statusCode).toBe(503)
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    await app.close()
  })

  it('logs nothing about a failing probe above debug (load balancers poll every second)', async () => {
    const { app, lines } = await appWith({ checks: { postgres: { probe: down } } })
    await app.inject({ url: '/ready' })
    expect(lines().filter((entry) => entry.msg === 'readiness check failed')).toEqual([])
    await app.close()
  })

  it('answers 503 "shutting_down" once draining, with the checks still reported', async () => {
    const { app } = await appWith({ checks: { postgres: { probe: up } } })
    expect((await app.inject({ url: '/ready' })).statusCode).toBe(200)
    app.drain()
    const response = await app.inject({ url: '/ready' })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({ status: 'shutting_down', checks: { postgres: 'up' } })
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200)
    await app.close()
  })

  it('is never rate limited', async () => {
    const app = Fastify()
    await app.register(rateLimit, { max: 1, timeWindow: 60_000 })
    await app.register(healthPlugin, { checks: { postgres: { probe: up } } })
    app.get('/work', async () => 'ok')
    const codes = []
    for (let i = 0; i < 3; i += 1) {
      codes.push((await app.inject({ url: '/health' })).statusCode)
      codes.push((await app.inject({ url: '/ready' })).statusCode)
      codes.push((await app.inject({ url: '/work' })).statusCode)
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 200, 200, 429])
    await app.close()
  })

  it('documents both endpoints as operations that need no key', async () => {
    const app = Fastify()
    await app.register(openApiPlugin, { title: 't', description: 'd', version: '1', tags: [] })
    await app.register(healthPlugin, { checks: {} })
    await app.ready()
    const { paths } = app.swagger() as { paths: Record<string, { get: Record<string, unknown> }> }
    expect(paths['/health']?.get).toMatchObject({
      tags: ['operations'],
      operationId: 'getHealth',
      summary: 'Liveness: the process is up',
      security: [],
    })
    expect(paths['/ready']?.get).toMatchObject({
      tags: ['operations'],
      operationId: 'getReadiness',
      summary: 'Readiness: Postgres and Redis answer, and the instance is not shutting down',
      security: [],
    })
    type Responses = Record<string, { content: Record<string, { schema: object }> }>
    const schemaOf = (path: string, status: string) =>
      (paths[path]?.get.responses as Responses | undefined)?.[status]?.content['application/json']
        ?.schema
    expect(schemaOf('/health', '200')).toMatchObject({ properties: { status: { enum: ['ok'] } } })
    for (const status of ['200', '503']) {
      expect(schemaOf('/ready', status)).toMatchObject({
        properties: {
          status: { enum: ['ready', 'degraded', 'unavailable', 'shutting_down'] },
          checks: { additionalProperties: { enum: ['up', 'down'] } },
        },
      })
    }
    expect(app.hasPlugin('health')).toBe(true)
    await app.close()
  })
})
