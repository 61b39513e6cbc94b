import { ProblemError, parseRateLimit as parseRateLimitHeaders, unwrap } from '@repo/client'
import {
  DataInfoResponse,
  DataResponse,
  FEATURES,
  KeywordsResult,
  PLAN_LIMITS,
  StatsResult,
} from '@repo/contracts'
import { oneByteOver, oneByteOverProblem } from '@repo/service-kit/testing'
import { Value } from 'typebox/value'
import { beforeAll, describe, expect, it } from 'vitest'
import { madeUpKey } from './support/api-keys.js'
import { dataApi } from './support/clients.js'
import { DashboardBrowser, uniqueEmail } from './support/dashboard.js'
import { callData, parseRateLimit } from './support/data-api.js'
import { DATA_API_URL } from './support/env.js'
import { type Answer, expectProblem, http } from './support/http.js'

// One PRO account and key for the whole file, and a second account that must not reach it
// (sign-ups are throttled per address). The tests run in order: plan change and revocation last.
const { FREE, PRO } = PLAN_LIMITS
const browser = new DashboardBrowser()
const stranger = new DashboardBrowser()
const email = uniqueEmail('api')
let key = ''
let keyId = ''

beforeAll(async () => {
  await browser.signUp(email, 'PRO')
  key = (await browser.createKey('e2e api')).key
  await stranger.signUp(uniqueEmail('stranger'), 'FREE')
})

/** Today's count for the key, read with a GET (which itself counts), by the typed client. */
async function usedNow(): Promise<number> {
  return (await unwrap(dataApi(key).GET('/api/v1/data'))).quota.used
}

function expectRateLimitFields(res: Answer, limit: number) {
  expect(res.headers.get('ratelimit-policy')).toBe(`"daily";q=${limit};w=86400`)
  const { r, t } = parseRateLimit(res.headers.get('ratelimit'))
  expect(r).toBeLessThan(limit)
  expect(t).toBeGreaterThan(0)
  expect(t).toBeLessThanOrEqual(86_400)
  return { r, t }
}

const TEXT = 'Love is patient. Love is kind! Kindness and love make a home.'

describe('GET /api/v1/data', () => {
  it('describes the user, the key, the quota and the plan', async () => {
    const before = Date.now()
    const res = await callData(key)
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = res.json<DataInfoResponse>()
    expect(Value.Check(DataInfoResponse, body), res.text).toBe(true)
    keyId = body.key.id
    expect(body.user).toMatchObject({ email, plan: 'PRO' })
    expect(body.key).toMatchObject({
      name: 'e2e api',
      prefix: key.slice(0, 11),
      last_used_at: null,
    })
    expect(body.quota).toEqual({
      limit: PRO.dailyRequests,
      used: 1,
      remaining: PRO.dailyRequests - 1,
      resets_at: body.quota.resets_at,
    })
    const resets = new Date(body.quota.resets_at)
    expect(resets.getUTCHours() + resets.getUTCMinutes() + resets.getUTCSeconds()).toBe(0)
    expect(resets.getTime()).toBeGreaterThan(before)
    expect(resets.getTime() - before).toBeLessThanOrEqual(86_400_000)
    expect(body.features).toEqual(PRO.features)
    expect(body.max_data_bytes).toBe(PRO.maxDataBytes)

    const { r, t } = expectRateLimitFields(res, PRO.dailyRequests)
    expect(r).toBe(body.quota.remaining)
    expect(Math.abs(t - (resets.getTime() - Date.now()) / 1000)).toBeLessThan(5)
  })

  it('counts each request and carries the RateLimit fields every time', async () => {
    const first = await callData(key)
    const second = await callData(key)
    const a = expectRateLimitFields(first, 10_000)
    const b = expectRateLimitFields(second, 10_000)
    expect(b.r).toBe(a.r - 1)
    expect(second.json<DataInfoResponse>().quota.used).toBe(
      first.json<DataInfoResponse>().quota.used + 1,
    )
    // last_used_at: the use before this request.
    const lastUsed = second.json<DataInfoResponse>().key.last_used_at
    expect(lastUsed).not.toBeNull()
    expect(Date.parse(lastUsed as string)).toBeLessThanOrEqual(Date.now() + 5_000)
  })
})

