import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

// data-api's own metrics, scraped over real HTTP after real API calls.
let t: TestApp
let base = ''
let key = ''

beforeAll(async () => {
  t = await createTestApp('metrics', { env: { LAST_USED_FLUSH_MS: '600000' } })
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
  const client = new DashboardClient(t.app)
  await client.signUp(uniqueEmail('metrics'))
  key = await client.createKey()
})
afterAll(async () => {
  await t?.close()
})

const call = (bearer: string | undefined, body?: unknown) =>
  fetch(`${base}/api/v1/data`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then(async (res) => ({ status: res.status, text: await res.text() }))

const scrape = () => fetch(`${base}/metrics`).then((res) => res.text())

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  if (line === undefined) throw new Error(`no ${series} in the metrics`)
  return Number(line.slice(series.length + 1))
}

describe('data-api metrics', () => {
  it('quota decisions by outcome, and refusals by problem code', async () => {
    const before = await scrape()
    const allowed = sample(before, 'quota_decisions_total{decision="allowed"}')
    const forbidden = sample(before, 'problem_responses_total{code="FEATURE_NOT_IN_PLAN"}')
    const unauthorized = sample(before, 'problem_responses_total{code="UNAUTHORIZED"}')

    expect((await call(key)).status).toBe(200)
    // FREE has no `entities`: counted (a quota decision), then refused with 403.
    expect((await call(key, { data: 'Ada', options: { feature: 'entities' } })).status).toBe(403)
    expect((await call(undefined)).status).toBe(401)

    const after = await scrape()
    expect(sample(after, 'quota_decisions_total{decision="allowed"}')).toBe(allowed + 2)
    expect(sample(after, 'problem_responses_total{code="FEATURE_NOT_IN_PLAN"}')).toBe(forbidden + 1)
    expect(sample(after, 'problem_responses_total{code="UNAUTHORIZED"}')).toBe(unauthorized + 1)
  })

  it("the feature pool's threads, queue depth and running calls", async () => {
    // No feature has run in this app yet (the refused `entities` call above never reached it):
    // its threads start with the first call.
    expect(sample(await scrape(), 'feature_pool_threads')).toBe(0)
    expect(
      (await call(key, { data: 'One two. Three.', options: { feature: 'stats' } })).status,
    ).toBe(200)
    const text = await scrape()
    expect(sample(text, 'feature_pool_threads')).toBe(1)
    expect(sample(text, 'feature_pool_tasks{state="queued"}')).toBe(0)
    expect(sample(text, 'feature_pool_tasks{state="running"}')).toBe(0)
    expect(sample(text, 'pg_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'redis_connection_up')).toBe(1)
  })
})
