import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

// Sessions live in Postgres: ending one makes its cookie worthless, wherever it was copied.

let t: TestApp

beforeAll(async () => {
  // No SESSION_SECRET: the instance makes one and keeps it in Postgres.
  t = await createTestApp('sessions', {
    env: { SESSION_SECRET: '', AUTH_RATE_LIMIT_PER_ACCOUNT: '3' },
  })
})
afterAll(async () => {
  await t?.close()
})

/** A second browser holding a copy of `client`'s cookies. */
function copyOf(client: DashboardClient, app = t.app): DashboardClient {
  const copy = new DashboardClient(app)
  for (const [name, value] of client.cookies) copy.cookies.set(name, value)
  return copy
}

const signedIn = async (client: DashboardClient) =>
  (await client.get('/dashboard')).statusCode === 200

describe('sessions', () => {
  it('get a new id at log-in', async () => {
    const email = uniqueEmail('fixation')
    const client = new DashboardClient(t.app)
    await client.signUp(email)
    const before = client.sessionCookie
    await client.logIn(email)
    expect(client.sessionCookie).toBeDefined()
    expect(client.sessionCookie).not.toBe(before)
    // The session the client had before logging in again is over.
    const stale = new DashboardClient(t.app)
    stale.cookies.set('__Host-session', before as string)
    expect(await signedIn(stale)).toBe(false)
  })

  it('end for good at log-out: a copied cookie stops working', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('logout'))
    const copy = copyOf(client)
    expect(await signedIn(copy)).toBe(true)
    await client.get('/dashboard')
    await client.post('/logout', {})
    expect(await signedIn(copy)).toBe(false)
    expect(await signedIn(client)).toBe(false)
  })

  it('end everywhere else when the plan changes; this one goes on', async () => {
    const email = uniqueEmail('plan-change')
    const laptop = new DashboardClient(t.app)
    await laptop.signUp(email)
    const phone = new DashboardClient(t.app)
    await phone.logIn(email)
    expect(await signedIn(phone)).toBe(true)
    await laptop.changePlan('PRO')
    expect(await signedIn(phone)).toBe(false)
    expect(await signedIn(laptop)).toBe(true)
  })

  it('are kept as a hash: the database never holds the cookie', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('hashed'))
    const { rows } = await t.app.pg.query(
      "SELECT encode(id_hash, 'hex') AS id FROM sessions s JOIN users u ON u.id = s.user_id",
    )
    const token = decodeURIComponent(client.sessionCookie as string).split('.')[0] as string
    expect(rows.length).toBeGreaterThan(0)
    expect(JSON.stringify(rows)).not.toContain(token)
    expect(JSON.stringify(rows)).not.toContain(Buffer.from(token, 'base64url').toString('hex'))
  })
})