describe('POST /api/v1/data', () => {
  it('runs stats (typed client: the result is typed by its feature)', async () => {
    const { data, response } = await dataApi(key).POST('/api/v1/data', {
      body: { data: 'One two three. Four five!', options: { feature: 'stats' } },
    })
    expect(response.status).toBe(200)
    expect(Value.Check(DataResponse, data), JSON.stringify(data)).toBe(true)
    if (data?.feature !== 'stats') throw new Error(`not a stats answer: ${JSON.stringify(data)}`)
    expect(Value.Check(StatsResult, data.result)).toBe(true)
    expect(data.result).toMatchObject({ words: 5, sentences: 2, lines: 1, paragraphs: 1 })
    expect(data.quota.limit).toBe(10_000)
    const rateLimit = parseRateLimitHeaders(response.headers)
    expect(rateLimit).toMatchObject({ policy: 'daily', limit: 10_000 })
    expect(rateLimit?.remaining).toBe(data.quota.remaining)
  })

  it('runs keywords on PRO, with its limit option', async () => {
    const res = await callData(key, { data: TEXT, options: { feature: 'keywords', limit: 3 } })
    expect(res.status, res.text).toBe(200)
    const body = res.json<DataResponse>()
    expect(Value.Check(DataResponse, body), res.text).toBe(true)
    expect(body.feature).toBe('keywords')
    const result = body.result as KeywordsResult
    expect(Value.Check(KeywordsResult, result)).toBe(true)
    expect(result.keywords.length).toBeGreaterThan(0)
    expect(result.keywords.length).toBeLessThanOrEqual(3)
    expect(result.keywords[0]).toEqual({ term: 'love', count: 3 })
    expect(result.keywords.map((k) => k.term)).not.toContain('is')
  })

  it('runs the other PRO features', async () => {
    for (const feature of ['sentiment', 'language']) {
      const res = await callData(key, {
        data: 'I love this wonderful city. The people are kind and the food is great.',
        options: { feature },
      })
      expect(res.status, `${feature}: ${res.text}`).toBe(200)
      expect(Value.Check(DataResponse, res.json()), res.text).toBe(true)
    }
  })

  it('403 for entities on PRO, naming ENTERPRISE, and it counts', async () => {
    const before = await usedNow()
    const res = await callData(key, {
      data: 'Ada Lovelace met Charles Babbage in London.',
      options: { feature: 'entities' },
    })
    const problem = expectProblem(res, 403, 'FEATURE_NOT_IN_PLAN')
    expect(problem).toMatchObject({ feature: 'entities', plan: 'PRO', required_plan: 'ENTERPRISE' })
    expectRateLimitFields(res, 10_000)
    expect(await usedNow()).toBe(before + 2)
  })

  it('the typed client throws the problem as a ProblemError', async () => {
    const call = dataApi(key).POST('/api/v1/data', {
      body: { data: 'Ada Lovelace met Charles Babbage.', options: { feature: 'entities' } },
    })
    const error = await unwrap(call).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ProblemError)
    expect(error).toMatchObject({ status: 403, code: 'FEATURE_NOT_IN_PLAN' })
    expect((error as ProblemError).problem).toMatchObject({ required_plan: 'ENTERPRISE' })
    expect((error as ProblemError).rateLimit).toMatchObject({ policy: 'daily', limit: 10_000 })
  })

  it('400 for an unknown feature, listing the allowed ones', async () => {
    const res = await callData(key, { data: 'x', options: { feature: 'translate' } })
    const problem = expectProblem(res, 400, 'UNKNOWN_FEATURE')
    expect(problem.allowed).toEqual(FEATURES)
  })

  it('400 for malformed JSON and for a wrong body', async () => {
    expectProblem(await callData(key, '{"data": "x", '), 400, 'INVALID_REQUEST')
    expectProblem(
      await callData(key, { data: 42, options: { feature: 'stats' } }),
      400,
      'INVALID_REQUEST',
    )
  })

  it('405 with Allow for another method on /api/v1/data', async () => {
    const res = await http(`${DATA_API_URL}/api/v1/data`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expectProblem(res, 405, 'METHOD_NOT_ALLOWED')
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST')
  })

  it('accepts exactly the plan’s size, counted in UTF-8 bytes; 413 one byte over', async () => {
    const exact = await callData(key, {
      data: 'é'.repeat(PRO.maxDataBytes / 2),
      options: { feature: 'stats' },
    })
    expect(exact.status, exact.text.slice(0, 300)).toBe(200)
    const over = await callData(key, oneByteOver('PRO'))
    const problem = expectProblem(over, 413, 'PAYLOAD_TOO_LARGE')
    expect(problem).toMatchObject(oneByteOverProblem('PRO'))
  })

  it.each([
    ['a form', 'application/x-www-form-urlencoded', 'data=x&options=stats'],
    ['plain text', 'text/plain', 'hello'],
  ])('415 for %s body', async (_label, type, body) => {
    const res = await callData(key, body, { 'content-type': type })
    expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE')
  })
})

