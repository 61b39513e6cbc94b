import { describe, expect, it } from 'vitest'
import { isWellFormedKey } from './support/api-keys.js'
import { DashboardBrowser, PASSWORD, uniqueEmail } from './support/dashboard.js'
import { callData } from './support/data-api.js'
import { DATA_API_URL } from './support/env.js'
import { expectProblem, http } from './support/http.js'

// The session cookie's name: on http://localhost and loopback addresses data-api sets a Secure
// `__Host-session` (browsers keep Secure cookies there); on plain HTTP elsewhere, `session`.
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i
const SESSION = LOOPBACK.test(new URL(DATA_API_URL).hostname) ? '__Host-session' : 'session'

// One account for the whole journey (sign-ups are throttled per address): the steps run in order.
const browser = new DashboardBrowser()
const email = uniqueEmail('journey')
let key = ''

describe('the dashboard journey over HTTP', () => {
  it('sends a visitor without a session to the log-in page', async () => {
    const res = await http(`${DATA_API_URL}/dashboard`, { headers: { accept: 'text/html' } })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/login')
  })

  it('shows the sign-up form with a CSRF token and the three plans', async () => {
    const page = await browser.get('/signup')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.text).toMatch(/<input type="hidden" name="_csrf" value="[^"]+">/)
    for (const plan of ['FREE', 'PRO', 'ENTERPRISE']) expect(page.text).toContain(`"${plan}"`)
    // The form's CSRF secret is a cookie; a session starts only at sign-up or log-in (a new id).
    expect(browser.cookies.has('_csrf')).toBe(true)
    expect(browser.cookies.has(SESSION)).toBe(false)
  })

  it('refuses a form without its CSRF token', async () => {
    const other = new DashboardBrowser()
    await other.get('/signup')
    const res = await other.post(
      '/signup',
      { email: uniqueEmail('nocsrf'), password: PASSWORD, plan: 'FREE' },
      false,
    )
    expect(res.status).toBe(403)
  })

  it('signs up choosing PRO and lands on the dashboard', async () => {
    const res = await browser.post('/signup', { email, password: PASSWORD, plan: 'PRO' })
    expect(res.status, res.text.slice(0, 300)).toBe(303)
    expect(res.headers.get('location')).toBe('/dashboard')
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith(`${SESSION}=`))
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    const dashboard = await browser.get('/dashboard')
    expect(dashboard.status).toBe(200)
    expect(dashboard.headers.get('cache-control')).toBe('no-store')
    expect(dashboard.text).toContain('<strong id="current-plan">PRO</strong>')
    expect(dashboard.text).toContain('No keys yet.')
  })

  it('creates a key and shows it, this once, with a copy button', async () => {
    await browser.get('/dashboard')
    const page = await browser.post('/dashboard/keys', { name: 'e2e laptop' })
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('no-store')
    key =
      /<input id="new-key" type="text" readonly value="(sk_[0-9A-Za-z]+)"/.exec(page.text)?.[1] ??
      ''
    expect(key).toMatch(/^sk_[0-9A-Za-z]{38}$/)
    expect(isWellFormedKey(key)).toBe(true)
    expect(page.text).toContain('data-copy="new-key"')
    expect(page.text).toContain('only time it is shown')
  })

  it('never shows the key again: the dashboard lists only its 11-character prefix', async () => {
    const dashboard = await browser.get('/dashboard')
    expect(dashboard.status).toBe(200)
    expect(dashboard.text).not.toContain(key)
    expect(dashboard.text).not.toContain(key.slice(0, 12))
    expect(dashboard.text).toContain(`<code>${key.slice(0, 11)}…</code>`)
    expect(dashboard.text).toContain('e2e laptop')
  })

  it('the key works against the API, for this account', async () => {
    const res = await callData(key)
    expect(res.status).toBe(200)
    expect(res.json()).toMatchObject({
      user: { email, plan: 'PRO' },
      key: { name: 'e2e laptop', prefix: key.slice(0, 11) },
    })
  })

  it('shows today’s usage of the key', async () => {
    const dashboard = await browser.get('/dashboard')
    expect(dashboard.text).toMatch(/<td class="usage">1 \/ 10,000<\/td>/)
  })

  it('answers 404 for a key that is not this account’s', async () => {
    const res = await browser.get('/dashboard/keys/00000000-0000-4000-8000-000000000000/revoke')
    expect(res.status).toBe(404)
  })

  it('refuses a dashboard form without a valid CSRF token', async () => {
    const res = await http(`${DATA_API_URL}/dashboard/keys`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        // The browser's cookies (session and CSRF secret), but a forged token.
        cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
      body: new URLSearchParams({ name: 'forged', _csrf: 'forged-token' }).toString(),
    })
    expectProblem(res, 403, 'FORBIDDEN')
  })

  it('logs out, then logs in again with the password', async () => {
    await browser.get('/dashboard')
    const out = await browser.post('/logout', {})
    expect(out.status).toBe(303)
    const after = await browser.get('/dashboard')
    expect(after.status).toBe(303)
    expect(after.headers.get('location')).toBe('/login')

    await browser.get('/login')
    const login = await browser.post('/login', { email, password: PASSWORD })
    expect(login.status).toBe(303)
    const dashboard = await browser.get('/dashboard')
    expect(dashboard.status).toBe(200)
    expect(dashboard.text).toContain(`<code>${key.slice(0, 11)}…</code>`)
    expect(dashboard.text).not.toContain(key)
  })
})
