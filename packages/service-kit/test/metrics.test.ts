import rateLimit from '@fastify/rate-limit'
import Fastify from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import metricsPlugin from '../src/plugins/metrics.js'
import openApiPlugin from '../src/plugins/openapi.js'
import responsePipeline from '../src/plugins/response-pipeline.js'

// /metrics: Prometheus text from the app's own registry, with request durations by route
// (unmatched requests under one label, the operations endpoints left out) and the dependency
// metrics the Postgres and Redis plugins report into.

let app: ReturnType<typeof Fastify>
beforeEach(async () => {
  app = Fastify()
  await app.register(responsePipeline)
  await app.register(metricsPlugin)
  app.get('/items/:id', async () => 'ok')
  for (const url of ['/health', '/ready']) app.get(url, async () => 'ok')
  await app.ready()
})
afterEach(async () => {
  await app.close()
})

async function scrape() {
  const response = await app.inject({ url: '/metrics' })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
  return response.body
}

const countOf = (text: string, labels: string) =>
  Number(
    new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(
      text,
    )?.[1] ?? 0,
  )

describe('metrics', () => {
  it('counts requests by method, route pattern and status', async () => {
    await app.inject({ url: '/items/1' })
    await app.inject({ url: '/items/2' })
    await app.inject({ method: 'DELETE', url: '/items/2' })
    const text = await scrape()
    expect(countOf(text, 'method="GET",route="/items/:id",status_code="200"')).toBe(2)
    expect(countOf(text, 'method="DELETE",route="__unmatched",status_code="404"')).toBe(1)
    expect(text).toContain('# TYPE http_request_duration_seconds histogram')
  })

  it('leaves the operations endpoints out', async () => {
    for (const url of ['/health', '/ready', '/metrics']) await app.inject({ url })
    const text = await scrape()
    for (const route of ['/health', '/ready', '/metrics']) {
      expect(text).not.toContain(`route="${route}"`)
    }
  })

  it('observes the time a request took, in seconds', async () => {
    const slow = Fastify()
    await slow.register(responsePipeline)
    await slow.register(metricsPlugin)
    slow.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 30))
      return 'done'
    })
    await slow.inject({ url: '/slow' })
    const text = (await slow.inject({ url: '/metrics' })).body
    const sum = Number(/^http_request_duration_seconds_sum\{[^}]*\} (\S+)$/m.exec(text)?.[1])
    expect(sum).toBeGreaterThanOrEqual(0.025)
    expect(sum).toBeLessThan(5)
    await slow.close()
  })

  it('exports the process metrics and the dependency metrics', async () => {
    app.dependencyErrors.inc({ dependency: 'redis' })
    app.dependencyUp.set({ dependency: 'postgres' }, 1)
    const text = await scrape()
    expect(text).toContain('# HELP dependency_errors_total Failed calls to a backing service')
    expect(text).toContain('dependency_errors_total{dependency="redis"} 1')
    expect(text).toContain(
      '# HELP dependency_up Whether a backing service answers (1) or not (0), as this instance last saw it',
    )
    expect(text).toContain('dependency_up{dependency="postgres"} 1')
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m)
    expect(app.promRegistry.getSingleMetric('dependency_up')).toBe(app.dependencyUp)
  })

  it('keeps each app’s metrics in its own registry', async () => {
    const other = Fastify()
    await other.register(responsePipeline)
    await other.register(metricsPlugin)
    await other.ready()
    expect(other.promRegistry).not.toBe(app.promRegistry)
    expect((await other.inject({ url: '/metrics' })).body).not.toContain('route="/items/:id"')
    await other.close()
  })

  it('hides /metrics from the API document and never rate-limits it', async () => {
    const limited = Fastify()
    await limited.register(rateLimit, { max: 1, timeWindow: 60_000 })
    await limited.register(openApiPlugin, { title: 't', description: 'd', version: '1', tags: [] })
    await limited.register(responsePipeline)
    await limited.register(metricsPlugin)
    limited.get('/work', async () => 'ok')
    await limited.ready()
    const codes = []
    for (let i = 0; i < 2; i += 1) {
      codes.push((await limited.inject({ url: '/metrics' })).statusCode)
      codes.push((await limited.inject({ url: '/work' })).statusCode)
    }
    expect(codes).toEqual([200, 200, 200, 429])
    expect(Object.keys((limited.swagger() as { paths: object }).paths)).toEqual(['/work'])
    await limited.close()
  })

  it('is registered by the name other plugins depend on, and needs the response pipeline', async () => {
    expect(app.hasPlugin('service-metrics')).toBe(true)
    const alone = Fastify()
    alone.register(metricsPlugin)
    await expect(alone.ready()).rejects.toThrow(/response-pipeline/)
  })
})
