import { FEATURES, PLAN_LIMITS, Problem } from '@repo/contracts'
import { oneByteOver, oneByteOverProblem } from '@repo/service-kit/testing'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/lib/api-key.js'
import { utcDay } from '../../src/lib/clock.js'
import { LARGE_BODY_BYTES } from '../../src/lib/json-body.js'
import { QuotaStore } from '../../src/lib/quota.js'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

const FREE = PLAN_LIMITS.FREE
let t: TestApp
let freeKey: string
let client: DashboardClient

function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
  status: number,
  code: string,
) {
  expect(res.statusCode).toBe(status)
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/)
  const body = res.json() as Record<string, unknown>
  expect(Value.Check(Problem, body)).toBe(true)
  expect(body.code).toBe(code)
  return body
}

async function used(key: string): Promise<number> {
  const res = await callData(t.app, key)
  return res.json().quota.used
}

beforeAll(async () => {
  t = await createTestApp('api_errors')
  client = new DashboardClient(t.app)
  await client.signUp(uniqueEmail('errors'), 'FREE')
  freeKey = await client.createKey()
})
afterAll(async () => {
  await t?.close()
})

describe('401: missing, malformed, unknown or revoked key, never counted', () => {
  it.each([
    ['no header', undefined, {}],
    ['empty bearer', '', {}],
    ['not bearer', undefined, { authorization: 'Basic dXNlcjpwYXNz' }],
    ['malformed key', 'sk_short', {}],
    ['bad checksum', 'x', {}],
    ['unknown key', 'unknown', {}],
    ['two tokens', undefined, { authorization: 'Bearer a b' }],
  ])('%s', async (_label, key, headers) => {
    const before = await used(freeKey)
    let sent = key
    if (key === 'x') sent = `${freeKey.slice(0, -1)}${freeKey.endsWith('A') ? 'B' : 'A'}`
    if (key === 'unknown') sent = generateApiKey().key
    const res = await callData(t.app, sent, undefined, headers as Record<string, string>)
    const problem = expectProblem(res, 401, 'UNAUTHORIZED')
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="data-api"/)
    expect(String(problem.detail)).not.toContain(freeKey)
    expect(await used(freeKey)).toBe(before + 1) // only the `used` call itself counted
  })

  it('a revoked key', async () => {
    const other = new DashboardClient(t.app)
    await other.signUp(uniqueEmail('revoked'))
    const key = await other.createKey()
    const id = (await callData(t.app, key)).json().key.id
    await other.revoke(id)
    const res = await callData(t.app, key)
    expectProblem(res, 401, 'UNAUTHORIZED')
    expect(res.headers['www-authenticate']).toContain('invalid_token')
  })
})

/** Bodies that are not a valid request, each as JSON text or as a value. */
const INVALID_BODIES: Array<[string, unknown]> = [
  ['malformed JSON', '{"data": "x", '],
  ['empty JSON body', ''],
  ['not an object', '"hello"'],
  ['data missing', { options: { feature: 'stats' } }],
  ['data not a string', { data: 42, options: { feature: 'stats' } }],
  ['options missing', { data: 'x' }],
  ['feature missing', { data: 'x', options: {} }],
  ['feature not a string', { data: 'x', options: { feature: 7 } }],
  ['unknown option', { data: 'x', options: { feature: 'stats', colour: 'blue' } }],
  ['extra top-level member', { data: 'x', options: { feature: 'stats' }, extra: true }],
]

describe('400: invalid bodies, counted', () => {
  it.each(INVALID_BODIES)('%s', async (_label, body) => {
    const before = await used(freeKey)
    const res = await callData(t.app, freeKey, body)
    const problem = expectProblem(res, 400, 'INVALID_REQUEST')
    expect(String(problem.detail).length).toBeGreaterThan(0)
    expect(await used(freeKey)).toBe(before + 2)
  })

  it.each(INVALID_BODIES)(
    '%s, over LARGE_BODY_BYTES (read on a feature thread): the same problem as small',
    async (_label, body) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body)
      // Spaces after the value: the same JSON, a large body.
      const large = `${text}${' '.repeat(LARGE_BODY_BYTES)}`
      const before = await used(freeKey)
      const small = await callData(t.app, freeKey, text)
      const res = await callData(t.app, freeKey, large)
      expect(res.statusCode).toBe(400)
      const { request_id: _small, ...expected } = small.json()
      const { request_id: _large, ...problem } = res.json()
      expect(problem).toEqual(expected)
      expect(await used(freeKey)).toBe(before + 3)
    },
  )

  it('thousands of unknown options: the first five named, the answer short', async () => {
    const options: Record<string, unknown> = { feature: 'stats' }
    for (let i = 0; i < 5_000; i++) options[`k${i}`] = i
    const before = await used(freeKey)
    const res = await callData(t.app, freeKey, { data: 'x', options })
    const problem = expectProblem(res, 400, 'INVALID_REQUEST')
    expect(problem.detail).toBe(
      'Unknown options "k0", "k1", "k2", "k3", "k4" and more for the stats feature. ' +
        'The stats feature takes no options besides "feature".',
    )
    expect(res.body.length).toBeLessThan(1_000)
    expect(await used(freeKey)).toBe(before + 2)
  })

  it('unknown feature lists the allowed ones', async () => {
    const res = await callData(t.app, freeKey, { data: 'x', options: { feature: 'translate' } })
    const problem = expectProblem(res, 400, 'UNKNOWN_FEATURE')
    expect(problem.allowed).toEqual(FEATURES)
    expect(problem.allowed_by_plan).toEqual(FREE.features)
    expect(String(problem.detail)).toContain('stats')
  })
})