describe('401: missing, malformed or unknown key, with WWW-Authenticate, never counted', () => {
  it.each([
    ['no Authorization header', {}],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNzd29yZA==' }],
    ['a malformed key', { authorization: 'Bearer sk_short' }],
    ['a mistyped key (bad checksum)', { authorization: 'mistyped' }],
    ['an unknown well-formed key', { authorization: 'unknown' }],
  ])('%s', async (_label, headers: Record<string, string>) => {
    const sent = { ...headers }
    if (sent.authorization === 'mistyped') {
      const last = key.at(-1) === 'A' ? 'B' : 'A'
      sent.authorization = `Bearer ${key.slice(0, -1)}${last}`
    }
    if (sent.authorization === 'unknown') sent.authorization = `Bearer ${madeUpKey()}`
    const before = await usedNow()
    const res = await http(`${DATA_API_URL}/api/v1/data`, { headers: sent })
    const problem = expectProblem(res, 401, 'UNAUTHORIZED')
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
    expect(res.headers.get('ratelimit')).toBeNull()
    expect(JSON.stringify(problem)).not.toContain(key)
    expect(await usedNow()).toBe(before + 1) // only the second usedNow() counted
  })
})

it('a successful POST answers with Content-Type: application/json', async () => {
  const res = await callData(key, { data: 'Hello there.', options: { feature: 'stats' } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
})

describe('another account cannot see or touch the key', () => {
  it('answers 404 on its revoke page and form, and the key keeps working', async () => {
    expect(keyId).not.toBe('')
    expect((await stranger.get(`/dashboard/keys/${keyId}/revoke`)).status).toBe(404)
    await stranger.get('/dashboard')
    expect((await stranger.post(`/dashboard/keys/${keyId}/revoke`, {})).status).toBe(404)
    const dashboard = await stranger.get('/dashboard')
    expect(dashboard.text).not.toContain(keyId)
    expect(dashboard.text).not.toContain(key.slice(0, 11))
    expect((await callData(key)).status).toBe(200)
  })
})

describe('plan change and revocation in the dashboard', () => {
  it('a change to FREE applies to the next request', async () => {
    const changed = await browser.changePlan('FREE')
    expect(changed.status).toBe(303)
    expect(changed.headers.get('location')).toBe('/dashboard')
    const dashboard = await browser.get('/dashboard')
    expect(dashboard.text).toContain('<strong id="current-plan">FREE</strong>')

    const info = await callData(key)
    expect(info.status).toBe(200)
    expect(info.json()).toMatchObject({
      user: { plan: 'FREE' },
      quota: { limit: FREE.dailyRequests },
      features: FREE.features,
      max_data_bytes: FREE.maxDataBytes,
    })
    expectRateLimitFields(info, FREE.dailyRequests)

    const keywords = await callData(key, { data: TEXT, options: { feature: 'keywords' } })
    const problem = expectProblem(keywords, 403, 'FEATURE_NOT_IN_PLAN')
    expect(problem).toMatchObject({ feature: 'keywords', plan: 'FREE', required_plan: 'PRO' })
    expect(keywords.headers.get('ratelimit-policy')).toBe(`"daily";q=${FREE.dailyRequests};w=86400`)

    const tooLarge = await callData(key, oneByteOver('FREE'))
    const tooLargeProblem = expectProblem(tooLarge, 413, 'PAYLOAD_TOO_LARGE')
    expect(tooLargeProblem).toMatchObject(oneByteOverProblem('FREE'))
  })

  it('revocation: a confirmation page, then the key is refused with 401', async () => {
    expect(keyId).not.toBe('')
    const { confirm, done } = await browser.revoke(keyId)
    expect(confirm.status).toBe(200)
    expect(confirm.text).toContain('Revoke “e2e api”?')
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe('/dashboard')

    const res = await callData(key)
    expectProblem(res, 401, 'UNAUTHORIZED')
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
    expect(res.headers.get('www-authenticate')).toContain('invalid_token')

    const dashboard = await browser.get('/dashboard')
    expect(dashboard.text).toContain('is revoked')
    expect(dashboard.text).toMatch(/<td class="usage">revoked<\/td>/)
    // Revoked once, gone from the revoke page too.
    expect((await browser.get(`/dashboard/keys/${keyId}/revoke`)).status).toBe(404)
  })
})
