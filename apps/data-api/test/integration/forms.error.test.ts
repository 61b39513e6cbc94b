import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardClient, onDashboard, uniqueEmail } from '../support/dashboard-client.js'
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
    const client = await onDashboard(t.app, 'keyform')
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
    const client = await onDashboard(t.app, 'planform')
    const res = await client.postRaw(
      '/dashboard/plan',
      `_csrf=${encodeURIComponent(client.csrf)}&plan=PRO&plan=ENTERPRISE`,
    )
    expect(res.statusCode).toBe(400)
    expect(res.body).toContain('<strong id="current-plan">FREE</strong>')
  })

  it('a form body too large is a 413, never a 500', async () => {
    const client = await onDashboard(t.app, 'bigform')
    const res = await client.postRaw('/dashboard/keys', `name=${'x'.repeat(20_000)}`)
    expect(res.statusCode).toBe(413)
  })
})

// Sign-ups are limited per address: each test of these signs up from one of its own.
let addresses = 0
const nextAddress = () => `10.0.7.${++addresses}`

describe('the key and account forms', () => {
  it.each([
    ['/dashboard/keys', 'name=k&expires=7&expires=30', /once/, '<form action="/dashboard/keys"'],
    [
      '/dashboard/keys',
      'name=k&expires=%00',
      /control characters/,
      '<form action="/dashboard/keys"',
    ],
    [
      '/dashboard/account/email',
      'email=a%00%40example.com&password=x',
      /control characters/,
      '<form action="/dashboard/account/email"',
    ],
    [
      '/dashboard/account/email',
      'email=a%40example.com&email=b%40example.com',
      /once/,
      '<form action="/dashboard/account/email"',
    ],
    [
      '/dashboard/account/delete',
      'confirm=%zz&password=x',
      /percent-encoding/,
      '<form action="/dashboard/account/delete"',
    ],
    [
      '/dashboard/account/delete',
      `confirm=${'c'.repeat(300)}`,
      /too long/,
      '<form action="/dashboard/account/delete"',
    ],
  ])('%s refuses %s with the form again, changing nothing', async (url, body, message, form) => {
    const client = new DashboardClient(t.app, nextAddress())
    const email = uniqueEmail('accountform')
    await client.signUp(email)
    await client.get('/dashboard')
    const [keys, users] = [await count('api_keys'), await count('users')]
    const res = await client.postRaw(url, `_csrf=${encodeURIComponent(client.csrf)}&${body}`)
    expect(res.statusCode).toBe(400)
    expect(res.body).toContain(form)
    expect(res.body).toMatch(message)
    expect([await count('api_keys'), await count('users')]).toEqual([keys, users])
    expect((await client.get('/dashboard')).statusCode).toBe(200)
    expect((await t.app.accounts.findByEmail(email))?.email).toBe(email)
  })

  it.each([
    ['rename', 'name=a&name=b', /once/],
    ['roll', 'grace=1h&grace=24h', /once/],
    ['roll', 'grace=%ED%A0%80', /percent-encoding/],
  ])('the %s form refuses %s, the key unchanged', async (action, body, message) => {
    const client = new DashboardClient(t.app, nextAddress())
    await client.signUp(uniqueEmail('keyaction'))
    await client.createKey('unchanged')
    const id = /data-key-id="([0-9a-f-]+)"/.exec((await client.get('/dashboard')).body)?.[1]
    await client.get(`/dashboard/keys/${id}/${action}`)
    const res = await client.postRaw(
      `/dashboard/keys/${id}/${action}`,
      `_csrf=${encodeURIComponent(client.csrf)}&${body}`,
    )
    expect(res.statusCode).toBe(400)
    expect(res.body).toContain(`<form action="/dashboard/keys/${id}/${action}"`)
    expect(res.body).toMatch(message)
    const { rows } = await t.app.pg.query(
      'SELECT name, expires_at, rolled_to FROM api_keys WHERE id = $1',
      [id],
    )
    expect(rows).toEqual([{ name: 'unchanged', expires_at: null, rolled_to: null }])
  })
})