describe('403, 413, 415', () => {
  it('403 names the plan that has the feature', async () => {
    const res = await callData(t.app, freeKey, { data: 'x', options: { feature: 'keywords' } })
    const problem = expectProblem(res, 403, 'FEATURE_NOT_IN_PLAN')
    expect(problem).toMatchObject({ feature: 'keywords', plan: 'FREE', required_plan: 'PRO' })
    const entities = await callData(t.app, freeKey, { data: 'x', options: { feature: 'entities' } })
    expect(entities.json().required_plan).toBe('ENTERPRISE')
  })

  it('413 when data is larger than the plan allows', async () => {
    const res = await callData(t.app, freeKey, oneByteOver('FREE'))
    const problem = expectProblem(res, 413, 'PAYLOAD_TOO_LARGE')
    expect(problem).toMatchObject(oneByteOverProblem('FREE'))
  })

  it('413 when the body itself is huge', async () => {
    const res = await callData(t.app, freeKey, {
      data: 'a'.repeat(9 * 1024 * 1024),
      options: { feature: 'stats' },
    })
    expectProblem(res, 413, 'PAYLOAD_TOO_LARGE')
  })

  it.each([
    ['form', 'application/x-www-form-urlencoded', 'data=x'],
    ['text', 'text/plain', 'hello'],
    ['xml', 'application/xml', '<a/>'],
  ])('415 for a %s body', async (_label, type, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/data',
      headers: { authorization: `Bearer ${freeKey}`, 'content-type': type },
      payload,
    })
    expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE')
  })
})

describe('429: quota exhausted', () => {
  it('refuses with Retry-After and the limit, and does not count the refusal', async () => {
    const other = new DashboardClient(t.app)
    await other.signUp(uniqueEmail('quota'))
    const key = await other.createKey()
    const id = (await callData(t.app, key)).json().key.id
    // Spend the rest of the day's quota directly in Redis, as that many requests would.
    await t.app.redis.set(QuotaStore.key(id, utcDay(new Date())), String(FREE.dailyRequests - 1))
    const last = await callData(t.app, key)
    expect(last.statusCode).toBe(200)
    expect(last.json().quota).toMatchObject({ used: FREE.dailyRequests, remaining: 0 })
    const refused = await callData(t.app, key, { data: 'x', options: { feature: 'stats' } })
    const problem = expectProblem(refused, 429, 'QUOTA_EXCEEDED')
    expect(problem).toMatchObject({ limit: FREE.dailyRequests, used: FREE.dailyRequests })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.headers.ratelimit).toMatch(/^"daily";r=0;t=\d+$/)
    expect(refused.headers['ratelimit-policy']).toBe(`"daily";q=${FREE.dailyRequests};w=86400`)
    expect(await t.app.redis.get(QuotaStore.key(id, utcDay(new Date())))).toBe(
      String(FREE.dailyRequests),
    )
  })
})

describe('405: a known path with another method', () => {
  it('names the allowed methods, before any key or body is looked at', async () => {
    for (const method of ['DELETE', 'PUT', 'PATCH'] as const) {
      const res = await t.app.inject({
        method,
        url: '/api/v1/data',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        payload: '{not json',
      })
      expectProblem(res, 405, 'METHOD_NOT_ALLOWED')
      expect(res.headers.allow).toBe('GET, HEAD, POST')
    }
    expectProblem(
      await t.app.inject({
        method: 'DELETE',
        url: '/api/v1/nothing',
        headers: { accept: 'application/json' },
      }),
      404,
      'NOT_FOUND',
    )
  })
})