describe('cookies', () => {
  const onHost = (client: DashboardClient, host: string, extra: Record<string, string> = {}) =>
    t.app.inject({
      url: '/login',
      headers: { accept: 'text/html', host, cookie: client.cookie, ...extra },
    })

  it('are Secure, HttpOnly, SameSite=Lax and named __Host- on localhost and over HTTPS', async () => {
    const client = new DashboardClient(t.app)
    const res = await client.signUp(uniqueEmail('host-prefix'))
    const session = String(res.headers['set-cookie'])
      .split(/,(?=[^ ])/)
      .find((c) => c.includes('session='))
    expect(session).toMatch(/^__Host-session=/)
    expect(session).toMatch(/; Path=\//)
    expect(session).toMatch(/Secure/)
    expect(session).toMatch(/HttpOnly/)
    expect(session).toMatch(/SameSite=Lax/)
    expect(session).not.toMatch(/Domain=/i)
  })

  it('are plain on a LAN address over plain HTTP (COOKIE_SECURE=auto), with no warning', async () => {
    const page = await onHost(new DashboardClient(t.app), '192.168.1.20:3001')
    expect(page.statusCode).toBe(200)
    expect(String(page.headers['set-cookie'])).not.toMatch(/Secure/)
    expect(page.body).not.toContain('cookie-warning')
  })

  it('are Secure when a trusted proxy says the request came over HTTPS', async () => {
    const proxied = await createTestApp('sessions', {
      env: { TRUST_PROXY: '127.0.0.1' },
      shareWith: t,
    })
    try {
      const headers = { accept: 'text/html', host: 'api.example.org' }
      const https = await proxied.app.inject({
        url: '/login',
        headers: { ...headers, 'x-forwarded-proto': 'https' },
      })
      expect(String(https.headers['set-cookie'])).toMatch(/Secure/)
      const untrusted = await proxied.app.inject({
        url: '/login',
        remoteAddress: '203.0.113.5',
        headers: { ...headers, 'x-forwarded-proto': 'https' },
      })
      expect(String(untrusted.headers['set-cookie'])).not.toMatch(/Secure/)
    } finally {
      await proxied.close()
    }
  })

  it('say clearly when a Secure cookie cannot be set over plain HTTP (COOKIE_SECURE=always)', async () => {
    const strict = await createTestApp('sessions', {
      env: { COOKIE_SECURE: 'always' },
      shareWith: t,
    })
    try {
      const page = await strict.app.inject({
        url: '/login',
        headers: { accept: 'text/html', host: '192.168.1.20:3001' },
      })
      expect(page.body).toContain('id="cookie-warning"')
      expect(page.body).toContain('192.168.1.20')
      const local = await strict.app.inject({ url: '/login', headers: { accept: 'text/html' } })
      expect(local.body).not.toContain('cookie-warning')
    } finally {
      await strict.close()
    }
  })
})

describe('the session secret', () => {
  it('is made once, kept in Postgres and shared by replicas', async () => {
    const { rows } = await t.app.pg.query("SELECT value FROM app_secrets WHERE name = 'session'")
    expect(rows).toHaveLength(1)
    expect(rows[0].value.length).toBeGreaterThanOrEqual(48)
    const replica = await createTestApp('sessions', { env: { SESSION_SECRET: '' }, shareWith: t })
    try {
      const client = new DashboardClient(t.app)
      await client.signUp(uniqueEmail('shared-secret'))
      expect(await signedIn(copyOf(client, replica.app))).toBe(true)
    } finally {
      await replica.close()
    }
  })
})

describe('the log-in throttle', () => {
  it('counts attempts before hashing: parallel guesses cannot slip past it', async () => {
    const email = uniqueEmail('parallel')
    await new DashboardClient(t.app).signUp(email)
    const guessers = Array.from(
      { length: 10 },
      (_, i) => new DashboardClient(t.app, `198.51.100.${i + 1}`),
    )
    await Promise.all(guessers.map((g) => g.get('/login')))
    const statuses = await Promise.all(
      guessers.map(
        async (g) => (await g.post('/login', { email, password: 'a wrong guess here' })).statusCode,
      ),
    )
    expect(statuses.filter((s) => s === 401)).toHaveLength(3)
    expect(statuses.filter((s) => s === 429)).toHaveLength(7)
    // Even the right password waits for the window to pass.
    const owner = new DashboardClient(t.app, '203.0.113.99')
    const res = await owner.logIn(email)
    expect(res.statusCode).toBe(429)
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('folds e-mail case the same way everywhere', async () => {
    const email = uniqueEmail('Case.Folding').replace('@example.com', '@Example.COM')
    const client = new DashboardClient(t.app)
    expect((await client.signUp(`  ${email}  `)).statusCode).toBe(303)
    const { rows } = await t.app.pg.query('SELECT email FROM users WHERE email = $1', [
      email.toLowerCase(),
    ])
    expect(rows).toHaveLength(1)
    expect((await new DashboardClient(t.app).logIn(email.toUpperCase())).statusCode).toBe(303)
  })
})
