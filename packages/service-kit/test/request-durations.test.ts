import client from 'prom-client'
import { describe, expect, it } from 'vitest'
import { BUCKETS, RequestDurations } from '../src/request-durations.js'

/** The same observations through our histogram and through prom-client's own. */
function both() {
  const ours = new client.Registry()
  const durations = new RequestDurations()
  ours.registerMetric(durations as never)
  const theirs = new client.Registry()
  const histogram = new client.Histogram({
    name: durations.name,
    help: durations.help,
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [...BUCKETS],
    registers: [theirs],
  })
  const observe = (method: string, route: string, status: number, seconds: number) => {
    durations.observe(method, route, status, seconds)
    histogram.observe({ method, route, status_code: status }, seconds)
  }
  return { ours, theirs, observe, durations, histogram }
}

describe('RequestDurations against prom-client’s Histogram', () => {
  it('exposes exactly what prom-client exposes for the same observations', async () => {
    const { ours, theirs, observe } = both()
    expect(await ours.metrics()).toBe(await theirs.metrics())
    const seconds = [0, 0.0007, 0.001, 0.0011, 0.02, 0.05, 0.3, 1, 2.5, 2.51, 40]
    seconds.forEach((s, i) => {
      observe('GET', '/api/q/:id', 200, s)
      observe(i % 2 ? 'HEAD' : 'GET', '/api/search', i % 3 ? 200 : 404, s * 1.5)
      observe('POST', '/api/v1/data', 429, s / 3)
    })
    expect(await ours.metrics()).toBe(await theirs.metrics())
  })

  it('forgets every series on reset, as prom-client does', async () => {
    const { ours, theirs, observe, durations, histogram } = both()
    observe('GET', '/api', 200, 0.004)
    durations.reset()
    histogram.reset()
    expect(await ours.metrics()).toBe(await theirs.metrics())
    observe('GET', '/api', 500, 0.2)
    expect(await ours.metrics()).toBe(await theirs.metrics())
  })

  it('reads as a Prometheus histogram', async () => {
    const { ours, observe } = both()
    observe('GET', '/api/q/:id', 200, 0.0007)
    observe('GET', '/api/q/:id', 200, 0.02)
    const text = await ours.metrics()
    expect(text).toContain('# TYPE http_request_duration_seconds histogram')
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.025",method="GET",route="/api/q/:id",status_code="200"} 2',
    )
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/q/:id",status_code="200"} 2',
    )
  })
})
