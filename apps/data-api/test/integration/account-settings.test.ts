import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callData } from '../support/api.js'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

// Account self-service: password, e-mail, deletion; the activity log. Two instances share the
// database and Redis, as replicas do.

const PASSWORD = 'correct horse battery staple'
const NEW_PASSWORD = 'marble kettle umbrella orbit'
let first: TestApp
let second: TestApp

beforeAll(async () => {
  first = await createTestApp('settings')
  second = await createTestApp('settings', { shareWith: first })
})
afterAll(async () => {
  await second?.close()
  await first?.close()
})

const signedIn = async (client: DashboardClient) =>
  (await client.get('/dashboard')).statusCode === 200

async function account(label: string) {
  const email = uniqueEmail(label)
  const laptop = new DashboardClient(first.app)
  await laptop.signUp(email)
  const phone = new DashboardClient(second.app)
  await phone.logIn(email)
  return { email, laptop, phone }
}

describe('changing the password', () => {
  it('needs the current password, ends every other session, and the new one works', async () => {
    const { email, laptop, phone } = await account('password')
    const wrong = await laptop.changePassword('not my password at all', NEW_PASSWORD)
    expect(wrong.statusCode).toBe(400)
    expect(wrong.body).toContain('id="password-error"')
    expect(await signedIn(phone)).toBe(true)

    const res = await laptop.changePassword(PASSWORD, NEW_PASSWORD)
    expect(res.statusCode).toBe(303)
    expect((await laptop.get('/dashboard/account')).body).toContain('1 other session ended')
    expect(await signedIn(laptop)).toBe(true)
    expect(await signedIn(phone)).toBe(false)
    expect((await new DashboardClient(second.app).logIn(email, PASSWORD)).statusCode).toBe(401)
    expect((await new DashboardClient(second.app).logIn(email, NEW_PASSWORD)).statusCode).toBe(303)
  })

  it("refuses a weak password with zxcvbn's feedback, changing nothing", async () => {
    const { email, laptop } = await account('weak')
    for (const [password, feedback] of [
      ['password1234', /commonly used password/],
      ['qwertyuiop12', /too weak/],
      [`${email.split('@')[0]}`, /too weak/],
      ['short', /at least 10/],
    ] as const) {
      const res = await laptop.changePassword(PASSWORD, password)
      expect(res.statusCode, password).toBe(400)
      expect(res.body, password).toMatch(feedback)
    }
    const page = await laptop.changePassword(PASSWORD, 'password1234')
    expect(page.body).toContain('id="password-suggestions"')
    expect((await new DashboardClient(first.app).logIn(email, PASSWORD)).statusCode).toBe(303)
  })

  it('refuses hostile fields with the form again', async () => {
    const { laptop } = await account('password-hostile')
    for (const body of ['current=a%00b&password=x', 'current=a&current=b', 'password=%zz']) {
      await laptop.get('/dashboard/account')
      const res = await laptop.postRaw(
        '/dashboard/account/password',
        `_csrf=${encodeURIComponent(laptop.csrf)}&${body}`,
      )
      expect(res.statusCode, body).toBe(400)
      expect(res.body).toContain('<form action="/dashboard/account/password"')
    }
  })

  it('counts wrong current passwords like failed log-ins (then 429)', async () => {
    const { laptop } = await account('password-guess')
    const statuses: number[] = []
    for (let i = 0; i < 11; i += 1) {
      statuses.push(
        (await laptop.changePassword(`guess number ${i} here`, NEW_PASSWORD)).statusCode,
      )
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400))
    expect(statuses[10]).toBe(429)
  })
})

describe('changing the e-mail address', () => {
  it('needs the password, answers 409 for a taken address, and ends other sessions', async () => {
    const { laptop, phone } = await account('email')
    const other = uniqueEmail('taken')
    await new DashboardClient(first.app).signUp(other)
    const key = await laptop.createKey()

    const noPassword = await laptop.changeEmail(uniqueEmail('new'), 'a wrong password here')
    expect(noPassword.statusCode).toBe(400)
    expect(noPassword.body).toContain('id="email-error"')

    const taken = await laptop.changeEmail(other.toUpperCase())
    expect(taken.statusCode).toBe(409)
    expect(taken.body).toContain('Another account already uses this address.')

    const invalid = await laptop.changeEmail('not-an-address')
    expect(invalid.statusCode).toBe(400)

    // Cached by the second instance before the change: it must show the new address at once.
    expect((await callData(second.app, key)).statusCode).toBe(200)
    const fresh = uniqueEmail('Fresh')
    expect((await laptop.changeEmail(`  ${fresh.toUpperCase()} `)).statusCode).toBe(303)
    expect((await callData(second.app, key)).json().user.email).toBe(fresh.toLowerCase())
    expect(await signedIn(phone)).toBe(false)
    expect((await new DashboardClient(first.app).logIn(fresh)).statusCode).toBe(303)
  })
})

