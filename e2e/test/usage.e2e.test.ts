import { unwrap } from '@repo/client'
import { PLAN_LIMITS, UsageResponse } from '@repo/contracts'
import { Value } from 'typebox/value'
import { beforeAll, describe, expect, it } from 'vitest'
import { dataApi } from './support/clients.js'
import { DashboardBrowser, uniqueEmail } from './support/dashboard.js'
import { callData } from './support/data-api.js'
import { DATA_API_URL } from './support/env.js'
import { expectProblem, http } from './support/http.js'

// The usage history over HTTP, and the key lifecycle: rename and roll (no clock to move here:
// expiry after a grace period is proven by the integration tests).

const browser = new DashboardBrowser()
let key = ''
let keyId = ''

beforeAll(async () => {
  await browser.signUp(uniqueEmail('usage'), 'PRO')
  key = (await browser.createKey('e2e usage')).key
})

const usage = (bearer: string | undefined, query = '') =>
  http(`${DATA_API_URL}/api/v1/usage${query}`, {
    headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` },
  })

const newKeyOn = (page: string) =>
  /<input id="new-key" type="text" readonly value="(sk_[0-9A-Za-z]+)"/.exec(page)?.[1] ?? ''

describe('GET /api/v1/usage', () => {
  it("answers the key's last N days, today live and counted", async () => {
    const api = dataApi(key)
    keyId = (await unwrap(api.GET('/api/v1/data'))).key.id
    await unwrap(api.GET('/api/v1/data'))
    const { data: body, response: res } = await api.GET('/api/v1/usage', {
      params: { query: { days: 3 } },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    if (!body) throw new Error('no body')
    expect(Value.Check(UsageResponse, body), JSON.stringify(body)).toBe(true)
    const today = new Date().toISOString().slice(0, 10)
    expect(body.to).toBe(today)
    expect(body.days).toHaveLength(3)
    // A midnight may pass between the calls: then today holds fewer.
    expect(body.days[2]).toMatchObject({ date: today })
    expect(body.total).toBe(3)
    expect(body.quota.used).toBe(body.days[2]?.requests)
    expect(res.headers.get('ratelimit-policy')).toBe(
      `"daily";q=${PLAN_LIMITS.PRO.dailyRequests};w=86400`,
    )
  })

  it('defaults to 30 days; other values than 1-90 are a 400', async () => {
    expect((await usage(key)).json<UsageResponse>().days).toHaveLength(30)
    for (const query of ['?days=0', '?days=91', '?days=2.5', '?days=a']) {
      expectProblem(await usage(key, query), 400, 'INVALID_REQUEST')
    }
    expectProblem(await usage(undefined), 401, 'UNAUTHORIZED')
  })
})

describe('key lifecycle', () => {
  it('a rename shows in the API at once', async () => {
    await browser.get(`/dashboard/keys/${keyId}/rename`)
    const done = await browser.post(`/dashboard/keys/${keyId}/rename`, { name: 'renamed e2e' })
    expect(done.status).toBe(303)
    expect((await callData(key)).json<{ key: { name: string } }>().key.name).toBe('renamed e2e')
  })

  it('a roll without grace: the old key answers 401 KEY_EXPIRED at once, the new one works', async () => {
    const confirm = await browser.get(`/dashboard/keys/${keyId}/roll`)
    expect(confirm.status).toBe(200)
    const page = await browser.post(`/dashboard/keys/${keyId}/roll`, { grace: 'none' })
    expect(page.status).toBe(200)
    const fresh = newKeyOn(page.text)
    expect(fresh).toMatch(/^sk_/)
    const old = await callData(key)
    expect(String(expectProblem(old, 401, 'KEY_EXPIRED').detail)).toMatch(/expired at/)
    expect(old.headers.get('www-authenticate')).toContain('error="invalid_token"')
    expect((await callData(fresh)).status).toBe(200)
    const dashboard = await browser.get('/dashboard')
    expect(dashboard.text).toContain(`data-key-id="${keyId}" data-state="expired"`)
    // The activity log has the roll and the rename.
    const activity = await browser.get('/dashboard/activity')
    expect(activity.text).toContain('data-kind="key_rolled"')
    expect(activity.text).toContain('data-kind="key_renamed"')
  })
})
