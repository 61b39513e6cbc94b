import { afterEach, describe, expect, it } from 'vitest'
import { WARM_UP_REQUESTS } from '../../src/plugins/warm-up.js'
import { createTestApp, JSON_ACCEPT, type TestApp } from '../support/test-app.js'

// The start-up warm-up (plugins/warm-up.ts): the requests an instance sends itself before it
// says it is ready, seen through /ready, /metrics and a client's per-address ceiling.

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

/** Requests counted by route and status (http_request_duration_seconds_count). */
async function served(app: TestApp['app']): Promise<Record<string, number>> {
  const text = (await app.inject({ url: '/metrics' })).body
  const counts: Record<string, number> = {}
  const series =
    /^http_request_duration_seconds_count\{method="GET",route="([^"]*)",status_code="(\d+)"\} (\d+)$/gm
  for (const [, route, status, count] of text.matchAll(series)) {
    if (route === '/ready' || route === '/metrics') continue
    counts[`${route} ${status}`] = Number(count)
  }
  return counts
}

/** Polls /ready (as a load balancer does) until it answers 200. */
async function untilReady(app: TestApp['app']): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await app.inject({ url: '/ready' })).statusCode === 200) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('never ready')
}

describe('start-up warm-up', () => {
  it('has served a search, a random quote and the home page before /ready answers 200', async () => {
    t = await createTestApp('warm_up')
    await untilReady(t.app)
    expect(await served(t.app)).toEqual({
      '/api/search 200': 2,
      '/api 200': 2,
      '/ 200': 1,
    })
    expect(WARM_UP_REQUESTS).toHaveLength(5)
  })

  it("takes nothing from a real client's per-address ceiling", async () => {
    t = await createTestApp('warm_up_ceiling', { RATE_LIMIT_MAX: String(WARM_UP_REQUESTS.length) })
    await untilReady(t.app)
    const statuses: number[] = []
    for (let i = 0; i <= WARM_UP_REQUESTS.length; i++) {
      statuses.push((await t.app.inject({ url: '/api', headers: JSON_ACCEPT })).statusCode)
    }
    expect(statuses).toEqual([...WARM_UP_REQUESTS.map(() => 200), 429])
  })

  it('a refused warm-up request neither stops the others nor holds readiness', async () => {
    t = await createTestApp('warm_up_refused', { RATE_LIMIT_MAX: '1' })
    await untilReady(t.app)
    expect(await served(t.app)).toEqual({
      '/api/search 200': 1,
      '/api/search 429': 1,
      '/api 429': 2,
      '/ 429': 1,
    })
  })
})
