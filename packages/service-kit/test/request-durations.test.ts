import client from 'prom-client'
import { describe, expect, it } from 'vitest'
import { RequestDurations } from '../src/request-durations.js'

describe('RequestDurations', () => {
  it('exposes a Prometheus histogram through a prom-client registry', async () => {
    const registry = new client.Registry()
    const durations = new RequestDurations()
    registry.registerMetric(durations as never)
    durations.observe('GET', '/api/q/:id', 200, 0.0007)
    durations.observe('GET', '/api/q/:id', 200, 0.02)
    durations.observe('GET', '/api/q/:id', 404, 3)
    const text = await registry.metrics()
    expect(text).toContain('# TYPE http_request_duration_seconds histogram')
    expect(text).toContain(
      'http_request_duration_seconds_bucket{method="GET",route="/api/q/:id",status_code="200",le="0.001"} 1',
    )
    expect(text).toContain(
      'http_request_duration_seconds_bucket{method="GET",route="/api/q/:id",status_code="200",le="0.025"} 2',
    )
    expect(text).toContain(
      'http_request_duration_seconds_bucket{method="GET",route="/api/q/:id",status_code="200",le="+Inf"} 2',
    )
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/q/:id",status_code="200"} 2',
    )
    expect(text).toContain(
      'http_request_duration_seconds_bucket{method="GET",route="/api/q/:id",status_code="404",le="2.5"} 0',
    )
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/q/:id",status_code="404"} 1',
    )
    expect(text).toMatch(
      /http_request_duration_seconds_sum\{method="GET",route="\/api\/q\/:id",status_code="200"\} 0\.0207/,
    )
  })
})
