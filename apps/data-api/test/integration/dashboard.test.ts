import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callData } from '../support/api.js'
import { DashboardClient, onDashboard, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('dashboard', {
    env: { MAX_ACTIVE_KEYS: '3', AUTH_RATE_LIMIT_PER_ACCOUNT: '4' },
  })
})
afterAll(async () => {
  await t?.close()
})

async function userCount(): Promise<number> {
  const { rows } = await t.app.pg.query('SELECT count(*)::int AS n FROM users')
  return rows[0].n
}

describe('sign-up', () => {
  it('creates the account with the chosen plan and signs in', async () => {
    const client = new DashboardClient(t.app)
    const res = await client.signUp(uniqueEmail('new'), 'PRO')
    expect(res.statusCode).toBe(303)
    expect(res.headers.location).toBe('/dashboard')
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Secure/i)
    const page = await client.get('/dashboard')
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<strong id="current-plan">PRO</strong>')
    expect(page.headers['cache-control']).toBe('no-store')
  })

  it.each([
    ['a malformed e-mail', 'not-an-email', 'correct horse battery staple', 400, /valid e-mail/],
    ['a short password', 'short@example.com', 'short', 400, /too weak/],
    ['a common password', 'common@example.com', 'password123', 400, /commonly used password/],
    ['a password built from the e-mail', 'jsmithers@example.com', 'jsmithers2024', 400, /too weak/],
    ['a keyboard walk', 'walk@example.com', 'qwertyuiop1', 400, /too weak/],
  ])(
    'refuses %s with a clear message and changes nothing',
    async (_l, email, password, status, message) => {
      const before = await userCount()
      const client = new DashboardClient(t.app)
      await client.get('/signup')
      const res = await client.post('/signup', { email, password, plan: 'FREE' })
      expect(res.statusCode).toBe(status)
      expect(res.body).toMatch(message)
      expect(await userCount()).toBe(before)
    },
  )

  it('refuses a taken e-mail, whatever its case', async () => {
    const email = uniqueEmail('taken')
    await new DashboardClient(t.app).signUp(email)
    const before = await userCount()
    const res = await new DashboardClient(t.app).signUp(email.toUpperCase())
    expect(res.statusCode).toBe(409)
    expect(res.body).toContain('already exists')
    expect(await userCount()).toBe(before)
  })

  it('refuses an unknown plan', async () => {
    const client = new DashboardClient(t.app)
    await client.get('/signup')
    const res = await client.post('/signup', {
      email: uniqueEmail('plan'),
      password: 'correct horse battery staple',
      plan: 'GOLD',
    })
    expect(res.statusCode).toBe(400)
  })
})

describe('log-in and log-out', () => {
  it('signs in with the right password only', async () => {
    const email = uniqueEmail('login')
    await new DashboardClient(t.app).signUp(email)
    const wrong = await new DashboardClient(t.app).logIn(email, 'wrong password here')
    expect(wrong.statusCode).toBe(401)
    expect(wrong.body).toContain('Wrong e-mail or password.')
    const unknown = await new DashboardClient(t.app).logIn(uniqueEmail('nobody'))
    expect(unknown.statusCode).toBe(401)
    const client = new DashboardClient(t.app)
    const right = await client.logIn(email)
    expect(right.statusCode).toBe(303)
    expect((await client.get('/dashboard')).statusCode).toBe(200)
    const out = await client.post('/logout', {})
    expect(out.statusCode).toBe(303)
    const after = await client.get('/dashboard')
    expect(after.statusCode).toBe(303)
    expect(after.headers.location).toBe('/login')
  })

  it('sends visitors without a session to the log-in page', async () => {
    const res = await t.app.inject({ url: '/dashboard', headers: { accept: 'text/html' } })
    expect(res.statusCode).toBe(303)
    expect(res.headers.location).toBe('/login')
  })

  it('throttles log-in attempts per account', async () => {
    const email = uniqueEmail('throttle')
    await new DashboardClient(t.app).signUp(email)
    const statuses: number[] = []
    for (let i = 0; i < 5; i += 1) {
      // A different address each time: the per-account limit must still hold.
      const client = new DashboardClient(t.app, `198.51.100.${i + 1}`)
      statuses.push((await client.logIn(email, 'wrong password here')).statusCode)
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429])
  })
})

describe('API keys in the dashboard', () => {
  it('shows a new key exactly once, then only its prefix', async () => {
    const client = await onDashboard(t.app, 'keys')
    const created = await client.post('/dashboard/keys', { name: 'ci' })
    expect(created.statusCode).toBe(200)
    expect(created.headers['cache-control']).toBe('no-store')
    const key = /value="(sk_[0-9A-Za-z]{38})"/.exec(created.body)?.[1] as string
    expect(key).toBeDefined()
    expect(created.body).toContain('only time it is shown')
    expect(created.body).toContain('data-copy="new-key"')
    const dashboard = await client.get('/dashboard')
    expect(dashboard.body).not.toContain(key)
    expect(dashboard.body).toContain(`${key.slice(0, 11)}…`)
  })

  it('lists each key with its creation, last use and today’s usage', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('usage'))
    const key = await client.createKey('usage key')
    for (let i = 0; i < 3; i += 1) await callData(t.app, key)
    const page = await client.get('/dashboard')
    expect(page.body).toMatch(/<td class="usage">3 \/ 1,000<\/td>/)
    expect(page.body).toContain('usage key')
  })

  it('caps active keys and says so', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('cap'))
    for (let i = 0; i < 3; i += 1) await client.createKey(`k${i}`)
    const res = await client.post('/dashboard/keys', { name: 'one too many' })
    expect(res.statusCode).toBe(409)
    expect(res.body).toContain('already have 3 active keys')
  })

  it('refuses an empty key name', async () => {
    const client = await onDashboard(t.app, 'noname')
    const res = await client.post('/dashboard/keys', { name: '   ' })
    expect(res.statusCode).toBe(400)
  })

  it('revokes after a confirmation page', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('revoke'))
    const key = await client.createKey('doomed')
    const id = (await callData(t.app, key)).json().key.id
    const confirm = await client.get(`/dashboard/keys/${id}/revoke`)
    expect(confirm.statusCode).toBe(200)
    expect(confirm.body).toContain('Revoke “doomed”?')
    const res = await client.post(`/dashboard/keys/${id}/revoke`, {})
    expect(res.statusCode).toBe(303)
    expect((await callData(t.app, key)).statusCode).toBe(401)
    const page = await client.get('/dashboard')
    expect(page.body).toContain('is revoked')
  })
})
