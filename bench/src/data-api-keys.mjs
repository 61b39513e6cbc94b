// Creates benchmark API keys the way a person does: sign up in the dashboard (CSRF token and
// session cookie included) and create keys there. A run sends more requests than one key's
// daily quota (100,000 on ENTERPRISE), so it spreads them over several keys of several users.

const csrfOf = (html) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1]

async function session(url) {
  // Every cookie the dashboard sets (the session, the CSRF secret), by name, as a browser would.
  const jar = new Map()
  const cookies = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
  const remember = (res) => {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0]
      const at = pair.indexOf('=')
      jar.set(pair.slice(0, at), pair.slice(at + 1))
    }
  }
  const page = async (path) => {
    const res = await fetch(`${url}${path}`, { headers: { cookie: cookies() } })
    remember(res)
    const html = await res.text()
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`)
    return csrfOf(html)
  }
  const post = async (path, form) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookies(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    })
    remember(res)
    return { status: res.status, html: await res.text() }
  }
  return { page, post }
}

/** `users` ENTERPRISE accounts with `perUser` keys each; resolves to the keys. */
export async function createBenchKeys(url, { users = 2, perUser = 10 } = {}) {
  const keys = []
  for (let u = 0; u < users; u += 1) {
    const browser = await session(url)
    const email = `bench-${Date.now()}-${u}@example.com`
    const signup = await browser.post('/signup', {
      _csrf: await browser.page('/signup'),
      email,
      password: 'benchmark password 1234',
      plan: 'ENTERPRISE',
    })
    if (signup.status !== 303) throw new Error(`sign-up answered ${signup.status}`)
    for (let k = 0; k < perUser; k += 1) {
      const created = await browser.post('/dashboard/keys', {
        _csrf: await browser.page('/dashboard'),
        name: `bench ${k}`,
      })
      const key = /id="new-key" type="text" readonly value="(sk_[0-9A-Za-z]+)"/.exec(
        created.html,
      )?.[1]
      if (!key) throw new Error(`key creation answered ${created.status}`)
      keys.push(key)
    }
  }
  return keys
}
