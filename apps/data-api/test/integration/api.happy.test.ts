import { DataInfoResponse, PLAN_LIMITS } from '@repo/contracts'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadAllFeatures, runFeature } from '../../src/features/index.js'
import { callData, parseRateLimit } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp
let key: string
const email = uniqueEmail('happy')

beforeAll(async () => {
  t = await createTestApp('api_happy')
  const client = new DashboardClient(t.app)
  await client.signUp(email, 'PRO')
  key = await client.createKey('laptop')
})
afterAll(async () => {
  await t?.close()
})

const PRO = PLAN_LIMITS.PRO

describe('GET /api/v1/data', () => {
  it('describes the user, the key, the quota and the plan’s features', async () => {
    const res = await callData(t.app, key)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(Value.Check(DataInfoResponse, body)).toBe(true)
    expect(body.user).toMatchObject({ email, plan: 'PRO' })
    expect(body.key).toMatchObject({ name: 'laptop', prefix: key.slice(0, 11), last_used_at: null })
    expect(body.quota).toMatchObject({
      limit: PRO.dailyRequests,
      used: 1,
      remaining: PRO.dailyRequests - 1,
    })
    expect(new Date(body.quota.resets_at).getUTCHours()).toBe(0)
    expect(body.features).toEqual(PRO.features)
    expect(body.max_data_bytes).toBe(PRO.maxDataBytes)
  })

  it('carries the IETF RateLimit fields', async () => {
    const res = await callData(t.app, key)
    expect(res.headers['ratelimit-policy']).toBe(`"daily";q=${PRO.dailyRequests};w=86400`)
    const { r, t: seconds } = parseRateLimit(res.headers.ratelimit)
    expect(r).toBe(PRO.dailyRequests - 2)
    expect(seconds).toBeGreaterThan(0)
    expect(seconds).toBeLessThanOrEqual(86_400)
  })

  it('is never stored by caches, like every /api/v1 answer (errors included)', async () => {
    const ok = await callData(t.app, key)
    const posted = await callData(t.app, key, { data: 'hi', options: { feature: 'stats' } })
    const unauthorized = await callData(t.app, undefined)
    for (const res of [ok, posted, unauthorized]) {
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.headers['x-request-id']).toBeDefined()
    }
    expect(unauthorized.statusCode).toBe(401)
  })

  it('says when the key was used before this request', async () => {
    const res = await callData(t.app, key)
    expect(res.json().key.last_used_at).not.toBeNull()
  })
})

describe('POST /api/v1/data', () => {
  it('runs stats and returns the quota', async () => {
    const res = await callData(t.app, key, {
      data: 'One two three. Four five!',
      options: { feature: 'stats' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    const body = res.json()
    expect(body.feature).toBe('stats')
    expect(body.result.words).toBe(5)
    expect(body.result.sentences).toBe(2)
    expect(body.quota.limit).toBe(10_000)
    expect(res.headers.ratelimit).toBeDefined()
  })

  it('runs every feature of the plan', async () => {
    const text = 'I love Paris in the spring. The food is wonderful and the people are kind.'
    for (const feature of PRO.features) {
      const res = await callData(t.app, key, { data: text, options: { feature } })
      expect(res.statusCode, feature).toBe(200)
      expect(res.json().feature).toBe(feature)
    }
    const sentiment = await callData(t.app, key, { data: text, options: { feature: 'sentiment' } })
    expect(sentiment.json().result.label).toBe('positive')
    const language = await callData(t.app, key, { data: text, options: { feature: 'language' } })
    expect(language.json().result.language).toBe('eng')
  })

  it('answers with the JSON text of feature, result and quota, in that order, short text or long', async () => {
    await loadAllFeatures()
    const short = 'Ünïcödé “quotes” say: a\ttab, a "quote" and a \\ backslash. Paris loves Paris!'
    // Over the pool's BATCH_CHARS: run in a task of its own.
    for (const data of [short, short.repeat(300)]) {
      const res = await callData(t.app, key, { data, options: { feature: 'keywords', limit: 5 } })
      expect(res.statusCode).toBe(200)
      const { quota } = res.json()
      const result = runFeature('keywords', data, { limit: 5 })
      expect(result.keywords.length).toBe(5)
      expect(res.body).toBe(JSON.stringify({ feature: 'keywords', result, quota }))
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)))
    }
  })

  it('accepts the largest text the plan allows, counted in UTF-8 bytes', async () => {
    const data = 'é'.repeat(50 * 1024) // 100 KB in UTF-8
    const res = await callData(t.app, key, { data, options: { feature: 'stats' } })
    expect(res.statusCode).toBe(200)
  })

  it('gives ENTERPRISE the whole catalogue', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('ent'), 'ENTERPRISE')
    const enterpriseKey = await client.createKey()
    const data =
      'Barack Obama met Microsoft engineers in Paris. Write to a.b@example.com or call +44 20 7946 0958. ' +
      'The meeting was long. Everyone agreed on the plan. Then they went home.'
    for (const [feature, check] of [
      ['entities', (r: Record<string, string[]>) => expect(JSON.stringify(r)).toContain('Obama')],
      ['summary', (r: { sentences: string[] }) => expect(r.sentences.length).toBeGreaterThan(0)],
      ['redact', (r: { text: string }) => expect(r.text).not.toContain('a.b@example.com')],
    ] as const) {
      const res = await callData(t.app, enterpriseKey, { data, options: { feature } })
      expect(res.statusCode, feature).toBe(200)
      ;(check as (r: unknown) => void)(res.json().result)
    }
  })
})
