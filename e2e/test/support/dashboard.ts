import { randomBytes } from 'node:crypto'
import { type Answer, http } from './client.js'
import { DATA_API_URL } from './env.js'

/** The password every e2e account uses: long, and on no list of common passwords. */
export const PASSWORD = 'e2e correct horse battery staple'

/** A fresh e-mail address per call, unique across runs and concurrent runs. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${randomBytes(6).toString('hex')}@example.com`
}

/**
 * A browser over fetch, for the data-api dashboard: a tiny cookie jar (name → value; cookies
 * removed by Max-Age=0 or a past Expires are dropped; Secure is ignored, as the stack under test
 * may be plain http) and the CSRF token of the last page that had a form.
 */
export class DashboardBrowser {
  readonly cookies = new Map<string, string>()
  csrf = ''

  constructor(readonly baseUrl = DATA_API_URL) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  private remember(res: Answer): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';')
      const eq = pair.indexOf('=')
      if (eq <= 0) continue
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const expired = attributes.some((attribute) => {
        const [key = '', v = ''] = attribute.split('=').map((s) => s.trim())
        if (key.toLowerCase() === 'max-age') return Number(v) <= 0
        if (key.toLowerCase() === 'expires') return Date.parse(v) <= Date.now()
        return false
      })
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(res.text)?.[1]
    if (token) this.csrf = token
  }

  async get(path: string): Promise<Answer> {
    const res = await http(`${this.baseUrl}${path}`, {
      headers: { accept: 'text/html', cookie: this.cookieHeader() },
    })
    this.remember(res)
    return res
  }

  /** Posts a form as a browser does, with the current CSRF token unless told otherwise. */
  async post(path: string, form: Record<string, string>, withToken = true): Promise<Answer> {
    const fields = withToken ? { _csrf: this.csrf, ...form } : form
    const res = await http(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(),
      },
      body: new URLSearchParams(fields).toString(),
    })
    this.remember(res)
    return res
  }

  /** GET /signup (session + token), then POST it: a 303 to /dashboard when it worked. */
  async signUp(email: string, plan: 'FREE' | 'PRO' | 'ENTERPRISE'): Promise<Answer> {
    await this.get('/signup')
    const res = await this.post('/signup', { email, password: PASSWORD, plan })
    if (res.status !== 303) {
      throw new Error(`sign-up of ${email} answered ${res.status}: ${res.text.slice(0, 500)}`)
    }
    return res
  }

  /** Creates a key on the dashboard; returns the page and the key it shows (once). */
  async createKey(name: string): Promise<{ page: Answer; key: string }> {
    await this.get('/dashboard')
    const page = await this.post('/dashboard/keys', { name })
    const key = /<input id="new-key" type="text" readonly value="(sk_[0-9A-Za-z]+)"/.exec(
      page.text,
    )?.[1]
    if (page.status !== 200 || !key) {
      throw new Error(`no new key on the page (status ${page.status}): ${page.text.slice(0, 500)}`)
    }
    return { page, key }
  }

  async changePlan(plan: string): Promise<Answer> {
    await this.get('/dashboard')
    return this.post('/dashboard/plan', { plan })
  }

  /** The confirmation page, then the confirming POST. */
  async revoke(keyId: string): Promise<{ confirm: Answer; done: Answer }> {
    const confirm = await this.get(`/dashboard/keys/${keyId}/revoke`)
    const done = await this.post(`/dashboard/keys/${keyId}/revoke`, {})
    return { confirm, done }
  }
}
