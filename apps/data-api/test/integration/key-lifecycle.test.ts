import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, movableClock, type TestApp } from '../support/test-app.js'

// Expiry, roll and rename, on two instances that both keep the keys cached in memory (60 s).

const HOUR = 3_600_000
const DAY = 24 * HOUR
const clock = movableClock(new Date(Date.now() + DAY))
const env = { HOUSEKEEPING_INTERVAL_SECONDS: '0', MAX_ACTIVE_KEYS: '2' }
let first: TestApp
let second: TestApp

beforeAll(async () => {
  first = await createTestApp('lifecycle', { clock, env })
  second = await createTestApp('lifecycle', { clock, env, shareWith: first })
})
afterAll(async () => {
  await second?.close()
  await first?.close()
})

const later = (ms: number) => {
  clock.now = new Date(clock.now.getTime() + ms)
}

/** The status of a GET with the key on each instance (each then has it cached). */
const statuses = async (key: string) => [
  (await callData(first.app, key)).statusCode,
  (await callData(second.app, key)).statusCode,
]

async function signedUp(label: string) {
  const client = new DashboardClient(first.app)
  await client.signUp(uniqueEmail(label))
  return client
}

const idOf = async (key: string) => (await callData(first.app, key)).json().key.id as string

async function stateOf(client: DashboardClient, keyId: string) {
  const page = await client.get('/dashboard')
  return new RegExp(`data-key-id="${keyId}" data-state="([a-z]+)"`).exec(page.body)?.[1]
}

describe('key expiry', () => {
  it('refuses a key past its expiry with 401 KEY_EXPIRED, even from memory, not counted', async () => {
    const client = await signedUp('expiry')
    const key = await client.createKey('seven days', '7')
    const id = await idOf(key)
    expect(await statuses(key)).toEqual([200, 200])
    expect(await stateOf(client, id)).toBe('expiring')

    later(7 * DAY + 1_000)
    for (const app of [first, second]) {
      const res = await callData(app.app, key)
      expect(res.statusCode).toBe(401)
      expect(res.json()).toMatchObject({ code: 'KEY_EXPIRED', title: 'API key expired' })
      expect(res.json().detail).toMatch(/expired at/)
      expect(res.headers['www-authenticate']).toBe(
        'Bearer realm="data-api", error="invalid_token", error_description="The API key has expired"',
      )
      expect(res.headers.ratelimit).toBeUndefined()
    }
    expect(await stateOf(client, id)).toBe('expired')
  })

  it('no longer counts expired keys against the cap', async () => {
    const client = await signedUp('cap')
    await client.createKey('a', '7')
    await client.createKey('b')
    await client.get('/dashboard')
    expect((await client.post('/dashboard/keys', { name: 'c', expires: 'never' })).statusCode).toBe(
      409,
    )
    later(8 * DAY)
    expect(await client.createKey('c')).toMatch(/^sk_/)
  })

  it('refuses an expiry that is not offered, storing nothing', async () => {
    const client = await signedUp('bad-expiry')
    for (const expires of ['1', 'forever', '30.0', '']) {
      await client.get('/dashboard')
      const res = await client.post('/dashboard/keys', { name: 'k', expires })
      expect(res.statusCode, expires).toBe(400)
      expect(res.body).toMatch(/Choose an expiry/)
    }
    const page = await client.get('/dashboard')
    expect(page.body).toContain('No keys yet.')
  })

  it('logs each expiry once in the activity log, whoever notices it', async () => {
    const client = await signedUp('expiry-log')
    await client.createKey('short-lived', '7')
    later(7 * DAY + 1_000)
    const runs = await Promise.all([
      first.app.housekeeping.runOnce(),
      second.app.housekeeping.runOnce(),
    ])
    expect(runs[0].expiries + runs[1].expiries).toBeGreaterThanOrEqual(1)
    const page = await client.get('/dashboard/activity')
    expect(page.body.match(/data-kind="key_expired"/g)).toHaveLength(1)
    expect(page.body).toContain('Key “short-lived”')
  })
})