describe('deleting the account', () => {
  it('needs the password and the typed address; then every key is refused everywhere and the data is gone', async () => {
    const { email, laptop, phone } = await account('delete')
    const keys = [await laptop.createKey('one'), await laptop.createKey('two')]
    for (const key of keys) {
      expect((await callData(first.app, key)).statusCode).toBe(200)
      expect((await callData(second.app, key)).statusCode).toBe(200)
    }
    const { user, key } = (await callData(first.app, keys[0] as string)).json()
    const userId = user.id as string
    const counters = () => first.app.redis.keys(`${first.redis.prefix}*{${key.id}}*`)
    expect(await counters()).not.toEqual([])

    expect((await laptop.deleteAccount('someone@else.example')).statusCode).toBe(400)
    expect((await laptop.deleteAccount(email, 'a wrong password here')).statusCode).toBe(400)
    expect((await callData(second.app, keys[0] as string)).statusCode).toBe(200)

    const done = await laptop.deleteAccount(email.toUpperCase())
    expect(done.statusCode).toBe(200)
    expect(done.body).toContain('Your account is deleted')
    for (const key of keys) {
      expect((await callData(first.app, key)).statusCode).toBe(401)
      expect((await callData(second.app, key)).statusCode).toBe(401)
    }
    expect(await signedIn(laptop)).toBe(false)
    expect(await signedIn(phone)).toBe(false)
    for (const table of ['users', 'api_keys', 'sessions', 'plan_changes', 'account_events']) {
      const column = table === 'users' ? 'id' : 'user_id'
      const { rows } = await first.app.pg.query(
        `SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`,
        [userId],
      )
      expect(rows[0].n, table).toBe(0)
    }
    expect(await counters()).toEqual([])
    // The address is free again.
    expect((await new DashboardClient(first.app).signUp(email)).statusCode).toBe(303)
  })
})

describe('the activity log', () => {
  it('lists sign-ins, failed sign-ins, keys, plan, password and e-mail changes, newest first', async () => {
    const { email, laptop } = await account('activity')
    await new DashboardClient(first.app).logIn(email, 'a wrong password here')
    const key = await laptop.createKey('logged')
    const keyId = (await callData(first.app, key)).json().key.id
    await laptop.rename(keyId, 'renamed')
    await laptop.roll(keyId, '1h')
    await laptop.revoke(keyId)
    await laptop.changePlan('PRO')
    await laptop.changePassword(PASSWORD, NEW_PASSWORD)
    await laptop.changeEmail(uniqueEmail('moved'), NEW_PASSWORD)

    const page = await laptop.get('/dashboard/activity')
    expect(page.statusCode).toBe(200)
    const kinds = [...page.body.matchAll(/data-kind="([a-z_]+)"/g)].map((m) => m[1])
    expect(kinds).toEqual([
      'email_changed',
      'password_changed',
      'plan_changed',
      'key_revoked',
      'key_rolled',
      'key_renamed',
      'key_created',
      'sign_in_failed',
      'signed_in',
      'account_created',
    ])
    expect(page.body).toContain('127.0.0.1')
    expect(page.body).toContain('Plan changed from FREE to PRO')
    // Nothing secret: no key, no password.
    const { rows } = await first.app.pg.query(
      'SELECT detail::text AS detail FROM account_events e JOIN users u ON u.id = e.user_id WHERE u.id = (SELECT user_id FROM api_keys WHERE id = $1)',
      [keyId],
    )
    const all = rows.map((r) => r.detail).join('\n')
    expect(all).not.toContain(key)
    expect(all).not.toContain(PASSWORD)
    expect(all).not.toContain(NEW_PASSWORD)
  })

  it('pages 25 events at a time and refuses a bad page', async () => {
    const { email, laptop } = await account('paging')
    const user = await first.app.accounts.findByEmail(email)
    // 2 events so far (created, signed in on the phone) and 24 more.
    for (let i = 0; i < 24; i += 1) {
      await first.app.accountEvents.record(user?.id as string, 'signed_in', `10.0.0.${i}`)
    }
    const first25 = await laptop.get('/dashboard/activity')
    expect(first25.body.match(/<tr data-kind=/g)).toHaveLength(25)
    expect(first25.body).toContain('rel="next"')
    const older = await laptop.get('/dashboard/activity?page=2')
    expect(older.body).toContain('rel="prev"')
    expect(older.body.match(/<tr data-kind=/g)).toHaveLength(1)
    expect(older.body).toContain('data-kind="account_created"')
    expect(older.body).not.toContain('rel="next"')
    for (const page of ['0', '-1', 'x', '1.5', '1&page=2', '%zz']) {
      expect((await laptop.get(`/dashboard/activity?page=${page}`)).statusCode, page).toBe(400)
    }
  })

  it('records failed sign-ins only against an existing account', async () => {
    const before = (await first.app.pg.query('SELECT count(*)::int AS n FROM account_events'))
      .rows[0].n
    await new DashboardClient(first.app).logIn(uniqueEmail('nobody'), 'a wrong password here')
    const after = (await first.app.pg.query('SELECT count(*)::int AS n FROM account_events'))
      .rows[0].n
    expect(after).toBe(before)
  })
})
