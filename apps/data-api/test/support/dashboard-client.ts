import type { FastifyInstance, LightMyRequestResponse } from 'fastify'

/**
 * A browser-like client for the dashboard over app.inject: keeps the session cookie, reads the
 * CSRF token from each page's forms, and posts forms as a browser does.
 */
export class DashboardClient {
  /** The cookies the server set (name → value), sent back as a browser would. */
  readonly cookies = new Map<string, string>()
  csrf = ''

  constructor(
    private readonly app: FastifyInstance,
    readonly remoteAddress = '127.0.0.1',
  ) {}

  /** The Cookie header this client sends. */
  get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  /** The session cookie as set (to copy it into another client). */
  get sessionCookie(): string | undefined {
    return this.cookies.get('__Host-session') ?? this.cookies.get('session')
  }

  private remember(res: LightMyRequestResponse) {
    const setCookie = res.headers['set-cookie']
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const pair = line.split(';', 1)[0] as string
      const at = pair.indexOf('=')
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)]
      const expired = /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(res.body)
    if (token) this.csrf = token[1] as string
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      url,
      remoteAddress: this.remoteAddress,
      headers: { accept: 'text/html', cookie: this.cookie },
    })
    this.remember(res)
    return res
  }

  async post(
    url: string,
    form: Record<string, string>,
    withToken = true,
  ): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams(withToken ? { _csrf: this.csrf, ...form } : form).toString()
    return this.postRaw(url, body)
  }

  /** Posts a form body exactly as given (hostile encodings included). */
  async postRaw(url: string, body: string): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.remoteAddress,
      headers: {
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookie,
      },
      payload: body,
    })
    this.remember(res)
    return res
  }

  async signUp(email: string, plan = 'FREE', password = 'correct horse battery staple') {
    await this.get('/signup')
    return this.post('/signup', { email, password, plan })
  }

  async logIn(email: string, password = 'correct horse battery staple') {
    await this.get('/login')
    return this.post('/login', { email, password })
  }

  /** Creates a key in the dashboard and returns it as the page shows it (once). */
  async createKey(name = 'test key', expires = 'never'): Promise<string> {
    await this.get('/dashboard')
    return shownKey(await this.post('/dashboard/keys', { name, expires }))
  }

  /** Rolls a key (grace: none, 1h, 24h) and returns the new key as the page shows it. */
  async roll(keyId: string, grace: string): Promise<string> {
    await this.get(`/dashboard/keys/${keyId}/roll`)
    return shownKey(await this.post(`/dashboard/keys/${keyId}/roll`, { grace }))
  }

  async rename(keyId: string, name: string) {
    await this.get(`/dashboard/keys/${keyId}/rename`)
    return this.post(`/dashboard/keys/${keyId}/rename`, { name })
  }

  async changePassword(current: string, password: string) {
    await this.get('/dashboard/account')
    return this.post('/dashboard/account/password', { current, password })
  }

  async changeEmail(email: string, password = 'correct horse battery staple') {
    await this.get('/dashboard/account')
    return this.post('/dashboard/account/email', { email, password })
  }

  async deleteAccount(confirm: string, password = 'correct horse battery staple') {
    await this.get('/dashboard/account/delete')
    return this.post('/dashboard/account/delete', { confirm, password })
  }

  async changePlan(plan: string) {
    await this.get('/dashboard')
    return this.post('/dashboard/plan', { plan })
  }

  async revoke(keyId: string) {
    await this.get(`/dashboard/keys/${keyId}/revoke`)
    return this.post(`/dashboard/keys/${keyId}/revoke`, {})
  }
}

/** The key a page shows once (after creation or a roll). */
export function shownKey(res: LightMyRequestResponse): string {
  const key = /id="new-key" type="text" readonly value="(sk_[0-9A-Za-z]+)"/.exec(res.body)?.[1]
  if (!key)
    throw new Error(`no key on the page (status ${res.statusCode}): ${res.body.slice(0, 500)}`)
  return key
}

let counter = 0
/** A unique e-mail address per call (tests share nothing). */
export function uniqueEmail(label = 'user'): string {
  counter += 1
  return `${label}-${process.pid}-${counter}-${Date.now()}@example.com`
}

/**
 * A client signed up to a new account (`label` names its e-mail) and on the dashboard, its CSRF
 * token read from there: ready to post the dashboard's forms.
 */
export async function onDashboard(
  app: FastifyInstance,
  label: string,
  plan = 'FREE',
): Promise<DashboardClient> {
  const client = new DashboardClient(app)
  await client.signUp(uniqueEmail(label), plan)
  await client.get('/dashboard')
  return client
}
