import { Writable } from 'node:stream'
import { fastifyOptions } from '@repo/service-kit'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import app from '../../src/app.js'
import { serverOverrides } from '../../src/server-options.js'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('security')
})
afterAll(async () => {
  await t?.close()
})

describe('CSRF', () => {
  it('refuses every state-changing form without the token, changing nothing', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('csrf'))
    const key = await client.createKey()
    const id = (await callData(t.app, key)).json().key.id
    for (const [url, form] of [
      ['/dashboard/keys', { name: 'sneaky' }],
      ['/dashboard/plan', { plan: 'ENTERPRISE' }],
      [`/dashboard/keys/${id}/revoke`, {}],
      ['/logout', {}],
    ] as const) {
      const res = await client.post(url, form, false)
      expect(res.statusCode, url).toBe(403)
    }
    const forged = await client.post(
      '/dashboard/plan',
      { plan: 'ENTERPRISE', _csrf: 'forged' },
      false,
    )
    expect(forged.statusCode).toBe(403)
    const info = (await callData(t.app, key)).json()
    expect(info.user.plan).toBe('FREE')
    expect((await client.get('/dashboard')).body).not.toContain('sneaky')
  })

  it('refuses sign-up without the token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/signup',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=x%40example.com&password=correct+horse+battery+staple&plan=FREE',
    })
    expect(res.statusCode).toBe(403)
  })
})

describe('one user and another user’s keys', () => {
  it('cannot see, use as their own, or revoke them', async () => {
    const alice = new DashboardClient(t.app)
    await alice.signUp(uniqueEmail('alice'))
    const aliceKey = await alice.createKey('alice key')
    const aliceKeyId = (await callData(t.app, aliceKey)).json().key.id

    const mallory = new DashboardClient(t.app)
    await mallory.signUp(uniqueEmail('mallory'))
    const page = await mallory.get('/dashboard')
    expect(page.body).not.toContain('alice key')
    expect(page.body).not.toContain(aliceKeyId)

    const confirm = await mallory.get(`/dashboard/keys/${aliceKeyId}/revoke`)
    expect(confirm.statusCode).toBe(404)
    const revoke = await mallory.post(`/dashboard/keys/${aliceKeyId}/revoke`, {})
    expect(revoke.statusCode).toBe(404)
    expect((await callData(t.app, aliceKey)).statusCode).toBe(200)
  })

  it('answers an unknown or malformed key id with the same 404', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('probe'))
    for (const id of ['00000000-0000-0000-0000-000000000000', 'not-a-uuid', "1' OR '1'='1"]) {
      const res = await client.get(`/dashboard/keys/${encodeURIComponent(id)}/revoke`)
      expect(res.statusCode).toBe(404)
    }
  })
})

describe('secrets', () => {
  it('stores only a hash and a prefix of each key, never the key or the password', async () => {
    const client = new DashboardClient(t.app)
    const password = 'a very particular passphrase 42'
    const email = uniqueEmail('storage')
    await client.get('/signup')
    await client.post('/signup', { email, password, plan: 'FREE' })
    const key = await client.createKey()
    const { rows } = await t.app.pg.query(
      `SELECT string_agg(t::text, ' ') AS dump FROM (
         SELECT u::text AS t FROM users u UNION ALL SELECT k::text FROM api_keys k
         UNION ALL SELECT p::text FROM plan_changes p UNION ALL SELECT s::text FROM sessions s) s`,
    )
    expect(rows[0].dump).not.toContain(key)
    expect(rows[0].dump).not.toContain(key.slice(11))
    expect(rows[0].dump).not.toContain(password)
    expect(rows[0].dump).toContain('$argon2id$')
  })

  it('never writes a key, a password or a session cookie to the logs', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const config = { ...t.config, LOG_LEVEL: 'trace' as const }
    const logged = Fastify(fastifyOptions(config, { ...serverOverrides, logStream: stream }))
    await logged.register(fp(app), { config })
    await logged.ready()
    try {
      const client = new DashboardClient(logged)
      const password = 'another particular passphrase 7'
      await client.get('/signup')
      await client.post('/signup', { email: uniqueEmail('logs'), password, plan: 'PRO' })
      const key = await client.createKey()
      await callData(logged, key)
      await callData(logged, key, { data: 'hello world', options: { feature: 'stats' } })
      await callData(logged, `${key}x`)
      await client.post('/dashboard/plan', { plan: 'FREE' })
      const all = lines.join('')
      expect(lines.length).toBeGreaterThan(5)
      expect(all).not.toContain(key)
      expect(all).not.toContain(key.slice(11, 30))
      expect(all).not.toContain(password)
      const session = client.sessionCookie as string
      expect(session.length).toBeGreaterThan(40)
      expect(all).not.toContain(decodeURIComponent(session).slice(0, 40))
    } finally {
      await logged.close()
    }
  })
})
