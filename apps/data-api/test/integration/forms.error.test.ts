import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.js'
import { createTestApp, type TestApp } from '../support/test-app.js'

// Hostile form bodies get a 400 with the form shown again and a message; nothing is stored.

let t: TestApp

beforeAll(async () => {
  t = await createTestApp('forms')
})
afterAll(async () => {
  await t?.close()
})

const count = async (table: string) =>
  (await t.app.pg.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number

const password = 'correct+horse+battery+staple'

describe('the sign-up and log-in forms', () => {
  it.each([
    [
      'a NUL byte in the e-mail',
      `email=a%00b%40example.com&password=${password}`,
      /control characters/,
    ],
    [
      'a line break in the e-mail',
      `email=a%0A%40example.com&password=${password}`,
      /control characters/,
    ],
    [
      'a repeated e-mail',
      `email=a%40example.com&email=b%40example.com&password=${password}`,
      /once/,
    ],
    [
      'malformed percent-encoding',
      `email=a%zz%40example.com&password=${password}`,
      /percent-encoding/,
    ],
    [
      'an encoded lone surrogate',
      `email=%ED%A0%80%40example.com&password=${password}`,
      /percent-encoding/,
    ],
    [
      'an over-long e-mail',
      `email=${'a'.repeat(300)}%40example.com&password=${password}`,
      /too long/,
    ],
    ['a NUL byte in the password', `email=a%40example.com&password=bad%00password1`, /control/],
    ['a repeated plan', `email=a%40example.com&password=${password}&plan=FREE&plan=PRO`, /once/],
  ])('sign-up refuses %s', async (_label, body, message) => {
    const before = await count('users')
    const client = new DashboardClient(t.app)
    await client.get('/signup')
    const res = await client.postRaw('/signup', `_csrf=${encodeURIComponent(client.csrf)}&${body}`)
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toContain('text/html')
    expect(res.body).toContain('<form action="/signup"')
    expect(res.body).toMatch(message)
    expect(await count('users')).toBe(before)
  })

  it('log-in refuses a NUL byte with the form again, not an error', async () => {
    const client = new DashboardClient(t.app)
    await client.get('/login')
    const res = await client.postRaw(
      '/login',
      `_csrf=${encodeURIComponent(client.csrf)}&email=a%00%40example.com&password=${password}`,
    )
    expect(res.statusCode).toBe(400)
    expect(res.body).toContain('<form action="/login"')
    expect(res.body).toMatch(/control characters/)
  })
})

describe('the dashboard forms', () => {
  it.each([
    ['a NUL byte in a key name', 'name=a%00b', /control characters/],
    ['a repeated key name', 'name=a&name=b', /once/],
    ['malformed percent-encoding', 'name=%E0%A4%A', /percent-encoding/],
    ['an over-long key name', `name=${'k'.repeat(1001)}`, /too long/],
    ['an empty key name', 'name=+++', /name of 1 to 100 characters/],
  ])('key creation refuses %s', async (_label, body, message) => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('keyform'))
    await client.get('/dashboard')
    const before = await count('api_keys')
    const res = await client.postRaw(
      '/dashboard/keys',
      `_csrf=${encodeURIComponent(client.csrf)}&${body}`,
    )
    expect(res.statusCode).toBe(400)
    expect(res.body).toContain('<form action="/dashboard/keys"')
    expect(res.body).toMatch(message)
    expect(await count('api_keys')).toBe(before)
  })

  it('the plan form refuses a repeated plan, changing nothing', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('planform'))
    await client.get('/dashboard')
    const res = await client.postRaw(
      '/dashboard/plan',
      `_csrf=${encodeURIComponent(client.csrf)}&plan=PRO&plan=ENTERPRISE`,
    )
    expect(res.statusCode).toBe(400)
    expect(res.body).toContain('<strong id="current-plan">FREE</strong>')
  })

  it('a form body too large is a 413, never a 500', async () => {
    const client = new DashboardClient(t.app)
    await client.signUp(uniqueEmail('bigform'))
    await client.get('/dashboard')
    const res = await client.postRaw('/dashboard/keys', `name=${'x'.repeat(20_000)}`)
    expect(res.statusCode).toBe(413)
  })
})