describe('rolling a key', () => {
  it('shows a new key once and keeps the old one for the grace period, then refuses it', async () => {
    const client = await signedUp('roll')
    const old = await client.createKey('production')
    const oldId = await idOf(old)
    expect(await statuses(old)).toEqual([200, 200])

    const fresh = await client.roll(oldId, '1h')
    expect(fresh).not.toBe(old)
    expect(await statuses(fresh)).toEqual([200, 200])
    expect(await statuses(old)).toEqual([200, 200])
    const newId = await idOf(fresh)
    expect(await stateOf(client, oldId)).toBe('grace')
    expect(await stateOf(client, newId)).toBe('active')
    const page = await client.get('/dashboard')
    expect(page.body).toMatch(/Rolled: accepted until/)

    later(HOUR + 1_000)
    expect(await statuses(old)).toEqual([401, 401])
    expect((await callData(second.app, old)).json().code).toBe('KEY_EXPIRED')
    expect(await statuses(fresh)).toEqual([200, 200])
    expect(await stateOf(client, oldId)).toBe('expired')
    // A rolled key cannot be rolled again.
    await client.get('/dashboard')
    const twice = await client.post(`/dashboard/keys/${oldId}/roll`, { grace: 'none' })
    expect(twice.statusCode).toBe(409)
  })

  it('without grace, refuses the old key at once on every instance', async () => {
    const client = await signedUp('roll-now')
    const old = await client.createKey('ci', '30')
    const oldId = await idOf(old)
    expect(await statuses(old)).toEqual([200, 200])
    const fresh = await client.roll(oldId, 'none')
    expect(await statuses(old)).toEqual([401, 401])
    expect(await statuses(fresh)).toEqual([200, 200])
    // The new key keeps the old one's lifetime (30 days) from now.
    later(29 * DAY)
    expect(await statuses(fresh)).toEqual([200, 200])
    later(2 * DAY)
    expect(await statuses(fresh)).toEqual([401, 401])
  })

  it('refuses a grace period that is not offered', async () => {
    const client = await signedUp('roll-bad')
    const key = await client.createKey('k')
    const id = await idOf(key)
    await client.get(`/dashboard/keys/${id}/roll`)
    const res = await client.post(`/dashboard/keys/${id}/roll`, { grace: '7d' })
    expect(res.statusCode).toBe(400)
    expect(res.body).toMatch(/Choose a grace period/)
    expect(await statuses(key)).toEqual([200, 200])
  })
})

describe('renaming a key', () => {
  it('is seen at once by every instance, and logged', async () => {
    const client = await signedUp('rename')
    const key = await client.createKey('old name')
    const id = await idOf(key)
    expect((await callData(second.app, key)).json().key.name).toBe('old name')
    const res = await client.rename(id, 'new name')
    expect(res.statusCode).toBe(303)
    expect((await callData(second.app, key)).json().key.name).toBe('new name')
    const activity = await client.get('/dashboard/activity')
    expect(activity.body).toContain('renamed from “old name” to “new name”')
  })

  it('refuses an empty or hostile name with the form again', async () => {
    const client = await signedUp('rename-bad')
    const key = await client.createKey('kept')
    const id = await idOf(key)
    for (const body of ['name=+++', 'name=a%00b', 'name=a&name=b', `name=${'n'.repeat(101)}`]) {
      await client.get(`/dashboard/keys/${id}/rename`)
      const res = await client.postRaw(
        `/dashboard/keys/${id}/rename`,
        `_csrf=${encodeURIComponent(client.csrf)}&${body}`,
      )
      expect(res.statusCode, body).toBe(400)
      expect(res.body).toContain(`<form action="/dashboard/keys/${id}/rename"`)
    }
    expect((await callData(first.app, key)).json().key.name).toBe('kept')
  })

  it("answers 404 for another user's key", async () => {
    const owner = await signedUp('owner')
    const id = await idOf(await owner.createKey('mine'))
    const stranger = await signedUp('stranger')
    for (const path of ['rename', 'roll', 'usage', 'usage.csv']) {
      expect((await stranger.get(`/dashboard/keys/${id}/${path}`)).statusCode, path).toBe(404)
    }
    await stranger.get('/dashboard')
    expect((await stranger.post(`/dashboard/keys/${id}/rename`, { name: 'x' })).statusCode).toBe(
      404,
    )
  })
})
